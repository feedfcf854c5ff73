/**
 * Bulk mode when something fails outside the PUT itself: a batch always settles, and a
 * scope's later batches still run. (Before: each scope's batches were chained on a
 * promise with no rejection handler, so a throw outside the PUT's own `try`, such as
 * `DISCORD_BULK_LOG` naming a folder that does not exist, left that batch and every later
 * one of the scope waiting forever.)
 */
import type { RunningEmulator } from "../../emulator";
import { BulkWriter } from "../../provider/resources/bulkWriter";
import type { BulkRuntime } from "../../provider/resources/bulkWriter";
import type { Bag } from "./helpers";
import {
  configureAll,
  guildInputs,
  guildProvider,
  runtime,
  setup,
  slashArgs,
  teardown,
} from "./helpers";

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await setup();
});
afterAll(() => teardown(emu));

/** The promise's outcome, or a failure naming what hung. */
async function settles<T>(what: string, promise: Promise<T>, ms = 5_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, hung]);
  } finally {
    clearTimeout(timer);
  }
}

test("a batch log that cannot be written neither fails nor blocks the writes (said once)", async () => {
  emu.control.reset();
  await configureAll(emu, { "discord:writeMode": "bulk", "discord:bulkWindowMs": "20" });
  const logFile = "/nonexistent-folder-of-the-test/bulk.log";
  const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined);
  process.env["DISCORD_BULK_LOG"] = logFile;
  try {
    const first = await settles(
      "the first batch",
      guildProvider.create(guildInputs(emu, slashArgs("first"))),
    );
    // A second batch of the same scope, after the first one's.
    const second = await settles(
      "the scope's next batch",
      guildProvider.create(guildInputs(emu, slashArgs("second"))),
    );
    const live = emu.control.state().commands.map((c: Bag) => c["name"]);
    expect(live).toEqual(expect.arrayContaining(["first", "second"]));
    expect(first.outs["commandId"]).toEqual(expect.any(String));
    expect(second.outs["commandId"]).toEqual(expect.any(String));
    expect(runtime.bulk.stats().batches).toBe(2);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toContain(`cannot append to ${logFile}`);
  } finally {
    delete process.env["DISCORD_BULK_LOG"];
    warn.mockRestore();
  }
});

test("a failure before the batch is taken fails its operations; the scope's next batch still runs", async () => {
  emu.control.reset();
  await configureAll(emu, { "discord:writeMode": "bulk", "discord:bulkWindowMs": "20" });
  // The real runtime, except that its client cannot be reached once (the batch's first
  // use of it is the rate-limit look before the PUT).
  let failures = 1;
  const flaky: BulkRuntime = {
    get client() {
      if (failures-- > 0) throw new Error("the client could not be set up");
      return runtime.client;
    },
    settings: runtime.settings,
    clock: runtime.clock,
    scopes: runtime.scopes,
    scopeLocks: runtime.scopeLocks,
    warnings: runtime.warnings,
    claims: runtime.claims,
  };
  const writer = new BulkWriter(flaky);
  const body = { name: "one", description: "One" };
  const firstBatch = writer.write(emu.applicationId, emu.guildId, { kind: "create", body });
  await expect(settles("the first batch", firstBatch)).rejects.toThrow(
    "the client could not be set up",
  );
  const next = await settles(
    "the scope's next batch",
    writer.write(emu.applicationId, emu.guildId, { kind: "create", body }),
  );
  expect(next.command?.name).toBe("one");
  expect(next.created).toBe(true);
});
