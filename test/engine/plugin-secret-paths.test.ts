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
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import type { CliResult } from "../../scripts/pulumiProgram";
import { PulumiProgram } from "../../scripts/pulumiProgram";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import { secretLeaks, secretLeaksInFiles } from "../helpers/secretForms";
import { printed } from "./edgeHelpers";
import { IDS, configurePluginStack } from "./lifecycle.helpers";

jest.setTimeout(600_000);

/** Secrets no two of which share a piece of 3 letters (test/helpers/secretForms.ts). */
const S = {
  name: "VqKzWvQw",
  long: "JkWjWvWxZvJkVxQwZxQkVqVjWkVjQvQxQzXkQwJvWzKxKjWq",
  short: "Zq",
  choice: "KzVqZqZwQw",
  localized: "JvJzQkXj",
  permission: "ZqWvXvQjXk",
  scopeName: "wxjwjkqv",
  scopeDescription: "JxQjKzQxJv",
};

let emu: RunningEmulator;
let prog: PulumiProgram;
const runs: [string, CliResult][] = [];
const timingLog = (): string => path.join(prog.root, "timings.jsonl");

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

async function run(args: string[]): Promise<CliResult> {
  const res = await prog.run(args, { timeoutMs: 300_000 });
  runs.push([`pulumi ${args.join(" ")}`, res]);
  return res;
}

/** Runs `preview` and `preview --json` of `resources`: both fail, naming `expected`. */
async function failedPreviews(resources: string, expected: RegExp): Promise<void> {
  prog.write({ "Pulumi.yaml": yamlProgram(resources) });
  for (const json of [false, true]) {
    const res = await run(["preview", "--non-interactive", ...(json ? ["--json"] : [])]);
    expect(res.code).not.toBe(0);
    expect(printed(res)).toMatch(expected);
  }
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0, rateLimits: false });
  prog = new PulumiProgram("plugin-secret-paths", { "Pulumi.yaml": yamlProgram("") });
  prog.env["DISCORD_TIMING_LOG"] = timingLog();
  await prog.stack("dev");
  await configurePluginStack(prog, emu);
});
afterAll(async () => {
  prog?.cleanup();
  await emu?.close();
});

test("secrets that break rules fail the preview as [secret]; a secret scope's names stay out of the state", async () => {
  await failedPreviews(
    `
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
`,
    /GlobalCommand resource 'bad' has a problem: name: Invalid name \[secret\]\. Must be lowercase\./,
  );
  await failedPreviews(
    `
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
`,
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
          ${S.scopeName}:
            name: ${S.scopeName}
            description: ${S.scopeDescription}
`),
  });
  expect((await run(["up", "--yes", "--non-interactive", "--skip-preview"])).code).toBe(0);
  expect(emu.control.commands().map((c) => c["name"])).toContain(S.scopeName);
  const exported = await run(["stack", "export"]);
  expect(exported.stdout).toContain('"commandIds"');
  expect((await run(["destroy", "--yes", "--non-interactive"])).code).toBe(0);

  const found = runs.flatMap(([cmd, res]) => secretLeaks(printed(res), S, `the output of ${cmd}`));
  found.push(...secretLeaksInFiles(prog.root, S, [path.join(prog.dir, "Pulumi.yaml")]));
  expect(found).toEqual([]);
  // The timing log was written (the failed checks and the writes), and searched with the rest.
  const log = fs.readFileSync(timingLog(), "utf8");
  expect(log).toContain('"resource":"global command [secret]');
  expect(log).toContain('"method":"create"');
});
