/** What every handler receives, and what it returns. */
import type { IncomingHttpHeaders } from "node:http";
import type { RouteParams } from "../../provider/routes";
import type { Principal } from "../auth";
import { Errors } from "../errors";
import type { Store } from "../store";
import type { Application } from "../world";

export interface RequestContext {
  readonly store: Store;
  readonly params: RouteParams;
  /** The parsed JSON body (undefined when the request had none). */
  readonly body: unknown;
  /** The raw body text (the OAuth2 endpoint reads forms). */
  readonly rawBody: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly principal: Principal | undefined;
  /** An application's Ed25519 public key (hex), its `verify_key`; "" when unknown. */
  readonly verifyKey: (applicationId: string) => string;
}

export interface HandlerResult {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

export type Handler = (ctx: RequestContext) => HandlerResult;

export function param(ctx: RequestContext, name: string): string {
  const v = ctx.params[name];
  if (v === undefined) throw Errors.notFound();
  return v;
}

/** The authenticated principal (401 otherwise). */
export function principalOf(ctx: RequestContext): Principal {
  if (!ctx.principal) throw Errors.unauthorized();
  return ctx.principal;
}

/** The path's application (404/10002 when unknown). */
export function applicationOf(ctx: RequestContext): Application {
  const app = ctx.store.application(param(ctx, "applicationId"));
  if (!app) throw Errors.unknownApplication();
  return app;
}

/** The path's guild, which must have authorized the application (404/10004, 403/50001). */
export function guildOf(ctx: RequestContext, applicationId: string): string {
  const guildId = param(ctx, "guildId");
  if (!ctx.store.guild(guildId)) throw Errors.unknownGuild();
  if (!ctx.store.isAuthorized(applicationId, guildId)) throw Errors.missingAccess();
  return guildId;
}
