/**
 * Credentials: which `Authorization` header each route needs, the client-credentials
 * exchange (its form and the reading of its reply), the token cache (single-flight, refreshed shortly before expiry, invalidated on a 401),
 * and the redactor that keeps every credential out of errors and events.
 *
 * Secrets live in `#private` fields only, so `util.inspect` and `JSON.stringify` of a
 * Credentials object (or anything holding one) never print them.
 */
import type { RouteDef } from "../routes";
import { Routes } from "../routes";
import { isRecord } from "../schema";
import { ConfigurationError, HttpError } from "./errors";

/** `application`: bot token or client-credentials token. `user`: a user's Bearer token. */
export type CredentialKind = "application" | "user";

export interface CredentialConfig {
  botToken?: string;
  clientId?: string;
  clientSecret?: string;
  bearerToken?: string;
}

/** The parsed reply of `POST /oauth2/token`. */
export interface AccessToken {
  readonly accessToken: string;
  readonly expiresInS: number;
}

/** An `Authorization` value and whether a 401 may be answered by refreshing it once. */
export interface Authorization {
  readonly header: string;
  readonly refreshable: boolean;
}

export const CLIENT_CREDENTIALS_SCOPE = "applications.commands.update";

export const MISSING_USER_TOKEN =
  "editing command permissions needs a user's Bearer token with " +
  "applications.commands.permissions.update: set discord:bearerToken";

export const MISSING_APP_CREDENTIAL =
  "command requests need the application's credentials: set discord:botToken, " +
  "or discord:clientId and discord:clientSecret for a client-credentials token";

/** Refresh this long before expiry: 60 s, or 10% of the lifetime for short-lived tokens. */
export function refreshMarginMs(expiresInS: number): number {
  return Math.min(60_000, expiresInS * 100);
}

export class Credentials {
  readonly #botToken: string | undefined;
  readonly #clientId: string | undefined;
  readonly #clientSecret: string | undefined;
  readonly #bearerToken: string | undefined;
  readonly #now: () => number;
  readonly #exchange: () => Promise<AccessToken>;
  #cached: { header: string; refreshAt: number } | undefined;
  #pending: Promise<string> | undefined;
  /** The configured secrets, and the latest access tokens issued, for redaction. */
  readonly #configured: string[] = [];
  readonly #issued: string[] = [];

  /**
   * @param exchange performs `POST /oauth2/token` (with `basicAuthorization()`); the
   *   transport supplies it so the exchange shares timeouts, retries and rate limits.
   */
  constructor(config: CredentialConfig, now: () => number, exchange: () => Promise<AccessToken>) {
    this.#botToken = nonEmpty(config.botToken);
    this.#clientId = nonEmpty(config.clientId);
    this.#clientSecret = nonEmpty(config.clientSecret);
    this.#bearerToken = nonEmpty(config.bearerToken);
    this.#now = now;
    this.#exchange = exchange;
    if ((this.#clientId === undefined) !== (this.#clientSecret === undefined)) {
      throw new ConfigurationError(
        "client credentials need both discord:clientId and discord:clientSecret",
      );
    }
    for (const s of [this.#botToken, this.#clientSecret, this.#bearerToken]) {
      if (s !== undefined) this.#configured.push(s);
    }
    if (this.#clientId !== undefined && this.#clientSecret !== undefined) {
      this.#configured.push(this.basicAuthorization().slice("Basic ".length));
    }
  }

  /** Which application credential is configured, for diagnostics (never the value). */
  get applicationAuth(): "bot" | "clientCredentials" | "none" {
    if (this.#botToken !== undefined) return "bot";
    if (this.#clientSecret !== undefined) return "clientCredentials";
    return "none";
  }

  /** Throws a ConfigurationError, before any request, when `kind` cannot be served. */
  check(kind: CredentialKind): void {
    if (kind === "user") {
      if (this.#bearerToken === undefined) throw new ConfigurationError(MISSING_USER_TOKEN);
    } else if (this.applicationAuth === "none") {
      throw new ConfigurationError(MISSING_APP_CREDENTIAL);
    }
  }

  async authorization(kind: CredentialKind): Promise<Authorization> {
    this.check(kind);
    if (kind === "user") return { header: `Bearer ${this.#bearerToken}`, refreshable: false };
    if (this.#botToken !== undefined)
      return { header: `Bot ${this.#botToken}`, refreshable: false };
    return { header: await this.#clientCredentialsHeader(), refreshable: true };
  }

  /** Drops the cached token if it is the one that was just rejected (once per token). */
  invalidate(header: string): void {
    if (this.#cached?.header === header) this.#cached = undefined;
  }

  /** `Basic base64(id:secret)` for the token exchange. */
  basicAuthorization(): string {
    if (this.#clientId === undefined || this.#clientSecret === undefined) {
      throw new ConfigurationError(MISSING_APP_CREDENTIAL);
    }
    const raw = `${encodeURIComponent(this.#clientId)}:${encodeURIComponent(this.#clientSecret)}`;
    return `Basic ${Buffer.from(raw).toString("base64")}`;
  }

  /** Replaces every credential this object knows in `text` with `[redacted]`. */
  redact(text: string): string {
    const secrets = [...this.#configured, ...this.#issued].sort((a, b) => b.length - a.length);
    let out = text;
    for (const s of secrets) out = out.split(s).join("[redacted]");
    return out;
  }

  async #clientCredentialsHeader(): Promise<string> {
    const cached = this.#cached;
    if (cached !== undefined && this.#now() < cached.refreshAt) return cached.header;
    if (this.#pending === undefined) {
      this.#pending = this.#refresh().finally(() => {
        this.#pending = undefined;
      });
    }
    return this.#pending;
  }

  async #refresh(): Promise<string> {
    const startedAt = this.#now();
    const token = await this.#exchange();
    this.#issued.push(token.accessToken);
    if (this.#issued.length > 8) this.#issued.shift();
    const header = `Bearer ${token.accessToken}`;
    const lifetimeMs = token.expiresInS * 1000;
    this.#cached = {
      header,
      refreshAt: startedAt + lifetimeMs - refreshMarginMs(token.expiresInS),
    };
    return header;
  }

  toJSON(): Record<string, string> {
    return { applicationAuth: this.applicationAuth };
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}

/** Which credential a route needs: `basic` is the client id and secret of the token exchange. */
export type AuthMode = CredentialKind | "basic";

export function authModeFor(def: RouteDef): AuthMode {
  if (def === Routes.editCommandPermissions) return "user";
  if (def === Routes.oauth2Token) return "basic";
  return "application";
}

/** The form body of the client-credentials exchange (`POST /oauth2/token`). */
export function clientCredentialsForm(): URLSearchParams {
  return new URLSearchParams({
    grant_type: "client_credentials",
    scope: CLIENT_CREDENTIALS_SCOPE,
  });
}

/** Reads the token endpoint's reply; throws an HttpError when it lacks a Bearer token. */
export function parseTokenReply(status: number, data: unknown): AccessToken {
  const accessToken = isRecord(data) ? data["access_token"] : undefined;
  const expiresIn = isRecord(data) ? data["expires_in"] : undefined;
  const tokenType = isRecord(data) ? data["token_type"] : undefined;
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
      status,
      1,
      "the token endpoint's reply lacks a Bearer access_token and expires_in",
    );
  }
  return { accessToken, expiresInS: expiresIn };
}
