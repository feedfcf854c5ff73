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
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import type { CliResult } from "../../scripts/pulumiProgram";
import { PulumiProgram } from "../../scripts/pulumiProgram";
import { secretLeaks, secretLeaksInFiles } from "../helpers/secretForms";
import { commandsProgram, configureStack, emulator, linkPackage, printed } from "./edgeHelpers";

jest.setTimeout(600_000);

/** Secrets no two of which share a piece of 3 letters (test/helpers/secretForms.ts). */
const S = {
  name: "VqKzWvQw",
  long: "JkWjWvWxZvJkVxQwZxQkVqVjWkVjQvQxQzXkQwJvWzKxKjWq",
  short: "Zq",
  choice: "KzVqZqZwQw",
  localized: "JvJzQkXj",
  permission: "ZqWvXvQjXk",
  setName: "wxjwjkqv",
  setDescription: "JxQjKzQxJv",
};

let emu: RunningEmulator;
let prog: PulumiProgram;
const runs: [string, CliResult][] = [];
const timingLog = (): string => path.join(prog.root, "timings.jsonl");

async function run(args: string[]): Promise<CliResult> {
  const res = await prog.run(args, { timeoutMs: 300_000 });
  runs.push([`pulumi ${args.join(" ")}`, res]);
  return res;
}

beforeAll(async () => {
  emu = await emulator();
  // The provider's timing log is searched with the state. (The CLI's automatic log of an
  // engine run is encrypted with the stack's secrets: edges-secrets.test.ts searches it.)
  prog = new PulumiProgram("edges-secret-paths", { "index.ts": commandsProgram("") });
  prog.env["DISCORD_TIMING_LOG"] = timingLog();
  linkPackage(prog);
  await prog.stack("dev");
  await configureStack(prog, emu, { botToken: emu.botToken, bearerToken: emu.userBearerToken });
});
afterAll(async () => {
  prog?.cleanup();
  await emu?.close();
});

/** Runs `preview` and `preview --json` of `body`: both fail, naming `expected`. */
async function failedPreviews(body: string, expected: RegExp): Promise<void> {
  prog.write({ "index.ts": commandsProgram(body) });
  for (const json of [false, true]) {
    const res = await run(["preview", "--non-interactive", ...(json ? ["--json"] : [])]);
    expect(res.code).not.toBe(0);
    expect(printed(res)).toMatch(expected);
  }
}

test("secrets that break rules fail the preview as [secret]; a set's secret name stays out of the state", async () => {
  await failedPreviews(
    `
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
});`,
    /resource 'bad' has a problem: name: Invalid name \[secret\]\. Must be lowercase\./,
  );
  await failedPreviews(
    `
new discord.GuildCommandPermissions("badperms", {
  guildId: "${emu.guildId}",
  commandId: "${emu.applicationId}",
  permissions: [{ id: pulumi.secret("${S.permission}"), type: discord.PermissionType.ROLE, permission: true }],
});`,
    /permissions\[0\]\.id: Value \[secret\] is not a snowflake/,
  );
  expect(emu.counters().writes).toBe(0);

  prog.write({
    "index.ts": commandsProgram(`
const set = new discord.CommandSet("mods", {
  commands: [
    { name: pulumi.secret("${S.setName}"), description: pulumi.secret("${S.setDescription}") },
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
  const up = await run(["up", "--yes", "--non-interactive", "--skip-preview"]);
  expect(up.code).toBe(0);
  // The service holds the real name.
  expect(emu.control.commands().map((c) => c["name"])).toEqual(
    expect.arrayContaining([S.setName, "kick"]),
  );
  const exported = await run(["stack", "export"]);
  expect(exported.code).toBe(0);
  expect(exported.stdout).toContain('"commandIds"');
  // No change follows: the secret paths the state keeps are the program's.
  const again = await run(["preview", "--non-interactive", "--json"]);
  const summary = (JSON.parse(again.stdout) as { changeSummary: object }).changeSummary;
  expect(Object.keys(summary)).toEqual(["same"]);
  expect((await run(["destroy", "--yes", "--non-interactive"])).code).toBe(0);

  const found = runs.flatMap(([cmd, res]) => secretLeaks(printed(res), S, `the output of ${cmd}`));
  found.push(...secretLeaksInFiles(prog.root, S, [path.join(prog.dir, "index.ts")]));
  expect(found).toEqual([]);
  // The timing log was written (the failed checks and the writes), and searched with the rest.
  const log = fs.readFileSync(timingLog(), "utf8");
  expect(log).toContain('"resource":"guild command [secret] in guild');
  expect(log).toContain('"method":"create"');
});
