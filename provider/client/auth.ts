/**
 * Credentials: which `Authorization` header each route needs, the client-credentials
 * exchange (its form and the reading of its reply), the token cache (single-flight, refreshed shortly before expiry, invalidated on a 401),
 * the user's session (Bearer access token plus refresh token: refreshed once,
 * single-flight, when it has expired or was answered 401), and the redactor that keeps
 * every credential out of errors and events.
 *
 * Secrets live in `#private` fields only, so `util.inspect` and `JSON.stringify` of a
 * Credentials object (or anything holding one) never print them.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { Routes } from "../routes";
import { replaceSecrets } from "./redact";
import type { RouteDef } from "../routes";
import {
  ConfigurationError,
  HttpError,
  ReauthorizationRequiredError,
  ServiceApiError,
} from "./errors";

/** `application`: bot token or client-credentials token. `user`: a user's Bearer token. */
export type CredentialKind = "application" | "user";

export interface CredentialConfig {
  botToken?: string;
  clientId?: string;
  clientSecret?: string;
  bearerToken?: string;
  /** The user's refresh token (with `clientId`, and `clientSecret` unless a public client). */
  refreshToken?: string;
  /** Where refused refreshes are remembered (the provider's deployment memory). */
  refreshRefusals?: RefreshRefusals;
}

/**
 * Remembers refresh tokens the service refused, by a digest of the token (never the
 * token): a refused refresh token stays refused (revoked or spent), so asking again only
 * adds token requests, and invalid requests count toward the service's ban. The provider
 * keeps one per deployment, so one `up` makes one refused token request whatever the
 * number of permissions resources.
 */
export interface RefreshRefusals {
  refusedRefresh(digest: string): ReauthorizationRequiredError | undefined;
  rememberRefusedRefresh(digest: string, err: ReauthorizationRequiredError): void;
}

/** The key under which a refresh token's refusal is remembered. */
export function refreshTokenDigest(refreshToken: string): string {
  return createHash("sha256").update(refreshToken, "utf8").digest("hex");
}

/**
 * A user's authorization as the provider holds it: the access token, the refresh token
 * (the service rotates it on every refresh: discord/discord-api-docs#5942), and when the
 * access token expires (epoch ms; undefined when unknown, e.g. a token from stack config).
 */
export interface UserSession {
  readonly accessToken: string | undefined;
  readonly refreshToken: string | undefined;
  readonly expiresAt: number | undefined;
  /** Lifetime of the access token when issued, seconds (undefined when unknown). */
  readonly expiresInS: number | undefined;
}

/** The parsed reply of the refresh grant. */
export interface RefreshedTokens {
  readonly accessToken: string;
  readonly refreshToken: string | undefined;
  readonly expiresInS: number;
}

export const REAUTHORIZE =
  "run `discord-commands authorize` again to store a new discord:bearerToken and discord:refreshToken";

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

// The settings are named as the dynamic resources' stack config (`discord:botToken`);
// where a failure leaves for the engine, they are named in the namespace of the door in
// use (provider/resources/settings.ts `inNamespace`: `discord-commands:botToken`).
export const MISSING_USER_TOKEN =
  "editing command permissions needs a user's Bearer token with " +
  "applications.commands.permissions.update: set discord:bearerToken " +
  "(`discord-commands authorize` stores it, or `pulumi config set --secret discord:bearerToken <token>`)";

export const MISSING_APP_CREDENTIAL =
  "command requests need the application's credentials: set discord:botToken " +
  "(`pulumi config set --secret discord:botToken <token>`), " +
  "or discord:clientId and discord:clientSecret (a secret) for a client-credentials token";

/** Refresh this long before expiry: 60 s, or 10% of the lifetime for short-lived tokens. */
export function refreshMarginMs(expiresInS: number): number {
  return Math.min(60_000, expiresInS * 100);
}

export class Credentials {
  readonly #botToken: string | undefined;
  readonly #clientId: string | undefined;
  readonly #clientSecret: string | undefined;
  readonly #now: () => number;
  readonly #exchange: () => Promise<AccessToken>;
  readonly #refreshExchange: (refreshToken: string) => Promise<RefreshedTokens>;
  #session: UserSession;
  #sessionPending: Promise<void> | undefined;
  #keptByResource = false;
  readonly #onSession: ((session: UserSession) => void) | undefined;
  readonly #refusals: RefreshRefusals | undefined;
  #cached: { header: string; refreshAt: number } | undefined;
  #pending: Promise<string> | undefined;
  /** The configured secrets, and the latest access tokens issued, for redaction. */
  readonly #configured: string[] = [];
  readonly #issued: string[] = [];

  /**
   * @param exchange performs `POST /oauth2/token` (with `basicAuthorization()`); the
   *   transport supplies it so the exchange shares timeouts, retries and rate limits.
   */
  constructor(
    config: CredentialConfig,
    now: () => number,
    exchange: () => Promise<AccessToken>,
    refreshExchange: (refreshToken: string) => Promise<RefreshedTokens> = () =>
      Promise.reject(new ConfigurationError("no refresh exchange")),
    onSession?: (session: UserSession) => void,
  ) {
    this.#botToken = nonEmpty(config.botToken);
    this.#clientId = nonEmpty(config.clientId);
    this.#clientSecret = nonEmpty(config.clientSecret);
    this.#now = now;
    this.#exchange = exchange;
    this.#refreshExchange = refreshExchange;
    this.#onSession = onSession;
    this.#refusals = config.refreshRefusals;
    this.#session = {
      accessToken: nonEmpty(config.bearerToken),
      refreshToken: nonEmpty(config.refreshToken),
      expiresAt: undefined,
      expiresInS: undefined,
    };
    // A client id alone serves a public client's refresh grant; otherwise it needs a secret.
    const idWithoutUse =
      this.#clientId !== undefined &&
      this.#clientSecret === undefined &&
      this.#session.refreshToken === undefined;
    if ((this.#clientSecret !== undefined && this.#clientId === undefined) || idWithoutUse) {
      throw new ConfigurationError(
        "client credentials need both discord:clientId and discord:clientSecret",
      );
    }
    for (const s of [
      this.#botToken,
      this.#clientSecret,
      this.#session.accessToken,
      this.#session.refreshToken,
    ]) {
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

  /** A refresh token and a client id to spend it with are configured. */
  get canRefreshUser(): boolean {
    return this.#session.refreshToken !== undefined && this.#clientId !== undefined;
  }

  /** Throws a ConfigurationError, before any request, when `kind` cannot be served. */
  check(kind: CredentialKind): void {
    if (kind === "user") {
      if (this.#session.accessToken === undefined && !this.canRefreshUser) {
        throw new ConfigurationError(MISSING_USER_TOKEN);
      }
    } else if (this.applicationAuth === "none") {
      throw new ConfigurationError(MISSING_APP_CREDENTIAL);
    }
  }

  async authorization(kind: CredentialKind): Promise<Authorization> {
    this.check(kind);
    if (kind === "user") return this.#userAuthorization();
    if (this.#botToken !== undefined)
      return { header: `Bot ${this.#botToken}`, refreshable: false };
    return { header: await this.#clientCredentialsHeader(), refreshable: true };
  }

  /**
   * Drops the token that was just rejected (once per token): the cached
   * client-credentials token, or the user's access token, which is then refreshed.
   */
  invalidate(header: string): void {
    if (this.#cached?.header === header) this.#cached = undefined;
    if (`Bearer ${this.#session.accessToken}` === header) {
      this.#session = { ...this.#session, accessToken: undefined };
    }
  }

  /** The user's current session (for the resource that keeps it in state). */
  userSession(): UserSession {
    return this.#session;
  }

  /**
   * Hands the session to a resource that keeps it in state (`UserAuthorization`), with
   * the session it kept from an earlier run, if any. From then on only that resource
   * refreshes (`refreshUser()`): a refresh anywhere else would rotate the refresh token
   * after the resource has written its outputs, and the next run would hold a spent one.
   */
  keepUserSession(session?: UserSession): void {
    this.#keptByResource = true;
    if (session !== undefined) this.adoptUserSession(session);
  }

  /**
   * Uses a session kept from an earlier run without taking charge of it: the client may
   * still refresh it on its own (for a `destroy`, which removes the resource that would
   * keep the rotated token anyway).
   */
  adoptUserSession(session: UserSession): void {
    this.#session = session;
    this.#remember(session);
  }

  /**
   * Refreshes the user's access token now (single-flight: concurrent callers share one
   * exchange). A refused refresh token is a ReauthorizationRequired error.
   */
  refreshUser(): Promise<void> {
    const refreshToken = this.#session.refreshToken;
    if (refreshToken === undefined || this.#clientId === undefined) {
      return Promise.reject(
        new ConfigurationError(
          "refreshing the user's Bearer token needs discord:refreshToken and discord:clientId: " +
            REAUTHORIZE,
        ),
      );
    }
    const digest = refreshTokenDigest(refreshToken);
    const refused = this.#refusals?.refusedRefresh(digest);
    if (refused !== undefined) return Promise.reject(refused);
    this.#sessionPending ??= this.#refreshExchange(refreshToken)
      .catch((err: unknown) => {
        if (err instanceof ReauthorizationRequiredError) {
          this.#refusals?.rememberRefusedRefresh(digest, err);
        }
        throw err;
      })
      .then((t) => {
        const session: UserSession = {
          accessToken: t.accessToken,
          // A service that does not rotate answers without a new one: keep the old one.
          refreshToken: t.refreshToken ?? refreshToken,
          expiresAt: this.#now() + t.expiresInS * 1000,
          expiresInS: t.expiresInS,
        };
        this.#session = session;
        this.#remember(session);
        this.#onSession?.(session);
      })
      .finally(() => {
        this.#sessionPending = undefined;
      });
    return this.#sessionPending;
  }

  /**
   * Refreshes unless the access token already changed since `rejected` was used (another
   * caller refreshed meanwhile): one refresh for many requests refused at once.
   */
  async refreshUserAfterRejection(rejected: string | undefined): Promise<void> {
    if (this.#session.accessToken !== rejected) return;
    await this.refreshUser();
  }

  /** The client id and, for a confidential client, the secret, for the token endpoint. */
  get clientId(): string | undefined {
    return this.#clientId;
  }

  get hasClientSecret(): boolean {
    return this.#clientSecret !== undefined;
  }

  async #userAuthorization(): Promise<Authorization> {
    const s = this.#session;
    const expired = s.expiresAt !== undefined && this.#now() >= s.expiresAt;
    if ((s.accessToken === undefined || expired) && this.canRefreshUser && !this.#keptByResource) {
      await this.refreshUser();
    }
    const token = this.#session.accessToken;
    if (token === undefined) throw new ConfigurationError(MISSING_USER_TOKEN);
    return { header: `Bearer ${token}`, refreshable: this.canRefreshUser && !this.#keptByResource };
  }

  #remember(session: UserSession): void {
    for (const t of [session.accessToken, session.refreshToken]) {
      if (t !== undefined && !this.#issued.includes(t)) this.#issued.push(t);
    }
    while (this.#issued.length > 16) this.#issued.shift();
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
    return replaceSecrets(text, [...this.#configured, ...this.#issued], "[redacted]");
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
    while (this.#issued.length > 16) this.#issued.shift();
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

/** What the refresh grant needs of the transport. */
export interface OAuthTransport {
  readonly credentials: Credentials;
  oauthForm(def: RouteDef, form: URLSearchParams): Promise<{ status: number; data: unknown }>;
}

/**
 * `POST /oauth2/token` with `grant_type=refresh_token` (docs/topics/oauth2 "Refresh Token
 * Exchange Example"): HTTP Basic for a confidential client, `client_id` in the form for a
 * public one. A 400/401 answer means the refresh token is dead: ReauthorizationRequired.
 */
export async function refreshUserToken(
  transport: OAuthTransport,
  refreshToken: string,
): Promise<RefreshedTokens> {
  const form = new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken });
  const clientId = transport.credentials.clientId;
  if (!transport.credentials.hasClientSecret && clientId !== undefined) {
    form.set("client_id", clientId);
  }
  let data: unknown;
  try {
    data = (await transport.oauthForm(Routes.oauth2Token, form)).data;
  } catch (err) {
    if (err instanceof ServiceApiError && (err.status === 400 || err.status === 401)) {
      throw new ReauthorizationRequiredError(err.status, err.code, err.serviceMessage, REAUTHORIZE);
    }
    throw err;
  }
  const reply = TokenReply.safeParse(data);
  if (!reply.success) {
    throw new ConfigurationError(
      "the token endpoint's refresh reply lacks access_token and expires_in",
    );
  }
  const { access_token: accessToken, refresh_token: refresh, expires_in: expiresInS } = reply.data;
  return {
    accessToken,
    refreshToken: typeof refresh === "string" && refresh !== "" ? refresh : undefined,
    expiresInS,
  };
}

/**
 * The token endpoint's reply (docs/topics/oauth2, "Access Token Response"): a Bearer
 * access token and its lifetime; a refresh token for the code and refresh grants.
 */
const TokenReply = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().positive(),
  refresh_token: z.string().nullish(),
  token_type: z
    .string()
    .refine((t) => t.toLowerCase() === "bearer")
    .optional(),
});

/** Which credential a route needs: `basic` is the client id and secret of the token exchange. */
export type AuthMode = CredentialKind | "basic";

export function authModeFor(def: RouteDef): AuthMode {
  if (def === Routes.editCommandPermissions || def === Routes.oauth2CurrentAuthorization) {
    return "user";
  }
  if (def === Routes.oauth2Token || def === Routes.oauth2TokenRevoke) return "basic";
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
  const reply = TokenReply.safeParse(data);
  if (!reply.success) {
    const info = { method: "POST", route: Routes.oauth2Token.template, path: "/oauth2/token" };
    throw new HttpError(
      info,
      status,
      1,
      "the token endpoint's reply lacks a Bearer access_token and expires_in",
    );
  }
  return { accessToken: reply.data.access_token, expiresInS: reply.data.expires_in };
}
