/**
 * Endpoints 2, 4, 5, 8, 10, 11: create (an upsert by name), edit and delete of global and
 * guild commands. Every write is one store transaction: all or nothing.
 */
import { Errors } from "../errors";
import { presentCommand } from "../present";
import type { StoredCommand } from "../commandRecord";
import { commandRecord, identityOf, nextVersion, recordFields } from "../commandRecord";
import { CANONICAL_COMMAND_FIELDS, isRecord } from "../schema";
import type { HandlerResult, RequestContext } from "./context";
import { applicationRules, checkDailyCreates, countLimit } from "./commandRules";
import type { Json } from "./commandScope";
import {
  findInScope,
  ignoredWarning,
  recordScope,
  scopeKey,
  scopeOf,
  validateBody,
} from "./commandScope";

export function createCommand(ctx: RequestContext, guild: boolean): HandlerResult {
  const s = scopeOf(ctx, guild, true);
  const { value, ignored } = validateBody(ctx.body, s, "create");
  const fields = commandRecord(value, recordScope(s));
  const headers = ignoredWarning(ignored);
  const store = ctx.store;
  return store.transaction(() => {
    const existing = store
      .commandsIn(s.app.id, s.guildId)
      .find((c) => c.type === fields.type && c.name === fields.name);
    applicationRules(fields, s, store.activitiesEnabled(s.app.id), []);
    if (existing) {
      const version = nextVersion(existing, fields, () => store.ids.next());
      const updated: StoredCommand = { ...identityOf(existing), ...fields, version };
      store.putCommand(updated);
      return { status: 200, body: presentCommand(updated), headers };
    }
    const limit = countLimit(fields.type, s);
    const count = store
      .commandsIn(s.app.id, s.guildId)
      .filter((c) => c.type === fields.type).length;
    if (count >= limit) throw Errors.maxCommands(limit);
    checkDailyCreates(ctx, s, 1);
    const created: StoredCommand = {
      id: store.ids.next(),
      application_id: s.app.id,
      ...(s.guildId === undefined ? {} : { guild_id: s.guildId }),
      ...fields,
      version: store.ids.next(),
    };
    store.putCommand(created);
    store.dailyCreates.record(scopeKey(s), 1);
    return { status: 201, body: presentCommand(created), headers };
  });
}

export function editCommand(ctx: RequestContext, guild: boolean): HandlerResult {
  const s = scopeOf(ctx, guild, true);
  const existing = findInScope(ctx, s);
  const { value, ignored } = validateBody(ctx.body, s, "edit", existing.type);
  // A provided field overwrites the stored one entirely; null (or a field the schema
  // dropped) resets it to its neutral value; omitted fields are unchanged.
  const raw = isRecord(ctx.body) ? ctx.body : {};
  const merged: Json = { ...recordFields(existing) };
  for (const k of CANONICAL_COMMAND_FIELDS) {
    if (k === "type" || !Object.hasOwn(raw, k)) continue;
    const v = Object.hasOwn(value, k) ? value[k] : null;
    if (v === null || v === undefined) delete merged[k];
    else merged[k] = v;
  }
  const fields = commandRecord(merged, recordScope(s));
  const store = ctx.store;
  return store.transaction(() => {
    applicationRules(fields, s, true, []);
    if (fields.name !== existing.name) {
      const clash = store
        .commandsIn(s.app.id, s.guildId)
        .some((c) => c.id !== existing.id && c.type === existing.type && c.name === fields.name);
      if (clash) {
        throw Errors.fieldError(
          ["name"],
          "APPLICATION_COMMANDS_DUPLICATE_NAME",
          "Application command names must be unique",
        );
      }
      store.dropPermissionsOf(existing.id);
    }
    const version = nextVersion(existing, fields, () => store.ids.next());
    const updated: StoredCommand = { ...identityOf(existing), ...fields, version };
    store.putCommand(updated);
    return { status: 200, body: presentCommand(updated), headers: ignoredWarning(ignored) };
  });
}

export function deleteCommand(ctx: RequestContext, guild: boolean): HandlerResult {
  const s = scopeOf(ctx, guild, true);
  const existing = findInScope(ctx, s);
  ctx.store.transaction(() => ctx.store.deleteCommand(existing.id));
  return { status: 204 };
}
