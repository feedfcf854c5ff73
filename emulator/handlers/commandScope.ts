/**
 * The scope a command request acts on (application, and guild for guild routes), after
 * the access checks, and the body validation every command write shares.
 */
import { requireApplicationAccess } from "../auth";
import { Errors } from "../errors";
import type { StoredCommand } from "../commandRecord";
import type { RecordScope } from "../commandRecord";
import { errorTree } from "../rules/issues";
import type { Issue } from "../rules/issues";
import { validateCommandRequest } from "../rules/command";
import type { Mode } from "../rules/command";
import type { Application } from "../world";
import type { RequestContext } from "./context";
import { applicationOf, guildOf, param, principalOf } from "./context";

export type Json = Record<string, unknown>;

export interface CommandScope {
  readonly app: Application;
  readonly guildId: string | undefined;
}

export function scopeOf(ctx: RequestContext, guild: boolean, write: boolean): CommandScope {
  const principal = principalOf(ctx);
  const app = applicationOf(ctx);
  requireApplicationAccess(principal, app.id, write);
  const guildId = guild ? guildOf(ctx, app.id) : undefined;
  return { app, guildId };
}

/** What the store needs to know of a scope to keep a command's record. */
export function recordScope(s: CommandScope): RecordScope {
  return { guildId: s.guildId, installationContexts: s.app.installationContexts };
}

/** The key of a scope's daily create counter. */
export function scopeKey(s: CommandScope): string {
  return s.guildId === undefined ? `${s.app.id}` : `${s.app.id}/${s.guildId}`;
}

export function findInScope(ctx: RequestContext, s: CommandScope): StoredCommand {
  const c = ctx.store.command(param(ctx, "commandId"));
  if (!c || c.application_id !== s.app.id || c.guild_id !== s.guildId) {
    throw Errors.unknownCommand();
  }
  return c;
}

export function invalid(issues: readonly Issue[]): never {
  throw Errors.invalidFormBody(errorTree(issues));
}

/** The response header that names the body fields the service accepted and dropped. */
export const WARNING_HEADER = "X-Emulator-Warning";

/** The warning header for the ignored fields (paths like `contexts` or `0.contexts`), if any. */
export function ignoredWarning(ignored: readonly string[]): Record<string, string> {
  if (ignored.length === 0) return {};
  return {
    [WARNING_HEADER]: `ignored fields: ${ignored.join(", ")} (accepted, then dropped, as the service does)`,
  };
}

interface ValidBody {
  readonly value: Json;
  /** Fields the service accepts here and drops (rules/command.ts, `ENDPOINT_FIELDS`). */
  readonly ignored: string[];
}

/**
 * A command body checked by the service's rules for one endpoint (rules/command.ts:
 * the spec's explicit rules and the service's OpenAPI description), 400/50035 otherwise.
 */
export function validateBody(
  body: unknown,
  s: CommandScope,
  mode: Mode,
  existingType?: number,
): ValidBody {
  const scope = s.guildId === undefined ? ("global" as const) : ("guild" as const);
  const result = validateCommandRequest(
    body,
    existingType === undefined ? { scope, mode } : { scope, mode, existingType },
  );
  if (!result.ok) invalid(result.issues);
  return { value: result.value, ignored: result.ignored };
}
