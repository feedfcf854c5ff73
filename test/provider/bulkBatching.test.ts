/**
 * Bulk mode's batching decisions, as pure functions of the batch's state and the time
 * (provider/resources/bulkBatching.ts), by table.
 */
import {
  fillStep,
  FILL_POLL_MS,
  createsByPost,
  holdStep,
  MAX_FILL_MS,
  MAX_HOLD_MS,
} from "../../provider/resources/bulkBatching";
import type { FillState } from "../../provider/resources/bulkBatching";
import { ADVICE_AT_PUTS, SlotsAdvice } from "../../provider/resources/bulkSlotsAdvice";

const WINDOW = 200;
const base: FillState = {
  elapsedMs: 0,
  mine: 2,
  slots: 8,
  otherFirst: false,
  here: 2,
  extended: false,
  waitedForOther: false,
  rampUp: false,
  quietMs: 0,
};

describe("fillStep: a batch smaller than the slots (as far as known) waits for more of its wave", () => {
  test.each<[string, Partial<FillState>, ReturnType<typeof fillStep>]>([
    ["nothing pending: go", { mine: 0, here: 0 }, { go: true }],
    ["as large as the slots: go", { mine: 8, here: 8 }, { go: true }],
    ["the first batch of a deployment (slots unknown: 0): go", { slots: 0 }, { go: true }],
    [
      "small, first look: one window of its own",
      {},
      { go: false, sleepMs: WINDOW, extended: true, waitedForOther: false },
    ],
    ["small, after its window: go", { extended: true }, { go: true }],
    ["small, but the whole wave is here: go", { here: 8 }, { go: true }],
    [
      "another scope's batch goes first: poll",
      { otherFirst: true },
      { go: false, sleepMs: FILL_POLL_MS, extended: false, waitedForOther: true },
    ],
    [
      "another scope's went: one window for the arrivals its answer frees",
      { waitedForOther: true, extended: true },
      { go: false, sleepMs: WINDOW, extended: true, waitedForOther: false },
    ],
    [
      "ramp-up (no batch has gone), operations still arriving: wait out the quiet window",
      { rampUp: true, mine: 8, here: 8, quietMs: 50 },
      { go: false, sleepMs: WINDOW - 50, extended: false, waitedForOther: false },
    ],
    [
      "ramp-up, as large as the most held (slots unknown): still wait for a quiet window",
      { rampUp: true, mine: 40, here: 40, slots: 40, quietMs: 0 },
      { go: false, sleepMs: WINDOW, extended: false, waitedForOther: false },
    ],
    [
      "ramp-up, another scope's larger batch pending: no wait for it",
      { rampUp: true, otherFirst: true, quietMs: WINDOW },
      { go: true },
    ],
    ["ramp-up, a window with no arrival: go", { rampUp: true, quietMs: WINDOW }, { go: true }],
    [
      "ramp-up held MAX_FILL_MS: go though operations still arrive",
      { rampUp: true, elapsedMs: MAX_FILL_MS, quietMs: 0 },
      { go: true },
    ],
    [
      "held MAX_FILL_MS: go whatever else",
      { elapsedMs: MAX_FILL_MS, otherFirst: true },
      { go: true },
    ],
  ])("%s", (_label, state, expected) => {
    expect(fillStep({ ...base, ...state }, WINDOW)).toEqual(expected);
  });
});

describe("holdStep: the batch stays open while its PUT would wait for the rate limit anyway", () => {
  test.each<[number, number, ReturnType<typeof holdStep>]>([
    [0, 0, { go: true }],
    [0, -5, { go: true }],
    [0, 1_200, { go: false, sleepMs: 1_200 }],
    [29_000, 5_000, { go: false, sleepMs: 1_000 }],
    [MAX_HOLD_MS, 5_000, { go: true }],
  ])("held %i ms, the PUT waits %i ms", (held, wait, expected) => {
    expect(holdStep(held, wait)).toEqual(expected);
  });
});

describe("createsByPost: while the PUT would wait, creates go one POST each as far as the create bucket takes them", () => {
  test.each<[string, Parameters<typeof createsByPost>[0], number]>([
    ["3 creates, PUT waits, room for 5: all 3", { creates: 3, putWaitMs: 900, postRoom: 5 }, 3],
    ["the PUT can go now: none", { creates: 3, putWaitMs: 0, postRoom: 5 }, 0],
    [
      "8 creates, PUT waits, room for 5: 5 (the other 3 wait for the PUT)",
      { creates: 8, putWaitMs: 900, postRoom: 5 },
      5,
    ],
    ["the create bucket is empty: none", { creates: 8, putWaitMs: 900, postRoom: 0 }, 0],
    ["no creates (updates and deletes wait): none", { creates: 0, putWaitMs: 900, postRoom: 5 }, 0],
    ["a negative room (over the limit): none", { creates: 2, putWaitMs: 900, postRoom: -1 }, 0],
  ])("%s", (_label, batch, expected) => {
    expect(createsByPost(batch)).toBe(expected);
  });
});

describe("SlotsAdvice: once per deployment, when the slots split a scope's operations into many PUTs", () => {
  test("due on a scope's third PUT when its operations outnumber the most held at once; given once", () => {
    const advice = new SlotsAdvice();
    expect(ADVICE_AT_PUTS).toBe(3);
    expect(advice.put("guild 1", 8, 8)).toBeUndefined();
    expect(advice.put("guild 1", 8, 8)).toBeUndefined();
    expect(advice.put("the global scope", 8, 8)).toBeUndefined();
    expect(advice.put("guild 1", 8, 8)).toMatch(
      /^bulk mode: guild 1 took 3 bulk overwrites for 24 operations so far, because the engine hands the provider at most 8 operations at once/,
    );
    expect(advice.put("guild 1", 8, 8)).toBeUndefined();
    expect(advice.put("the global scope", 8, 8)).toBeUndefined();
  });

  test("not due when every operation of the scope was held at once (a slow program, not the slots)", () => {
    const advice = new SlotsAdvice();
    expect([advice.put("g", 10, 40), advice.put("g", 10, 40), advice.put("g", 10, 40)]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});
