/**
 * `pulumi up` killed mid-deployment (SIGKILL of the CLI and its plugin processes, as a
 * crash or an OOM kill would) and run again converges: the service holds exactly the
 * declared commands, one per name, and the state holds each resource once.
 *
 * The emulator applies every create but answers some only after a long delay
 * (`phase: "after"`): the commands exist on the service while the engine still waits,
 * which is the worst case of a kill (a write the state never heard of).
 *
 * What a user does after such a kill, with the local (diy) backend (CLI 3.259):
 *  1. the stack is still locked by the dead process: `up` fails with "the stack is
 *     currently locked ... delete the lock file with `pulumi cancel`", and
 *     `pulumi cancel` does remove the stale lock of a local backend too;
 *  2. the creates the engine started but never finished are pending operations in the
 *     state; `up` would warn and go on but keep them, so the user repairs the stack as
 *     the CLI says, with `pulumi refresh --clear-pending-creates` (non-interactively);
 *  3. `pulumi up` creates the missing resources, and since create is an upsert by name,
 *     the command the killed run half-created is adopted (200, same id), not duplicated.
 *
 * (A command set's bulk overwrite lost the same way is taken over by the next `up` with no
 * write: test/provider/scopeCommands.test.ts "a PUT whose answer is lost".)
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import type { RunningEmulator } from "../../emulator";
import { PulumiProgram } from "../../scripts/pulumiProgram";
import {
  commandResources,
  commandsProgram,
  configureStack,
  emulator,
  linkPackage,
  liveCommands,
  printed,
  readState,
  urnName,
} from "./edgeHelpers";

jest.setTimeout(240_000);

const NAMES = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"];
/** Long enough that the kill always happens while these responses are held back. */
const HELD_MS = 10_000;

let emu: RunningEmulator;
let prog: PulumiProgram;

beforeAll(async () => {
  emu = await emulator();
  const body = NAMES.map(
    (n) => `new discord.GlobalCommand("${n}", { name: "${n}", description: "The ${n} command" });`,
  ).join("\n");
  prog = new PulumiProgram("edges-interrupt", { "index.ts": commandsProgram(body) });
  linkPackage(prog);
  await prog.stack("dev");
  await configureStack(prog, emu);
});
afterAll(async () => {
  prog.cleanup();
  await emu.close();
});

/** Pids of a process's descendants (from /proc), children first. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(entry));
    children.set(ppid, list);
  }
  const out: number[] = [];
  const walk = (p: number): void => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

async function until(what: string, cond: () => boolean, limitMs = 90_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test("up killed mid-deployment, then run again, converges with no orphan and no duplicate", async () => {
  // Two creates answer at once; the rest take effect but their answers are held back.
  emu.control.setFaults({
    rules: [
      {
        route: "createGlobalCommand",
        phase: "after",
        sequence: [
          { type: "pass" },
          { type: "pass" },
          ...NAMES.slice(2).map(() => ({ type: "delay" as const, ms: HELD_MS })),
        ],
      },
    ],
  });

  const cli = spawn("pulumi", ["up", "--yes", "--non-interactive", "--skip-preview"], {
    cwd: prog.dir,
    env: prog.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  cli.stdout.on("data", (c: Buffer) => (output += c.toString()));
  cli.stderr.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => cli.on("close", () => resolve()));

  // The client sends one create at a time (one rate-limit bucket). Kill once the third
  // create took effect, its answer held back, the state recorded the first two, and the
  // engine began every other create (recorded as pending: the registrations reach the
  // engine one after another, so on a loaded machine the last may come a moment later).
  await until("three creates applied", () => emu.control.commands().length === 3);
  await until("two creates in the state and the others begun", () => {
    if (!fs.existsSync(prog.stateFile("dev"))) return false;
    const state = readState(prog, "dev");
    return (
      commandResources(state).length === 2 && state.pendingOperations.length === NAMES.length - 2
    );
  });
  const tree = [cli.pid ?? 0, ...descendants(cli.pid ?? 0)];
  for (const pid of tree) killQuietly(pid);
  await exited;
  process.stdout.write(`\n[killed pulumi up and ${tree.length - 1} plugin processes]\n${output}\n`);
  emu.control.setFaults({ rules: [] });

  const afterKill = readState(prog, "dev");
  expect(commandResources(afterKill)).toHaveLength(2);
  expect(afterKill.pendingOperations).toHaveLength(NAMES.length - 2);
  expect(liveCommands(emu)).toHaveLength(3);

  // What a user runs next.
  // 1. The dead process's lock stays: `up` fails with "the stack is currently locked by
  //    1 lock(s) ... delete the lock file with `pulumi cancel`". On this CLI (3.259)
  //    `pulumi cancel` also works for the local backend: it removes the stale lock.
  const locked = await prog.run(["up", "--yes", "--non-interactive", "--skip-preview"]);
  expect(locked.code).not.toBe(0);
  expect(printed(locked)).toContain("the stack is currently locked");
  expect(printed(locked)).toContain("pulumi cancel");
  await prog.ok(["cancel", "--yes", "--non-interactive"]);

  // 2. The interrupted creates are pending operations. `up` would warn and go on, but
  //    keep them in the state; the CLI says to repair the stack with `pulumi refresh`,
  //    which clears pending creates only interactively or with --clear-pending-creates.
  //    Dropping them is safe here: the next create of each adopts the command by name.
  await prog.ok([
    "refresh",
    "--yes",
    "--non-interactive",
    "--skip-preview",
    "--clear-pending-creates",
  ]);
  expect(readState(prog, "dev").pendingOperations).toHaveLength(0);

  // 3. `up` converges: the four missing resources are created; the one the killed run
  //    half-created is adopted (create is an upsert by name), not duplicated.
  const again = await prog.up();
  expect(printed(again)).toMatch(/\+ 4 created/);
  const live = liveCommands(emu);
  expect(live.map(([n]) => n)).toEqual(NAMES);
  const state = readState(prog, "dev");
  expect(state.pendingOperations).toHaveLength(0);
  const resources = commandResources(state)
    .map((r) => [urnName(r.urn), r.id] as [string, string | undefined])
    .sort((a, b) => a[0].localeCompare(b[0]));
  expect(resources).toEqual(live);
  const adopted = commandResources(state).filter((r) => r.outputs?.["adopted"] === true);
  expect(adopted).toHaveLength(1); // the create whose answer the kill lost
  expect(await prog.previewSummary()).toEqual({ same: NAMES.length + 1 });

  // The held answer is still due: let it finish so the emulator closes at once.
  await until("the held answer", () => emu.requestLog().some((e) => e.fault === "delay"));
});
