/**
 * Bulk mode's batching decisions (bulkWriter.ts) as pure functions of the batch's state
 * and the time: the writer reads the clock, the rate limits and the queues, asks these what
 * to do, and sleeps on the injected clock. Tested with tables (test/provider/bulkBatching).
 */

/** Longest a batch is held open for the rate limit. */
export const MAX_HOLD_MS = 30_000;
/** How often a small batch looks again while another scope's batch goes first. */
export const FILL_POLL_MS = 10;
/** Longest a small batch is held open for more of its wave. */
export const MAX_FILL_MS = 3_000;

export type Step = { readonly go: true } | { readonly go: false; readonly sleepMs: number };

/** What a scope's batch knows while it fills up. */
export interface FillState {
  /** Since the batch began to fill. */
  readonly elapsedMs: number;
  /** Its operations. */
  readonly mine: number;
  /**
   * The engine's parallel slots as far as the deployment has shown them: the most
   * operations held at once, or the largest batch so far.
   */
  readonly slots: number;
  /** Another scope's batch is being written, or is larger and can be written now. */
  readonly otherFirst: boolean;
  /** Operations pending in every scope, this one's included. */
  readonly here: number;
  /** The batch already waited one window of its own. */
  readonly extended: boolean;
  /** The batch waited for another scope's, and has not waited a window since. */
  readonly waitedForOther: boolean;
  /**
   * No batch of the deployment has gone yet: the engine has not shown its slots (every
   * operation held so far came while none was answered), so "as many as the slots" says
   * nothing yet.
   */
  readonly rampUp: boolean;
  /** Since the latest operation arrived, in any scope. */
  readonly quietMs: number;
}

export type FillStep =
  | { readonly go: true }
  | {
      readonly go: false;
      readonly sleepMs: number;
      readonly extended: boolean;
      readonly waitedForOther: boolean;
    };

/**
 * Whether a batch holding fewer operations than the engine's slots (as far as known) waits
 * for more of its wave (see BulkWriter.fillUp for why): while another scope's batch goes
 * first, then one window for the arrivals its answer frees; it goes when it fills the
 * slots, when every operation of the wave is here, after one window of its own, or after
 * MAX_FILL_MS. Before the deployment's first batch (`rampUp`), the slots are unknown: it
 * goes once no operation arrived for a window (the engine handed over all it could), so
 * that with `--parallel 100` the first batch carries the program's whole wave, not the
 * part that came in the first window.
 */
export function fillStep(s: FillState, windowMs: number): FillStep {
  if (s.elapsedMs >= MAX_FILL_MS || s.mine === 0) return { go: true };
  if (s.rampUp) {
    if (s.quietMs >= windowMs) return { go: true };
    const { extended, waitedForOther } = s;
    return { go: false, sleepMs: windowMs - s.quietMs, extended, waitedForOther };
  }
  if (s.mine >= s.slots) return { go: true };
  if (s.otherFirst) {
    return { go: false, sleepMs: FILL_POLL_MS, extended: s.extended, waitedForOther: true };
  }
  if (s.waitedForOther)
    return { go: false, sleepMs: windowMs, extended: true, waitedForOther: false };
  if (s.extended || s.here >= s.slots) return { go: true };
  return { go: false, sleepMs: windowMs, extended: true, waitedForOther: false };
}

/**
 * Whether the batch stays open while the scope's PUT would wait for its rate limit anyway
 * (`putWaitMs`), up to MAX_HOLD_MS in all (`heldMs` so far).
 */
export function holdStep(heldMs: number, putWaitMs: number): Step {
  if (putWaitMs <= 0 || heldMs >= MAX_HOLD_MS) return { go: true };
  return { go: false, sleepMs: Math.min(putWaitMs, MAX_HOLD_MS - heldMs) };
}

/**
 * How many of a scope's pending creates go now as one POST each instead of waiting for the
 * scope's PUT: while the PUT would wait for its rate limit, as many as the scope's create
 * bucket takes now (the rest, and every update and delete, wait for the PUT).
 */
export function createsByPost(b: {
  readonly creates: number;
  readonly putWaitMs: number;
  readonly postRoom: number;
}): number {
  if (b.putWaitMs <= 0) return 0;
  return Math.max(0, Math.min(b.creates, b.postRoom));
}
