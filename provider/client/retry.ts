/**
 * Retry policy: which failures are worth another try, and how long to back off.
 */
import { types } from "node:util";
import type { TimeoutPhase } from "./errors";
import { HttpError, NetworkError } from "./errors";
import { isRecord } from "../schema";

/** Server errors that are usually transient. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([500, 502, 503, 504]);

const BACKOFF_BASE_MS = 250;
const BACKOFF_CAP_MS = 10_000;

/**
 * Exponential backoff with full jitter: a uniform draw in [0, min(cap, base * 2^n)),
 * where `retry` counts from 1 for the first retry.
 */
export function backoffMs(retry: number, random: () => number): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (retry - 1));
  return Math.floor(Math.min(Math.max(random(), 0), 1) * ceiling);
}

/** What went wrong with a request that got no response. */
export interface TransportFailure {
  /** `ECONNRESET`, `UND_ERR_SOCKET`, `UND_ERR_HEADERS_TIMEOUT`... or `UNKNOWN`. */
  readonly code: string;
  readonly message: string;
  readonly retryable: boolean;
  readonly timeout: TimeoutPhase | undefined;
}

const TIMEOUTS: Readonly<Record<string, TimeoutPhase>> = {
  UND_ERR_CONNECT_TIMEOUT: "connect",
  UND_ERR_HEADERS_TIMEOUT: "headers",
  UND_ERR_BODY_TIMEOUT: "body",
};

const RETRYABLE_CODES: ReadonlySet<string> = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  ...Object.keys(TIMEOUTS),
]);

/** Classifies an error thrown by undici (or by reading a response body). */
export function classifyTransportError(error: unknown): TransportFailure {
  const code = errorCode(error) ?? errorCode(isRecord(error) ? error["cause"] : undefined);
  // isNativeError: an error Node made in another realm (a vm context, Jest's) is no
  // `instanceof Error` here, yet carries the message the user needs.
  const message =
    types.isNativeError(error) || error instanceof Error ? error.message : "request failed";
  const timeout = code === undefined ? undefined : TIMEOUTS[code];
  const retryable =
    (code !== undefined && RETRYABLE_CODES.has(code)) || /socket hang up/i.test(message);
  return { code: code ?? "UNKNOWN", message, retryable, timeout };
}

/**
 * Whether a request that failed without a resend (`SendPolicy.resend` off) failed in a way
 * a later try may not: a 5xx of RETRYABLE_STATUSES, a dropped connection, a timeout.
 */
export function resendable(error: unknown): boolean {
  if (error instanceof HttpError) return RETRYABLE_STATUSES.has(error.status);
  return error instanceof NetworkError && error.resendable;
}

function errorCode(error: unknown): string | undefined {
  if (!isRecord(error)) return undefined;
  const code = error["code"];
  return typeof code === "string" ? code : undefined;
}
