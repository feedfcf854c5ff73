/**
 * examples/contract-test as a user runs it (`npm run contract-test`, i.e. ts-node on
 * contract-test.ts) in a scratch copy, with the real Pulumi CLI on PATH and a local
 * backend: it deploys the program to its emulator with `pulumi up`, starts the bot's
 * handler, invokes each deployed command (autocomplete included), then destroys the
 * stack. A handler that answers one command wrongly makes it fail.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { PulumiProgram } from "../../scripts/pulumiProgram";
import { exampleProgram } from "./helpers";

jest.setTimeout(600_000);

function contractTest(
  prog: PulumiProgram,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [require.resolve("ts-node/dist/bin.js"), "--transpile-only", "contract-test.ts"],
      { cwd: prog.dir, env: prog.env, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      process.stdout.write(d);
    });
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("examples/contract-test", () => {
  let prog: PulumiProgram;
  beforeAll(() => {
    prog = exampleProgram("contract-test");
  });
  afterAll(() => prog.cleanup());

  test("deploys with pulumi up, invokes every command against the bot's handler, and destroys", async () => {
    const run = await contractTest(prog);
    expect({ code: run.code, stderr: run.code === 0 ? "" : run.stderr }).toEqual({
      code: 0,
      stderr: "",
    });
    const lines = run.stdout.split("\n").filter((l) => /^(ok |FAIL|\d+ commands)/.test(l));
    expect(lines).toEqual([
      "ok   /ping",
      'ok   /weather city: typing "pa"',
      "ok   /weather city:paris units:metric",
      "ok   /mod warn",
      "ok   High Five (on a user)",
      "4 commands, 5 interactions, all passed",
    ]);
    expect(run.stdout).toContain("who can use /mod here? the default user: true");
    // The stack was destroyed: no resource left in its state.
    const state = JSON.parse(fs.readFileSync(prog.stateFile("contract"), "utf8")) as {
      checkpoint: { latest?: { resources?: unknown[] } };
    };
    expect(state.checkpoint.latest?.resources ?? []).toEqual([]);
  });

  test("a handler that answers /weather with an empty message fails the contract", async () => {
    const file = path.join(prog.dir, "handler.ts");
    const source = fs.readFileSync(file, "utf8");
    const broken = source.replace(
      'return reply(`Sunny in ${String(option(i, "city"))}`);',
      'return reply("");',
    );
    expect(broken).not.toBe(source);
    fs.writeFileSync(file, broken);
    const run = await contractTest(prog);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      "FAIL /weather city:paris units:metric: invalid: interaction failed: Cannot send an empty message",
    );
    expect(run.stdout).toContain("4 commands, 5 interactions, 1 failed");
  });
});
