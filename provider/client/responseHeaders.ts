/**
 * Reading a response as received: its headers (rate-limit headers, `Retry-After`) and
 * its JSON body. The transport and the error mapping share these readers.
 */
import { isRecord } from "../schema";

/** A response before interpretation: status, headers and the body as text. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

export function header(res: RawResponse, name: string): string | undefined {
  const value = res.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function numberHeader(res: RawResponse, name: string): number | undefined {
  const value = header(res, name);
  if (value === undefined || value.trim() === "") return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

export function secondsToMs(seconds: number | undefined): number | undefined {
  return seconds === undefined ? undefined : Math.max(0, Math.ceil(seconds * 1000));
}

/** A 429's wait: the body's `retry_after` (float s), else `Retry-After`, else `Reset-After`, else 1 s. */
export function retryAfterOf(res: RawResponse, body: unknown): number {
  const fromBody = isRecord(body) ? body["retry_after"] : undefined;
  const seconds =
    typeof fromBody === "number" && Number.isFinite(fromBody) && fromBody >= 0
      ? fromBody
      : (numberHeader(res, "retry-after") ?? numberHeader(res, "x-ratelimit-reset-after") ?? 1);
  return Math.max(0, Math.ceil(seconds * 1000));
}

/**
 * When a spent daily create budget (30034) has room again, as far as the response says:
 * only the 429 form says it, with its `Retry-After` (whole seconds; else the body's
 * `retry_after`). The 400 form says nothing: its `X-RateLimit-Reset(-After)` headers are
 * the route's rate-limit window (seconds ahead, measured: 20 s or 5 s), not the day's
 * budget, so they are never taken for it.
 */
export function budgetResetAt(res: RawResponse, body: unknown, now: number): Date | undefined {
  if (res.status !== 429) return undefined;
  const fromBody = isRecord(body) ? body["retry_after"] : undefined;
  const after =
    numberHeader(res, "retry-after") ??
    (typeof fromBody === "number" && Number.isFinite(fromBody) ? fromBody : undefined);
  return after !== undefined && after >= 0 ? new Date(now + after * 1000) : undefined;
}

export function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
