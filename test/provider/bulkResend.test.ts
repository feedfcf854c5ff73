/**
 * A bulk overwrite under faults (issue 45, item 4), against the emulator:
 *
 * - a PUT answered 500 or 429, or whose connection dropped, after another client created a
 *   command in the scope: the write is tried again from a new list GET, so the PUT that
 *   lands keeps that command (the client used to resend the first body, built from the list
 *   read before the first try, and the resend deleted it); for a `ScopeCommands` set and
 *   for a bulk batch of single commands;
 * - no write waits for a rate limit while it holds its scope's lock: every wait (a bucket
 *   another write emptied while this one queued for the lock, a 429 on a PUT, on a PATCH,
 *   on a set's one-request writes) is waited with the lock let go.
 *
 * "Holds the lock" is observed, not timed: the runtime's locks run each holder in an
 * AsyncLocalStorage context, and the injected clock records whether a sleep (every wait of
 * the provider and its client goes through it) happens in one.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { setTimeout as realSleep } from "node:timers/promises";
import type { FaultRuleInput, RunningEmulator } from "../../emulator";
import type { Clock } from "../../provider/resources/clock";
import type { TimingLine } from "../../provider/resources/timingLog";
import { Api, rec, str } from "../emulator/helpers";
import type { Bag, ScopeCommandsProvider } from "./helpers";
import {
  guildInputs,
  guildProvider,
  guildSetInputs,
  liveGuildCommands,
  nextDeployment,
  requests,
  runtime,
  setCommands,
  setup,
  slashArgs,
  teardown,
} from "./helpers";

let emu: RunningEmulator;
let api: Api;
let dir: string;

beforeAll(async () => {
  emu = await setup();
  api = new Api(emu);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bulk-resend-"));
});
afterAll(async () => {
  await teardown(emu);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A fault, as a rule takes it. */
type FaultAction = NonNullable<FaultRuleInput["action"]>;

/** What the injected clock saw: each sleep, and whether a scope's lock holder made it. */
interface Sleeps {
  holding: number[];
  free: number[];
}

/** What `deployment` gives: the clock's record and the `ScopeCommands` provider. */
interface Deployment {
  readonly sleeps: Sleeps;
  readonly sets: ScopeCommandsProvider;
}

/**
 * A new deployment whose clock records its sleeps (and runs `beforeSleep` first), and whose
 * scope locks mark their holders.
 */
async function deployment(
  overrides: Record<string, string>,
  beforeSleep: () => Promise<void> = async () => undefined,
  env: Record<string, string> = {},
): Promise<Deployment> {
  const holder = new AsyncLocalStorage<true>();
  const sleeps: Sleeps = { holding: [], free: [] };
  const clock: Clock = {
    now: () => Date.now(),
    sleep: async (ms) => {
      (holder.getStore() === true ? sleeps.holding : sleeps.free).push(ms);
      await beforeSleep();
      await realSleep(ms);
    },
  };
  const sets = await nextDeployment(emu, overrides, { clock, env });
  const locks = runtime.scopeLocks;
  const exclusive = locks.exclusive.bind(locks);
  const shared = locks.shared.bind(locks);
  locks.exclusive = (a, g, fn) => exclusive(a, g, () => holder.run(true, fn));
  locks.shared = (a, g, fn) => shared(a, g, () => holder.run(true, fn));
  return { sleeps, sets };
}

function liveNames(): string[] {
  return liveGuildCommands(emu)
    .map((c) => str(c["name"]))
    .sort();
}

function setOf(names: readonly string[], description?: (n: string) => string): Bag {
  return guildSetInputs(emu, setCommands(names, description));
}

const faults: { readonly name: string; readonly action: FaultAction; readonly status: number }[] = [
  { name: "a 500", action: { type: "status", status: 500 }, status: 500 },
  { name: "a 429", action: { type: "rate_limit", retryAfterMs: 100 }, status: 429 },
  { name: "a dropped connection", action: { type: "drop" }, status: 0 },
];

describe("a PUT that failed after another client created a command in the scope", () => {
  /**
   * The guild's first PUT fails with `action`; at the first sleep after it (the resend's
   * backoff or rate-limit wait, wherever it is waited) another client creates "theirs".
   */
  async function raced(action: FaultAction, overrides: Record<string, string>, file?: string) {
    emu.control.reset();
    await api.post(`${api.guild}/commands`, { name: "before", description: "not ours" });
    let theirs: string | undefined;
    const { sleeps, sets } = await deployment(
      overrides,
      async () => {
        const failed = requests(emu, "PUT").length > 0;
        if (!failed || theirs !== undefined) return;
        theirs = "pending";
        const made = await api.post(`${api.guild}/commands`, { name: "theirs", description: "x" });
        theirs = str(rec(made.body)["id"]);
      },
      file === undefined ? {} : { DISCORD_TIMING_LOG: file },
    );
    emu.control.setFaults({
      rules: [{ route: "bulkOverwriteGuildCommands", action, times: 1 }],
    });
    return { sleeps, sets, theirs: () => theirs };
  }

  test.each(faults)("a set's PUT answered with $name: the write that lands keeps it", async (f) => {
    const file = path.join(dir, `set-${f.status}.jsonl`);
    const { sets, theirs } = await raced(f.action, {}, file);
    const { outs } = await sets.create(setOf(["a", "b", "c"]));
    emu.control.clearFaults();

    expect(theirs()).toMatch(/^\d+$/);
    expect(liveNames()).toEqual(["a", "b", "before", "c", "theirs"]);
    expect(Object.keys(outs["commandIds"] as Bag).sort()).toEqual(["a", "b", "c"]);
    // Tried again whole: a list GET before each PUT.
    const log = requests(emu).filter((e) => e.route?.endsWith("GuildCommands") === true);
    expect(log.map((e) => `${e.method} ${e.status}`)).toEqual([
      "GET 200",
      `PUT ${f.status}`,
      "GET 200",
      "PUT 200",
    ]);
    // Each PUT's window (from its list GET to its answer) is in the timing log.
    const lines = fs
      .readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as TimingLine)
      .filter((l) => l.type === "overwrite");
    expect(lines.map((l) => [l.scope, l.attempt, l.ok])).toEqual([
      ["guild", 1, false],
      ["guild", 2, true],
    ]);
    for (const l of lines) expect(l.windowMs).toBeGreaterThan(0);
  });

  test.each(faults)(
    "a bulk batch's PUT answered with $name: the write that lands keeps it",
    async (f) => {
      const { theirs } = await raced(f.action, {
        "discord:writeMode": "bulk",
        "discord:bulkWindowMs": "20",
      });
      const made = await Promise.all(
        ["x", "y"].map((n) => guildProvider.create(guildInputs(emu, slashArgs(n)))),
      );
      emu.control.clearFaults();

      expect(theirs()).toMatch(/^\d+$/);
      expect(liveNames()).toEqual(["before", "theirs", "x", "y"]);
      for (const m of made) expect(m.outs["adopted"]).toBe(false);
      expect(requests(emu, "PUT").map((e) => e.status)).toEqual([f.status, 200]);
    },
  );

  test("a PUT that took effect but whose answer was lost: the next try's creates are still the batch's own", async () => {
    emu.control.reset();
    await deployment({ "discord:writeMode": "bulk", "discord:bulkWindowMs": "20" });
    emu.control.setFaults({
      rules: [
        { route: "bulkOverwriteGuildCommands", action: { type: "drop" }, phase: "after", times: 1 },
      ],
    });
    const made = await guildProvider.create(guildInputs(emu, slashArgs("mine")));
    emu.control.clearFaults();
    expect(liveNames()).toEqual(["mine"]);
    // Made by the first PUT (whose answer was lost), not taken over from another writer.
    expect(made.outs["adopted"]).toBe(false);
    expect(requests(emu, "PUT").map((e) => e.status)).toEqual([0, 200]);
  });
});

describe("no write waits for a rate limit while it holds its scope's lock", () => {
  test("two list writes on a PUT bucket of 1 per 1.5 s: the room is looked at once the lock is held", async () => {
    await emu.close();
    emu = await setup({
      rateLimits: {
        global: { limit: 50, windowMs: 1000 },
        routeDefault: { limit: 5, windowMs: 5000 },
        routes: { "guild-commands-bulk": { limit: 1, windowMs: 1500 } },
        invalidRequests: { limit: 10_000, windowMs: 600_000, banMs: 600_000 },
      },
    });
    api = new Api(emu);
    const { sleeps, sets: provider } = await deployment({});
    // Two sets' overwrites in one guild, at once: both find the PUT bucket's one request
    // free before they queue for the lock; the second to take it finds it used.
    const [first, second] = await Promise.all([
      provider.create(setOf(["a", "b", "c"])),
      provider.create(setOf(["x", "y", "z"])),
    ]);
    expect(liveNames()).toEqual(["a", "b", "c", "x", "y", "z"]);
    expect(Object.keys(first.outs["commandIds"] as Bag)).toHaveLength(3);
    expect(Object.keys(second.outs["commandIds"] as Bag)).toHaveLength(3);
    expect(requests(emu, "PUT").map((e) => e.status)).toEqual([200, 200]);
    expect(sleeps.holding).toEqual([]);
    expect(sleeps.free.some((ms) => ms >= 500)).toBe(true); // the bucket's wait, let go
  });

  test("429s on a PUT, on PATCHes and on a set's one-request writes: each waited with the lock let go", async () => {
    await emu.close();
    emu = await setup();
    api = new Api(emu);
    const { sleeps, sets: provider } = await deployment({});
    const created = await provider.create(setOf(["a", "b", "c"]));
    const single = await guildProvider.create(guildInputs(emu, slashArgs("single")));
    const limited: FaultAction = { type: "rate_limit", retryAfterMs: 300 };
    emu.control.setFaults({
      rules: [
        { route: "bulkOverwriteGuildCommands", action: limited, times: 1 },
        { route: "editGuildCommand", action: limited, times: 2 },
      ],
    });
    // The set: one edit (a PATCH under the shared lock); then three (an overwrite).
    const one = await provider.update(
      created.id,
      created.outs,
      setOf(["a", "b", "c"], (n) => (n === "a" ? "Edited" : `The ${n}`)),
    );
    await provider.update(
      created.id,
      one.outs,
      setOf(["a", "b", "c"], (n) => `New ${n}`),
    );
    // A single command in per-command mode: a PATCH.
    await guildProvider.update(
      single.id,
      single.outs,
      guildInputs(emu, slashArgs("single", { description: "Edited" })),
    );
    emu.control.clearFaults();

    const live = new Map(
      emu.control.commands().map((c) => [str(c["name"]), str(c["description"])]),
    );
    expect(Object.fromEntries(live)).toEqual({
      a: "New a",
      b: "New b",
      c: "New c",
      single: "Edited",
    });
    expect(requests(emu).filter((e) => e.status === 429)).toHaveLength(3);
    expect(sleeps.holding).toEqual([]);
    expect(sleeps.free.filter((ms) => ms >= 300)).toHaveLength(3);
  });
});
