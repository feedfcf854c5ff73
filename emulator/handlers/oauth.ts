/**
 * The OAuth2 endpoints (docs/topics/oauth2 in discord/discord-api-docs; RFC 6749, 7636,
 * 7009, 8252):
 *
 * - `GET /oauth2/authorize`: the consent step. No login here: the application's
 *   consenting user (configuration `consentUserId`, or the control API) agrees at once
 *   (a 302 to the redirect URI with `code` and `state`), or, with `oauthConsent: "page"`,
 *   is shown a consent page to approve or deny (consent.ts).
 *   A `redirect_uri` that is not registered is answered 400 and never redirected to
 *   (RFC 6749 section 4.1.2.1); other refusals redirect with `error=...`.
 * - `POST /oauth2/token`: `client_credentials` (a token that acts as the application;
 *   the permissions scope needs a user and is refused), `authorization_code` (codes are
 *   single use and live 10 minutes, RFC 6749 section 4.1.2; PKCE S256 checked; the
 *   `redirect_uri` must be the one of the authorization) and `refresh_token` (the refresh
 *   token rotates, unless configured otherwise: discord/discord-api-docs#5942).
 * - `POST /oauth2/token/revoke`: revokes the whole authorization, access and refresh
 *   tokens alike ("When you revoke a token, any active access or refresh tokens
 *   associated with that authorization will be revoked"); 200 for unknown tokens too
 *   (RFC 7009 section 2.2).
 *
 * Errors use the OAuth2 shape `{error, error_description}`, with the service's wording
 * for bad grants (`Invalid "code" in request.`, as reported in discord-api-docs#1650 and
 * member-gentei/member-gentei#18).
 */
import { createHash } from "node:crypto";
import { Scopes, USER_GRANTABLE_SCOPES } from "../auth";
import type { Application } from "../world";
import { consent, newToken, redirectTo } from "./consent";
import type { HandlerResult, RequestContext } from "./context";

const GRANTABLE: readonly string[] = [Scopes.COMMANDS_UPDATE, Scopes.COMMANDS];

/** RFC 7636 section 4.1: 43-128 characters of [A-Za-z0-9-._~]; S256 challenges are 43. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

function oauthError(status: number, error: string, description: string): HandlerResult {
  return { status, body: { error, error_description: description } };
}

/** base64url(SHA-256(verifier)): the S256 transform of RFC 7636 section 4.2. */
function s256(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  if (header === undefined) return undefined;
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header.trim());
  if (!m) return undefined;
  const decoded = Buffer.from(m[1] ?? "", "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  // RFC 6749 section 2.3.1: id and secret are form-urlencoded (Appendix B) before they
  // are joined and base64-encoded, so `+` is a space and `%XX` an octet.
  const formDecode = (x: string) => decodeURIComponent(x.replace(/\+/g, " "));
  return {
    id: formDecode(decoded.slice(0, colon)),
    secret: formDecode(decoded.slice(colon + 1)),
  };
}

function readForm(ctx: RequestContext): URLSearchParams | HandlerResult {
  const contentType = String(ctx.headers["content-type"] ?? "").toLowerCase();
  if (!contentType.startsWith("application/x-www-form-urlencoded")) {
    return oauthError(400, "invalid_request", "Expected application/x-www-form-urlencoded body");
  }
  return new URLSearchParams(ctx.rawBody);
}

/**
 * The calling client: HTTP Basic or `client_id`/`client_secret` in the form. A public
 * client may name itself with `client_id` alone (`secret` undefined).
 */
function clientOf(
  ctx: RequestContext,
  form: URLSearchParams,
): { app: Application; authenticated: boolean } | HandlerResult {
  const auth = ctx.headers["authorization"];
  let credentials: { id: string; secret: string } | undefined;
  try {
    credentials = basicCredentials(Array.isArray(auth) ? auth[0] : auth);
  } catch {
    credentials = undefined;
  }
  const clientId = credentials?.id ?? form.get("client_id") ?? undefined;
  const secret = credentials?.secret ?? form.get("client_secret") ?? undefined;
  const app = clientId === undefined ? undefined : ctx.store.applicationByClientId(clientId);
  if (app && secret === undefined && app.publicClient) return { app, authenticated: false };
  if (!app || secret === undefined || app.clientSecret !== secret) {
    return oauthError(401, "invalid_client", "Invalid client credentials");
  }
  return { app, authenticated: true };
}

function isResult(x: unknown): x is HandlerResult {
  return typeof x === "object" && x !== null && "status" in x;
}

function scopeList(value: string | null): string[] {
  return [...new Set((value ?? "").split(/\s+/).filter((x) => x !== ""))];
}

function isLoopback(url: URL): boolean {
  return (
    url.protocol === "http:" &&
    (url.hostname === "127.0.0.1" || url.hostname === "[::1]" || url.hostname === "localhost")
  );
}

/**
 * A redirect URI matches a registered one exactly; a loopback URI matches on any port
 * (RFC 8252 section 7.3: native apps listen on an ephemeral port).
 */
function redirectUriRegistered(app: Application, redirectUri: string): boolean {
  if (app.redirectUris.includes(redirectUri)) return true;
  let asked: URL;
  try {
    asked = new URL(redirectUri);
  } catch {
    return false;
  }
  if (!isLoopback(asked)) return false;
  return app.redirectUris.some((r) => {
    const reg = new URL(r);
    if (!isLoopback(reg)) return false;
    const withoutPort = (u: URL) => `${u.protocol}//${u.hostname}${u.pathname}${u.search}`;
    return withoutPort(reg) === withoutPort(asked);
  });
}

// ---- GET /oauth2/authorize ------------------------------------------------------------

export function oauth2Authorize(ctx: RequestContext): HandlerResult {
  const q = ctx.query;
  const clientId = q.get("client_id");
  const app = clientId === null ? undefined : ctx.store.applicationByClientId(clientId);
  if (!app) return oauthError(400, "invalid_client", 'Invalid "client_id" in request.');
  const redirectUri = q.get("redirect_uri") ?? app.redirectUris[0];
  if (redirectUri === undefined || !redirectUriRegistered(app, redirectUri)) {
    return oauthError(400, "invalid_request", 'Invalid "redirect_uri" in request.');
  }
  const state = q.get("state");
  const refuse = (error: string, description: string) =>
    redirectTo(redirectUri, { error, error_description: description }, state);

  if (q.get("response_type") !== "code") {
    return refuse("unsupported_response_type", 'Invalid "response_type" in request.');
  }
  const scopes = scopeList(q.get("scope"));
  if (scopes.length === 0) return refuse("invalid_scope", 'Invalid "scope" in request.');
  const refused = scopes.find((s) => !USER_GRANTABLE_SCOPES.has(s));
  if (refused !== undefined) {
    return refuse("invalid_scope", `Invalid scope: ${refused.slice(0, 64)}`);
  }
  const challenge = q.get("code_challenge");
  const method = q.get("code_challenge_method");
  if (challenge !== null) {
    if (method !== "S256") {
      return refuse("invalid_request", 'Invalid "code_challenge_method" in request.');
    }
    if (!S256_CHALLENGE.test(challenge)) {
      return refuse("invalid_request", 'Invalid "code_challenge" in request.');
    }
  } else if (app.publicClient) {
    return refuse("invalid_request", "Public clients must use PKCE (code_challenge).");
  }
  const integrationType = q.get("integration_type");
  if (
    integrationType !== null &&
    !app.installationContexts.includes(Number(integrationType)) // 0 guild, 1 user install
  ) {
    return refuse("invalid_request", 'Invalid "integration_type" in request.');
  }
  const userId = ctx.store.consentingUser(app.id);
  if (userId === undefined || !ctx.store.user(userId)) {
    return refuse("access_denied", "The resource owner or authorization server denied the request");
  }
  return consent(ctx.store, {
    applicationId: app.id,
    userId,
    scopes,
    redirectUri,
    redirectUriGiven: q.get("redirect_uri") !== null,
    codeChallenge: challenge ?? undefined,
    state,
    guildId: q.get("guild_id") ?? undefined,
  });
}

// ---- POST /oauth2/token ----------------------------------------------------------------

export function oauth2Token(ctx: RequestContext): HandlerResult {
  const form = readForm(ctx);
  if (isResult(form)) return form;
  const client = clientOf(ctx, form);
  if (isResult(client)) return client;
  const grant = form.get("grant_type");
  if (grant === null) return oauthError(400, "invalid_request", "grant_type is required");
  switch (grant) {
    case "client_credentials":
      if (!client.authenticated)
        return oauthError(401, "invalid_client", "Invalid client credentials");
      return clientCredentials(ctx, client.app, form);
    case "authorization_code":
      return authorizationCode(ctx, client.app, form);
    case "refresh_token":
      return refreshToken(ctx, client.app, form);
    default:
      return oauthError(
        400,
        "unsupported_grant_type",
        `Unsupported grant type: ${grant.slice(0, 64)}`,
      );
  }
}

function clientCredentials(
  ctx: RequestContext,
  app: Application,
  form: URLSearchParams,
): HandlerResult {
  const requested = scopeList(form.get("scope") ?? Scopes.COMMANDS_UPDATE);
  const scopes = requested.length > 0 ? requested : [Scopes.COMMANDS_UPDATE];
  const refused = scopes.find((x) => !GRANTABLE.includes(x));
  if (refused !== undefined) {
    return oauthError(
      400,
      "invalid_scope",
      `Scope not grantable with client credentials: ${refused.slice(0, 64)}`,
    );
  }
  const ttl = ctx.store.config.tokenTtlSeconds;
  const token = newToken();
  ctx.store.transaction(() =>
    ctx.store.grants.issueToken({
      token,
      applicationId: app.id,
      scopes,
      expiresAt: ctx.store.clock.now() + ttl * 1000,
    }),
  );
  return {
    status: 200,
    body: { access_token: token, token_type: "Bearer", expires_in: ttl, scope: scopes.join(" ") },
  };
}

function authorizationCode(
  ctx: RequestContext,
  app: Application,
  form: URLSearchParams,
): HandlerResult {
  const value = form.get("code");
  if (value === null || value === "") {
    return oauthError(400, "invalid_request", 'Missing "code" in request.');
  }
  const code = ctx.store.grants.code(value);
  const invalidCode = oauthError(400, "invalid_grant", 'Invalid "code" in request.');
  if (!code || code.applicationId !== app.id || code.expiresAt <= ctx.store.clock.now()) {
    return invalidCode;
  }
  if (code.used) {
    // A code presented twice may have been stolen: what it bought is revoked
    // (RFC 6749 section 4.1.2).
    ctx.store.transaction(() => ctx.store.grants.revokeGrant(code.grantId));
    return invalidCode;
  }
  // Spent by this attempt, whatever its outcome: a guessed verifier gets one try.
  ctx.store.transaction(() => ctx.store.grants.putCode({ ...code, used: true }));
  // RFC 6749 section 4.1.3: required, and identical, only when the authorization
  // request carried one; without it the registered default was used and none is due.
  const presented = form.get("redirect_uri");
  if (code.redirectUriGiven !== false || presented !== null) {
    if (presented !== code.redirectUri) {
      return oauthError(400, "invalid_grant", 'Invalid "redirect_uri" in request.');
    }
  }
  if (code.codeChallenge !== undefined) {
    const verifier = form.get("code_verifier");
    if (verifier === null || !VERIFIER.test(verifier) || s256(verifier) !== code.codeChallenge) {
      return oauthError(400, "invalid_grant", 'Invalid "code_verifier" in request.');
    }
  }
  return issueUserTokens(ctx, code);
}

function refreshToken(ctx: RequestContext, app: Application, form: URLSearchParams): HandlerResult {
  const value = form.get("refresh_token");
  if (value === null || value === "") {
    return oauthError(400, "invalid_request", 'Missing "refresh_token" in request.');
  }
  const stored = ctx.store.grants.refreshToken(value);
  const invalid = oauthError(400, "invalid_grant", 'Invalid "refresh_token" in request.');
  if (!stored || stored.applicationId !== app.id) return invalid;
  if (stored.spent === true) {
    // A rotated refresh token presented again: the legitimate client or an attacker holds
    // a copy, and the server cannot tell which, so the whole authorization is revoked
    // (RFC 9700 section 4.14.2; RFC 6749 section 10.4).
    ctx.store.transaction(() => ctx.store.grants.revokeGrant(stored.grantId));
    return invalid;
  }
  return issueUserTokens(ctx, stored, value);
}

/** A user's access token (and a refresh token: a new one when rotating, else `spent`). */
function issueUserTokens(
  ctx: RequestContext,
  grant: {
    grantId: string;
    applicationId: string;
    userId: string;
    scopes: readonly string[];
  },
  spent?: string,
): HandlerResult {
  const ttl = ctx.store.config.tokenTtlSeconds;
  const accessToken = newToken();
  const rotate = spent === undefined || ctx.store.config.rotateRefreshTokens;
  const refresh = rotate ? newToken() : spent;
  ctx.store.transaction(() => {
    ctx.store.grants.issueToken({
      token: accessToken,
      applicationId: grant.applicationId,
      scopes: grant.scopes,
      expiresAt: ctx.store.clock.now() + ttl * 1000,
      userId: grant.userId,
      grantId: grant.grantId,
    });
    if (rotate) {
      if (spent !== undefined) ctx.store.grants.spendRefreshToken(spent);
      ctx.store.grants.putRefreshToken({
        token: refresh,
        grantId: grant.grantId,
        applicationId: grant.applicationId,
        userId: grant.userId,
        scopes: [...grant.scopes],
      });
    }
  });
  return {
    status: 200,
    body: {
      access_token: accessToken,
      token_type: "Bearer",
      expires_in: ttl,
      refresh_token: refresh,
      scope: grant.scopes.join(" "),
    },
  };
}

// ---- POST /oauth2/token/revoke ---------------------------------------------------------

export function oauth2TokenRevoke(ctx: RequestContext): HandlerResult {
  const form = readForm(ctx);
  if (isResult(form)) return form;
  const client = clientOf(ctx, form);
  if (isResult(client)) return client;
  const token = form.get("token");
  if (token === null || token === "") {
    return oauthError(400, "invalid_request", 'Missing "token" in request.');
  }
  // Either kind of token names its authorization; another application's is left alone.
  const found = ctx.store.grants.refreshToken(token) ?? ctx.store.grants.issuedToken(token);
  const grantId = found?.grantId;
  if (grantId !== undefined && found?.applicationId === client.app.id) {
    ctx.store.transaction(() => ctx.store.grants.revokeGrant(grantId));
  }
  return { status: 200, body: {} };
}

// ---- GET /oauth2/@me -------------------------------------------------------------------

/** Application flag EMBEDDED (discord-api-docs, Application, "Application Flags"). */
const EMBEDDED_FLAG = 1 << 17;

/** Get Current Authorization Information: a Bearer token's application, scopes, expiry. */
export function oauth2CurrentAuthorization(ctx: RequestContext): HandlerResult {
  const header = ctx.headers["authorization"];
  const token = /^Bearer (\S+)$/i.exec(String(header ?? "").trim())?.[1];
  const issued = token === undefined ? undefined : ctx.store.grants.issuedToken(token);
  if (!issued) return { status: 401, body: { message: "401: Unauthorized", code: 0 } };
  const app = ctx.store.application(issued.applicationId);
  const user = issued.userId === undefined ? undefined : ctx.store.user(issued.userId);
  const flags = ctx.store.activitiesEnabled(issued.applicationId) ? EMBEDDED_FLAG : 0;
  return {
    status: 200,
    body: {
      // The partial application and user objects with the fields the service's contract
      // requires (OpenAPI `OAuth2GetAuthorizationResponse`: `ApplicationResponse`,
      // `UserResponse`); flags carry EMBEDDED (1 << 17) for an app with an Activity.
      application: {
        id: issued.applicationId,
        name: app?.name ?? "",
        icon: null,
        description: "",
        type: null,
        verify_key: ctx.verifyKey(issued.applicationId),
        flags,
        flags_new: String(flags),
      },
      scopes: [...issued.scopes],
      expires: new Date(issued.expiresAt).toISOString(),
      ...(user && issued.scopes.includes("identify")
        ? {
            user: {
              id: user.id,
              username: user.username,
              avatar: null,
              discriminator: "0",
              public_flags: 0,
              flags: 0,
              global_name: null,
              primary_guild: null,
            },
          }
        : {}),
    },
  };
}
