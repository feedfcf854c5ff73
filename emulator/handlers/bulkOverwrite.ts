/**
 * Endpoints 6 and 12: bulk overwrite of a scope's command list. Entries match existing
 * commands by id first, then by (type, name); matched commands keep their id (a new
 * name drops their permissions), unmatched ones are created (counted as daily creates),
 * and existing commands the list leaves out are deleted. The entry point cannot be left
 * out (50240). One store transaction: all or nothing.
 */
import { Errors, errorAt } from "../errors";
import { presentCommand } from "../present";
import type { CommandRecordFields, StoredCommand } from "../commandRecord";
import { commandRecord, identityOf, nextVersion } from "../commandRecord";
import { validateCommandRequest } from "../rules/command";
import type { Issue } from "../rules/issues";
import type { HandlerResult, RequestContext } from "./context";
import { applicationRules, checkDailyCreates, countLimit } from "./commandRules";
import { ignoredWarning, invalid, recordScope, scopeKey, scopeOf } from "./commandScope";

function prefixed(issues: readonly Issue[], prefix: (string | number)[]): Issue[] {
  return issues.map((i) => ({ ...i, path: [...prefix, ...i.path] }));
}

export function bulkOverwrite(ctx: RequestContext, guild: boolean): HandlerResult {
  const s = scopeOf(ctx, guild, true);
  // The document's bulk body is a list or null; null replaces the scope's commands with none.
  const body = ctx.body === null ? [] : ctx.body;
  if (!Array.isArray(body)) {
    throw Errors.invalidFormBody(
      errorAt([], "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType"),
    );
  }
  const store = ctx.store;
  const activities = store.activitiesEnabled(s.app.id);
  const issues: Issue[] = [];
  const items: { fields: CommandRecordFields; id: string | undefined }[] = [];
  const ignored: string[] = [];
  const scope = s.guildId === undefined ? "global" : "guild";
  body.forEach((element, index) => {
    const result = validateCommandRequest(element, { scope, mode: "bulk" });
    if (!result.ok) {
      issues.push(...prefixed(result.issues, [index]));
      return;
    }
    const value = result.value;
    for (const field of result.ignored) ignored.push(`${index}.${field}`);
    const id = typeof value["id"] === "string" ? value["id"] : undefined;
    items.push({ fields: commandRecord(value, recordScope(s)), id });
  });
  if (issues.length > 0) invalid(issues);
  items.forEach((item, index) => applicationRules(item.fields, s, activities, [index]));

  // Names are unique per type within the body.
  const seen = new Map<string, number>();
  items.forEach((item, index) => {
    const key = `${item.fields.type}:${item.fields.name}`;
    if (seen.has(key)) {
      throw Errors.fieldError(
        [index, "name"],
        "APPLICATION_COMMANDS_DUPLICATE_NAME",
        "Application command names must be unique",
      );
    }
    seen.set(key, index);
  });

  // Counts per type.
  const counts = new Map<number, number>();
  for (const item of items) counts.set(item.fields.type, (counts.get(item.fields.type) ?? 0) + 1);
  for (const [type, count] of counts) {
    const limit = countLimit(type, s);
    if (count > limit) throw Errors.maxCommands(limit);
  }

  const existing = store.commandsIn(s.app.id, s.guildId);
  if (existing.some((c) => c.type === 4) && !items.some((i) => i.fields.type === 4)) {
    throw Errors.entryPointRemoved();
  }

  // Match body entries to existing commands: by id first, then by (type, name).
  const claimed = new Set<string>();
  const matches: (StoredCommand | undefined)[] = items.map((item) => {
    if (item.id === undefined) return undefined;
    const c = existing.find((e) => e.id === item.id && !claimed.has(e.id));
    if (c && c.type === item.fields.type) {
      claimed.add(c.id);
      return c;
    }
    return undefined;
  });
  items.forEach((item, index) => {
    if (matches[index] !== undefined) return;
    const c = existing.find(
      (e) => !claimed.has(e.id) && e.type === item.fields.type && e.name === item.fields.name,
    );
    if (c) {
      claimed.add(c.id);
      matches[index] = c;
    }
  });
  const creates = matches.filter((m) => m === undefined).length;

  return store.transaction(() => {
    checkDailyCreates(ctx, s, creates);
    for (const c of existing) if (!claimed.has(c.id)) store.deleteCommand(c.id);
    const result: StoredCommand[] = items.map((item, index) => {
      const match = matches[index];
      if (match) {
        if (match.name !== item.fields.name) store.dropPermissionsOf(match.id);
        const version = nextVersion(match, item.fields, () => store.ids.next());
        const updated: StoredCommand = { ...identityOf(match), ...item.fields, version };
        store.putCommand(updated);
        return updated;
      }
      const created: StoredCommand = {
        id: store.ids.next(),
        application_id: s.app.id,
        ...(s.guildId === undefined ? {} : { guild_id: s.guildId }),
        ...item.fields,
        version: store.ids.next(),
      };
      store.putCommand(created);
      return created;
    });
    store.dailyCreates.record(scopeKey(s), creates);
    return {
      status: 200,
      body: result.map((c) => presentCommand(c)),
      headers: ignoredWarning(ignored),
    };
  });
}
