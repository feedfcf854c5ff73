/**
 * The client's typed errors. None of them holds a request header, a token, a client
 * secret or a request body: only the method, the route template, the concrete path
 * (which carries ids, never credentials), the status and what the service said.
 * Every text taken from a response goes through the client's redactor first, so a
 * service that echoes a credential back cannot smuggle it into an error either.
 */
import { isRecord } from "../schema";

/** Where in the request a failure happened, for errors that are tied to one request. */
export interface RequestInfo {
  readonly method: string;
  /** Route template, e.g. `/applications/{applicationId}/commands`. */
  readonly route: string;
  /** Concrete path below `/api/v10`, e.g. `/applications/123/commands`. */
  readonly path: string;
}

/** One leaf of the service's error tree, e.g. `{path: "options[0].name", code: "BASE_TYPE_REQUIRED"}`. */
export interface FieldError {
  readonly path: string;
  readonly code: string;
  readonly message: string;
}

/** Base class of every error this client throws. */
export class ClientError extends Error {
  override get name(): string {
    return this.constructor.name;
  }
}

/** The configuration cannot serve a request (missing credential, bad URL...). Nothing was sent. */
export class ConfigurationError extends ClientError {}

/** The service answered with a JSON error body (`{code, message, errors?}`). */
export class ServiceApiError extends ClientError implements RequestInfo {
  readonly method: string;
  readonly route: string;
  readonly path: string;
  readonly status: number;
  /** The service's error code (numeric, e.g. 50035), or the OAuth2 error string. */
  readonly code: number | string;
  /** The service's own message, e.g. "Invalid Form Body". */
  readonly serviceMessage: string;
  readonly fieldErrors: readonly FieldError[];

  constructor(
    info: RequestInfo,
    status: number,
    code: number | string,
    serviceMessage: string,
    fieldErrors: readonly FieldError[],
    detail?: string,
  ) {
    super(ServiceApiError.compose(info, status, code, serviceMessage, fieldErrors, detail));
    this.method = info.method;
    this.route = info.route;
    this.path = info.path;
    this.status = status;
    this.code = code;
    this.serviceMessage = serviceMessage;
    this.fieldErrors = fieldErrors;
  }

  private static compose(
    info: RequestInfo,
    status: number,
    code: number | string,
    serviceMessage: string,
    fieldErrors: readonly FieldError[],
    detail: string | undefined,
  ): string {
    const head = `${info.method} ${info.path} failed with ${status}: ${serviceMessage} (code ${code})`;
    const lines = [detail === undefined ? head : `${head}: ${detail}`];
    for (const f of fieldErrors) lines.push(`${f.path}: ${f.message} (${f.code})`);
    return lines.join("\n");
  }
}

/**
 * What is known of when a spent daily create budget has room again: the 429 form's
 * Retry-After, or nothing (the 400 form), never a rate-limit window's reset.
 */
export function dailyResetText(retryAt: Date | undefined): string {
  return retryAt === undefined
    ? "the budget is per day and the service does not say when it resets: try again a day later"
    : `the service's Retry-After says it has room again after ${retryAt.toISOString()}`;
}

/** Code 30034: the daily budget of command creates is spent. Never retried. */
export class DailyCreateLimitError extends ServiceApiError {
  /** When the budget has room again, if the service said so (the 429 form's Retry-After). */
  readonly retryAt: Date | undefined;
  /** The daily limit the service's message reported, e.g. 200 from "... reached (200)". */
  readonly limit: number | undefined;

  constructor(
    info: RequestInfo,
    status: number,
    code: number,
    serviceMessage: string,
    retryAt: Date | undefined,
  ) {
    // The limit the service reported, never a constant of ours: it may change it.
    const limit = reportedLimit(serviceMessage);
    const allows =
      limit === undefined
        ? "the daily budget of command creates is spent"
        : `the service allows ${limit} creates per day in this scope`;
    super(info, status, code, serviceMessage, [], `${allows}; ${dailyResetText(retryAt)}`);
    this.retryAt = retryAt;
    this.limit = limit;
  }
}

/** A response that is not a usable JSON error, or a 5xx that outlived every retry. */
export class HttpError extends ClientError implements RequestInfo {
  readonly method: string;
  readonly route: string;
  readonly path: string;
  readonly status: number;
  readonly attempts: number;
  /**
   * Whether `detail` is text the response carried (a non-JSON body's start, a 5xx's
   * message), not the client's own words: a server or proxy that echoes the request
   * would print what it carried (`withoutResponseText`).
   */
  readonly quotesResponse: boolean;

  constructor(
    info: RequestInfo,
    status: number,
    attempts: number,
    detail: string,
    quotesResponse = false,
  ) {
    super(`${HttpError.head(info, status, attempts)}: ${detail}`);
    this.method = info.method;
    this.route = info.route;
    this.path = info.path;
    this.status = status;
    this.attempts = attempts;
    this.quotesResponse = quotesResponse;
  }

  private static head(info: RequestInfo, status: number, attempts: number): string {
    const tries = attempts > 1 ? ` after ${attempts} attempts` : "";
    return `${info.method} ${info.path} failed with ${status}${tries}`;
  }

  /** The message without the response's text, for a request that carried secret values. */
  withoutResponseText(withheld: string): string {
    return this.quotesResponse
      ? `${HttpError.head(this, this.status, this.attempts)}: ${withheld}`
      : this.message;
  }
}

/** A rate limit asks for a longer wait than the client is configured to accept. */
export class RateLimitError extends ClientError implements RequestInfo {
  readonly method: string;
  readonly route: string;
  readonly path: string;
  /** How long the service asked to wait, in milliseconds. */
  readonly retryAfterMs: number;
  readonly global: boolean;
  /** Rate-limit bucket (learned `X-RateLimit-Bucket`, or the route's bucket before learning). */
  readonly bucket: string;

  constructor(
    info: RequestInfo,
    retryAfterMs: number,
    global: boolean,
    bucket: string,
    limitMs: number,
  ) {
    const scope = global ? "the global rate limit" : `rate limit bucket ${bucket}`;
    super(
      `${info.method} ${info.path}: ${scope} asks to wait ${seconds(retryAfterMs)}, ` +
        `more than this client is willing to wait (${seconds(limitMs)}, maxRateLimitWaitMs)`,
    );
    this.method = info.method;
    this.route = info.route;
    this.path = info.path;
    this.retryAfterMs = retryAfterMs;
    this.global = global;
    this.bucket = bucket;
  }
}

/**
 * A request sent without waiting for rate limits (`SendPolicy.waitForRateLimits` off) met
 * one: its bucket or a global pause would have made it wait, or the service answered 429.
 * Nothing took effect; the caller waits `retryAfterMs` where it holds nothing (a scope's
 * write lock), then tries again.
 */
export class RateLimitNotWaitedError extends RateLimitError {
  constructor(info: RequestInfo, retryAfterMs: number, global: boolean, bucket: string) {
    super(info, retryAfterMs, global, bucket, 0);
    const scope = global ? "the global rate limit" : `rate limit bucket ${bucket}`;
    this.message =
      `${info.method} ${info.path}: ${scope} asks to wait ${seconds(retryAfterMs)}, ` +
      "not waited by the client (its caller waits)";
  }
}

/** The connection failed or dropped (after every retry). */
export class NetworkError extends ClientError implements RequestInfo {
  readonly method: string;
  readonly route: string;
  readonly path: string;
  /** The low-level error code, e.g. `ECONNRESET` or `UND_ERR_SOCKET`. */
  readonly errorCode: string;
  readonly attempts: number;
  /** A failure that another try may not meet (a dropped connection, a timeout). */
  readonly resendable: boolean;

  constructor(
    info: RequestInfo,
    errorCode: string,
    detail: string,
    attempts: number,
    resendable = false,
  ) {
    const tries = attempts > 1 ? ` after ${attempts} attempts` : "";
    super(`${info.method} ${info.path} failed${tries}: ${detail} (${errorCode})`);
    this.method = info.method;
    this.route = info.route;
    this.path = info.path;
    this.errorCode = errorCode;
    this.attempts = attempts;
    this.resendable = resendable;
  }
}

export type TimeoutPhase = "connect" | "headers" | "body";

/** The service took longer than `timeoutMs` to connect, send headers or send the body. */
export class TimeoutError extends NetworkError {
  readonly phase: TimeoutPhase;
  readonly timeoutMs: number;

  constructor(
    info: RequestInfo,
    errorCode: string,
    phase: TimeoutPhase,
    timeoutMs: number,
    attempts: number,
  ) {
    super(info, errorCode, `no ${phase} from the service within ${timeoutMs} ms`, attempts, true);
    this.phase = phase;
    this.timeoutMs = timeoutMs;
  }
}

/** The limit a service message reports at its end: "... has been reached (200)" gives 200. */
export function reportedLimit(serviceMessage: string): number | undefined {
  const m = /\((\d+)\)\s*$/.exec(serviceMessage);
  return m?.[1] === undefined ? undefined : Number(m[1]);
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 0)} s`;
}

/**
 * Flattens the service's error tree into one entry per leaf. Array indices become
 * `[i]`, object keys `.key`, and `_errors` arrays hold the leaves:
 * `{options: {"0": {name: {_errors: [{code, message}]}}}}` gives
 * `{path: "options[0].name", code, message}`.
 */
export function flattenErrorTree(tree: unknown, prefix = ""): FieldError[] {
  const out: FieldError[] = [];
  if (!isRecord(tree)) return out;
  for (const [key, value] of Object.entries(tree)) {
    if (key === "_errors") {
      for (const leaf of Array.isArray(value) ? value : []) {
        if (!isRecord(leaf)) continue;
        out.push({
          path: prefix,
          code: typeof leaf["code"] === "string" ? leaf["code"] : String(leaf["code"] ?? "UNKNOWN"),
          message: typeof leaf["message"] === "string" ? leaf["message"] : "",
        });
      }
      continue;
    }
    const next = /^\d+$/.test(key) ? `${prefix}[${key}]` : prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.push({ path: next, code: "UNKNOWN", message: value });
    else out.push(...flattenErrorTree(value, next));
  }
  return out;
}

/**
 * The service refused the user's refresh token: the authorization was revoked, or the
 * token was spent by an earlier refresh whose successor was not kept. Only a person can
 * mend it, by authorizing again.
 */
export class ReauthorizationRequiredError extends ClientError {
  readonly status: number;
  readonly code: number | string;

  constructor(status: number, code: number | string, serviceMessage: string, advice: string) {
    super(
      `the service refused the user's refresh token (${status} ${code}: ${serviceMessage}); ` +
        `the authorization was revoked or the token already used: ${advice}`,
    );
    this.status = status;
    this.code = code;
  }
}
