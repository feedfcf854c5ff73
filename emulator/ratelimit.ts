/**
 * Rate limits shaped like the service's:
 *
 * - per-route buckets: key = the route's bucket (from provider/routes.ts) + its major
 *   parameters (application id, guild id); fixed windows; every response of a limited
 *   route carries `X-RateLimit-Limit`, `-Remaining`, `-Reset` (epoch seconds, float),
 *   `-Reset-After` (seconds, float) and `-Bucket` (an opaque hash of the route bucket);
 * - a global limit per token (per client address without a token);
 * - the invalid-request counter: 401, 403 and 429 responses count; past the limit in
 *   the window, every request from that address gets 429 for `banMs`.
 *
 * A 429 carries `Retry-After` (whole seconds, rounded up), `X-RateLimit-Scope`
 * (`user`, `global` or `shared`), `X-RateLimit-Global: true` when global, and the body
 * `{message: "You are being rate limited.", retry_after: <float s>, global: <bool>}`.
 */
import { createHash } from "node:crypto";
import type { RateLimitConfig } from "./config";

import { ServiceErrorCode } from "./schema";

type RateLimitScope = "user" | "global" | "shared";

export interface RateLimited {
  readonly retryAfterMs: number;
  readonly global: boolean;
  readonly scope: RateLimitScope;
}

interface Window {
  start: number;
  count: number;
}

interface BucketResult {
  readonly headers: Record<string, string>;
  readonly limited?: RateLimited;
}

const seconds = (ms: number) => Number((ms / 1000).toFixed(3));

/** The 429 response's headers and body. */
export function rateLimitResponse(r: RateLimited): {
  headers: Record<string, string>;
  body: { message: string; code: number; retry_after: number; global: boolean };
} {
  const headers: Record<string, string> = {
    "Retry-After": String(Math.max(1, Math.ceil(r.retryAfterMs / 1000))),
    "X-RateLimit-Scope": r.scope,
  };
  if (r.global) headers["X-RateLimit-Global"] = "true";
  return {
    headers,
    body: {
      message: "You are being rate limited.",
      // The service's contract requires `code` in a rate-limited body (OpenAPI
      // `RatelimitedResponse` = `Error` {code, message} + {retry_after, global}); 0 is the
      // service's general code, which is what a plain rate limit is.
      code: ServiceErrorCode.GENERAL,
      retry_after: seconds(r.retryAfterMs),
      global: r.global,
    },
  };
}

/** Enforces the per-route buckets, the global limit and the invalid-request ban. */
export class RateLimitEnforcer {
  private readonly buckets = new Map<string, Window>();
  private readonly globals = new Map<string, Window>();
  private readonly invalid = new Map<string, Window>();
  private readonly bans = new Map<string, number>();
  private sweepAt = 0;

  constructor(
    private readonly config: RateLimitConfig,
    private readonly now: () => number,
  ) {}

  /** A banned address gets 429 (global) until the ban ends. */
  checkBan(address: string): RateLimited | undefined {
    const until = this.bans.get(address);
    if (until === undefined) return undefined;
    const now = this.now();
    if (until <= now) {
      this.bans.delete(address);
      return undefined;
    }
    return { retryAfterMs: until - now, global: true, scope: "global" };
  }

  /** The global per-token limit. */
  checkGlobal(key: string): RateLimited | undefined {
    const { limit, windowMs } = this.config.global;
    const w = this.window(this.globals, key, windowMs);
    if (w.count >= limit) {
      return { retryAfterMs: w.start + windowMs - this.now(), global: true, scope: "global" };
    }
    w.count++;
    return undefined;
  }

  /** Takes one request from a route bucket; headers describe the bucket afterwards. */
  take(bucket: string, majorKey: string): BucketResult {
    const { limit, windowMs } = this.config.routes[bucket] ?? this.config.routeDefault;
    const w = this.window(this.buckets, `${bucket}:${majorKey}`, windowMs);
    const now = this.now();
    const resetAt = w.start + windowMs;
    let limited: RateLimited | undefined;
    if (w.count >= limit) limited = { retryAfterMs: resetAt - now, global: false, scope: "user" };
    else w.count++;
    const headers = {
      "X-RateLimit-Limit": String(limit),
      "X-RateLimit-Remaining": String(Math.max(0, limit - w.count)),
      "X-RateLimit-Reset": (resetAt / 1000).toFixed(3),
      "X-RateLimit-Reset-After": ((resetAt - now) / 1000).toFixed(3),
      "X-RateLimit-Bucket": bucketHash(bucket),
    };
    return limited ? { headers, limited } : { headers };
  }

  /** Counts a 401/403/429 response; may start a ban for the address. */
  recordInvalid(address: string): void {
    const { limit, windowMs, banMs } = this.config.invalidRequests;
    const w = this.window(this.invalid, address, windowMs);
    w.count++;
    if (w.count >= limit && !this.bans.has(address)) {
      this.bans.set(address, this.now() + banMs);
      this.invalid.delete(address);
    }
  }

  /** Forgets every window and ban. */
  reset(): void {
    this.buckets.clear();
    this.globals.clear();
    this.invalid.clear();
    this.bans.clear();
  }

  private window(map: Map<string, Window>, key: string, windowMs: number): Window {
    const now = this.now();
    this.sweep(now);
    let w = map.get(key);
    if (!w || now >= w.start + windowMs) {
      w = { start: now, count: 0 };
      map.set(key, w);
    }
    return w;
  }

  /** Drops long-expired windows now and then, so memory stays bounded. */
  private sweep(now: number): void {
    if (now < this.sweepAt) return;
    this.sweepAt = now + 60_000;
    const horizon = 24 * 60 * 60 * 1000;
    for (const map of [this.buckets, this.globals, this.invalid]) {
      for (const [k, w] of map) if (now - w.start > horizon) map.delete(k);
    }
  }
}

/** An opaque, stable hash naming a route bucket (like the service's bucket ids). */
function bucketHash(bucket: string): string {
  return createHash("sha1").update(`emulator:${bucket}`).digest("hex").slice(0, 32);
}
