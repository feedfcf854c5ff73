/**
 * examples/ci-with-emulator: the README's "emulator for your own CI" recipe, run as the
 * script it is, in a copy of examples/quickstart: it starts the emulator in the
 * background, waits for its ready file, deploys with `pulumi up`, checks that a second
 * preview changes nothing, and stops the emulator, whose state file then holds the
 * deployed commands. The one difference from a user's CI: `EMULATOR` runs this
 * repository's CLI from its sources (`npx discord-commands` needs the built package).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import { exampleProgram, EXAMPLES_DIR } from "./helpers";

jest.setTimeout(400_000);

test("the recipe deploys against a background emulator and stops it", async () => {
  const prog = exampleProgram("quickstart");
  try {
    const state = path.join(prog.root, "emulator-state.json");
    const script = path.join(EXAMPLES_DIR, "ci-with-emulator", "deploy-against-emulator.sh");
    const tsNode = path.join(PROJECT_ROOT, "node_modules", ".bin", "ts-node");
    const cli = path.join(PROJECT_ROOT, "cli", "main.ts");
    const result = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn("bash", [script], {
        cwd: prog.dir,
        env: {
          ...prog.env,
          STACK: "ci",
          EMULATOR_STATE: state,
          EMULATOR: `${tsNode} --transpile-only ${cli} emulator`,
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      const take = (d: Buffer) => {
        out += d.toString();
        process.stdout.write(d);
      };
      child.stdout.on("data", take);
      child.stderr.on("data", take);
      child.on("exit", (code) => resolve({ code, out }));
    });
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/emulator ready at http:\/\/127\.0\.0\.1:\d+/);
    expect(result.out).toMatch(/emulator stopped; its state is in/);
    const saved = JSON.parse(fs.readFileSync(state, "utf8")) as { commands: { name: string }[] };
    expect(saved.commands.map((c) => c.name).sort()).toEqual(["Show Profile", "echo", "ping"]);
  } finally {
    prog.cleanup();
  }
});
