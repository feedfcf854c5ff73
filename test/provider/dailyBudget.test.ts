/**
 * The daily create budget across deployments (dailyBudget.ts, scopeBudget.ts): the rule
 * as a table on an injected time, and against the emulator: the state keeps the creation
 * times of the commands a resource deleted or renamed (a `ScopeCommands`' update, a
 * command's replacement), a later deployment counts them with the live commands and its
 * planned creates, fails past 200 naming the scope, the counts and when the oldest counted
 * create leaves the window, and counts on the service's clock (the emulator's, moved).
 */
import type { RunningEmulator } from "../../emulator";
import type { BudgetFacts } from "../../provider/resources/dailyBudget";
import {
  budgetMessage,
  DAY_MS,
  judgeDailyBudget,
  withinWindow,
} from "../../provider/resources/dailyBudget";
import { snowflakeTime } from "../../provider/schema";
import { scopeCommandsProvider } from "../../provider/resources/scopeCommandsLifecycle";
import type { Bag } from "./helpers";
import {
  configureAll,
  guildInputs,
  guildProvider,
  guildSetInputs,
  rejection,
  runtime,
  setCommands,
  setup,
  slashArgs,
  teardown,
} from "./helpers";

const NOW = Date.parse("2026-12-05T12:00:00Z");
const HOUR = 60 * 60 * 1000;
const times = (n: number, at: number): number[] => Array.from({ length: n }, () => at);
const facts = (f: Partial<BudgetFacts>): BudgetFacts => ({
  now: NOW,
  live: [],
  replaced: [],
  planned: 0,
  limit: 200,
  ...f,
});

describe("judgeDailyBudget", () => {
  test.each([
    ["nothing counted", facts({ planned: 1 }), "ok", 1],
    ["159 of 200", facts({ live: times(100, NOW - HOUR), planned: 59 }), "ok", 159],
    [
      "160 of 200: a warning",
      facts({ replaced: times(100, NOW - HOUR), planned: 60 }),
      "warn",
      160,
    ],
    [
      "200 of 200: still allowed",
      facts({ live: times(150, NOW - HOUR), planned: 50 }),
      "warn",
      200,
    ],
    [
      "201: over",
      facts({ live: times(100, NOW - HOUR), replaced: times(100, NOW), planned: 1 }),
      "over",
      201,
    ],
    [
      "creates older than 24 hours do not count",
      facts({ live: times(199, NOW - DAY_MS), replaced: times(5, NOW - 25 * HOUR), planned: 1 }),
      "ok",
      1,
    ],
    [
      "a create 1 ms inside the window counts",
      facts({ replaced: times(200, NOW - DAY_MS + 1), planned: 1 }),
      "over",
      201,
    ],
  ] as const)("%s", (_name, f, level, total) => {
    const v = judgeDailyBudget(f);
    expect(v.level).toBe(level);
    expect(v.total).toBe(total);
  });

  test("the oldest counted create leaves the window 24 hours after it was made", () => {
    const oldest = NOW - 5 * HOUR;
    const v = judgeDailyBudget(facts({ live: [NOW - HOUR, oldest, NOW - DAY_MS], planned: 1 }));
    expect(v.oldestLeavesAt).toBe(oldest + DAY_MS);
    expect(withinWindow([NOW, NOW - DAY_MS, oldest], NOW)).toEqual([oldest, NOW]);
  });

  test("the message names the scope, the counts, the window and what is unknowable", () => {
    const v = judgeDailyBudget(
      facts({ live: times(120, NOW - 2 * HOUR), replaced: times(80, NOW - HOUR), planned: 3 }),
    );
    const m = budgetMessage("guild 42", v);
    expect(m).toContain("guild 42: 203 command creates in 24 hours");
    expect(m).toContain("the service's daily budget of 200 (code 30034)");
    expect(m).toContain("120 live commands created in the last 24 hours");
    expect(m).toContain("80 created by this stack and since deleted or renamed");
    expect(m).toContain("3 this deployment creates");
    expect(m).toContain(
      `leaves the 24-hour window at ${new Date(NOW - 2 * HOUR + DAY_MS).toISOString()}`,
    );
    expect(m).toContain("Creates by others of commands since deleted cannot be known");
  });
});

describe("across deployments, against the emulator", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await setup({ config: { dailyCreateLimit: 1000 } });
  });
  afterAll(() => teardown(emu));
  beforeEach(async () => {
    emu.control.reset();
    await configureAll(emu);
  });

  const names = (prefix: string, n: number): string[] =>
    Array.from({ length: n }, (_, i) => `${prefix}${i}`);

  test("a ScopeCommands update keeps the creation times of the commands it renamed", async () => {
    const provider = scopeCommandsProvider(runtime);
    const inputs = guildSetInputs(emu, setCommands(names("a", 3)));
    const created = await provider.create(inputs);
    const ids = created.outs["commandIds"] as Record<string, string>;
    const renamed = guildSetInputs(emu, setCommands(["a0", "a1", "b2"]));
    const { outs } = await provider.update(created.id, created.outs, renamed);
    expect(outs["replacedCreates"]).toEqual([snowflakeTime(ids["a2"] as string)]);
  });

  test("a command's replacement keeps its old command's creation time", async () => {
    const first = await guildProvider.create(guildInputs(emu, slashArgs("old-name")));
    const news = guildInputs(emu, slashArgs("new-name"));
    const diff = await guildProvider.diff(first.id, first.outs, news);
    expect(diff.replaces).toContain("name");
    const second = await guildProvider.create(news);
    expect(second.outs["replacedCreates"]).toEqual([snowflakeTime(first.id)]);
  });

  /** A ScopeCommands state of the guild that renamed or deleted `replaced` commands at `at`. */
  function stateWith(replaced: number, at: number): Bag {
    return {
      ...guildSetInputs(emu, {}),
      commandIds: {},
      replacedCreates: times(replaced, at),
    };
  }

  test("a later deployment counts the state's creates, and fails past 200 naming the scope", async () => {
    const provider = scopeCommandsProvider(runtime);
    const at = emu.control.now() - HOUR;
    const olds = stateWith(150, at);
    // 150 renamed earlier + 50 new: 200, allowed.
    const fits = guildSetInputs(emu, setCommands([...names("n", 50)]));
    await expect(
      provider.diff(`${emu.applicationId}/${emu.guildId}`, olds, fits),
    ).resolves.toBeDefined();
    await configureAll(emu); // the next deployment
    const over = guildSetInputs(emu, setCommands([...names("n", 51)]));
    const err = await rejection(
      scopeCommandsProvider(runtime).diff(`${emu.applicationId}/${emu.guildId}`, olds, over),
    );
    const message = String((err as Error).message);
    expect(message).toContain(
      `guild ${emu.guildId} of application ${emu.applicationId}: 201 command creates in 24 hours`,
    );
    expect(message).toContain("150 created by this stack and since deleted or renamed");
    expect(message).toContain("51 this deployment creates");
    expect(message).toContain(new Date(at + DAY_MS).toISOString().slice(0, 16));
  });

  test("the window is the service's clock: a day later on it, the same creates fit", async () => {
    const olds = stateWith(150, emu.control.now() - HOUR);
    const over = guildSetInputs(emu, setCommands([...names("n", 51)]));
    emu.control.advanceClock(DAY_MS);
    const provider = scopeCommandsProvider(runtime);
    await expect(
      provider.diff(`${emu.applicationId}/${emu.guildId}`, olds, over),
    ).resolves.toBeDefined();
  });
});
