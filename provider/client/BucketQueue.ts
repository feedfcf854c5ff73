/**
 * One rate-limit bucket: a sequential queue (one request of the bucket in flight at a
 * time, in call order, like discord.js's SequentialHandler) and the bucket's state as
 * last reported by the service's `X-RateLimit-*` headers.
 */
export class BucketQueue {
  /** `X-RateLimit-Remaining` of the last response; 1 until the service says otherwise. */
  remaining = 1;
  /** When the bucket resets (the client's clock, ms); 0 when unknown. */
  resetAt = 0;
  #tail: Promise<void> = Promise.resolve();
  #pending = 0;

  constructor(readonly id: string) {}

  /** Requests queued or running on this bucket. */
  get pending(): number {
    return this.#pending;
  }

  /** Runs `task` after every task queued before it has settled. */
  run<T>(task: () => Promise<T>): Promise<T> {
    this.#pending++;
    const result = this.#tail.then(task);
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result.finally(() => {
      this.#pending--;
    });
  }

  /**
   * Runs what is queued here from now on after everything queued on `other` so far: the
   * queue a route moves to once the service names its bucket follows the queue it had
   * before, whose requests are still waiting, so one bucket never has two requests in
   * flight (two would both go at the bucket's reset, past its limit: a 429).
   */
  follow(other: BucketQueue): void {
    const before = other.#tail;
    this.#tail = Promise.all([this.#tail, before]).then(() => undefined);
  }

  /** How long the next request must wait for this bucket, in ms (0: go now). */
  waitMs(now: number): number {
    return this.remaining <= 0 && this.resetAt > now ? this.resetAt - now : 0;
  }

  /**
   * How many more requests the bucket takes right now without a wait, beyond those
   * queued: the remaining count while the window lasts, at least 1 once it has reset (the
   * new window's size is learned from the next answer).
   */
  room(now: number): number {
    const left = this.resetAt > now ? this.remaining : Math.max(this.remaining, 1);
    return Math.max(0, left - this.#pending);
  }

  /**
   * Whether `count` more requests (sent one after the other) go without a wait: while the
   * window lasts, its remaining count must cover them beyond those queued; once it has
   * reset, the first one's answer tells the new window's size, so room for one is enough.
   */
  hasRoomFor(count: number, now: number): boolean {
    return this.room(now) >= (this.resetAt > now ? count : 1);
  }

  /** Records the bucket's state from a response's headers. */
  update(remaining: number | undefined, resetAfterMs: number | undefined, now: number): void {
    if (remaining !== undefined) this.remaining = remaining;
    if (resetAfterMs !== undefined) this.resetAt = now + resetAfterMs;
  }

  /** A 429 on this bucket: nothing left until `retryAfterMs` has passed. */
  exhaust(retryAfterMs: number, now: number): void {
    this.remaining = 0;
    this.resetAt = Math.max(this.resetAt, now + retryAfterMs);
  }
}
