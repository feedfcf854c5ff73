/**
 * One request from arrival to answer (past the Host check of requestGuard.ts): URL, body,
 * then the control API (`/__emulator/`, when enabled; a state change must pass the guard's
 * cross-site check) or the service API pipeline; then the access log, the invalid-request
 * count and the response. Nothing a client sends can crash the process: every failure
 * becomes a response in the service's error shape.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { RouteName } from "../provider/routes";
import type { RateLimitSwitch } from "./control";
import { ControlError } from "./control";
import type { ControlTarget } from "./controlRoutes";
import { serveControlRoute } from "./controlRoutes";
import { ApiError, Errors } from "./errors";
import type { RequestLog, RequestLogEntry } from "./log";
import type { ApiPipeline } from "./pipeline";
import type { ResponseRecord } from "./options";
import type { BodyRead } from "./requestBody";
import { parseControlBody, readBody } from "./requestBody";
import { controlWriteRefusal, loopbackCaller } from "./requestGuard";
import { errorOutcome, send } from "./response";
import type { Outcome } from "./response";
import { ServiceErrorCode } from "./schema";
import { WARNING_HEADER } from "./handlers/commandScope";

const CONTROL_PREFIX = "/__emulator";
/**
 * The readiness probe for CI jobs: answered whenever the server listens, even with the
 * control API off (it tells nothing but "up"), never logged or rate limited.
 */
const HEALTH_PATH = `${CONTROL_PREFIX}/health`;

/** Statuses the service counts toward the invalid-request ban. */
const INVALID_STATUSES: ReadonlySet<number> = new Set([401, 403, 429]);

interface DispatchParts {
  readonly api: ApiPipeline;
  /**
   * What the control API's routes (controlRoutes.ts) act on; undefined when the control API
   * is not served (its paths are then plain 404s).
   */
  readonly control: ControlTarget | undefined;
  readonly log: RequestLog;
  readonly limits: RateLimitSwitch;
  readonly maxBodyBytes: number;
  /** The emulator's clock (the log's times follow it when a test moves it). */
  readonly now: () => number;
  readonly onRequest: ((entry: RequestLogEntry) => void) | undefined;
  readonly onResponse?: ((response: ResponseRecord) => void) | undefined;
  readonly onInternalError: ((err: unknown) => void) | undefined;
  /**
   * The page's redaction of the secrets the emulator has held, applied to a text the log
   * cuts before it is cut (`cutForLog`): a token cut at the edge would show its start.
   */
  readonly redact?: ((text: string) => string) | undefined;
}

/**
 * `text` within `max` characters for the request log: a longer one is redacted (`redact`)
 * first, then cut. A short one is kept whole: the page redacts every text when it renders.
 */
export function cutForLog(
  text: string,
  max: number,
  redact: ((text: string) => string) | undefined,
): string {
  if (text.length <= max) return text;
  return (redact === undefined ? text : redact(text)).slice(0, max);
}

export class RequestDispatcher {
  constructor(private readonly parts: DispatchParts) {}

  /** For `http.createServer`: a failure that escapes `handle` is a 500 or a closed socket. */
  readonly listener: RequestListener = (req, res) => {
    void this.handle(req, res).catch(() => {
      try {
        if (!res.headersSent) send(res, 500, Errors.internal().toBody(), {});
        else res.destroy();
      } catch {
        res.destroy();
      }
    });
  };

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const time = new Date(this.parts.now()).toISOString();
    const method = (req.method ?? "GET").toUpperCase();
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://emulator.invalid");
    } catch {
      req.resume();
      send(res, 400, Errors.badRequest().toBody(), {});
      return;
    }
    const body = await readBody(req, this.parts.maxBodyBytes);
    if (body.aborted) return;

    if (url.pathname === HEALTH_PATH && (method === "GET" || method === "HEAD")) {
      send(res, 200, method === "HEAD" ? undefined : { status: "ok" }, {});
      return;
    }
    if (await this.servedControl(req, res, method, url, body)) return;

    const address = req.socket.remoteAddress ?? "unknown";
    let route: RouteName | null = null;
    let outcome: Outcome;
    try {
      const served = await this.parts.api.serve({
        method,
        pathname: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        address,
        body,
      });
      outcome = served.outcome;
      route = served.route;
    } catch (err) {
      if (!(err instanceof ApiError)) this.parts.onInternalError?.(err);
      outcome = errorOutcome(err);
    }
    const entry = logEntry(method, route, url, outcome, time, started, this.parts.redact);
    this.parts.log.record(entry);
    this.parts.onRequest?.(entry);
    if (INVALID_STATUSES.has(outcome.status)) this.parts.limits.limiter?.recordInvalid(address);
    if (outcome.drop) {
      req.socket.destroy();
      return;
    }
    this.parts.onResponse?.({
      method,
      path: url.pathname,
      status: outcome.status,
      body: outcome.body,
      headers: outcome.headers,
      ...(outcome.fault === undefined ? {} : { fault: outcome.fault }),
    });
    // The service's answers carry its time (HTTP's `Date`); the emulator's follows its
    // clock, which a test may move: the provider's daily create budget reads it.
    const date = new Date(this.parts.now()).toUTCString();
    send(res, outcome.status, outcome.body, { Date: date, ...outcome.headers });
  }

  /** The control API's share of the requests: false when the request is not for it. */
  private async servedControl(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    url: URL,
    body: BodyRead,
  ): Promise<boolean> {
    const { control } = this.parts;
    if (!control) return false;
    if (url.pathname !== CONTROL_PREFIX && !url.pathname.startsWith(`${CONTROL_PREFIX}/`)) {
      return false;
    }
    const refused = controlWriteRefusal(method, req.headers);
    if (refused) {
      send(res, refused.status, { code: ServiceErrorCode.GENERAL, message: refused.message }, {});
      return true;
    }
    await serveControl(control, res, {
      method,
      sub: url.pathname.slice(CONTROL_PREFIX.length),
      read: body,
      query: url.searchParams,
      loopback: loopbackCaller(req.socket.remoteAddress, req.headers.host),
    });
    return true;
  }
}

/** The request log's line for one served request. */
function logEntry(
  method: string,
  route: RouteName | null,
  url: URL,
  outcome: Outcome,
  time: string,
  started: number,
  redact: ((text: string) => string) | undefined,
): RequestLogEntry {
  const warning = outcome.headers[WARNING_HEADER];
  const bucket = outcome.headers["X-RateLimit-Bucket"];
  const remaining = outcome.headers["X-RateLimit-Remaining"];
  return {
    method,
    route,
    path: cutForLog(url.pathname, 512, redact),
    status: outcome.status,
    time,
    durationMs: Math.round((performance.now() - started) * 1000) / 1000,
    ...(outcome.fault === undefined ? {} : { fault: outcome.fault }),
    ...(warning === undefined ? {} : { warning }),
    ...(bucket === undefined ? {} : { bucket }),
    ...(remaining === undefined ? {} : { remaining: Number(remaining) }),
    ...(outcome.status >= 400 && outcome.body !== undefined
      ? { error: cutForLog(JSON.stringify(outcome.body), 2000, redact) }
      : {}),
  };
}

/** A control API request as the dispatcher read it. */
interface ControlRequest {
  readonly method: string;
  /** The path after `/__emulator`. */
  readonly sub: string;
  readonly read: BodyRead;
  readonly query: URLSearchParams;
  /** Connected over loopback and naming a loopback host: may see the credentials. */
  readonly loopback: boolean;
}

/** A control API request: not logged, not rate limited, errors as `{code: 0, message}`. */
async function serveControl(
  target: ControlTarget,
  res: ServerResponse,
  request: ControlRequest,
): Promise<void> {
  const { method, sub, query } = request;
  try {
    const body = parseControlBody(request.read);
    const r = await serveControlRoute(target, method, sub, {
      body,
      query,
      loopback: request.loopback,
    });
    send(res, r.status, r.body, {});
  } catch (err) {
    const status = err instanceof ControlError ? err.status : 500;
    const message = err instanceof Error ? err.message : String(err);
    send(res, status, { code: ServiceErrorCode.GENERAL, message }, {});
  }
}
