/**
 * Bulk write mode against the emulator: how many requests for how many operations, that
 * every live command the batch does not touch is carried unchanged (unmanaged ones, the
 * entry point, a guild command's nsfw), and that a failing PUT fails every pending
 * operation with the service's error and changes nothing.
 */
import type { RunningEmulator } from "../../emulator";
import { RateLimitConfig } from "../../emulator";
import { Api, rec, str } from "../emulator/helpers";
import type { Bag } from "./helpers";
import {
  configureAll,
  globalInputs,
  globalProvider,
  guildInputs,
  guildProvider,
  rejection,
  requests,
  runtime,
  setup,
  slashArgs,
  teardown,
  writes,
} from "./helpers";

let emu: RunningEmulator;
let api: Api;

beforeAll(async () => {
  emu = await setup();
  api = new Api(emu);
});
afterAll(() => teardown(emu));

async function bulkDeployment(): Promise<void> {
  emu.control.reset();
  await configureAll(emu, { "discord:writeMode": "bulk" });
}

/** Five commands another tool made in the guild (one age-restricted, one localized, two context menus). */
async function seedUnmanagedGuild(): Promise<Record<string, unknown>[]> {
  const bodies = [
    { name: "other-a", description: "Other A", nsfw: true },
    {
      name: "other-b",
      description: "Other B",
      name_localizations: { fr: "autre-b" },
      default_member_permissions: "32",
      options: [{ type: 3, name: "x", description: "X", required: true }],
    },
    { name: "other-c", description: "Other C" },
    { type: 2, name: "Other User" },
    { type: 3, name: "Other Message" },
  ];
  const out: Record<string, unknown>[] = [];
  for (const b of bodies) {
    const res = await api.post(`${api.guild}/commands`, b);
    expect(res.status).toBe(201);
    out.push(rec(res.body));
  }
  return out;
}

function liveGuild(): Map<string, Record<string, unknown>> {
  return new Map(
    emu.control
      .commands()
      .filter((c) => c["guild_id"] === emu.guildId)
      .map((c) => [str(c["id"]), c]),
  );
}

const userArgs = (name: string): Bag => ({ type: 2, name });

describe("bulk write mode", () => {
  test("8 parallel creates in a guild: two list GETs and one PUT; unmanaged commands kept unchanged", async () => {
    await bulkDeployment();
    const others = await seedUnmanagedGuild();
    emu.control.resetLog();

    const inputs = [
      ...Array.from({ length: 6 }, (_, i) => guildInputs(emu, slashArgs(`cmd${i}`))),
      guildInputs(emu, userArgs("Managed User")),
      guildInputs(emu, { type: 3, name: "Managed Message" }),
    ];
    const results = await Promise.all(inputs.map((i) => guildProvider.create(i)));

    // The creates' snapshot (live twins), then the list the PUT is built from, read under
    // the scope's lock right before it.
    expect(requests(emu, "GET").length).toBe(2);
    expect(requests(emu, "PUT").map((e) => e.route)).toEqual(["bulkOverwriteGuildCommands"]);
    // other-a's nsfw goes in the PUT (the service keeps it there): no second write.
    expect(requests(emu, "PATCH").length).toBe(0);
    expect(runtime.bulk.stats()).toMatchObject({ batches: 1, operations: 8, largestBatch: 8 });

    const live = liveGuild();
    expect(live.size).toBe(13);
    const ids = new Set(results.map((r) => r.id));
    expect(ids.size).toBe(8);
    for (const r of results) {
      const c = live.get(r.id);
      expect(c).toBeDefined();
      expect(r.outs["commandId"]).toBe(r.id);
      expect(r.outs["version"]).toBe(c?.["version"]);
      expect(r.outs["adopted"]).toBe(false);
    }
    // The unmanaged ones: same id, same fields, same version (nsfw included).
    for (const o of others) expect(live.get(str(o["id"]))).toEqual(o);
  });

  test("update, delete and create of one scope in one PUT; the next batch reads the list again under the lock", async () => {
    await bulkDeployment();
    const others = await seedUnmanagedGuild();
    const [a, b] = await Promise.all([
      guildProvider.create(guildInputs(emu, slashArgs("alpha"))),
      guildProvider.create(guildInputs(emu, slashArgs("beta"))),
    ]);
    if (a === undefined || b === undefined) throw new Error("creates failed");
    await configureAll(emu, { "discord:writeMode": "bulk" }); // the next deployment
    emu.control.resetLog();

    const newAlpha = guildInputs(emu, slashArgs("alpha", { description: "Alpha, edited" }));
    const [updated, , created] = await Promise.all([
      guildProvider.update(a.id, a.outs, newAlpha),
      guildProvider.delete(b.id, b.outs),
      guildProvider.create(guildInputs(emu, slashArgs("gamma"))),
    ]);
    expect(requests(emu, "GET").length).toBe(2); // the create's snapshot, the PUT's list
    expect(requests(emu, "PUT").length).toBe(1);
    expect(writes(emu).length).toBe(1); // the PUT alone

    const live = liveGuild();
    expect(live.get(a.id)?.["description"]).toBe("Alpha, edited");
    expect(updated.outs["version"]).toBe(live.get(a.id)?.["version"]);
    expect(live.has(b.id)).toBe(false);
    expect(live.get(created.id)?.["name"]).toBe("gamma");
    for (const o of others) expect(live.get(str(o["id"]))).toEqual(o);

    // The next batch of the deployment reads the list again under the scope's lock (another
    // writer may have changed the scope since the last answer): one GET, right before it.
    emu.control.resetLog();
    await guildProvider.create(guildInputs(emu, slashArgs("delta")));
    expect(requests(emu, "GET").length).toBe(1);
    expect(requests(emu, "PUT").length).toBe(1);
  });

  test("a create takes over a live command of the same name (upsert), like the POST", async () => {
    await bulkDeployment();
    const [other] = await seedUnmanagedGuild();
    const result = await guildProvider.create(
      guildInputs(emu, slashArgs("other-a", { description: "Now managed" })),
    );
    expect(result.id).toBe(other?.["id"]);
    expect(result.outs["adopted"]).toBe(true);
    expect(liveGuild().get(result.id)?.["description"]).toBe("Now managed");
    expect(liveGuild().get(result.id)?.["nsfw"]).toBe(false); // the program's whole declaration
  });

  test("a swap of two names: the creates take over each other's commands, the deletes delete nothing", async () => {
    await bulkDeployment();
    const [x, y] = await Promise.all([
      guildProvider.create(guildInputs(emu, slashArgs("left"))),
      guildProvider.create(guildInputs(emu, slashArgs("right"))),
    ]);
    if (x === undefined || y === undefined) throw new Error("creates failed");
    // The engine: both replacement creates first, then both deletes of the originals.
    const [x2, y2] = await Promise.all([
      guildProvider.create(guildInputs(emu, slashArgs("right", { description: "X now" }))),
      guildProvider.create(guildInputs(emu, slashArgs("left", { description: "Y now" }))),
    ]);
    await Promise.all([guildProvider.delete(x.id, x.outs), guildProvider.delete(y.id, y.outs)]);
    const live = liveGuild();
    expect(live.size).toBe(2);
    expect(live.get(x2.id)?.["description"]).toBe("X now");
    expect(live.get(y2.id)?.["description"]).toBe("Y now");
  });

  test("global scope: the entry point and an unmanaged global command are carried; all four types", async () => {
    await bulkDeployment();
    emu.control.setActivities(emu.applicationId, true);
    const before = emu.control.commands().filter((c) => c["guild_id"] === undefined);
    expect(before.map((c) => c["type"])).toEqual([4]);
    const other = rec(
      (
        await api.post(`${api.app}/commands`, {
          name: "other-global",
          description: "Not ours",
          contexts: [0, 1],
          integration_types: [0],
          nsfw: true,
        })
      ).body,
    );
    emu.control.resetLog();
    const results = await Promise.all([
      globalProvider.create(globalInputs(emu, slashArgs("g1"))),
      globalProvider.create(globalInputs(emu, userArgs("G User"))),
      globalProvider.create(globalInputs(emu, { type: 3, name: "G Message" })),
    ]);
    expect(requests(emu, "PUT").map((e) => e.route)).toEqual(["bulkOverwriteGlobalCommands"]);
    expect(writes(emu).length).toBe(1);
    const live = emu.control.commands().filter((c) => c["guild_id"] === undefined);
    expect(live.length).toBe(5);
    for (const c of [...before, other]) {
      expect(live.find((l) => l["id"] === c["id"])).toEqual(c);
    }
    expect(results.map((r) => r.outs["adopted"])).toEqual([false, false, false]);
  });

  test("deleting the managed entry point: a DELETE of its own (a PUT without it is refused 50240); others batched", async () => {
    await bulkDeployment();
    emu.control.setActivities(emu.applicationId, true);
    const [launch] = emu.control.commands().filter((c) => c["type"] === 4);
    const adopted = await globalProvider.create(
      globalInputs(emu, { type: 4, name: "Launch", description: "Launch an activity", handler: 2 }),
    );
    expect(adopted.id).toBe(launch?.["id"]);
    const g = await globalProvider.create(globalInputs(emu, slashArgs("g-one")));
    await configureAll(emu, { "discord:writeMode": "bulk" }); // the next deployment
    emu.control.resetLog();

    await Promise.all([
      globalProvider.delete(adopted.id, adopted.outs),
      globalProvider.delete(g.id, g.outs),
    ]);
    expect(requests(emu).map((e) => `${e.method} ${e.route ?? ""} ${e.status}`)).toEqual(
      expect.arrayContaining([
        "DELETE deleteGlobalCommand 204",
        "PUT bulkOverwriteGlobalCommands 200",
      ]),
    );
    expect(requests(emu).filter((e) => e.status >= 400)).toEqual([]);
    expect(emu.control.commands().filter((c) => c["guild_id"] === undefined)).toEqual([]);
  });

  test("deleting only the managed entry point: one DELETE, no PUT", async () => {
    await bulkDeployment();
    emu.control.setActivities(emu.applicationId, true);
    const adopted = await globalProvider.create(
      globalInputs(emu, { type: 4, name: "Launch", description: "Launch an activity", handler: 2 }),
    );
    await globalProvider.create(globalInputs(emu, slashArgs("g-kept")));
    await configureAll(emu, { "discord:writeMode": "bulk" }); // the next deployment
    emu.control.resetLog();

    await globalProvider.delete(adopted.id, adopted.outs);
    expect(writes(emu).map((e) => `${e.method} ${e.route ?? ""} ${e.status}`)).toEqual([
      "DELETE deleteGlobalCommand 204",
    ]);
    const live = emu.control.commands().filter((c) => c["guild_id"] === undefined);
    expect(live.map((c) => c["name"])).toEqual(["g-kept"]);
  });

  test("the guild bulk body carries nsfw (blank in the spec's table, kept by the service): no PATCH", async () => {
    await bulkDeployment();
    emu.control.resetLog();
    const result = await guildProvider.create(guildInputs(emu, slashArgs("adult", { nsfw: true })));
    expect(requests(emu, "PUT").length).toBe(1);
    expect(requests(emu, "PATCH").length).toBe(0);
    const live = liveGuild().get(result.id);
    expect(live?.["nsfw"]).toBe(true);
    expect(result.outs["version"]).toBe(live?.["version"]);
  });

  test("a failing PUT fails every pending operation with the service's error and changes nothing", async () => {
    emu.control.reset();
    await emu.close();
    emu = await setup({ config: { dailyCreateLimit: 3 } });
    api = new Api(emu);
    await configureAll(emu, { "discord:writeMode": "bulk" });
    const before = liveGuild();
    const errors = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        rejection(guildProvider.create(guildInputs(emu, slashArgs(`over${i}`)))),
      ),
    );
    expect(requests(emu, "PUT").length).toBe(1);
    for (const err of errors) {
      const message = (err as Error).message;
      expect(message).toContain(`in guild ${emu.guildId}`);
      expect(message).toContain("answered 400 (code 30034)");
      expect(message).toContain("the daily budget of command creates is spent");
    }
    expect(liveGuild()).toEqual(before);
  });
});

describe("the daily create limit (30034) fails a create at once, naming the scope, the limit and the reset", () => {
  const forms = [
    { status: 400 as const, mode: "per-command" },
    { status: 429 as const, mode: "per-command" },
    { status: 400 as const, mode: "bulk" },
    { status: 429 as const, mode: "bulk" },
  ];
  test.each(forms)("30034 as a $status, $mode mode", async ({ status, mode }) => {
    await emu.close();
    emu = await setup({ config: { dailyCreateLimit: 1, dailyCreateLimitStatus: status } });
    api = new Api(emu);
    await configureAll(emu, { "discord:writeMode": mode });
    await guildProvider.create(guildInputs(emu, slashArgs("first")));
    const started = Date.now();
    const err = await rejection(guildProvider.create(guildInputs(emu, slashArgs("second"))));
    expect(Date.now() - started).toBeLessThan(5_000); // no wait on a Retry-After of hours
    const message = (err as Error).message;
    expect(message).toContain(`in guild ${emu.guildId}`);
    expect(message).toContain(`answered ${status} (code 30034)`);
    expect(message).toContain(
      "the daily budget of command creates is spent (the service allows 1 a day)",
    );
    if (status === 429) {
      // The 429 says when the budget has room again: 24 h after the first create.
      const at = /run `pulumi up` again after (\S+Z)/.exec(message)?.[1];
      expect(at).toBeDefined();
      expect(Math.abs(Date.parse(at ?? "") - (started + 86_400_000))).toBeLessThan(60_000);
    } else {
      // The 400 form says nothing of the reset; the route window's reset is not it.
      expect(message).toContain("the service does not say when the day's budget resets");
      expect(message).not.toMatch(/again after \d{4}-/);
    }
    expect(
      requests(emu, undefined, "createGuildCommand").length + requests(emu, "PUT").length,
    ).toBe(2); // one write each, never retried
  });

  test("a 429 on a create whose Retry-After is past the client's wait budget fails at once and says why", async () => {
    await emu.close();
    emu = await setup();
    api = new Api(emu);
    await configureAll(emu);
    emu.control.setFaults({
      rules: [
        { route: "createGuildCommand", action: { type: "rate_limit", retryAfterMs: 600_000 } },
      ],
    });
    const started = Date.now();
    const err = await rejection(guildProvider.create(guildInputs(emu, slashArgs("late"))));
    emu.control.clearFaults();
    expect(Date.now() - started).toBeLessThan(5_000);
    const message = (err as Error).message;
    expect(message).toContain(`guild ${emu.guildId}`);
    expect(message).toContain("daily create limit (200 per day per scope)");
    expect(message).toMatch(/room again after \d{4}-\d\d-\d\dT/);
  });
});

describe("bulk mode, an update of a command deleted outside the stack", () => {
  test("says to refresh, and writes nothing", async () => {
    await bulkDeployment();
    const a = await guildProvider.create(guildInputs(emu, slashArgs("gone")));
    emu.control.deleteCommand(a.id);
    await configureAll(emu, { "discord:writeMode": "bulk" });
    emu.control.resetLog();
    const err = await rejection(
      guildProvider.update(a.id, a.outs, guildInputs(emu, slashArgs("gone", { description: "x" }))),
    );
    expect(String(err)).toContain("pulumi refresh");
    expect(writes(emu).length).toBe(0);
  });
});

describe("bulk mode under the engine's shared parallel slots", () => {
  let own: RunningEmulator;
  beforeAll(async () => {
    own = await setup();
  });
  afterAll(() => teardown(own));
  beforeEach(async () => {
    own.control.reset();
    own.control.setRateLimits(false);
    await configureAll(own, { "discord:writeMode": "bulk" });
  });
  const names = (scope: "guild" | "global"): string[] =>
    own.control
      .commands()
      .filter((c) => (scope === "guild" ? c["guild_id"] === own.guildId : !c["guild_id"]))
      .map((c) => str(c["name"]))
      .sort();

  test("the small side of a wave split between two scopes waits for the rest of its side: one PUT each", async () => {
    // The deployment's first batch: 4 operations (the engine's slots, as far as it knows).
    await Promise.all(
      ["w0", "w1", "w2", "w3"].map((n) => guildProvider.create(guildInputs(own, slashArgs(n)))),
    );
    own.control.resetLog();
    // A wave of 4 split 3 global + 1 guild; when the global PUT answers, its 3 slots bring
    // the rest of the guild's side.
    const guildFirst = guildProvider.create(guildInputs(own, slashArgs("g0")));
    await Promise.all(
      ["a", "b", "c"].map((n) => globalProvider.create(globalInputs(own, slashArgs(n)))),
    );
    await Promise.all([
      guildFirst,
      ...["g1", "g2", "g3"].map((n) => guildProvider.create(guildInputs(own, slashArgs(n)))),
    ]);
    expect(requests(own, "PUT").map((e) => e.route)).toEqual([
      "bulkOverwriteGlobalCommands",
      "bulkOverwriteGuildCommands",
    ]);
    expect(names("guild")).toEqual(["g0", "g1", "g2", "g3", "w0", "w1", "w2", "w3"]);
    expect(names("global")).toEqual(["a", "b", "c"]);
  });

  test("waves split evenly between two scopes: the slots are the most operations held at once, not the largest batch", async () => {
    // Every wave of a program that declares its scopes in turn: 4 and 4 of 8 slots. The
    // largest batch is 4, but 8 operations were held at once.
    await Promise.all([
      ...["a0", "a1", "a2", "a3"].map((n) =>
        globalProvider.create(globalInputs(own, slashArgs(n))),
      ),
      ...["w0", "w1", "w2", "w3"].map((n) => guildProvider.create(guildInputs(own, slashArgs(n)))),
    ]);
    own.control.resetLog();
    // The next wave, 4 and 4 again: the side that comes second waits for the other's PUT,
    // whose answer frees the slots that bring 2 more of it into the same PUT.
    const global = ["b0", "b1", "b2", "b3"].map((n) =>
      globalProvider.create(globalInputs(own, slashArgs(n))),
    );
    const guild = ["g0", "g1", "g2", "g3"].map((n) =>
      guildProvider.create(guildInputs(own, slashArgs(n))),
    );
    await Promise.all(global);
    await Promise.all([
      ...guild,
      ...["g4", "g5"].map((n) => guildProvider.create(guildInputs(own, slashArgs(n)))),
    ]);
    expect(requests(own, "PUT").map((e) => e.route)).toEqual([
      "bulkOverwriteGlobalCommands",
      "bulkOverwriteGuildCommands",
    ]);
    expect(names("guild")).toEqual(["g0", "g1", "g2", "g3", "g4", "g5", "w0", "w1", "w2", "w3"]);
  });

  /** Runs `tasks` at most `slots` at a time, each taking the next once one ends, as the engine's slots do. */
  async function inSlots(slots: number, tasks: (() => Promise<unknown>)[]): Promise<void> {
    let next = 0;
    const slot = async (): Promise<void> => {
      while (next < tasks.length) await (tasks[next++] as () => Promise<unknown>)();
    };
    await Promise.all(Array.from({ length: slots }, slot));
  }
  const creates = (prefix: string, n: number): (() => Promise<unknown>)[] =>
    Array.from(
      { length: n },
      (_, i) => () => guildProvider.create(guildInputs(own, slashArgs(`${prefix}${i}`))),
    );

  test("24 creates of a scope through 8 slots take 3 PUTs, and the deployment says once how to raise the slots", async () => {
    await inSlots(8, [...creates("s", 24), ...creates("t", 8)]);
    expect(requests(own, "PUT")).toHaveLength(4);
    const advice = runtime.warnings.messages.filter((m) => m.startsWith("bulk mode:"));
    expect(advice).toEqual([
      `bulk mode: guild ${own.guildId} of application ${own.applicationId} took 3 bulk overwrites ` +
        "for 24 operations so far, because the engine hands the provider at most 8 operations at " +
        "once (its parallel slots: `pulumi up --parallel`, by default 4 per CPU) and a PUT can " +
        "carry only those; `pulumi up --parallel 100` (or PULUMI_PARALLEL=100) lets one PUT carry " +
        "a scope's whole wave, fewer requests against the scope's 5 bulk overwrites per 5 s " +
        "(docs/bulk-mode.md)",
    ]);
  });

  test("32 creates of a scope handed over at once (--parallel 100): one PUT and no advice", async () => {
    await inSlots(100, creates("s", 32));
    expect(requests(own, "PUT")).toHaveLength(1);
    expect(names("guild")).toHaveLength(32);
    expect(runtime.warnings.messages.filter((m) => m.startsWith("bulk mode:"))).toEqual([]);
  });

  test("a wave still arriving when the first window ends (the engine's ramp-up) stays one batch until a window passes with no arrival", async () => {
    const first = creates("a", 10).map((c) => c());
    await new Promise((r) => setTimeout(r, 150));
    const second = creates("b", 10).map((c) => c());
    await new Promise((r) => setTimeout(r, 150));
    const third = creates("c", 10).map((c) => c());
    await Promise.all([...first, ...second, ...third]);
    expect(requests(own, "PUT")).toHaveLength(1);
    expect(names("guild")).toHaveLength(30);
  });

  test("creates whose PUT would wait for its rate limit go as POSTs; the next PUT keeps them", async () => {
    own.control.setRateLimits(
      RateLimitConfig.parse({
        routeDefault: { limit: 1, windowMs: 1500 },
        // Each PUT is built from a list read under the scope's lock: the lists have room.
        routes: {
          "guild-commands-create": { limit: 5, windowMs: 20_000 },
          "guild-commands-list": { limit: 10, windowMs: 1500 },
        },
      }),
    );
    await guildProvider.create(guildInputs(own, slashArgs("first")));
    expect(requests(own, "PUT")).toHaveLength(1);
    // The guild's overwrite bucket is spent for 1.5 s: these go at once, by POST.
    const started = Date.now();
    await guildProvider.create(guildInputs(own, slashArgs("posted1")));
    await Promise.all(
      ["posted2", "posted3"].map((n) => guildProvider.create(guildInputs(own, slashArgs(n)))),
    );
    expect(Date.now() - started).toBeLessThan(1_200);
    expect(requests(own, "POST").map((e) => e.status)).toEqual([201, 201, 201]);
    expect(requests(own, "PUT")).toHaveLength(1);
    // An update waits for the PUT, whose list carries the POSTed commands (built from a
    // list read under the scope's lock, after the POSTs were answered).
    const live = own.control.commands().find((c) => c["name"] === "first");
    await guildProvider.update(
      str(live?.["id"]),
      guildInputs(own, slashArgs("first")),
      guildInputs(own, slashArgs("first", { description: "Changed" })),
    );
    expect(requests(own, "PUT")).toHaveLength(2);
    // The creates' one snapshot, then one list right before each PUT.
    expect(requests(own, "GET")).toHaveLength(3);
    expect(names("guild")).toEqual(["first", "posted1", "posted2", "posted3"]);
  });

  test("more creates than the create bucket takes while the PUT waits: those it takes go by POST at once, the rest in the PUT", async () => {
    own.control.setRateLimits(
      RateLimitConfig.parse({
        routeDefault: { limit: 1, windowMs: 1500 },
        routes: {
          "guild-commands-create": { limit: 2, windowMs: 20_000 },
          "guild-commands-list": { limit: 10, windowMs: 1500 },
        },
      }),
    );
    await guildProvider.create(guildInputs(own, slashArgs("first")));
    own.control.resetLog();
    // The guild's overwrite bucket is spent for 1.5 s and its create bucket holds 2: two of
    // these four go at once by POST (their engine slots freed), two wait for the PUT.
    const resolved: string[] = [];
    await Promise.all(
      ["c1", "c2", "c3", "c4"].map(async (n) => {
        await guildProvider.create(guildInputs(own, slashArgs(n)));
        resolved.push(n);
      }),
    );
    const log = own.requestLog().map((e) => `${e.method} ${e.status}`);
    // The PUT is built from a list read under the scope's lock, right before it.
    expect(log).toEqual(["POST 201", "POST 201", "GET 200", "PUT 200"]);
    // Both POSTed creates were answered before the PUT's.
    expect(resolved.slice(0, 2).sort()).toEqual(["c1", "c2"]);
    // The PUT's list carries the POSTed commands and the first one: none is lost.
    expect(names("guild")).toEqual(["c1", "c2", "c3", "c4", "first"]);
  });
});

describe("bulk mode in a full scope (100 CHAT_INPUT and 15 USER commands, the limits)", () => {
  let full: RunningEmulator;
  beforeAll(async () => {
    full = await setup();
  });
  afterAll(() => teardown(full));

  /** 5 of each type renamed at once, and two names of each type swapped. */
  const slashName = (i: number, after: boolean): string => {
    if (!after) return `cmd${i}`;
    if (i < 5) return `renamed-${i}`;
    if (i === 50) return "cmd51";
    if (i === 51) return "cmd50";
    return `cmd${i}`;
  };
  const userName = (i: number, after: boolean): string => {
    if (!after) return `User ${i}`;
    if (i < 5) return `Renamed ${i}`;
    if (i === 10) return "User 11";
    if (i === 11) return "User 10";
    return `User ${i}`;
  };
  /** The program's resources: what each declares before and after the edit. */
  const programInputs = (after: boolean): Bag[] => [
    ...Array.from({ length: 100 }, (_, i) =>
      guildInputs(full, { name: slashName(i, after), description: `Command ${i}` }),
    ),
    ...Array.from({ length: 15 }, (_, i) => guildInputs(full, userArgs(userName(i, after)))),
  ];
  const keys = (): string[] =>
    full.control
      .commands()
      .filter((c) => c["guild_id"] === full.guildId)
      .map((c) => `${String(c["type"])} ${str(c["name"])}`)
      .sort();
  const expectedKeys = (after: boolean): string[] =>
    [
      ...Array.from({ length: 100 }, (_, i) => `1 ${slashName(i, after)}`),
      ...Array.from({ length: 15 }, (_, i) => `2 ${userName(i, after)}`),
    ].sort();
  /** The PUTs of the phase just run, and that nothing was refused or written otherwise. */
  const phaseWrites = (): number => {
    const log = full.requestLog();
    expect(log.filter((e) => e.status >= 400)).toEqual([]); // no 30032, nor anything else
    const written = log.filter((e) => e.method !== "GET");
    expect(written.every((e) => e.route === "bulkOverwriteGuildCommands")).toBe(true);
    full.control.resetLog();
    return written.length;
  };

  test("renames delete first (diff), then the deletes and the creates each go in at most 2 PUTs; no 30032, swaps keep their ids", async () => {
    // The first deployment fills the guild.
    await configureAll(full, { "discord:writeMode": "bulk" });
    const olds = programInputs(false);
    const made = await Promise.all(olds.map((inputs) => guildProvider.create(inputs)));
    expect(keys()).toEqual(expectedKeys(false));
    const idBefore = new Map(made.map((m) => [str(m.outs["name"]), m.id]));

    // The next deployment: the engine checks and diffs every resource first.
    await configureAll(full, { "discord:writeMode": "bulk" });
    full.control.resetLog();
    const news = programInputs(true);
    const renames: number[] = [];
    const swaps: number[] = [];
    for (const [i, m] of made.entries()) {
      const checked = await guildProvider.check(olds[i] ?? {}, news[i] ?? {});
      expect(checked.failures).toEqual([]);
      const d = await guildProvider.diff(m.id, m.outs, checked.inputs);
      if (d.replaces.length === 0) {
        expect(d.changes).toBe(false);
        continue;
      }
      expect(d.replaces).toEqual(["name"]);
      // A replacement is checked again as a new resource: it fits, the old goes first.
      expect((await guildProvider.check({}, news[i] ?? {})).failures).toEqual([]);
      // A new name in a full scope deletes first; a swap onto a live name adds none.
      (d.deleteBeforeReplace ? renames : swaps).push(i);
    }
    const userIndex = (i: number): number => 100 + i;
    expect(renames).toEqual([0, 1, 2, 3, 4, ...[0, 1, 2, 3, 4].map(userIndex)]);
    expect(swaps).toEqual([50, 51, userIndex(10), userIndex(11)]);
    expect(phaseWrites()).toBe(0); // check and diff write nothing

    const at = (list: readonly number[]) => list.map((i) => ({ i, m: made[i]! }));
    // The engine's order: each delete-first rename's delete, with the swaps' creates
    // (create before delete), in parallel; then the renames' creates; last, the swaps'
    // deletes of the originals.
    const [, swapped] = await Promise.all([
      Promise.all(at(renames).map(({ m }) => guildProvider.delete(m.id, m.outs))),
      Promise.all(at(swaps).map(({ i }) => guildProvider.create(news[i] ?? {}))),
    ]);
    expect(phaseWrites()).toBeLessThanOrEqual(2);
    const renamed = await Promise.all(
      at(renames).map(({ i }) => guildProvider.create(news[i] ?? {})),
    );
    expect(phaseWrites()).toBeLessThanOrEqual(2);
    await Promise.all(at(swaps).map(({ m }) => guildProvider.delete(m.id, m.outs)));
    expect(phaseWrites()).toBe(0); // the swaps' originals now hold each other's names

    expect(keys()).toEqual(expectedKeys(true));
    // A renamed command is a new command, a new id.
    for (const r of renamed) expect([...idBefore.values()]).not.toContain(r.id);
    // The swaps took over each other's commands: the ids survive, crossed.
    expect(swapped.map((s) => s.id)).toEqual([
      idBefore.get("cmd51"),
      idBefore.get("cmd50"),
      idBefore.get("User 11"),
      idBefore.get("User 10"),
    ]);

    // The state the engine holds now matches the service: a refresh finds no change,
    // for one list GET.
    const state = made.map((m) => ({ id: m.id, outs: m.outs }));
    renames.forEach((i, k) => (state[i] = renamed[k]!));
    swaps.forEach((i, k) => (state[i] = swapped[k]!));
    await configureAll(full, { "discord:writeMode": "bulk" });
    full.control.resetLog();
    for (const [i, s] of state.entries()) {
      const read = await guildProvider.read(s.id, s.outs);
      expect(read.id).toBe(s.id);
      const d = await guildProvider.diff(s.id, { ...(read.props ?? {}) }, news[i] ?? {});
      expect(d.changes).toBe(false);
    }
    expect(requests(full, "GET")).toHaveLength(1);
    expect(phaseWrites()).toBe(0);
  });
});
