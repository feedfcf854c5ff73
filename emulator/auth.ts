/**
 * Authentication: who is calling, from the `Authorization` header.
 *
 * - `Bot <token>`: an application's bot token;
 * - `Bearer <token>`: a client-credentials token issued by `/oauth2/token` (acts as the
 *   application), a user's access token issued by the authorization-code flow (acts as
 *   the consenting user, for the authorizing application only), or a user's access token
 *   declared in the configuration.
 *
 * Authorization decisions (which principal may do what) live in the handlers; the
 * helpers here answer the common questions.
 */
import { Errors } from "./errors";
import type { Store } from "./store";

export type Principal =
  | { readonly kind: "bot"; readonly applicationId: string }
  | { readonly kind: "client"; readonly applicationId: string; readonly scopes: readonly string[] }
  | {
      readonly kind: "user";
      readonly userId: string;
      readonly scopes: readonly string[];
      /** The application the user authorized, when the token is bound to one. */
      readonly applicationId: string | undefined;
      readonly locale: string;
    };

export const Scopes = {
  COMMANDS_UPDATE: "applications.commands.update",
  COMMANDS: "applications.commands",
  PERMISSIONS_UPDATE: "applications.commands.permissions.update",
} as const;

/**
 * Scopes a user may grant through the authorization-code flow (docs/topics/oauth2
 * "OAuth2 Scopes", plus the social SDK's `openid` and `sdk.*` scopes of the spec).
 * `applications.commands.update` is "client credentials grant only" there.
 */
export const USER_GRANTABLE_SCOPES: ReadonlySet<string> = new Set([
  "identify",
  "email",
  "guilds",
  "guilds.members.read",
  "connections",
  "openid",
  "sdk.social_layer",
  "sdk.social_layer_presence",
  Scopes.COMMANDS,
  Scopes.PERMISSIONS_UPDATE,
]);

/** Resolves the header to a principal; undefined when absent, malformed or unknown. */
export function authenticate(header: string | undefined, store: Store): Principal | undefined {
  if (header === undefined) return undefined;
  const m = /^(Bot|Bearer) (\S+)$/i.exec(header.trim());
  if (!m) return undefined;
  const scheme = (m[1] ?? "").toLowerCase();
  const token = m[2] ?? "";
  if (scheme === "bot") {
    const app = store.applicationByBotToken(token);
    return app ? { kind: "bot", applicationId: app.id } : undefined;
  }
  const issued = store.grants.issuedToken(token);
  if (issued?.userId !== undefined) {
    // A user's access token from the authorization-code flow: bound to its application.
    const user = store.user(issued.userId);
    if (!user) return undefined;
    return {
      kind: "user",
      userId: user.id,
      scopes: issued.scopes,
      applicationId: issued.applicationId,
      locale: user.locale,
    };
  }
  if (issued) return { kind: "client", applicationId: issued.applicationId, scopes: issued.scopes };
  const user = store.userToken(token);
  if (user) {
    return {
      kind: "user",
      userId: user.user.id,
      scopes: user.scopes,
      applicationId: user.applicationId,
      locale: user.user.locale,
    };
  }
  return undefined;
}

/**
 * The principal may act as `applicationId` on the command endpoints: its bot token, a
 * client-credentials token of the app, or a user token with applications.commands.update
 * for the app. Reads need only any of those; writes need the update scope for Bearer
 * tokens. Throws 403/50001 otherwise.
 */
export function requireApplicationAccess(
  principal: Principal,
  applicationId: string,
  write: boolean,
): void {
  switch (principal.kind) {
    case "bot":
      if (principal.applicationId !== applicationId) throw Errors.missingAccess();
      return;
    case "client":
      if (principal.applicationId !== applicationId) throw Errors.missingAccess();
      if (write && !principal.scopes.includes(Scopes.COMMANDS_UPDATE)) {
        throw Errors.missingAccess();
      }
      return;
    case "user": {
      const bound =
        principal.applicationId === undefined || principal.applicationId === applicationId;
      const canWrite = principal.scopes.includes(Scopes.COMMANDS_UPDATE);
      if (!bound || (write && !canWrite)) throw Errors.missingAccess();
      if (!write && !canWrite && !principal.scopes.includes(Scopes.COMMANDS)) {
        throw Errors.missingAccess();
      }
      return;
    }
  }
}
