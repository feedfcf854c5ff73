/**
 * Outputs derived from a secret keep its mark through the plugin, from a YAML program
 * through the real CLI against the emulator (issue 45), proven with `pulumi stack export`:
 * a CommandSet whose command has a secret name (its commandIds are keyed by names), and a
 * command brought in with the `import` option whose program declares its description
 * secret (the engine's Read of an import carries no inputs: the update its diff asks for
 * stores the description marked, and writes nothing). No secret appears in clear, in any
 * case, in the state or the CLI's output. The provider-level proofs, re-ordered lists
 * included, are test/provider/pluginSecretMarks.test.ts.
 */
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import { PulumiProgram } from "../../scripts/pulumiProgram";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import { Api, rec } from "../emulator/helpers";
import { IDS, configurePluginStack, liveCommand, writes } from "./lifecycle.helpers";

jest.setTimeout(300_000);

const SECRET_NAME = "hiddenname";
const SECRET_DESCRIPTION = "Say hello quietly";

let emu: RunningEmulator;
let prog: PulumiProgram;

function program(importId: string): string {
  return `name: plugin-secret-marks
runtime: yaml
packages:
  discord-commands: ${PROJECT_ROOT}/plugin
resources:
  hello:
    type: discord-commands:GlobalCommand
    properties:
      name: hello
      description:
        fn::secret: ${SECRET_DESCRIPTION}
    options:
      import: "${importId}"
  mods:
    type: discord-commands:CommandSet
    properties:
      commands:
        - name:
            fn::secret: ${SECRET_NAME}
          description: Not for everyone
        - name: help
          description: How to use the bot
      scopes:
        - guildId: "${IDS.guild}"
`;
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0, rateLimits: false });
  prog = new PulumiProgram("plugin-secret-marks", {
    "Pulumi.yaml": program("0"),
  });
  await prog.stack("dev");
  await configurePluginStack(prog, emu);
});

afterAll(async () => {
  prog?.cleanup();
  await emu?.close();
});

test("a secret command name and an imported field declared secret stay secret in the state", async () => {
  const api = new Api(emu);
  const hello = rec(
    (await api.post(`${api.app}/commands`, { name: "hello", description: SECRET_DESCRIPTION }))
      .body,
  );
  prog.write({ "Pulumi.yaml": program(String(hello["id"])) });
  emu.control.resetLog();
  const up = await prog.ok(["up", "--yes", "--non-interactive"]);
  // The import writes nothing: only the set's two commands are created.
  expect(writes(emu).filter((w) => w.includes(String(hello["id"])))).toEqual([]);
  expect(liveCommand(emu, SECRET_NAME, IDS.guild)["description"]).toBe("Not for everyone");

  const exported = (await prog.ok(["stack", "export"])).stdout;
  expect(exported).toContain(`"id": "${String(hello["id"])}"`);
  for (const secret of [SECRET_NAME, SECRET_DESCRIPTION]) {
    expect(exported.toLowerCase()).not.toContain(secret.toLowerCase());
    expect((up.stdout + up.stderr).toLowerCase()).not.toContain(secret.toLowerCase());
  }
  // Stored marked, nothing is left to change.
  expect(await prog.previewSummary()).toEqual({ same: 4 });
});
