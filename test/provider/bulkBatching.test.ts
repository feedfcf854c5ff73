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

const WINDOW = 200;
const base: FillState = {
  elapsedMs: 0,
  mine: 2,
  slots: 8,
  otherFirst: false,
  here: 2,
  extended: false,
  waitedForOther: false,
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
