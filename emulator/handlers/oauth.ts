/**
 * `POST /oauth2/token` with `grant_type=client_credentials`: the application's client id
 * and secret (HTTP Basic, or `client_id`/`client_secret` in the form) buy a Bearer token
 * that acts as the application on the command endpoints. Scopes granted:
 * `applications.commands.update` (the default) and `applications.commands`; the
 * permissions scope needs a user and is refused (`invalid_scope`). Errors use the OAuth2
 * shape the service uses here: `{error, error_description}`.
 */
import { randomBytes } from "node:crypto";
import { Scopes } from "../auth";
import type { HandlerResult, RequestContext } from "./context";

const GRANTABLE: readonly string[] = [Scopes.COMMANDS_UPDATE, Scopes.COMMANDS];

function oauthError(status: number, error: string, description: string): HandlerResult {
  return { status, body: { error, error_description: description } };
}

function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  if (header === undefined) return undefined;
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header.trim());
  if (!m) return undefined;
  const decoded = Buffer.from(m[1] ?? "", "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  return {
    id: decodeURIComponent(decoded.slice(0, colon)),
    secret: decodeURIComponent(decoded.slice(colon + 1)),
  };
}

export function oauth2Token(ctx: RequestContext): HandlerResult {
  const contentType = String(ctx.headers["content-type"] ?? "").toLowerCase();
  if (!contentType.startsWith("application/x-www-form-urlencoded")) {
    return oauthError(400, "invalid_request", "Expected application/x-www-form-urlencoded body");
  }
  const form = new URLSearchParams(ctx.rawBody);
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
  if (!app || secret === undefined || app.clientSecret !== secret) {
    return oauthError(401, "invalid_client", "Invalid client credentials");
  }
  const grant = form.get("grant_type");
  if (grant === null) return oauthError(400, "invalid_request", "grant_type is required");
  if (grant !== "client_credentials") {
    return oauthError(
      400,
      "unsupported_grant_type",
      `Unsupported grant type: ${grant.slice(0, 64)}`,
    );
  }
  const requested = (form.get("scope") ?? Scopes.COMMANDS_UPDATE)
    .split(/\s+/)
    .filter((x) => x !== "");
  const scopes = requested.length > 0 ? [...new Set(requested)] : [Scopes.COMMANDS_UPDATE];
  const refused = scopes.find((x) => !GRANTABLE.includes(x));
  if (refused !== undefined) {
    return oauthError(
      400,
      "invalid_scope",
      `Scope not grantable with client credentials: ${refused.slice(0, 64)}`,
    );
  }
  const ttl = ctx.store.config.tokenTtlSeconds;
  const token = randomBytes(24).toString("base64url");
  ctx.store.transaction(() =>
    ctx.store.issueToken({
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
