/**
 * The resource plugin keeps a secret out of every message by its path, through the real
 * CLI from a YAML program: the plugin reads the engine's marks (`fn::secret`). A value
 * marked secret that breaks a rule (a name breaking the lowercase rule, a value over 40
 * characters, a 2-character value, a choice's value, a localization, a permissions entry)
 * fails the preview without any piece of it, in any case, in the CLI's output, `--json`,
 * the timing log (`DISCORD_TIMING_LOG`) or any file the runs leave. A scope whose commands
 * are secret as a whole keeps their names (its ids' keys) out of `pulumi stack export`.
 *
 * One preview stops at the first resource whose check fails: the command's secrets share
 * one resource, the permissions entry has its own preview.
 */
import * as fs from "node:fs";
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import { PulumiProgram } from "../../scripts/pulumiProgram";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import { SECRETS as S } from "../helpers/secretForms";
import { IDS, configurePluginStack } from "./lifecycle.helpers";
import { AuditedRuns } from "./secretPaths.helpers";

jest.setTimeout(600_000);

let emu: RunningEmulator;
let prog: PulumiProgram;
let runs: AuditedRuns;

function yamlProgram(resources: string): string {
  return [
    "name: plugin-secret-paths",
    "runtime: yaml",
    "packages:",
    `  discord-commands: ${PROJECT_ROOT}/plugin`,
    "resources:",
    resources.trimEnd(),
    "",
  ].join("\n");
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0, rateLimits: false });
  prog = new PulumiProgram("plugin-secret-paths", { "Pulumi.yaml": yamlProgram("") });
  runs = new AuditedRuns(prog, "Pulumi.yaml");
  await prog.stack("dev");
  await configurePluginStack(prog, emu);
});
afterAll(async () => {
  prog?.cleanup();
  await emu?.close();
});

test("secrets that break rules fail the preview as [secret]; a secret scope's names stay out of the state", async () => {
  await runs.failedPreviews(
    yamlProgram(`
  bad:
    type: discord-commands:GlobalCommand
    properties:
      name:
        fn::secret: ${S.name}
      description: A poll
      nameLocalizations:
        de:
          fn::secret: ${S.localized}
      defaultMemberPermissions:
        fn::secret: ${S.long}
      options:
        - type: 3
          name:
            fn::secret: ${S.short}
          description: Short
        - type: 4
          name: count
          description: How many
          choices:
            - name: some
              value:
                fn::secret: ${S.choice}
`),
    /GlobalCommand resource 'bad' has a problem: name: Invalid name \[secret\]\. Must be lowercase\./,
  );
  await runs.failedPreviews(
    yamlProgram(`
  badperms:
    type: discord-commands:GuildCommandPermissions
    properties:
      guildId: "${IDS.guild}"
      commandId: "${IDS.application}"
      permissions:
        - id:
            fn::secret: ${S.permission}
          type: 1
          permission: true
`),
    /permissions\[0\]\.id: Value \[secret\] is not a snowflake/,
  );
  expect(emu.counters().writes).toBe(0);

  prog.write({
    "Pulumi.yaml": yamlProgram(`
  scope:
    type: discord-commands:ScopeCommands
    properties:
      guildId: "${IDS.guild}"
      commands:
        fn::secret:
          ${S.commandName}:
            name: ${S.commandName}
            description: ${S.description}
`),
  });
  expect((await runs.run(["up", "--yes", "--non-interactive", "--skip-preview"])).code).toBe(0);
  expect(emu.control.commands().map((c) => c["name"])).toContain(S.commandName);
  const exported = await runs.run(["stack", "export"]);
  expect(exported.stdout).toContain('"commandIds"');
  expect((await runs.run(["destroy", "--yes", "--non-interactive"])).code).toBe(0);

  expect(runs.leaks(S)).toEqual([]);
  // The timing log was written (the failed checks and the writes), and searched with the rest.
  const log = fs.readFileSync(runs.timingLog, "utf8");
  expect(log).toContain('"resource":"global command [secret]');
  expect(log).toContain('"method":"create"');
});

/** A `CommandSet` in the guild: kick (its description `kick`), and one whose description is secret. */
function setProgram(kick: string, permissions = ""): string {
  return yamlProgram(`
  set:
    type: discord-commands:CommandSet
    properties:
      scopes:
        - guildId: "${IDS.guild}"
      commands:
        - name: kick
          description: ${kick}
        - name: ${S.commandName}
          description:
            fn::secret: ${S.description}
${permissions}`);
}

test("a CommandSet marks its children at the secret paths only: a plain command's failure names it, its ids stay plain; a permissions entry naming a secret command fails (issue 50)", async () => {
  // A plain command that breaks a rule, in a set with one secret description: named.
  await runs.failedPreviews(
    setProgram("x".repeat(101)),
    /commands\[\\?"kick\\?"\]\.description: Must be between 1 and 100/,
  );
  // A permissions entry that names, in plain text, a command whose name is secret: refused
  // before any child holds the name.
  const secretNamed = yamlProgram(`
  set:
    type: discord-commands:CommandSet
    properties:
      scopes:
        - guildId: "${IDS.guild}"
      commands:
        - name:
            fn::secret: ${S.commandName}
          description: Hidden
      permissions:
        - guildId: "${IDS.guild}"
          command: ${S.commandName}
          permissions:
            - id: "${IDS.guild}"
              type: 1
              permission: true
`);
  prog.write({ "Pulumi.yaml": secretNamed });
  const writesBefore = emu.counters().writes;
  const refused = await prog.run(["preview", "--non-interactive"], { timeoutMs: 300_000 });
  expect(refused.code).not.toBe(0);
  expect(refused.stdout + refused.stderr).toContain(
    "name commands[0], whose name is secret: a permissions entry's command names its child resource",
  );
  expect(emu.counters().writes).toBe(writesBefore);

  prog.write({ "Pulumi.yaml": setProgram("Kick a member") });
  expect((await runs.run(["up", "--yes", "--non-interactive", "--skip-preview"])).code).toBe(0);
  const exported = await runs.run(["stack", "export"]);
  const state = JSON.parse(exported.stdout) as {
    deployment: { resources: { type: string; outputs?: Record<string, unknown> }[] };
  };
  const outputsOf = (type: string): Record<string, unknown> =>
    state.deployment.resources.find((r) => r.type === type)?.outputs ?? {};
  // No name is secret: the ids are plain, keyed by the names; the child's commands are
  // secret at the description only.
  const setIds = outputsOf("discord-commands:index:CommandSet")["commandIds"];
  expect(Object.keys((setIds as Record<string, Record<string, string>>)[IDS.guild] ?? {})).toEqual(
    expect.arrayContaining(["kick", S.commandName]),
  );
  const commands = outputsOf("discord-commands:index:ScopeCommands")["commands"] as Record<
    string,
    Record<string, unknown>
  >;
  expect(commands["kick"]?.["description"]).toBe("Kick a member");
  expect(commands[S.commandName]?.["description"]).toHaveProperty("ciphertext");
  expect((await runs.run(["destroy", "--yes", "--non-interactive"])).code).toBe(0);

  // The secret description in no output; the name is plain here (the refused preview's
  // program held it in plain text in the entry, and its output only `commands[0]`).
  expect(runs.leaks({ description: S.description })).toEqual([]);
});
