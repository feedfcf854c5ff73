/**
 * The client's configuration, its defaults, and the structured events it reports.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { RefreshRefusals, UserSession } from "./auth";
import { ConfigurationError } from "./errors";

/** A structured event for the optional logging hook. Never carries a credential or a body. */
export type ClientEvent =
  | {
      readonly type: "response";
      readonly method: string;
      /** Route template, e.g. `/applications/{applicationId}/commands`. */
      readonly route: string;
      readonly path: string;
      readonly status: number;
      /** 1 for the first try of a request, 2 for its first retry... */
      readonly attempt: number;
      readonly durationMs: number;
    }
  | {
      readonly type: "rateLimited";
      readonly method: string;
      readonly route: string;
      readonly path: string;
      readonly bucket: string;
      readonly global: boolean;
      readonly waitMs: number;
      readonly attempt: number;
    }
  | {
      readonly type: "retry";
      readonly method: string;
      readonly route: string;
      readonly path: string;
      /** `status 503`, `ECONNRESET`, `token refresh`... */
      readonly reason: string;
      readonly attempt: number;
      readonly delayMs: number;
    }
  | {
      readonly type: "tokenExchange";
      readonly status: number;
      readonly expiresInS: number | undefined;
    };

export interface ClientConfig {
  /** Base URL of the service, with or without `/api/v10`. Default `https://discord.com`. */
  apiUrl?: string;
  /** The application's bot token (`Authorization: Bot ...`). */
  botToken?: string;
  /** Client id for the client-credentials exchange (with `clientSecret`). */
  clientId?: string;
  clientSecret?: string;
  /** A user's Bearer token with `applications.commands.permissions.update`, for permission edits. */
  bearerToken?: string;
  /** The user's refresh token: the Bearer token is refreshed with it when expired or refused. */
  refreshToken?: string;
  /** Told of every new user session (after a refresh), to keep the rotated refresh token. */
  onUserSession?: (session: UserSession) => void;
  /** Remembers refused refresh tokens (the provider passes its deployment memory). */
  refreshRefusals?: RefreshRefusals;
  /** Connect, headers and body timeout, each, in ms. Default 15 000. */
  timeoutMs?: number;
  /** Retries on 5xx and network errors. Default 4. */
  maxRetries?: number;
  /** Longest rate-limit wait the client accepts for one request, in ms. Default 60 000. */
  maxRateLimitWaitMs?: number;
  userAgent?: string;
  onEvent?: (event: ClientEvent) => void;
  /** Injected for tests; defaults to a real timer. */
  sleep?: (ms: number) => Promise<void>;
  /** Injected for tests; defaults to `Math.random`, used for backoff jitter. */
  random?: () => number;
  /** Injected for tests; defaults to `Date.now`. Must advance with `sleep`. */
  now?: () => number;
}

export const DEFAULT_API_URL = "https://discord.com";
export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_RETRIES = 4;
export const DEFAULT_MAX_RATE_LIMIT_WAIT_MS = 60_000;
export const DEFAULT_USER_AGENT = "DiscordBot (pulumi-discord-commands, 0.1.0)";

/** The configuration with every default applied; credentials stay with `auth.ts`. */
export interface ResolvedOptions {
  /** Origin plus `/api/v10`, no trailing slash. */
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly maxRateLimitWaitMs: number;
  readonly userAgent: string;
  readonly onEvent: ((event: ClientEvent) => void) | undefined;
  readonly sleep: (ms: number) => Promise<void>;
  readonly random: () => number;
  readonly now: () => number;
}

export function resolveOptions(config: ClientConfig): ResolvedOptions {
  return {
    baseUrl: normalizeApiUrl(config.apiUrl ?? DEFAULT_API_URL),
    timeoutMs: positive("timeoutMs", config.timeoutMs, DEFAULT_TIMEOUT_MS),
    maxRetries: nonNegativeInt("maxRetries", config.maxRetries, DEFAULT_MAX_RETRIES),
    maxRateLimitWaitMs: nonNegativeInt(
      "maxRateLimitWaitMs",
      config.maxRateLimitWaitMs,
      DEFAULT_MAX_RATE_LIMIT_WAIT_MS,
    ),
    userAgent: config.userAgent ?? DEFAULT_USER_AGENT,
    onEvent: config.onEvent,
    sleep: config.sleep ?? ((ms: number) => sleep(ms)),
    random: config.random ?? Math.random,
    now: config.now ?? Date.now,
  };
}

/**
 * `https://discord.com`, `https://discord.com/`, `https://discord.com/api/v10` and
 * `https://discord.com/api/v10/` all give `https://discord.com/api/v10`.
 */
export function normalizeApiUrl(apiUrl: string): string {
  let url: URL;
  try {
    url = new URL(apiUrl);
  } catch {
    throw new ConfigurationError("apiUrl is not a valid absolute URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigurationError(`apiUrl must be http or https, not ${url.protocol}`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new ConfigurationError("apiUrl must not carry credentials, a query or a fragment");
  }
  const base = url.pathname.replace(/\/+$/, "").replace(/\/api\/v10$/, "");
  return `${url.origin}${base}/api/v10`;
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new ConfigurationError(`${name} must be a positive number, got ${value}`);
  }
  return value;
}

function nonNegativeInt(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) {
    throw new ConfigurationError(`${name} must be a whole number >= 0, got ${value}`);
  }
  return value;
}
