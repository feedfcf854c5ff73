/**
 * Endpoints 13-16: command permissions in a guild.
 *
 * - 13 lists the permission objects that exist for the application in the guild,
 *   the application-wide one (id = application id) included;
 * - 14 gets one command's object (404/10066 when the command has no overwrites of its
 *   own; the application id as command id gets the application-wide object);
 * - 15 replaces a command's overwrites: only a user's Bearer token with
 *   applications.commands.permissions.update, from a member with MANAGE_GUILD and
 *   MANAGE_ROLES (or Administrator, or the owner); a bot token is 403/20001;
 * - 16 (batch) is disabled (Permissions v2): 403.
 *
 * Reads accept the application's bot or client-credentials token, or such a user token.
 */
import type { Principal } from "../auth";
import { requireApplicationAccess, Scopes } from "../auth";
import { ApiError, Errors } from "../errors";
import { presentPermissions } from "../present";
import { errorTree } from "../rules/issues";
import { validatePermissionsRequest } from "../rules/permissions";
import { PermissionFlags, ServiceErrorCode } from "../schema";
import type { StoredPermission } from "../store";
import type { HandlerResult, RequestContext } from "./context";
import { applicationOf, guildOf, param, principalOf } from "./context";

function requireUserWithScope(principal: Principal, applicationId: string): void {
  if (principal.kind !== "user") return;
  if (!principal.scopes.includes(Scopes.PERMISSIONS_UPDATE)) throw Errors.missingAccess();
  if (principal.applicationId !== undefined && principal.applicationId !== applicationId) {
    throw Errors.missingAccess();
  }
}

function readScope(ctx: RequestContext): { applicationId: string; guildId: string } {
  const principal = principalOf(ctx);
  const app = applicationOf(ctx);
  if (principal.kind === "user") requireUserWithScope(principal, app.id);
  else requireApplicationAccess(principal, app.id, false);
  return { applicationId: app.id, guildId: guildOf(ctx, app.id) };
}

/** The command id of the path: a command of the app (global or this guild's) or the app id. */
function targetOf(ctx: RequestContext, applicationId: string, guildId: string): string {
  const commandId = param(ctx, "commandId");
  if (commandId === applicationId) return commandId;
  const c = ctx.store.command(commandId);
  if (
    !c ||
    c.application_id !== applicationId ||
    (c.guild_id !== undefined && c.guild_id !== guildId)
  ) {
    throw Errors.unknownCommand();
  }
  return commandId;
}

export function listGuildPermissions(ctx: RequestContext): HandlerResult {
  const { applicationId, guildId } = readScope(ctx);
  return {
    status: 200,
    body: ctx.store.permissionsIn(applicationId, guildId).map(presentPermissions),
  };
}

export function getCommandPermissions(ctx: RequestContext): HandlerResult {
  const { applicationId, guildId } = readScope(ctx);
  const target = targetOf(ctx, applicationId, guildId);
  const p = ctx.store.permissions(applicationId, guildId, target);
  if (!p) throw Errors.unknownPermissions();
  return { status: 200, body: presentPermissions(p) };
}

export function editCommandPermissions(ctx: RequestContext): HandlerResult {
  const principal = principalOf(ctx);
  const app = applicationOf(ctx);
  if (principal.kind === "bot") throw Errors.botsCannotUse();
  if (principal.kind !== "user") throw Errors.missingAccess();
  requireUserWithScope(principal, app.id);
  const guildId = guildOf(ctx, app.id);
  const bits = ctx.store.memberPermissions(guildId, principal.userId);
  if (bits === undefined) throw Errors.missingAccess();
  const needed = PermissionFlags.MANAGE_GUILD | PermissionFlags.MANAGE_ROLES;
  if ((bits & needed) !== needed) throw Errors.missingPermissions();
  const target = targetOf(ctx, app.id, guildId);
  const result = validatePermissionsRequest(ctx.body);
  if (!result.ok) throw Errors.invalidFormBody(errorTree(result.issues));
  const permissions: StoredPermission[] = result.value.map((p) => ({ ...p }));
  const stored = { id: target, application_id: app.id, guild_id: guildId, permissions };
  ctx.store.transaction(() => ctx.store.setPermissions(stored));
  // Endpoint 15 fires Application Command Permissions Update (spec: "Events").
  ctx.store.events.record("APPLICATION_COMMAND_PERMISSIONS_UPDATE", presentPermissions(stored));
  return { status: 200, body: presentPermissions(stored) };
}

export function batchEditPermissions(ctx: RequestContext): HandlerResult {
  const principal = principalOf(ctx);
  applicationOf(ctx);
  if (principal.kind === "bot") throw Errors.botsCannotUse();
  throw new ApiError(
    403,
    ServiceErrorCode.MISSING_ACCESS,
    "Missing Access: batch editing of command permissions is disabled; edit each command's permissions instead",
  );
}
