/**
 * The client's rate-limit state: which bucket each route belongs to, one BucketQueue
 * per bucket and major parameters, and the global pause after a global 429.
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

/** What a set of requests would wait for before they can go (`RateLimiter.roomWait`). */
export interface RoomWait {
  readonly waitMs: number;
  /** The route whose bucket (or the global pause) asks the longest wait. */
  readonly def: RouteDef;
  readonly bucket: string;
  readonly global: boolean;
}

export class RateLimiter {
  readonly #learned = new Map<string, string>();
  readonly #queues = new Map<string, BucketQueue>();
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  #globalUntil = 0;
  #globalPause: Promise<void> | undefined;

  constructor(now: () => number, sleep: (ms: number) => Promise<void>) {
    this.#now = now;
    this.#sleep = sleep;
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

  /** How long every request must still wait for a global rate limit, in ms. */
  globalWaitMs(): number {
    return Math.max(0, this.#globalUntil - this.#now());
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
    const globalMs = this.globalWaitMs();
    if (globalMs > 0) return { waitMs: globalMs, def: first, bucket: "global", global: true };
    const now = this.#now();
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
