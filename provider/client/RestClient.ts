/**
 * The transport: one undici Agent per client, the right credential per route,
 * per-bucket sequential queues, the global pace and pause (RateLimiter), retries with
 * exponential backoff and full jitter on 5xx and dropped connections, and typed
 * errors. One client serves every resource of a deployment, concurrently. A request may
 * turn the waits and resends off (`SendPolicy`) when its caller does them better.
 * The request loop lives here; credentials and the token exchange in auth.ts, the
 * reading of headers and bodies in responseHeaders.ts, and the mapping of a failed
 * response to a typed error in errorFromResponse.ts.
 */
import { inspect } from "node:util";
import { Agent, request } from "undici";
import type { RouteDef, RouteParams } from "../routes";
import { path as routePath, Routes } from "../routes";
import type { AccessToken, Authorization, AuthMode } from "./auth";
import {
  authModeFor,
  clientCredentialsForm,
  Credentials,
  parseTokenReply,
  refreshUserToken,
} from "./auth";
import type { BucketQueue } from "./BucketQueue";
import type { ClientConfig, ClientEvent, ResolvedOptions } from "./config";
import { resolveOptions } from "./config";
import { errorFromResponse } from "./errorFromResponse";
import type { RequestInfo } from "./errors";
import type { Payload } from "./payload";
import { encodeBody } from "./payload";
import {
  HttpError,
  NetworkError,
  RateLimitError,
  RateLimitNotWaitedError,
  TimeoutError,
} from "./errors";
import { isRecord, ServiceErrorCode } from "../schema";
import type { PaceReservation, RoomWait } from "./RateLimiter";
import type { SendPolicy } from "./sendPolicy";
import { SEND_AND_RETRY } from "./sendPolicy";
import { RateLimiter } from "./RateLimiter";
import type { RawResponse } from "./responseHeaders";
import { header, numberHeader, parseJson, retryAfterOf, secondsToMs } from "./responseHeaders";
import { ServiceClock } from "./serviceClock";
import { backoffMs, classifyTransportError, RETRYABLE_STATUSES } from "./retry";
import type { ClientStats } from "./stats";
import { StatsRecorder } from "./stats";

/** At most this many 429s are retried for one request, whatever they ask. */
const MAX_RATE_LIMITED_RETRIES = 10;

export { SEND_AND_RETRY };
export type { SendPolicy };
export type { RoomWait };

export interface RequestOptions {
  readonly query?: Readonly<Record<string, string>>;
  /** Sent as a JSON body. */
  readonly json?: unknown;
  /** Default SEND_AND_RETRY. */
  readonly send?: SendPolicy;
}

export interface RestResponse {
  readonly status: number;
  /** The parsed JSON body; undefined for an empty body (204). */
  readonly data: unknown;
  /** How many times the request was sent (more than 1 after a retry). */
  readonly attempts: number;
  /** When the first attempt was sent (the client's clock, ms since the epoch). */
  readonly firstSentAt: number;
}

/** One request's tries so far. */
interface Tries {
  attempt: number;
  retries: number;
  rateLimited: number;
  refreshed: boolean;
  waitedMs: number;
  firstSentAt: number | undefined;
}

export class RestClient {
  readonly #options: ResolvedOptions;
  readonly #credentials: Credentials;
  readonly #limiter: RateLimiter;
  readonly #stats = new StatsRecorder();
  readonly serviceClock = new ServiceClock(() => this.#options.now()); // its answers' `Date`
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
    const payload = { query: options.query, json: options.json };
    return this.#execute(def, params, payload, mode, options.send ?? SEND_AND_RETRY);
  }

  /** The user's session (Bearer and refresh tokens), see auth.ts. */
  get credentials(): Credentials {
    return this.#credentials;
  }

  /** Sends a form to an OAuth2 endpoint with the client's own authentication. */
  async oauthForm(def: RouteDef, form: URLSearchParams): Promise<RestResponse> {
    return this.#execute(def, {}, { form }, "basic", SEND_AND_RETRY);
  }

  /** Resends of a failed request at most (`maxRetries`), and the longest rate-limit wait. */
  get retryLimits(): { readonly maxRetries: number; readonly maxRateLimitWaitMs: number } {
    return {
      maxRetries: this.#options.maxRetries,
      maxRateLimitWaitMs: this.#options.maxRateLimitWaitMs,
    };
  }

  /** The client's backoff before resend number `retry` (from 1), jittered. */
  backoffMs(retry: number): number {
    return backoffMs(retry, this.#options.random);
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
    send: SendPolicy,
  ): Promise<RestResponse> {
    const info: RequestInfo = {
      method: def.method,
      route: def.template,
      path: routePath(def, params),
    };
    const queue = this.#limiter.queueFor(def, params);
    return queue.run(() => this.#attempts(def, params, info, queue, payload, mode, send));
  }

  async #attempts(
    def: RouteDef,
    params: RouteParams,
    info: RequestInfo,
    queue: BucketQueue,
    payload: Payload,
    mode: AuthMode,
    send: SendPolicy,
  ): Promise<RestResponse> {
    const { maxRetries, random, sleep, now } = this.#options;
    const tries: Tries = {
      attempt: 0,
      retries: 0,
      rateLimited: 0,
      refreshed: false,
      waitedMs: 0,
      firstSentAt: undefined,
    };
    for (;;) {
      tries.waitedMs += await this.#waitForRateLimits(info, queue, tries, send);
      const auth = await this.#authorization(mode);
      tries.attempt++;
      const startedAt = now();
      tries.firstSentAt ??= startedAt;
      let res: RawResponse;
      try {
        this.#stats.sent();
        res = await this.#send(info, payload, auth.header);
      } catch (error) {
        this.#limiter.answered();
        await this.#afterTransportFailure(info, error, tries, send);
        continue;
      }
      this.#limiter.answered();
      const status = res.status;
      this.#observe(def, params, queue, info, res, tries.attempt, now() - startedAt);
      if (status >= 200 && status < 300) {
        const data = this.#parseSuccess(info, res);
        return { status, data, attempts: tries.attempt, firstSentAt: tries.firstSentAt };
      }
      if (status === 429) {
        this.#afterRateLimited(info, queue, res, mode, tries, send);
        continue;
      }
      if (status === 401 && auth.refreshable && !tries.refreshed) {
        // The cached client-credentials token was revoked or expired early: one fresh try.
        tries.refreshed = true;
        this.#credentials.invalidate(auth.header);
        await this.#backoff(info, tries.attempt, "token refresh", 0, sleep);
        continue;
      }
      if (send.resend && RETRYABLE_STATUSES.has(status) && tries.retries < maxRetries) {
        tries.retries++;
        const delayMs = backoffMs(tries.retries, random);
        await this.#backoff(info, tries.attempt, `status ${status}`, delayMs, sleep);
        continue;
      }
      const redact = (text: string): string => this.#credentials.redact(text);
      throw errorFromResponse(info, res, tries.attempt, mode, redact, now());
    }
  }

  /** Counts and reports a response, and records its rate-limit headers. */
  #observe(
    def: RouteDef,
    params: RouteParams,
    queue: BucketQueue,
    info: RequestInfo,
    res: RawResponse,
    attempt: number,
    durationMs: number,
  ): void {
    this.#stats.response(info.method, res.status);
    this.serviceClock.observe(res);
    this.#emit({
      type: "response",
      method: info.method,
      route: info.route,
      path: info.path,
      status: res.status,
      attempt,
      durationMs,
    });
    this.#limiter.observe(def, params, queue, {
      bucket: header(res, "x-ratelimit-bucket"),
      remaining: numberHeader(res, "x-ratelimit-remaining"),
      resetAfterMs: secondsToMs(numberHeader(res, "x-ratelimit-reset-after")),
    });
  }

  /** A request got no response: backs off before the next try, or throws. */
  async #afterTransportFailure(
    info: RequestInfo,
    error: unknown,
    tries: Tries,
    send: SendPolicy,
  ): Promise<void> {
    this.#stats.networkError();
    const failure = classifyTransportError(error);
    const { maxRetries, random, sleep, timeoutMs } = this.#options;
    if (send.resend && failure.retryable && tries.retries < maxRetries) {
      tries.retries++;
      const delayMs = backoffMs(tries.retries, random);
      await this.#backoff(info, tries.attempt, failure.code, delayMs, sleep);
      return;
    }
    if (failure.timeout !== undefined) {
      throw new TimeoutError(info, failure.code, failure.timeout, timeoutMs, tries.attempt);
    }
    const message = this.#credentials.redact(failure.message);
    throw new NetworkError(info, failure.code, message, tries.attempt, failure.retryable);
  }

  /** A 429: records the wait it asks for before the next try, or throws. */
  #afterRateLimited(
    info: RequestInfo,
    queue: BucketQueue,
    res: RawResponse,
    mode: AuthMode,
    tries: Tries,
    send: SendPolicy,
  ): void {
    const now = this.#options.now();
    const body = parseJson(res.text);
    // The daily create limit may come as a 429 with a Retry-After of hours: never wait.
    if (isRecord(body) && body["code"] === ServiceErrorCode.DAILY_CREATES) {
      const redact = (text: string): string => this.#credentials.redact(text);
      throw errorFromResponse(info, res, tries.attempt, mode, redact, now);
    }
    const retryAfterMs = retryAfterOf(res, body);
    const global =
      header(res, "x-ratelimit-global") !== undefined ||
      (isRecord(body) && body["global"] === true);
    if (global) this.#limiter.pauseAll(retryAfterMs);
    else queue.exhaust(retryAfterMs, now);
    if (!send.waitForRateLimits) {
      throw new RateLimitNotWaitedError(info, retryAfterMs, global, queue.id);
    }
    tries.rateLimited++;
    if (tries.rateLimited > MAX_RATE_LIMITED_RETRIES) {
      const limit = this.#options.maxRateLimitWaitMs;
      throw new RateLimitError(info, retryAfterMs, global, queue.id, limit);
    }
  }

  /**
   * How long a request on this route would wait for the rate limits now (0: it would go
   * at once). Lets a caller that can still add to a request (a bulk overwrite) wait first.
   */
  rateLimitWaitMs(def: RouteDef, params: RouteParams): number {
    const globalMs = this.#limiter.globalWaitMs();
    if (globalMs > 0) return globalMs;
    return this.#limiter.queueFor(def, params).waitMs(this.#options.now());
  }

  /** How many requests of this route its bucket takes right now without a wait. */
  rateLimitRoom(def: RouteDef, params: RouteParams): number {
    if (this.#limiter.globalWaitMs() > 0) return 0;
    return this.#limiter.queueFor(def, params).room(this.#options.now());
  }

  /**
   * What one request on each of `defs` (sent one after the other) would wait for before
   * they all go without a rate-limit wait; undefined when they can go now.
   */
  roomWait(defs: readonly RouteDef[], params: RouteParams): RoomWait | undefined {
    return this.#limiter.roomWait(defs, params);
  }

  /** Holds room in the global pace for `count` requests of `pace`'s write (0: lets go). */
  holdPace(pace: PaceReservation, count: number): void {
    this.#limiter.hold(pace, count);
  }

  /**
   * Waits for the global pause and the bucket; returns the time waited. Throws instead
   * when the policy waits for no rate limit.
   */
  async #waitForRateLimits(
    info: RequestInfo,
    queue: BucketQueue,
    tries: Tries,
    send: SendPolicy,
  ): Promise<number> {
    const attempt = tries.attempt + 1;
    const alreadyWaitedMs = tries.waitedMs;
    let waited = 0;
    for (;;) {
      const globalMs = this.#limiter.globalWaitMs(send.pace);
      const global = globalMs > 0;
      const waitMs = global ? globalMs : queue.waitMs(this.#options.now());
      if (waitMs <= 0) {
        this.#limiter.sent(send.pace); // in this turn: no other request passes the same room
        return waited;
      }
      if (!send.waitForRateLimits) {
        throw new RateLimitNotWaitedError(info, waitMs, global, queue.id);
      }
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
    const { contentType, body } = encodeBody(payload);
    const headers: Record<string, string> = {
      ...(authorization === "" ? {} : { authorization }),
      "user-agent": this.#options.userAgent,
      accept: "application/json",
      ...(contentType === undefined ? {} : { "content-type": contentType }),
    };
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

  async #exchangeToken(): Promise<AccessToken> {
    const form = clientCredentialsForm();
    const res = await this.#execute(Routes.oauth2Token, {}, { form }, "basic", SEND_AND_RETRY);
    this.#stats.tokenExchange();
    const expiresIn = isRecord(res.data) ? res.data["expires_in"] : undefined;
    this.#emit({
      type: "tokenExchange",
      status: res.status,
      expiresInS: typeof expiresIn === "number" ? expiresIn : undefined,
    });
    return parseTokenReply(res.status, res.data);
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
