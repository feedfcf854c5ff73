/**
 * The resource plugin from a Python program, through the real CLI and the Python
 * language host, on the generated SDK (sdks/python, installed with pip into the project's
 * venv as a user installs it): the demo's kinds of resources deploy, a second `up` writes
 * nothing, an out-of-band edit shows in `preview --refresh`, a rename is a replacement
 * with its permissions written again, an invalid field fails the preview with its path,
 * and `destroy` keeps the commands the stack does not manage.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import { PulumiProgram } from "../../scripts/pulumiProgram";
import { PROJECT_ROOT, PYTHON_VENV } from "../../scripts/toolchain";
import { Api } from "../emulator/helpers";
import { IDS } from "./lifecycle.helpers";

jest.setTimeout(300_000);

let emu: RunningEmulator;
let prog: PulumiProgram;
let api: Api;

const project = `name: plugin-python
runtime:
  name: python
  options:
    virtualenv: ${PYTHON_VENV}
packages:
  discord-commands: ${PROJECT_ROOT}/plugin
`;

function program(guildCommand: string, extra = ""): string {
  return `import pulumi
import pulumi_discord_commands as discord

ping = discord.GlobalCommand(
    "ping",
    name="ping",
    description="Check the bot",
    description_localizations={"fr": "Vérifier le bot"},
)
moderation = discord.GuildCommand(
    "moderation",
    guild_id="${IDS.guild}",
    name="${guildCommand}",
    description="Remove a member",
    options=[
        discord.CommandOptionArgs(
            type=discord.OptionType.USER, name="member", description="Who", required=True
        )
    ],
)
discord.GuildCommandPermissions(
    "moderationPermissions",
    guild_id="${IDS.guild}",
    command_id=moderation.id,
    permissions=[
        discord.PermissionOverwriteArgs(
            id="${IDS.role}", type=discord.PermissionType.ROLE, permission=True
        )
    ],
)
${extra}
pulumi.export("pingId", ping.command_id)
`;
}

const writes = () => emu.requestLog().filter((e) => e.method !== "GET");
const liveNamed = (name: string) => emu.control.commands().find((c) => c["name"] === name);

beforeAll(async () => {
  // As a user installs the SDK (its dependencies are in toolchain/python/requirements.txt).
  const pip = spawnSync(
    path.join(PYTHON_VENV, "bin", "pip"),
    ["install", "--no-deps", "--quiet", path.join(PROJECT_ROOT, "sdks", "python")],
    { encoding: "utf8" },
  );
  if (pip.status !== 0) throw new Error(`pip install sdks/python failed:\n${pip.stderr}`);
  emu = await startEmulator({ port: 0, rateLimits: false });
  api = new Api(emu);
  await api.post(`${api.app}/commands`, { name: "other", description: "Not ours" });
  prog = new PulumiProgram("plugin-python", {
    "Pulumi.yaml": project,
    "__main__.py": program("kick"),
  });
  await prog.stack("dev");
  await prog.ok([
    "config",
    "set-all",
    "--plaintext",
    `discord-commands:apiUrl=${emu.url}`,
    "--plaintext",
    `discord-commands:applicationId=${emu.applicationId}`,
    "--secret",
    `discord-commands:botToken=${emu.botToken}`,
    "--secret",
    `discord-commands:bearerToken=${emu.userBearerToken}`,
  ]);
});

afterAll(async () => {
  prog?.cleanup();
  await emu?.close();
});

test("up deploys the set; a second up writes nothing", async () => {
  await prog.up();
  const kick = liveNamed("kick");
  expect(kick).toMatchObject({ guild_id: IDS.guild });
  expect(liveNamed("ping")).toMatchObject({ description_localizations: { fr: "Vérifier le bot" } });
  const perms = emu.control.state().permissions.find((p) => p["id"] === kick?.["id"]);
  expect(perms?.["permissions"]).toEqual([{ id: IDS.role, type: 1, permission: true }]);
  emu.control.resetLog();
  await prog.up();
  expect(writes()).toEqual([]);
});

test("drift shows in preview --refresh; a rename is a replacement with its permissions", async () => {
  const ping = liveNamed("ping");
  await api.call("PATCH", `/__emulator/commands/${String(ping?.["id"])}`, {
    body: { description: "Changed by hand" },
  });
  const preview = await prog.ok(["preview", "--refresh", "--non-interactive", "--diff"]);
  expect(preview.stdout).toMatch(/~ description\s*: "Changed by hand" => "Check the bot"/);

  const before = liveNamed("kick");
  prog.write({ "__main__.py": program("remove") });
  await prog.up(["--refresh"]);
  expect(liveNamed("ping")?.["description"]).toBe("Check the bot");
  const after = liveNamed("remove");
  expect(liveNamed("kick")).toBeUndefined();
  expect(after?.["id"]).not.toBe(before?.["id"]);
  const perms = emu.control.state().permissions.find((p) => p["id"] === after?.["id"]);
  expect(perms?.["permissions"]).toEqual([{ id: IDS.role, type: 1, permission: true }]);
});

test("an invalid field fails the preview with its path, before any write", async () => {
  prog.write({
    "__main__.py": program(
      "remove",
      `discord.GlobalCommand(
    "broken",
    name="broken",
    description="Has a bad option",
    options=[discord.CommandOptionArgs(type=discord.OptionType.STRING, name="Bad Name", description="x")],
)`,
    ),
  });
  emu.control.resetLog();
  const res = await prog.run(["preview", "--non-interactive"]);
  expect(res.code).not.toBe(0);
  expect(res.stdout + res.stderr).toMatch(/options\[0\]\.name: /);
  expect(writes()).toEqual([]);
});

test("destroy keeps every command the stack does not manage", async () => {
  prog.write({ "__main__.py": program("remove") });
  await prog.destroy();
  expect(emu.control.commands().map((c) => c["name"])).toEqual(["other"]);
});
