/**
 * The dynamic resources keep a secret out of every message by its path, through the real
 * CLI: the dynamic-provider host gets no secret marks, so the program tells the provider
 * where its secrets are (the hidden input `__secretPaths`). A value the program marked
 * secret that breaks a rule (a name breaking the lowercase rule, a value over 40
 * characters, a 2-character value, a choice's value, a localization, a permissions entry)
 * fails the preview without any piece of it, in any case, in the CLI's output, `--json`,
 * the timing log (`DISCORD_TIMING_LOG`) or any file the runs leave. And a `CommandSet` whose
 * command has a secret name keeps it out of `pulumi stack export`: the scope's ids, keyed
 * by name, are secret.
 *
 * One preview stops at the first resource whose check fails: the command's secrets share
 * one resource, the permissions entry has its own preview.
 */
import * as fs from "node:fs";
import type { RunningEmulator } from "../../emulator";
import { PulumiProgram } from "../../scripts/pulumiProgram";
import { SECRETS as S } from "../helpers/secretForms";
import { commandsProgram, configureStack, emulator, linkPackage } from "./edgeHelpers";
import { AuditedRuns } from "./secretPaths.helpers";

jest.setTimeout(600_000);

let emu: RunningEmulator;
let prog: PulumiProgram;
let runs: AuditedRuns;

beforeAll(async () => {
  emu = await emulator();
  prog = new PulumiProgram("edges-secret-paths", { "index.ts": commandsProgram("") });
  runs = new AuditedRuns(prog, "index.ts");
  linkPackage(prog);
  await prog.stack("dev");
  await configureStack(prog, emu, { botToken: emu.botToken, bearerToken: emu.userBearerToken });
});
afterAll(async () => {
  prog?.cleanup();
  await emu?.close();
});

test("secrets that break rules fail the preview as [secret]; a set's secret name stays out of the state", async () => {
  await runs.failedPreviews(
    commandsProgram(`
new discord.GuildCommand("bad", {
  guildId: "${emu.guildId}",
  name: pulumi.secret("${S.name}"),
  description: "A poll",
  nameLocalizations: { de: pulumi.secret("${S.localized}") },
  defaultMemberPermissions: pulumi.secret("${S.long}"),
  options: [
    { type: discord.OptionType.STRING, name: pulumi.secret("${S.short}"), description: "Short" },
    {
      type: discord.OptionType.INTEGER,
      name: "count",
      description: "How many",
      choices: [{ name: "some", value: pulumi.secret("${S.choice}") }],
    },
  ],
});`),
    /resource 'bad' has a problem: name: Invalid name \[secret\]\. Must be lowercase\./,
  );
  await runs.failedPreviews(
    commandsProgram(`
new discord.GuildCommandPermissions("badperms", {
  guildId: "${emu.guildId}",
  commandId: "${emu.applicationId}",
  permissions: [{ id: pulumi.secret("${S.permission}"), type: discord.PermissionType.ROLE, permission: true }],
});`),
    /permissions\[0\]\.id: Value \[secret\] is not a snowflake/,
  );
  expect(emu.counters().writes).toBe(0);

  prog.write({
    "index.ts": commandsProgram(`
const set = new discord.CommandSet("mods", {
  commands: [
    { name: pulumi.secret("${S.commandName}"), description: pulumi.secret("${S.description}") },
    { name: "kick", description: "Kick a member" },
  ],
  scopes: [{ guildId: "${emu.guildId}" }],
  permissions: [
    {
      guildId: "${emu.guildId}",
      command: "kick",
      permissions: [{ id: "${emu.guildId}", type: discord.PermissionType.ROLE, permission: true }],
    },
  ],
});
export const ids = set.commandIds;`),
  });
  const up = await runs.run(["up", "--yes", "--non-interactive", "--skip-preview"]);
  expect(up.code).toBe(0);
  // The service holds the real name.
  expect(emu.control.commands().map((c) => c["name"])).toEqual(
    expect.arrayContaining([S.commandName, "kick"]),
  );
  const exported = await runs.run(["stack", "export"]);
  expect(exported.code).toBe(0);
  expect(exported.stdout).toContain('"commandIds"');
  // No change follows: the secret paths the state keeps are the program's.
  const again = await runs.run(["preview", "--non-interactive", "--json"]);
  const summary = (JSON.parse(again.stdout) as { changeSummary: object }).changeSummary;
  expect(Object.keys(summary)).toEqual(["same"]);
  expect((await runs.run(["destroy", "--yes", "--non-interactive"])).code).toBe(0);

  expect(runs.leaks(S)).toEqual([]);
  // The timing log was written (the failed checks and the writes), and searched with the rest.
  const log = fs.readFileSync(runs.timingLog, "utf8");
  expect(log).toContain('"resource":"guild command [secret] in guild');
  expect(log).toContain('"method":"create"');
});
