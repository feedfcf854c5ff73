/**
 * `DISCORD_TIMING_LOG`: every provider call of every kind is timed through the one engine
 * wrapper (forEngine), failures included; the client's rate-limit waits are logged; no
 * line carries a token; a file that cannot be written costs one warning and no call.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import type { Bag } from "../../provider/resources/propertyBags";
import { scopeCommandsProvider } from "../../provider/resources/scopeCommandsLifecycle";
import type { TimingLine } from "../../provider/resources/timingLog";
import { TimingLog } from "../../provider/resources/timingLog";
import { configureAll, runtime, setup, teardown } from "./helpers";

let emu: RunningEmulator;
let dir: string;

beforeAll(async () => {
  emu = await setup();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "timing-log-"));
});
afterAll(async () => {
  await teardown(emu);
  fs.rmSync(dir, { recursive: true, force: true });
});

function linesOf(file: string): TimingLine[] {
  return fs
    .readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as TimingLine);
}

const commands = (description: string): Bag => ({
  ping: { name: "ping", description },
});

test("each provider call is one line: method, resource, start and duration", async () => {
  const file = path.join(dir, "calls.jsonl");
  await configureAll(emu, {}, { env: { DISCORD_TIMING_LOG: file } });
  const provider = scopeCommandsProvider(runtime);
  const inputs = { guildId: emu.guildId, commands: commands("Pong") };
  const before = Date.now();
  const checked = await provider.check({}, inputs);
  expect(checked.failures).toEqual([]);
  const created = await provider.create(checked.inputs);
  await provider.diff(created.id, created.outs, checked.inputs);
  // A failing call is timed too, and marked.
  await expect(provider.read("not-a-scope/x/y", {})).rejects.toThrow();

  const lines = linesOf(file);
  expect(lines[0]).toEqual({
    type: "process",
    pid: process.pid,
    startedAt: Math.round(performance.timeOrigin),
    // Not a Pulumi SDK process (jest): google-protobuf's own coders (plainStructs.ts).
    plainStructs: "none",
  });
  const calls = lines.filter((l) => l.type === "call");
  expect(calls.map((c) => [c.method, c.failed])).toEqual([
    ["check", false],
    ["create", false],
    ["diff", false],
    ["read", true],
  ]);
  for (const c of calls) {
    expect(c.resource).toContain("application");
    expect(c.at).toBeGreaterThanOrEqual(before - 1);
    expect(c.ms).toBeGreaterThanOrEqual(0);
  }
  // The create made requests, so it took longer than nothing; the lines carry no token.
  expect(calls[1]?.ms).toBeGreaterThan(0);
  const text = fs.readFileSync(file, "utf8");
  expect(text).not.toContain(emu.botToken);
});

test("no variable, no file: nothing is written and the calls cost no clock reads", async () => {
  let reads = 0;
  const log = new TimingLog(undefined, () => {
    reads++;
    return 0;
  });
  expect(log.enabled).toBe(false);
  log.call("check", "x", 0, false);
  log.onClientEvent({
    type: "rateLimited",
    method: "PUT",
    route: "/r",
    path: "/p",
    bucket: "b",
    global: false,
    waitMs: 5,
    attempt: 1,
  });
  expect(reads).toBe(0);
});

test("rate-limit waits are logged from the client's events, other events are not", () => {
  const file = path.join(dir, "waits.jsonl");
  const log = new TimingLog(file, () => 1_000);
  log.onClientEvent({
    type: "rateLimited",
    method: "PUT",
    route: "/applications/{applicationId}/commands",
    path: "/applications/1/commands",
    bucket: "b",
    global: false,
    waitMs: 1_500,
    attempt: 1,
  });
  log.onClientEvent({
    type: "response",
    method: "GET",
    route: "/r",
    path: "/p",
    status: 200,
    attempt: 1,
    durationMs: 3,
  });
  expect(linesOf(file).slice(1)).toEqual([
    {
      type: "rateLimited",
      pid: process.pid,
      route: "/applications/{applicationId}/commands",
      at: 1_000,
      waitMs: 1_500,
    },
  ]);
});

test("a file that cannot be written: one warning, and the calls still succeed", async () => {
  const file = path.join(dir, "no-such-folder", "timings.jsonl");
  const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined);
  try {
    await configureAll(emu, {}, { env: { DISCORD_TIMING_LOG: file } });
    const provider = scopeCommandsProvider(runtime);
    const inputs = { guildId: emu.guildId, commands: commands("Pong again") };
    const checked = await provider.check({}, inputs);
    const created = await provider.create(checked.inputs);
    await provider.diff(created.id, created.outs, checked.inputs);
    expect(created.id).toContain(emu.guildId);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toContain("DISCORD_TIMING_LOG: cannot append");
  } finally {
    warn.mockRestore();
  }
});
