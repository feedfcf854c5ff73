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

/** When a 30034 budget resets, if the response says. */
export function budgetResetAt(res: RawResponse, now: number): Date | undefined {
  const after = numberHeader(res, "retry-after") ?? numberHeader(res, "x-ratelimit-reset-after");
  if (after !== undefined && after >= 0) return new Date(now + after * 1000);
  const reset = numberHeader(res, "x-ratelimit-reset");
  if (reset !== undefined && reset > 0) return new Date(reset * 1000);
  return undefined;
}

export function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
