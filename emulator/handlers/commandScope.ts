/**
 * The scope a command request acts on (application, and guild for guild routes), after
 * the access checks, and the body validation every command write shares.
 */
import { requireApplicationAccess } from "../auth";
import { Errors, errorAt } from "../errors";
import type { StoredCommand } from "../commandRecord";
import type { RecordScope } from "../commandRecord";
import { ignoredFields, isRecord, toErrorTree, validateWireCommand } from "../schema";
import type { SchemaIssue, WriteMode } from "../schema";
import type { Application } from "../store";
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

export function invalid(issues: SchemaIssue[]): never {
  throw Errors.invalidFormBody(toErrorTree(issues));
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

export interface ValidBody {
  readonly value: Json;
  /** Fields the service accepts here and drops (fields.ts: `ignoredFields`). */
  readonly ignored: string[];
}

/**
 * A command body checked by the shared schema for one endpoint (400/50035 otherwise),
 * tolerant where the service is (fields.ts, `tolerated`).
 */
export function validateBody(
  body: unknown,
  s: CommandScope,
  mode: WriteMode,
  existingType?: number,
): ValidBody {
  const scope = s.guildId === undefined ? ("global" as const) : ("guild" as const);
  const result = validateWireCommand(
    body,
    existingType === undefined
      ? { scope, mode, tolerant: true }
      : { scope, mode, existingType, tolerant: true },
  );
  if (!result.ok) invalid(result.issues);
  const value: unknown = result.value;
  if (!isRecord(value) || !isRecord(body)) {
    throw Errors.invalidFormBody(
      errorAt([], "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType"),
    );
  }
  return { value, ignored: ignoredFields(body, `${scope}:${mode}`) };
}
