/**
 * A deprecated field gives a `warning:` line in `pulumi preview` through the real CLI, from
 * the provider's `check`, in both doors (provider/resources/warnings.ts `forResource`): a
 * TypeScript program's dynamic resource, and a YAML program on the resource plugin. The
 * line names the command and the field's path, once, and the preview succeeds. Each
 * warning's text, a secret name and the no-repeat rule: test/provider/checkWarnings.test.ts.
 */
import type { RunningEmulator } from "../../emulator";
import { PulumiProgram } from "../../scripts/pulumiProgram";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import { commandsProgram, configureStack, emulator, linkPackage, printed } from "./edgeHelpers";
import { configurePluginStack } from "./lifecycle.helpers";

jest.setTimeout(600_000);

const WARNING =
  /^\s*warning: global command "legacy": dmPermission: dm_permission is deprecated: use contexts/;

let emu: RunningEmulator;
const programs: PulumiProgram[] = [];

beforeAll(async () => {
  emu = await emulator();
});
afterAll(async () => {
  for (const prog of programs) prog.cleanup();
  await emu?.close();
});

/** The preview's `warning:` lines of the `legacy` command's `dmPermission`; no write. */
async function previewWarnings(prog: PulumiProgram): Promise<string[]> {
  const res = await prog.run(["preview", "--non-interactive"], { timeoutMs: 300_000 });
  expect(printed(res)).toContain("+ 2 to create"); // the stack and the command
  expect(res.code).toBe(0);
  expect(emu.counters().writes).toBe(0);
  return printed(res)
    .split("\n")
    .filter((line) => WARNING.test(line));
}

test("a dynamic resource's dmPermission: one warning line in the preview", async () => {
  const prog = new PulumiProgram("check-warnings", {
    "index.ts": commandsProgram(`
new discord.GlobalCommand("legacy", { name: "legacy", description: "Old style", dmPermission: true });`),
  });
  programs.push(prog);
  linkPackage(prog);
  await prog.stack("dev");
  await configureStack(prog, emu);
  expect(await previewWarnings(prog)).toHaveLength(1);
});

test("the plugin's GlobalCommand's dmPermission, from YAML: one warning line in the preview", async () => {
  const prog = new PulumiProgram("check-warnings-yaml", {
    "Pulumi.yaml": [
      "name: check-warnings-yaml",
      "runtime: yaml",
      "packages:",
      `  discord-commands: ${PROJECT_ROOT}/plugin`,
      "resources:",
      "  legacy:",
      "    type: discord-commands:GlobalCommand",
      "    properties:",
      "      name: legacy",
      "      description: Old style",
      "      dmPermission: true",
      "",
    ].join("\n"),
  });
  programs.push(prog);
  await prog.stack("dev");
  await configurePluginStack(prog, emu);
  expect(await previewWarnings(prog)).toHaveLength(1);
});
