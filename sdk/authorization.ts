/**
 * Client-side authorization arguments (spec: "Client-side authorization arguments",
 * `AuthorizationArgs` passed to `Client::Authorize`) and the authorize URL they make.
 *
 * The rules, one per field:
 * - `clientId`: the application id; default: the configured one (`applicationId` option);
 * - `scopes`: space-separated; never empty; helpers give the spec's default sets;
 * - `state`: leave it unset and a secure random value is generated;
 * - `nonce`: passed through (useful for ID tokens only);
 * - `codeChallenge`: from `createAuthorizationCodeVerifier()` (S256); keep the verifier
 *   for the token exchange;
 * - `integrationType`: GUILD_INSTALL (0) or USER_INSTALL (1);
 * - `customSchemeParam`: a URI scheme X gives redirects `X:/authorize/callback`; when
 *   absent the default is `discord-<application_id>:/authorize/callback`.
 * A value that breaks a rule is an `AuthorizationArgsError` naming the field.
 *
 * The URL's parameters are those of the service's authorization-code grant
 * (docs/topics/oauth2 "Authorization URL Example", PKCE per RFC 7636).
 */
import { createHash, randomBytes } from "node:crypto";
import type { IntegrationType } from "../provider/schema";
import { isSnowflake, notSnowflake } from "../provider/schema";
import { AUTHORIZE_PATH } from "../provider/routes";

export const OAuthScopes = {
  OPENID: "openid",
  SOCIAL_LAYER: "sdk.social_layer",
  SOCIAL_LAYER_PRESENCE: "sdk.social_layer_presence",
  COMMANDS_PERMISSIONS_UPDATE: "applications.commands.permissions.update",
} as const;

/** `Client::GetDefaultCommunicationScopes`: `openid sdk.social_layer`. */
export function getDefaultCommunicationScopes(): string {
  return `${OAuthScopes.OPENID} ${OAuthScopes.SOCIAL_LAYER}`;
}

/** `Client::GetDefaultPresenceScopes`: `openid sdk.social_layer_presence`. */
export function getDefaultPresenceScopes(): string {
  return `${OAuthScopes.OPENID} ${OAuthScopes.SOCIAL_LAYER_PRESENCE}`;
}

/** What editing command permissions needs: `applications.commands.permissions.update`. */
export function getCommandPermissionsScopes(): string {
  return OAuthScopes.COMMANDS_PERMISSIONS_UPDATE;
}

/** The challenge half of a PKCE pair: what goes into the authorize URL. */
export interface AuthorizationCodeChallenge {
  readonly challenge: string;
  readonly method: "S256";
}

/** A PKCE pair: keep `verifier` secret until the token exchange; send `challenge`. */
export interface AuthorizationCodeVerifier {
  readonly verifier: string;
  readonly challenge: AuthorizationCodeChallenge;
}

export interface AuthorizationArgs {
  /** The application id; default: the configured application id. */
  clientId?: string;
  /** Space-separated OAuth2 scopes, e.g. `getCommandPermissionsScopes()`. */
  scopes: string;
  /** Leave unset: a secure random value is generated. */
  state?: string;
  nonce?: string;
  codeChallenge?: AuthorizationCodeChallenge;
  integrationType?: IntegrationType;
  /** A URI scheme X: redirects go to `X:/authorize/callback`. */
  customSchemeParam?: string;
}

export class AuthorizationArgsError extends Error {
  override get name(): string {
    return "AuthorizationArgsError";
  }
}

/** RFC 7636 section 4.2: S256 challenge = base64url(SHA-256(ASCII(verifier))). */
export function s256Challenge(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

/** `Client::CreateAuthorizationCodeVerifier`: 32 random bytes, base64url (43 characters). */
export function createAuthorizationCodeVerifier(): AuthorizationCodeVerifier {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: { challenge: s256Challenge(verifier), method: "S256" } };
}

/** The default custom-scheme redirect of an application. */
function customSchemeRedirect(scheme: string): string {
  return `${scheme}:/authorize/callback`;
}

/** Arguments with every default applied and every rule checked. */
export interface ResolvedAuthorizationArgs {
  readonly clientId: string;
  readonly scopes: readonly string[];
  readonly state: string;
  readonly nonce: string | undefined;
  readonly codeChallenge: AuthorizationCodeChallenge | undefined;
  readonly integrationType: IntegrationType | undefined;
  /** `customSchemeParam:/authorize/callback`, or the default `discord-<id>:/...`. */
  readonly customSchemeRedirect: string;
}

// RFC 6749 section 3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ).
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
// RFC 3986 section 3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
const URI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;
const S256 = /^[A-Za-z0-9_-]{43}$/;

function fail(message: string): never {
  throw new AuthorizationArgsError(message);
}

export function resolveAuthorizationArgs(
  args: AuthorizationArgs,
  defaults: { applicationId?: string | undefined } = {},
): ResolvedAuthorizationArgs {
  const clientId = args.clientId ?? defaults.applicationId;
  if (clientId === undefined) {
    fail("clientId: none given and no application id configured (discord:applicationId)");
  }
  if (!isSnowflake(clientId)) fail(`clientId: ${notSnowflake(JSON.stringify(clientId))}`);
  if (typeof args.scopes !== "string") fail("scopes: a space-separated string of scopes");
  const scopes = [...new Set(args.scopes.split(" ").filter((s) => s !== ""))];
  if (scopes.length === 0) {
    fail("scopes: empty; name at least one scope, e.g. getCommandPermissionsScopes()");
  }
  const bad = scopes.find((s) => !SCOPE_TOKEN.test(s));
  if (bad !== undefined) fail(`scopes: ${JSON.stringify(bad)} is not a valid scope`);
  if (args.state !== undefined && args.state === "") {
    fail("state: empty; leave it unset to have a secure random value generated");
  }
  const state = args.state ?? randomBytes(16).toString("base64url");
  if (args.nonce !== undefined && args.nonce === "") fail("nonce: empty; leave it unset");
  const cc = args.codeChallenge;
  if (cc !== undefined && (cc.method !== "S256" || !S256.test(cc.challenge))) {
    fail("codeChallenge: use the challenge of createAuthorizationCodeVerifier() (S256)");
  }
  const it = args.integrationType;
  if (it !== undefined && it !== 0 && it !== 1) {
    fail(`integrationType: ${String(it)}; GUILD_INSTALL (0) or USER_INSTALL (1)`);
  }
  const scheme = args.customSchemeParam;
  if (scheme !== undefined && !URI_SCHEME.test(scheme)) {
    fail(
      `customSchemeParam: ${JSON.stringify(scheme)} is not a URI scheme ` +
        "(a letter, then letters, digits, '+', '-' or '.')",
    );
  }
  return {
    clientId,
    scopes,
    state,
    nonce: args.nonce,
    codeChallenge: cc,
    integrationType: it,
    customSchemeRedirect: customSchemeRedirect(scheme ?? `discord-${clientId}`),
  };
}

export interface AuthorizeUrlOptions {
  /** The configured application id, the default of `clientId`. */
  applicationId?: string | undefined;
  /** Where the service sends the browser back; default: the custom-scheme redirect. */
  redirectUri?: string | undefined;
  /** The service's origin; default `https://discord.com`. */
  baseUrl?: string | undefined;
}

/**
 * The authorize URL of the authorization-code grant, and the resolved arguments (whose
 * `state` the redirect must carry back).
 */
export function buildAuthorizeUrl(
  args: AuthorizationArgs,
  options: AuthorizeUrlOptions = {},
): { url: string; redirectUri: string; args: ResolvedAuthorizationArgs } {
  const resolved = resolveAuthorizationArgs(args, { applicationId: options.applicationId });
  const redirectUri = options.redirectUri ?? resolved.customSchemeRedirect;
  let origin: URL;
  try {
    origin = new URL(options.baseUrl ?? "https://discord.com");
  } catch {
    fail(`baseUrl: ${JSON.stringify(options.baseUrl)} is not a URL`);
  }
  const url = new URL(AUTHORIZE_PATH, origin.origin);
  const q = url.searchParams;
  q.set("response_type", "code");
  q.set("client_id", resolved.clientId);
  q.set("scope", resolved.scopes.join(" "));
  q.set("state", resolved.state);
  q.set("redirect_uri", redirectUri);
  if (resolved.nonce !== undefined) q.set("nonce", resolved.nonce);
  if (resolved.codeChallenge !== undefined) {
    q.set("code_challenge", resolved.codeChallenge.challenge);
    q.set("code_challenge_method", resolved.codeChallenge.method);
  }
  if (resolved.integrationType !== undefined) {
    q.set("integration_type", String(resolved.integrationType));
  }
  // Spaces as %20, as the service's documented example has them.
  return { url: url.toString().replace(/\+/g, "%20"), redirectUri, args: resolved };
}
