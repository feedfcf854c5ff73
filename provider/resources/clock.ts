/**
 * Time, injected: every policy that waits or expires (the scope cache, the bulk batches,
 * the user session's refresh) reads it from the provider runtime, so tests drive it.
 */
import { setTimeout as sleep } from "node:timers/promises";

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms` milliseconds. */
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => sleep(ms),
};
