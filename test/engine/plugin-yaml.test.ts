/**
 * The resource plugin through the real CLI from a YAML program (no code of ours in the
 * program: the plugin is all there is), against the emulator: the demo's kinds of
 * resources deploy, a second `up` writes nothing, an out-of-band edit shows in
 * `preview --refresh`, a rename is a replacement whose permissions are written again,
 * an invalid field and two resources claiming one name fail the preview naming the
 * field or the resources, secrets stay secret at any depth, and `destroy` leaves every
 * command the stack does not manage. A secret that breaks a rule:
 * test/engine/plugin-secret-paths.test.ts.
 *
 * Elsewhere: `pulumi import` of the plugin's resources by id is
 * test/engine/plugin-import.test.ts (`import --file`, the README's flow; the version-range
 * smoke imports one by id); a missing or wrong token's message naming
 * discord-commands:botToken, followed literally, is test/provider/configNamespace.test.ts
 * (the plugin door).
 */
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import { PulumiProgram } from "../../scripts/pulumiProgram";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import { Api } from "../emulator/helpers";
import { IDS, configurePluginStack } from "./lifecycle.helpers";

jest.setTimeout(600_000);

let emu: RunningEmulator;
let prog: PulumiProgram;
let api: Api;

const PLUGIN = `${PROJECT_ROOT}/plugin`;

/** A YAML program of the plugin's resources; `resources` is the YAML under `resources:`. */
function yamlProgram(resources: string, outputs = ""): string {
  return [
    "name: plugin-yaml",
    "runtime: yaml",
    "packages:",
    `  discord-commands: ${PLUGIN}`,
    "resources:",
    resources.trimEnd(),
    outputs === "" ? "" : `outputs:\n${outputs.trimEnd()}`,
    "",
  ].join("\n");
}

function demoSet(guildCommandName: string): string {
  return `
  ping:
    type: discord-commands:GlobalCommand
    properties:
      name: ping
      description: Check the bot
      nameLocalizations:
        fr: ping
      descriptionLocalizations:
        fr: Vérifier le bot
  moderation:
    type: discord-commands:GuildCommand
    properties:
      guildId: "${IDS.guild}"
      name: ${guildCommandName}
      description: Remove a member
      defaultMemberPermissions: "2"
      options:
        - type: 6
          name: member
          description: Who
          required: true
  moderationPermissions:
    type: discord-commands:GuildCommandPermissions
    properties:
      guildId: "${IDS.guild}"
      commandId: \${moderation.id}
      permissions:
        - id: "${IDS.role}"
          type: 1
          permission: true
`;
}

const writes = (): { method: string; route: string | null }[] =>
  emu
    .requestLog()
    .filter((e) => e.method !== "GET")
    .map((e) => ({ method: e.method, route: e.route }));

const live = (): Record<string, unknown>[] => emu.control.commands();
const liveNamed = (name: string): Record<string, unknown> | undefined =>
  live().find((c) => c["name"] === name);

beforeAll(async () => {
  emu = await startEmulator({ port: 0, rateLimits: false });
  api = new Api(emu);
  // A command another tool made: never touched by the stack.
  const other = await api.post(`${api.app}/commands`, { name: "other", description: "Not ours" });
  expect(other.status).toBe(201);
  prog = new PulumiProgram("plugin-yaml", { "Pulumi.yaml": yamlProgram(demoSet("kick")) });
  await prog.stack("dev");
  await configurePluginStack(prog, emu);
});

afterAll(async () => {
  prog?.cleanup();
  await emu?.close();
});

test("up deploys; a second up writes nothing; the state holds no credential and no provider code", async () => {
  await prog.up();
  const kick = liveNamed("kick");
  expect(kick).toMatchObject({ guild_id: IDS.guild, default_member_permissions: "2" });
  expect(liveNamed("ping")).toMatchObject({ description_localizations: { fr: "Vérifier le bot" } });
  const perms = emu.control.state().permissions.find((p) => p["id"] === kick?.["id"]);
  expect(perms?.["permissions"]).toEqual([{ id: IDS.role, type: 1, permission: true }]);

  emu.control.resetLog();
  const again = await prog.up();
  expect(again.stdout).toMatch(/4 unchanged/);
  expect(writes()).toEqual([]);

  const state = (await prog.ok(["stack", "export"])).stdout;
  expect(state).not.toContain(emu.botToken);
  expect(state).not.toContain(emu.userBearerToken);
  expect(state).not.toContain("__provider");
});

test("an out-of-band edit shows in preview --refresh, and up restores it", async () => {
  const ping = liveNamed("ping");
  await api.call("PATCH", `/__emulator/commands/${String(ping?.["id"])}`, {
    body: { description: "Changed by hand" },
  });
  const preview = await prog.ok(["preview", "--refresh", "--non-interactive", "--diff"]);
  expect(preview.stdout).toMatch(/discord-commands:index:GlobalCommand.*ping/);
  expect(preview.stdout).toMatch(/~ description\s*: "Changed by hand" => "Check the bot"/);
  await prog.up(["--refresh"]);
  expect(liveNamed("ping")?.["description"]).toBe("Check the bot");
});

test("a rename is a replacement: a new command, its permissions written again", async () => {
  const before = liveNamed("kick");
  prog.write({ "Pulumi.yaml": yamlProgram(demoSet("remove")) });
  const preview = await prog.ok(["preview", "--non-interactive"]);
  expect(preview.stdout).toMatch(
    /\+-\s+discord-commands:index:GuildCommand\s+moderation\s+replace/,
  );
  await prog.up();
  const after = liveNamed("remove");
  expect(liveNamed("kick")).toBeUndefined();
  expect(after?.["id"]).not.toBe(before?.["id"]);
  const perms = emu.control.state().permissions.find((p) => p["id"] === after?.["id"]);
  expect(perms?.["permissions"]).toEqual([{ id: IDS.role, type: 1, permission: true }]);
});

test("an invalid field fails the preview with its path, before any request", async () => {
  prog.write({
    "Pulumi.yaml": yamlProgram(
      `${demoSet("remove")}
  broken:
    type: discord-commands:GlobalCommand
    properties:
      name: broken
      description: Has a bad option
      options:
        - type: 3
          name: Bad Name
          description: Upper case and a space
`,
    ),
  });
  emu.control.resetLog();
  const res = await prog.run(["preview", "--non-interactive"]);
  expect(res.code).not.toBe(0);
  // A nested path goes in the reason, not as the engine's property, which it prints with
  // the value of the top-level input of that name (`value {<nil>}`).
  expect(res.stdout + res.stderr).toMatch(
    /GlobalCommand resource 'broken' has a problem: options\[0\]\.name: /,
  );
  expect(res.stdout + res.stderr).not.toMatch(/<nil>/);
  expect(writes()).toEqual([]);
});

test("two resources claiming one name fail the preview, naming both", async () => {
  prog.write({
    "Pulumi.yaml": yamlProgram(
      `${demoSet("remove")}
  pingAgain:
    type: discord-commands:GlobalCommand
    properties:
      name: ping
      description: The same name
`,
    ),
  });
  const res = await prog.run(["preview", "--non-interactive"]);
  expect(res.code).not.toBe(0);
  expect(res.stdout + res.stderr).toMatch(
    /resources ('ping', 'pingAgain'|'pingAgain', 'ping') all declare/,
  );
});

test("secrets at any depth stay secret in the state and the preview; so does a token set in plain text", async () => {
  const S = {
    description: "hidden-option-description-5e1a",
    changed: "hidden-option-description-changed-5e1a",
    localized: "geheime-option-7c2d",
    choice: "hidden-choice-name-3b9f",
    role: "1400000000000007777",
    token: emu.botToken,
  };
  const secretResources = (description: string): string => `${demoSet("remove")}
  explicit:
    type: pulumi:providers:discord-commands
    properties:
      apiUrl: ${emu.apiUrl}
      applicationId: "${emu.applicationId}"
      botToken: ${S.token}
  poll:
    type: discord-commands:GuildCommand
    properties:
      guildId: "${IDS.guild}"
      name: poll
      description: Run a poll
      options:
        - type: 3
          name: topic
          description:
            fn::secret: ${description}
          descriptionLocalizations:
            de:
              fn::secret: ${S.localized}
          choices:
            - name:
                fn::secret: ${S.choice}
              value: a
            - name: plain
              value: b
    options:
      provider: \${explicit}
  pollPermissions:
    type: discord-commands:GuildCommandPermissions
    properties:
      guildId: "${IDS.guild}"
      commandId: \${poll.id}
      permissions:
        - id:
            fn::secret: "${S.role}"
          type: 1
          permission: true
`;
  prog.write({ "Pulumi.yaml": yamlProgram(secretResources(S.description)) });
  const first = await prog.up();
  expect(liveNamed("poll")?.["options"]).toMatchObject([{ description: S.description }]);
  const hidden = [S.description, S.localized, S.choice, S.role, S.token];
  const printed = (text: string): string[] => hidden.filter((s) => text.includes(s));
  expect(printed(first.stdout + first.stderr)).toEqual([]);
  expect(printed((await prog.ok(["stack", "export"])).stdout)).toEqual([]);

  prog.write({ "Pulumi.yaml": yamlProgram(secretResources(S.changed)) });
  const diff = await prog.ok(["preview", "--diff", "--non-interactive"]);
  expect(diff.stdout).toMatch(
    /~ discord-commands:index:GuildCommand: \(update\)\s+\[id=\d+\]\s+\[urn=\S+::poll\]/,
  );
  expect(diff.stdout).toMatch(/description\s+: \[secret\]/);
  const json = await prog.ok(["preview", "--json", "--non-interactive"]);
  for (const out of [diff, json]) expect(printed(out.stdout + out.stderr)).toEqual([]);
  expect(out(diff).includes(S.changed)).toBe(false);
  await prog.up();
  expect(liveNamed("poll")?.["options"]).toMatchObject([{ description: S.changed }]);
  expect(printed((await prog.ok(["stack", "export"])).stdout)).toEqual([]);

  // A token set in plain text is kept secret all the same (the plugin marks its credentials).
  await prog.ok(["config", "set", "--plaintext", "discord-commands:botToken", emu.botToken]);
  prog.write({ "Pulumi.yaml": yamlProgram(demoSet("remove")) });
  const plain = await prog.up();
  expect(liveNamed("poll")).toBeUndefined();
  expect(printed(plain.stdout + plain.stderr)).toEqual([]);
  expect(printed((await prog.ok(["stack", "export"])).stdout)).toEqual([]);
  await prog.ok(["config", "set", "--secret", "discord-commands:botToken", emu.botToken]);
});

function out(res: { stdout: string; stderr: string }): string {
  return res.stdout + res.stderr;
}

test("destroy removes the stack's commands and keeps every other one", async () => {
  await prog.destroy();
  const names = live().map((c) => c["name"]);
  expect(names).toEqual(["other"]);
  expect(emu.control.state().permissions).toEqual([]);
});
