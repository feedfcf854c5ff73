/**
 * The client's rate-limit state: which bucket each route belongs to, one BucketQueue
 * per bucket and major parameters, the global pause after a global 429, and the pace of
 * the service's global limit (50 requests a second), kept before the service has to
 * answer 429: at a fleet's size (1,001 scopes listed and written in one `up`) bursts of
 * requests met the global limit and were answered 429, each of which counts toward the
 * service's invalid-request ban. As discord.js's REST keeps `globalRequestsPerSecond`.
 *
 * Before the service names a route's bucket, requests are keyed by the route table's
 * `bucket` plus the major parameters (application id, guild id). Once a response
 * carries `X-RateLimit-Bucket`, that route (method + template) is keyed by the learned
 * bucket plus the major parameters, so routes the service groups together share one
 * queue and one `Remaining` count.
 */
import type { RouteDef, RouteParams } from "../routes";
import { BucketQueue } from "./BucketQueue";

/** Past this many queues, idle ones are forgotten. */
const MAX_IDLE_QUEUES = 512;
/** A bucket whose room is taken by requests still queued is looked at again this soon. */
const BUSY_BUCKET_POLL_MS = 10;

/** The service's global limit: requests a second per token (design.md, wire conventions). */
export const GLOBAL_REQUESTS_PER_SECOND = 50;
/**
 * How long after its answer a request may still be counted in one of the service's
 * windows (a second; it arrived before it was answered), with a margin for the clocks.
 */
const GLOBAL_WINDOW_MS = 1020;
/** How soon a request held by requests still in flight looks again. */
const IN_FLIGHT_POLL_MS = 10;

/** What a set of requests would wait for before they can go (`RateLimiter.roomWait`). */
export interface RoomWait {
  readonly waitMs: number;
  /** The route whose bucket (or the global pause) asks the longest wait. */
  readonly def: RouteDef;
  readonly bucket: string;
  readonly global: boolean;
}

/**
 * Room in the global pace held for the requests one write sends one right after the other
 * (a list GET and the PUT built from it): other requests count it as taken, so they cannot
 * use it in between (the write would then list again), and the write's own requests spend
 * it instead of waiting for the pace. Held and let go by `RateLimiter.hold`.
 */
export class PaceReservation {
  /** Requests it holds room for that have not been sent yet. */
  held = 0;
}

export class RateLimiter {
  readonly #learned = new Map<string, string>();
  readonly #queues = new Map<string, BucketQueue>();
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  #globalUntil = 0;
  #globalPause: Promise<void> | undefined;
  /** Requests sent and not yet answered. */
  #inFlight = 0;
  /** Room held by reservations for requests not sent yet (`hold`). */
  #held = 0;
  /** When the last `#perSecond` requests were answered (or failed), oldest at `#oldest`. */
  readonly #answeredAt: number[] = [];
  #oldest = 0;
  readonly #perSecond: number;

  /** `perSecond`: the global pace kept (0: none, for a service without a global limit). */
  constructor(
    now: () => number,
    sleep: (ms: number) => Promise<void>,
    perSecond = GLOBAL_REQUESTS_PER_SECOND,
  ) {
    this.#now = now;
    this.#sleep = sleep;
    this.#perSecond = perSecond;
  }

  /**
   * A request leaves now: it counts toward the global pace until a second after its
   * answer (it reached the service at some moment in between). Called in the same turn as
   * the `globalWaitMs()` that found no wait, so concurrent requests cannot pass together.
   */
  sent(pace?: PaceReservation): void {
    if (this.#perSecond <= 0) return;
    this.#inFlight++;
    if (pace !== undefined && pace.held > 0) {
      pace.held--;
      this.#held--;
    }
  }

  /**
   * Holds room in the global pace for `count` requests of `pace`'s write, in the same turn
   * as the `roomWait` that found room for them; 0 lets go of what it did not spend.
   */
  hold(pace: PaceReservation, count: number): void {
    if (this.#perSecond <= 0) return;
    this.#held += count - pace.held;
    pace.held = count;
  }

  /** The request `sent` counted was answered, or failed without an answer. */
  answered(): void {
    if (this.#perSecond <= 0) return;
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    const now = this.#now();
    if (this.#answeredAt.length < this.#perSecond) this.#answeredAt.push(now);
    else {
      this.#answeredAt[this.#oldest] = now;
      this.#oldest = (this.#oldest + 1) % this.#perSecond;
    }
  }

  /**
   * How long the next `count` requests wait to keep the global pace, in ms: none while
   * they fit beside those in flight or answered within the window (so no window of the
   * service's can hold more than the limit), else until enough of those leave the window.
   */
  #paceWaitMs(now: number, count = 1): number {
    if (this.#perSecond <= 0) return 0;
    const recent = this.#answeredAt.filter((t) => now - t < GLOBAL_WINDOW_MS).sort((a, b) => a - b);
    const taken = this.#inFlight + this.#held + recent.length;
    if (taken + count <= this.#perSecond) return 0;
    const needed = taken + count - this.#perSecond;
    const frees = recent[needed - 1];
    return frees === undefined ? IN_FLIGHT_POLL_MS : frees + GLOBAL_WINDOW_MS - now;
  }

  /** The queue a request on `def` with `params` runs in. */
  queueFor(def: RouteDef, params: RouteParams): BucketQueue {
    const bucket = this.#learned.get(routeKey(def)) ?? `route:${def.bucket}`;
    return this.#queue(`${bucket}:${majorParameters(params)}`);
  }

  /** Learns the route's bucket from a response and records that bucket's state. */
  observe(
    def: RouteDef,
    params: RouteParams,
    ran: BucketQueue,
    headers: {
      bucket?: string | undefined;
      remaining?: number | undefined;
      resetAfterMs?: number | undefined;
    },
  ): void {
    const now = this.#now();
    ran.update(headers.remaining, headers.resetAfterMs, now);
    if (headers.bucket === undefined || headers.bucket === "") return;
    this.#learned.set(routeKey(def), headers.bucket);
    const learned = this.#queue(`${headers.bucket}:${majorParameters(params)}`);
    if (learned !== ran) {
      learned.update(headers.remaining, headers.resetAfterMs, now);
      learned.follow(ran);
    }
  }

  /**
   * How long every request must still wait for a global rate limit (or its pace), in ms; a
   * request whose write holds room (`pace`) waits for no pace.
   */
  globalWaitMs(pace?: PaceReservation): number {
    const now = this.#now();
    const paceMs = pace !== undefined && pace.held > 0 ? 0 : this.#paceWaitMs(now);
    return Math.max(0, this.#globalUntil - now, paceMs);
  }

  /** A global 429: pause every request of the client for `retryAfterMs`. */
  pauseAll(retryAfterMs: number): void {
    this.#globalUntil = Math.max(this.#globalUntil, this.#now() + retryAfterMs);
  }

  /**
   * What one request on each of `defs` (sent one after the other) would wait for before
   * they all go without a rate-limit wait; undefined when they can go now.
   */
  roomWait(defs: readonly RouteDef[], params: RouteParams): RoomWait | undefined {
    const first = defs[0];
    if (first === undefined) return undefined;
    const now = this.#now();
    // Room in the global pace for all of them: a list GET and the PUT built from it go
    // one right after the other.
    const globalMs = Math.max(0, this.#globalUntil - now, this.#paceWaitMs(now, defs.length));
    if (globalMs > 0) return { waitMs: globalMs, def: first, bucket: "global", global: true };
    const needs = new Map<BucketQueue, { def: RouteDef; count: number }>();
    for (const def of defs) {
      const queue = this.queueFor(def, params);
      needs.set(queue, { def, count: (needs.get(queue)?.count ?? 0) + 1 });
    }
    let longest: RoomWait | undefined;
    for (const [queue, { def, count }] of needs) {
      if (queue.hasRoomFor(count, now)) continue;
      // Within a window its room only shrinks: wait for the reset. After it, requests still
      // queued hold the room until their answers tell the new window.
      const waitMs = queue.resetAt > now ? queue.resetAt - now : BUSY_BUCKET_POLL_MS;
      if (longest === undefined || waitMs > longest.waitMs) {
        longest = { waitMs, def, bucket: queue.id, global: false };
      }
    }
    return longest;
  }

  /** Waits out the current global pause; all waiters share one timer. */
  waitGlobal(): Promise<void> {
    const wait = this.globalWaitMs();
    if (wait <= 0) return Promise.resolve();
    if (this.#globalPause === undefined) {
      this.#globalPause = this.#sleep(wait).finally(() => {
        this.#globalPause = undefined;
      });
    }
    return this.#globalPause;
  }

  /** Waits `ms` for a bucket (not shared: each bucket's queue waits on its own). */
  waitBucket(ms: number): Promise<void> {
    return this.#sleep(ms);
  }

  #queue(id: string): BucketQueue {
    let queue = this.#queues.get(id);
    if (queue === undefined) {
      if (this.#queues.size >= MAX_IDLE_QUEUES) this.#sweep();
      queue = new BucketQueue(id);
      this.#queues.set(id, queue);
    }
    return queue;
  }

  #sweep(): void {
    const now = this.#now();
    for (const [id, queue] of this.#queues) {
      if (queue.pending === 0 && queue.waitMs(now) === 0) this.#queues.delete(id);
    }
  }
}

function routeKey(def: RouteDef): string {
  return `${def.method} ${def.template}`;
}

function majorParameters(params: RouteParams): string {
  return `${params["applicationId"] ?? "-"}/${params["guildId"] ?? "-"}`;
}
