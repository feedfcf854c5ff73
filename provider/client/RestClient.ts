/**
 * The transport: one undici Agent per client, the right credential per route,
 * per-bucket sequential queues and the global pause (RateLimiter), retries with
 * exponential backoff and full jitter on 5xx and dropped connections, and typed
 * errors. One client serves every resource of a deployment, concurrently.
 */
import { inspect } from "node:util";
import { Agent, request } from "undici";
import type { RouteDef, RouteParams } from "../routes";
import { path as routePath, Routes } from "../routes";
import type { AccessToken, Authorization, CredentialKind } from "./auth";
import { CLIENT_CREDENTIALS_SCOPE, Credentials, refreshUserToken } from "./auth";
import type { BucketQueue } from "./BucketQueue";
import type { ClientConfig, ClientEvent, ResolvedOptions } from "./config";
import { resolveOptions } from "./config";
import type { RequestInfo } from "./errors";
import {
  DailyCreateLimitError,
  flattenErrorTree,
  HttpError,
  NetworkError,
  RateLimitError,
  ServiceApiError,
  TimeoutError,
} from "./errors";
import { isRecord } from "../schema";
import { RateLimiter } from "./RateLimiter";
import { backoffMs, classifyTransportError, RETRYABLE_STATUSES } from "./retry";
import type { ClientStats } from "./stats";
import { StatsRecorder } from "./stats";

/** Error code of "Max number of daily application command creates has been reached". */
export const DAILY_CREATE_LIMIT_CODE = 30034;

/** At most this many 429s are retried for one request, whatever they ask. */
const MAX_RATE_LIMITED_RETRIES = 10;

export interface RequestOptions {
  readonly query?: Readonly<Record<string, string>>;
  /** Sent as a JSON body. */
  readonly json?: unknown;
}

export interface RestResponse {
  readonly status: number;
  /** The parsed JSON body; undefined for an empty body (204). */
  readonly data: unknown;
}

type AuthMode = CredentialKind | "basic";

interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

interface Payload {
  readonly query?: Readonly<Record<string, string>> | undefined;
  readonly json?: unknown;
  readonly form?: URLSearchParams;
}

export class RestClient {
  readonly #options: ResolvedOptions;
  readonly #credentials: Credentials;
  readonly #limiter: RateLimiter;
  readonly #stats = new StatsRecorder();
  readonly #agent: Agent;

  constructor(config: ClientConfig = {}) {
    this.#options = resolveOptions(config);
    this.#credentials = new Credentials(
      config,
      this.#options.now,
      () => this.#exchangeToken(),
      (refreshToken) => refreshUserToken(this, refreshToken),
      config.onUserSession,
    );
    this.#limiter = new RateLimiter(this.#options.now, this.#options.sleep);
    const timeout = this.#options.timeoutMs;
    this.#agent = new Agent({
      connect: { timeout },
      headersTimeout: timeout,
      bodyTimeout: timeout,
    });
  }

  /** `{origin}/api/v10`, normalized. */
  get baseUrl(): string {
    return this.#options.baseUrl;
  }

  /**
   * Sends one request on a route, with the credential that route needs. Resolves for
   * 2xx; throws a ClientError subclass otherwise. A missing credential throws a
   * ConfigurationError before anything is sent.
   */
  async request(
    def: RouteDef,
    params: RouteParams,
    options: RequestOptions = {},
  ): Promise<RestResponse> {
    const mode = authModeFor(def);
    if (mode !== "basic") this.#credentials.check(mode);
    return this.#execute(def, params, { query: options.query, json: options.json }, mode);
  }

  /** The user's session (Bearer and refresh tokens), see auth.ts. */
  get credentials(): Credentials {
    return this.#credentials;
  }

  /** Sends a form to an OAuth2 endpoint with the client's own authentication. */
  async oauthForm(def: RouteDef, form: URLSearchParams): Promise<RestResponse> {
    return this.#execute(def, {}, { form }, "basic");
  }

  /** Counts of requests by method and status, retries and rate-limit waits so far. */
  stats(): ClientStats {
    return this.#stats.snapshot();
  }

  /** Closes the client's connections. */
  async close(): Promise<void> {
    await this.#agent.close();
  }

  toJSON(): Record<string, string> {
    return { baseUrl: this.baseUrl, applicationAuth: this.#credentials.applicationAuth };
  }

  [inspect.custom](): string {
    return `RestClient ${JSON.stringify(this.toJSON())}`;
  }

  async #execute(
    def: RouteDef,
    params: RouteParams,
    payload: Payload,
    mode: AuthMode,
  ): Promise<RestResponse> {
    const info: RequestInfo = {
      method: def.method,
      route: def.template,
      path: routePath(def, params),
    };
    const queue = this.#limiter.queueFor(def, params);
    return queue.run(() => this.#attempts(def, params, info, queue, payload, mode));
  }

  async #attempts(
    def: RouteDef,
    params: RouteParams,
    info: RequestInfo,
    queue: BucketQueue,
    payload: Payload,
    mode: AuthMode,
  ): Promise<RestResponse> {
    const { maxRetries, random, sleep, now } = this.#options;
    let attempt = 0;
    let retries = 0;
    let rateLimited = 0;
    let refreshed = false;
    let waitedMs = 0;
    for (;;) {
      waitedMs += await this.#waitForRateLimits(info, queue, attempt + 1, waitedMs);
      const auth = await this.#authorization(mode);
      attempt++;
      const startedAt = now();
      let res: RawResponse;
      try {
        this.#stats.sent();
        res = await this.#send(info, payload, auth.header);
      } catch (error) {
        this.#stats.networkError();
        const failure = classifyTransportError(error);
        if (failure.retryable && retries < maxRetries) {
          retries++;
          await this.#backoff(info, attempt, failure.code, backoffMs(retries, random), sleep);
          continue;
        }
        const message = this.#credentials.redact(failure.message);
        if (failure.timeout !== undefined) {
          throw new TimeoutError(
            info,
            failure.code,
            failure.timeout,
            this.#options.timeoutMs,
            attempt,
          );
        }
        throw new NetworkError(info, failure.code, message, attempt);
      }

      const status = res.status;
      this.#stats.response(info.method, status);
      this.#emit({
        type: "response",
        method: info.method,
        route: info.route,
        path: info.path,
        status,
        attempt,
        durationMs: now() - startedAt,
      });
      this.#limiter.observe(def, params, queue, {
        bucket: header(res, "x-ratelimit-bucket"),
        remaining: numberHeader(res, "x-ratelimit-remaining"),
        resetAfterMs: secondsToMs(numberHeader(res, "x-ratelimit-reset-after")),
      });

      if (status >= 200 && status < 300) return { status, data: this.#parseSuccess(info, res) };

      if (status === 429) {
        const body = parseJson(res.text);
        const retryAfterMs = retryAfterOf(res, body);
        const global =
          header(res, "x-ratelimit-global") !== undefined ||
          (isRecord(body) && body["global"] === true);
        if (global) this.#limiter.pauseAll(retryAfterMs);
        else queue.exhaust(retryAfterMs, now());
        rateLimited++;
        if (rateLimited > MAX_RATE_LIMITED_RETRIES) {
          throw new RateLimitError(
            info,
            retryAfterMs,
            global,
            queue.id,
            this.#options.maxRateLimitWaitMs,
          );
        }
        continue;
      }

      if (status === 401 && auth.refreshable && !refreshed) {
        // The cached client-credentials token was revoked or expired early: one fresh try.
        refreshed = true;
        this.#credentials.invalidate(auth.header);
        await this.#backoff(info, attempt, "token refresh", 0, sleep);
        continue;
      }

      if (RETRYABLE_STATUSES.has(status) && retries < maxRetries) {
        retries++;
        await this.#backoff(info, attempt, `status ${status}`, backoffMs(retries, random), sleep);
        continue;
      }

      throw this.#errorFor(info, res, attempt, mode);
    }
  }

  /** Waits for the global pause and the bucket; returns the time waited. */
  async #waitForRateLimits(
    info: RequestInfo,
    queue: BucketQueue,
    attempt: number,
    alreadyWaitedMs: number,
  ): Promise<number> {
    let waited = 0;
    for (;;) {
      const globalMs = this.#limiter.globalWaitMs();
      const global = globalMs > 0;
      const waitMs = global ? globalMs : queue.waitMs(this.#options.now());
      if (waitMs <= 0) return waited;
      const limit = this.#options.maxRateLimitWaitMs;
      if (alreadyWaitedMs + waited + waitMs > limit) {
        throw new RateLimitError(info, waitMs, global, queue.id, limit);
      }
      this.#stats.rateLimitWait(waitMs);
      this.#emit({
        type: "rateLimited",
        method: info.method,
        route: info.route,
        path: info.path,
        bucket: queue.id,
        global,
        waitMs,
        attempt,
      });
      await (global ? this.#limiter.waitGlobal() : this.#limiter.waitBucket(waitMs));
      waited += waitMs;
    }
  }

  async #backoff(
    info: RequestInfo,
    attempt: number,
    reason: string,
    delayMs: number,
    sleep: (ms: number) => Promise<void>,
  ): Promise<void> {
    this.#stats.retry();
    this.#emit({
      type: "retry",
      method: info.method,
      route: info.route,
      path: info.path,
      reason,
      attempt,
      delayMs,
    });
    if (delayMs > 0) await sleep(delayMs);
  }

  async #authorization(mode: AuthMode): Promise<Authorization> {
    if (mode === "basic") {
      // A public client names itself with `client_id` in the form instead.
      const header = this.#credentials.hasClientSecret
        ? this.#credentials.basicAuthorization()
        : "";
      return { header, refreshable: false };
    }
    return this.#credentials.authorization(mode);
  }

  async #send(info: RequestInfo, payload: Payload, authorization: string): Promise<RawResponse> {
    const url = new URL(this.#options.baseUrl + info.path);
    for (const [k, v] of Object.entries(payload.query ?? {})) url.searchParams.set(k, v);
    const headers: Record<string, string> = {
      ...(authorization === "" ? {} : { authorization }),
      "user-agent": this.#options.userAgent,
      accept: "application/json",
    };
    let body: string | undefined;
    if (payload.form !== undefined) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = payload.form.toString();
    } else if (payload.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(payload.json);
    }
    const res = await request(url, {
      method: info.method,
      headers,
      body: body ?? null,
      dispatcher: this.#agent,
      headersTimeout: this.#options.timeoutMs,
      bodyTimeout: this.#options.timeoutMs,
    });
    const text = await res.body.text();
    return { status: res.statusCode, headers: res.headers, text };
  }

  #parseSuccess(info: RequestInfo, res: RawResponse): unknown {
    if (res.text === "") return undefined;
    const data = parseJson(res.text);
    if (data === undefined) {
      throw new HttpError(info, res.status, 1, "the service's reply is not JSON");
    }
    return data;
  }

  #errorFor(info: RequestInfo, res: RawResponse, attempts: number, mode: AuthMode): Error {
    const redact = (s: string): string => this.#credentials.redact(s);
    const body = parseJson(res.text);
    const status = res.status;
    if (status >= 500 || !isRecord(body)) {
      const said =
        isRecord(body) && typeof body["message"] === "string"
          ? body["message"]
          : res.text === ""
            ? "empty response"
            : `non-JSON response: ${res.text.slice(0, 200)}`;
      return new HttpError(info, status, attempts, redact(said));
    }
    const code = body["code"];
    if (typeof code === "number" || typeof code === "string") {
      const message = redact(typeof body["message"] === "string" ? body["message"] : "");
      if (code === DAILY_CREATE_LIMIT_CODE) {
        return new DailyCreateLimitError(info, status, code, message, this.#retryAt(res));
      }
      const fields = flattenErrorTree(body["errors"]).map((f) => ({
        path: redact(f.path),
        code: redact(f.code),
        message: redact(f.message),
      }));
      return new ServiceApiError(info, status, code, message, fields, advice(status, code, mode));
    }
    if (typeof body["error"] === "string") {
      // OAuth2 errors: {error, error_description}.
      const description =
        typeof body["error_description"] === "string" ? body["error_description"] : body["error"];
      return new ServiceApiError(
        info,
        status,
        redact(body["error"]),
        redact(description),
        [],
        "the client-credentials exchange failed: check discord:clientId and discord:clientSecret",
      );
    }
    return new HttpError(info, status, attempts, "error response without a code");
  }

  /** When a 30034 budget resets, if the response says. */
  #retryAt(res: RawResponse): Date | undefined {
    const after = numberHeader(res, "retry-after") ?? numberHeader(res, "x-ratelimit-reset-after");
    if (after !== undefined && after >= 0) return new Date(this.#options.now() + after * 1000);
    const reset = numberHeader(res, "x-ratelimit-reset");
    if (reset !== undefined && reset > 0) return new Date(reset * 1000);
    return undefined;
  }

  async #exchangeToken(): Promise<AccessToken> {
    const form = new URLSearchParams({
      grant_type: "client_credentials",
      scope: CLIENT_CREDENTIALS_SCOPE,
    });
    const res = await this.#execute(Routes.oauth2Token, {}, { form }, "basic");
    this.#stats.tokenExchange();
    const data = res.data;
    const accessToken = isRecord(data) ? data["access_token"] : undefined;
    const expiresIn = isRecord(data) ? data["expires_in"] : undefined;
    const tokenType = isRecord(data) ? data["token_type"] : undefined;
    this.#emit({
      type: "tokenExchange",
      status: res.status,
      expiresInS: typeof expiresIn === "number" ? expiresIn : undefined,
    });
    if (
      typeof accessToken !== "string" ||
      accessToken === "" ||
      typeof expiresIn !== "number" ||
      !(expiresIn > 0) ||
      (typeof tokenType === "string" && tokenType.toLowerCase() !== "bearer")
    ) {
      const info = { method: "POST", route: Routes.oauth2Token.template, path: "/oauth2/token" };
      throw new HttpError(
        info,
        res.status,
        1,
        "the token endpoint's reply lacks a Bearer access_token and expires_in",
      );
    }
    return { accessToken, expiresInS: expiresIn };
  }

  #emit(event: ClientEvent): void {
    const hook = this.#options.onEvent;
    if (hook === undefined) return;
    try {
      hook(event);
    } catch {
      // A faulty logging hook must not break a deployment.
    }
  }
}

function authModeFor(def: RouteDef): AuthMode {
  if (def === Routes.editCommandPermissions || def === Routes.oauth2CurrentAuthorization) {
    return "user";
  }
  if (def === Routes.oauth2Token || def === Routes.oauth2TokenRevoke) return "basic";
  return "application";
}

/** Advice appended to errors whose cause is usually the configuration. */
function advice(status: number, code: number | string, mode: AuthMode): string | undefined {
  if (status === 401) {
    return mode === "user"
      ? "the Bearer token (discord:bearerToken) was rejected: it may have expired"
      : "the application's credentials were rejected: check discord:botToken or discord:clientId/clientSecret";
  }
  if (code === 20001) {
    return "this endpoint needs a user's Bearer token with applications.commands.permissions.update (discord:bearerToken)";
  }
  return undefined;
}

function header(res: RawResponse, name: string): string | undefined {
  const value = res.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function numberHeader(res: RawResponse, name: string): number | undefined {
  const value = header(res, name);
  if (value === undefined || value.trim() === "") return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

function secondsToMs(seconds: number | undefined): number | undefined {
  return seconds === undefined ? undefined : Math.max(0, Math.ceil(seconds * 1000));
}

/** A 429's wait: the body's `retry_after` (float s), else `Retry-After`, else `Reset-After`, else 1 s. */
function retryAfterOf(res: RawResponse, body: unknown): number {
  const fromBody = isRecord(body) ? body["retry_after"] : undefined;
  const seconds =
    typeof fromBody === "number" && Number.isFinite(fromBody) && fromBody >= 0
      ? fromBody
      : (numberHeader(res, "retry-after") ?? numberHeader(res, "x-ratelimit-reset-after") ?? 1);
  return Math.max(0, Math.ceil(seconds * 1000));
}

function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
