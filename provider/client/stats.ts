/**
 * Request accounting: what the client sent and how it fared, for the provider's
 * diagnostics (`client.stats()`).
 */

export interface ClientStats {
  /** HTTP requests sent (every attempt counts, token exchanges included). */
  readonly requests: number;
  /** Responses by method, e.g. `{GET: 3, POST: 1}`. */
  readonly byMethod: Readonly<Record<string, number>>;
  /** Responses by status, e.g. `{"200": 3, "429": 1}`. */
  readonly byStatus: Readonly<Record<string, number>>;
  /** Responses by method and status, e.g. `{"GET 200": 3}`. */
  readonly byMethodAndStatus: Readonly<Record<string, number>>;
  /** Retries after a 5xx, a network error or a token refresh (429 retries are in rateLimitWaits). */
  readonly retries: number;
  /** Requests that failed without a response (dropped connections, timeouts). */
  readonly networkErrors: number;
  /** Times a request waited for a rate limit (bucket, 429 or global). */
  readonly rateLimitWaits: number;
  /** Total time spent waiting for rate limits, in ms. */
  readonly rateLimitWaitedMs: number;
  /** 401, 403 and 429 responses: they count toward the service's invalid-request ban. */
  readonly invalidRequests: number;
  /** Client-credentials token exchanges. */
  readonly tokenExchanges: number;
}

export class StatsRecorder {
  #requests = 0;
  #byMethod: Record<string, number> = {};
  #byStatus: Record<string, number> = {};
  #byMethodAndStatus: Record<string, number> = {};
  #retries = 0;
  #networkErrors = 0;
  #rateLimitWaits = 0;
  #rateLimitWaitedMs = 0;
  #invalidRequests = 0;
  #tokenExchanges = 0;

  sent(): void {
    this.#requests++;
  }

  response(method: string, status: number): void {
    bump(this.#byMethod, method);
    bump(this.#byStatus, String(status));
    bump(this.#byMethodAndStatus, `${method} ${status}`);
    if (status === 401 || status === 403 || status === 429) this.#invalidRequests++;
  }

  networkError(): void {
    this.#networkErrors++;
  }

  retry(): void {
    this.#retries++;
  }

  rateLimitWait(ms: number): void {
    this.#rateLimitWaits++;
    this.#rateLimitWaitedMs += ms;
  }

  tokenExchange(): void {
    this.#tokenExchanges++;
  }

  snapshot(): ClientStats {
    return {
      requests: this.#requests,
      byMethod: { ...this.#byMethod },
      byStatus: { ...this.#byStatus },
      byMethodAndStatus: { ...this.#byMethodAndStatus },
      retries: this.#retries,
      networkErrors: this.#networkErrors,
      rateLimitWaits: this.#rateLimitWaits,
      rateLimitWaitedMs: this.#rateLimitWaitedMs,
      invalidRequests: this.#invalidRequests,
      tokenExchanges: this.#tokenExchanges,
    };
  }
}

function bump(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}
