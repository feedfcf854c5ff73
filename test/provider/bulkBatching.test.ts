/**
 * Bulk mode's batching decisions, as pure functions of the batch's state and the time
 * (provider/resources/bulkBatching.ts), by table.
 */
import {
  fillStep,
  FILL_POLL_MS,
  goesByPost,
  holdStep,
  MAX_FILL_MS,
  MAX_HOLD_MS,
} from "../../provider/resources/bulkBatching";
import type { FillState } from "../../provider/resources/bulkBatching";

const WINDOW = 200;
const base: FillState = {
  elapsedMs: 0,
  mine: 2,
  largestBatch: 8,
  otherFirst: false,
  here: 2,
  extended: false,
  waitedForOther: false,
};

describe("fillStep: a batch smaller than the largest so far waits for more of its wave", () => {
  test.each<[string, Partial<FillState>, ReturnType<typeof fillStep>]>([
    ["nothing pending: go", { mine: 0, here: 0 }, { go: true }],
    ["as large as the largest batch: go", { mine: 8, here: 8 }, { go: true }],
    ["the first batch of a deployment (largest 0): go", { largestBatch: 0 }, { go: true }],
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

describe("goesByPost: creates go one POST each when the PUT would wait and the create bucket takes them all", () => {
  test.each<[string, Parameters<typeof goesByPost>[0], boolean]>([
    [
      "3 creates, PUT waits, room for 5",
      { operations: 3, onlyCreates: true, putWaitMs: 900, postRoom: 5 },
      true,
    ],
    ["the PUT can go now", { operations: 3, onlyCreates: true, putWaitMs: 0, postRoom: 5 }, false],
    [
      "an update among them",
      { operations: 3, onlyCreates: false, putWaitMs: 900, postRoom: 5 },
      false,
    ],
    [
      "more than the create bucket holds",
      { operations: 6, onlyCreates: true, putWaitMs: 900, postRoom: 5 },
      false,
    ],
    ["empty", { operations: 0, onlyCreates: true, putWaitMs: 900, postRoom: 5 }, false],
  ])("%s", (_label, batch, expected) => {
    expect(goesByPost(batch)).toBe(expected);
  });
});
