/**
 * The resource plugin from a Python program (examples/python), through the real CLI and
 * the Python language host, on the generated SDK (sdks/python, which the npm package
 * ships, installed with pip into the venv as the example's requirements.txt does): the demo's kinds of resources deploy, a second `up`
 * writes nothing, an out-of-band edit shows in `preview --refresh`, a rename is a
 * replacement with its permissions written again, an invalid field fails the preview
 * with its path, a CommandSet deploys (and, `packed=True`, becomes one resource writing
 * nothing), and `destroy` keeps the commands the stack does not manage.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { installPythonSdk } from "../../scripts/pulumiProgram";
import { PYTHON_VENV } from "../../scripts/toolchain";
import { IDS } from "./lifecycle.helpers";
import type { PluginExample } from "./pluginLanguages.helpers";
import { edit, startPluginExample } from "./pluginLanguages.helpers";

jest.setTimeout(300_000);

let ex: PluginExample;

beforeAll(async () => {
  installPythonSdk();
  ex = await startPluginExample("python", (files) => ({
    ...files,
    // Setup's venv instead of the example's own (which `pip install -r requirements.txt` fills).
    "Pulumi.yaml": edit(files["Pulumi.yaml"], "virtualenv: venv", `virtualenv: ${PYTHON_VENV}`),
  }));
});

afterAll(async () => {
  await ex?.close();
});

test("up deploys the example's set; a second up writes nothing", async () => {
  await ex.prog.up();
  const kick = ex.liveNamed("kick");
  expect(kick).toMatchObject({
    guild_id: IDS.guild,
    default_member_permissions: "2",
    options: [{ type: 6, name: "member", description: "Who", required: true }],
  });
  expect(ex.liveNamed("ping")).toMatchObject({
    name_localizations: { fr: "latence" },
    description_localizations: { fr: "Vérifier le bot" },
  });
  expect(ex.livePermissions(kick?.["id"])).toEqual([{ id: IDS.role, type: 1, permission: true }]);
  expect(await ex.prog.outputs()).toEqual({
    pingId: ex.liveNamed("ping")?.["id"],
    kickId: kick?.["id"],
  });

  ex.emu.control.resetLog();
  const again = await ex.prog.up();
  expect(again.stdout).toMatch(/4 unchanged/);
  expect(ex.writes()).toEqual([]);
});

test("drift shows in preview --refresh; a rename is a replacement with its permissions", async () => {
  const ping = ex.liveNamed("ping");
  await ex.api.call("PATCH", `/__emulator/commands/${String(ping?.["id"])}`, {
    body: { description: "Changed by hand" },
  });
  const preview = await ex.prog.ok(["preview", "--refresh", "--non-interactive", "--diff"]);
  expect(preview.stdout).toMatch(/~ description\s*: "Changed by hand" => "Check the bot"/);

  const before = ex.liveNamed("kick");
  ex.prog.write({ "__main__.py": edit(ex.files["__main__.py"], 'name="kick"', 'name="remove"') });
  const plan = await ex.prog.ok(["preview", "--non-interactive"]);
  expect(plan.stdout).toMatch(/\+-\s+discord-commands:index:GuildCommand\s+kick\s+replace/);
  await ex.prog.up(["--refresh"]);
  expect(ex.liveNamed("ping")?.["description"]).toBe("Check the bot");
  const after = ex.liveNamed("remove");
  expect(ex.liveNamed("kick")).toBeUndefined();
  expect(after?.["id"]).not.toBe(before?.["id"]);
  expect(ex.livePermissions(after?.["id"])).toEqual([{ id: IDS.role, type: 1, permission: true }]);
});

test("an invalid field fails the preview with its path, before any write", async () => {
  ex.prog.write({
    "__main__.py": `${ex.files["__main__.py"] ?? ""}
discord.GlobalCommand(
    "broken",
    name="broken",
    description="Has a bad option",
    options=[discord.CommandOptionArgs(type=discord.OptionType.STRING, name="Bad Name", description="x")],
)
`,
  });
  ex.emu.control.resetLog();
  const res = await ex.prog.run(["preview", "--non-interactive"]);
  expect(res.code).not.toBe(0);
  expect(res.stdout + res.stderr).toMatch(
    /GlobalCommand resource 'broken' has a problem: options\[0\]\.name: /,
  );
  expect(ex.writes()).toEqual([]);
});

test("the program registers as many resources at once as the engine has slots", async () => {
  // Each registration holds one of the event loop's executor threads until the engine
  // answers; Python's default executor (6 threads on 2 cores) held bulk batches under the
  // engine's 8 slots. Pulumi's own exec script (which setup copies beside the host from the
  // sdk module of the CLI's release) sizes it to 4 threads per slot.
  ex.prog.write({
    "__main__.py": `${edit(ex.files["__main__.py"], 'name="kick"', 'name="remove"')}
import asyncio
pulumi.export("registrationThreads", asyncio.get_event_loop()._default_executor._max_workers)
`,
  });
  ex.emu.control.resetLog();
  await ex.prog.up(["--parallel", "3"]);
  expect((await ex.prog.outputs())["registrationThreads"]).toBe(12);
  expect(ex.writes()).toEqual([]);
});

test("a CommandSet from Python: one declaration to the guild and the global scope, permissions by name", async () => {
  // On top of the program as the rename test left it (so only the set's writes happen here).
  const renamed = edit(ex.files["__main__.py"], 'name="kick"', 'name="remove"');
  ex.prog.write({
    "__main__.py": `${renamed}
discord.CommandSet(
    "utility",
    commands=[
        discord.CommandDefinitionArgs(name="help", description="How to use the bot"),
        discord.CommandDefinitionArgs(name="about", description="About the bot", contexts=[0]),
    ],
    scopes=[discord.CommandSetScopeArgs(guild_id=guild_id), discord.CommandSetScopeArgs()],
    permissions=[
        discord.CommandSetPermissionsArgs(
            guild_id=guild_id,
            command="help",
            permissions=[
                discord.PermissionOverwriteArgs(
                    id=moderator_role_id, type=discord.PermissionType.ROLE, permission=True
                )
            ],
        )
    ],
)
`,
  });
  ex.emu.control.resetLog();
  await ex.prog.up();
  const named = (name: string) => ex.emu.control.commands().filter((c) => c["name"] === name);
  expect(
    named("help")
      .map((c) => c["guild_id"] ?? "global")
      .sort(),
  ).toEqual([IDS.guild, "global"].sort());
  expect(named("about").find((c) => c["guild_id"] === undefined)?.["contexts"]).toEqual([0]);
  const guildHelp = named("help").find((c) => c["guild_id"] === IDS.guild);
  expect(ex.livePermissions(guildHelp?.["id"])).toEqual([
    { id: IDS.role, type: 1, permission: true },
  ]);
  // One bulk overwrite per scope, and the permissions.
  expect(
    ex
      .writes()
      .map((w) => w.route)
      .sort(),
  ).toEqual(
    ["bulkOverwriteGlobalCommands", "bulkOverwriteGuildCommands", "editCommandPermissions"].sort(),
  );
  ex.emu.control.resetLog();
  await ex.prog.up();
  expect(ex.writes()).toEqual([]);
});

test("the same set packed (packed=True): one CommandSetScopes takes its scopes over, writing nothing", async () => {
  const program = fs.readFileSync(path.join(ex.prog.dir, "__main__.py"), "utf8");
  const scopes =
    "scopes=[discord.CommandSetScopeArgs(guild_id=guild_id), discord.CommandSetScopeArgs()],";
  expect(program).toContain(scopes);
  ex.prog.write({ "__main__.py": edit(program, scopes, `${scopes}\n    packed=True,`) });
  const ids = ex.emu.control.commands().map((c) => c["id"]);
  ex.emu.control.resetLog();
  await ex.prog.up();
  expect(ex.writes()).toEqual([]);
  expect(ex.emu.control.commands().map((c) => c["id"])).toEqual(ids);
  const state = JSON.parse((await ex.prog.ok(["stack", "export"])).stdout) as {
    deployment: { resources: { type: string; urn: string }[] };
  };
  const children = state.deployment.resources.filter((r) => r.urn.includes("::utility-"));
  expect(children.map((r) => r.type).sort()).toEqual(
    [
      "discord-commands:index:CommandSetScopes",
      "discord-commands:index:GuildCommandPermissions",
    ].sort(),
  );
});

test("secrets nested in a Python program's inputs stay secret in the state and the output", async () => {
  const S = {
    description: "py-hidden-option-description-2c4e",
    localized: "py-geheime-option-8d1f",
    choice: "py-hidden-choice-6a0b",
    role: "1400000000000006161",
  };
  const program = fs.readFileSync(path.join(ex.prog.dir, "__main__.py"), "utf8");
  ex.prog.write({
    "__main__.py": `${program}
poll = discord.GuildCommand(
    "poll",
    guild_id=guild_id,
    name="poll",
    description="Run a poll",
    options=[
        discord.CommandOptionArgs(
            type=discord.OptionType.STRING,
            name="topic",
            description=pulumi.Output.secret("${S.description}"),
            description_localizations={"de": pulumi.Output.secret("${S.localized}")},
            choices=[
                discord.CommandOptionChoiceArgs(name=pulumi.Output.secret("${S.choice}"), value="a"),
                discord.CommandOptionChoiceArgs(name="plain", value="b"),
            ],
        )
    ],
)
discord.GuildCommandPermissions(
    "pollPermissions",
    guild_id=guild_id,
    command_id=poll.id,
    permissions=[
        discord.PermissionOverwriteArgs(
            id=pulumi.Output.secret("${S.role}"), type=discord.PermissionType.ROLE, permission=True
        )
    ],
)
`,
  });
  const res = await ex.prog.up();
  expect(ex.liveNamed("poll")?.["options"]).toMatchObject([{ description: S.description }]);
  const state = (await ex.prog.ok(["stack", "export"])).stdout;
  const shown = Object.values(S).filter((s) => (res.stdout + res.stderr + state).includes(s));
  expect(shown).toEqual([]);
});

test("destroy keeps every command the stack does not manage", async () => {
  ex.prog.write({ "__main__.py": ex.files["__main__.py"] ?? "" });
  await ex.prog.destroy();
  expect(ex.emu.control.commands().map((c) => c["name"])).toEqual(["other"]);
  expect(ex.emu.control.state().permissions).toEqual([]);
});
