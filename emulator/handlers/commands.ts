/**
 * Endpoints 1-12: list, create (upsert), get, edit, delete and bulk overwrite of global
 * and guild commands.
 *
 * Body validation is the shared schema's (400/50035 with its error tree). The rules
 * that need state are here: uniqueness of names per (application, scope, type), counts
 * per type and scope (30032), daily creates (30034), the entry point rules (one global
 * entry point, only with Activities on, never left out of a bulk overwrite: 50240), the
 * application's installation contexts and discovery (no nsfw), and the size of a
 * command after an edit. Every write is one store transaction: all or nothing.
 */
import { Errors, errorAt } from "../errors";
import { requireApplicationAccess } from "../auth";
import { FULL, presentCommand } from "../present";
import type { LocalizationMode } from "../present";
import { requesterLocale } from "../localize";
import { commandSize, toErrorTree, validateWireCommand } from "../schema";
import type { SchemaIssue, WireCommandBody } from "../schema";
import type { Application, StoredCommand } from "../store";
import type { HandlerResult, RequestContext } from "./context";
import { applicationOf, guildOf, param, principalOf } from "./context";
import { isRecord } from "../schema";

/** Most commands of each type per scope (spec: "Limits"). */
export const COMMAND_LIMITS: Readonly<Record<number, { global: number; guild: number }>> = {
  1: { global: 100, guild: 100 },
  2: { global: 15, guild: 15 },
  3: { global: 15, guild: 15 },
  4: { global: 1, guild: 0 },
};

const SIZE_LIMIT = 8000;

type Json = Record<string, unknown>;

/** A deep copy through JSON: stored state never shares objects with requests. */
function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

interface Scope {
  readonly app: Application;
  readonly guildId: string | undefined;
}

function scopeOf(ctx: RequestContext, guild: boolean, write: boolean): Scope {
  const principal = principalOf(ctx);
  const app = applicationOf(ctx);
  requireApplicationAccess(principal, app.id, write);
  const guildId = guild ? guildOf(ctx, app.id) : undefined;
  return { app, guildId };
}

function scopeKey(s: Scope): string {
  return s.guildId === undefined ? `${s.app.id}` : `${s.app.id}/${s.guildId}`;
}

function findInScope(ctx: RequestContext, s: Scope): StoredCommand {
  const c = ctx.store.command(param(ctx, "commandId"));
  if (!c || c.application_id !== s.app.id || c.guild_id !== s.guildId) {
    throw Errors.unknownCommand();
  }
  return c;
}

function invalid(issues: SchemaIssue[]): never {
  throw Errors.invalidFormBody(toErrorTree(issues));
}

function prefixed(issues: SchemaIssue[], prefix: (string | number)[]): SchemaIssue[] {
  return issues.map((i) => ({ ...i, path: [...prefix, ...i.path] }));
}

function dict(v: unknown): Record<string, string> | undefined {
  if (!isRecord(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x === "string")
      Object.defineProperty(out, k, {
        value: x,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function numbers(v: unknown): number[] | undefined {
  return Array.isArray(v) ? v.filter((x): x is number => typeof x === "number") : undefined;
}

/** The fields of a stored command that a body sets (everything but ids and version). */
type CommandFields = Omit<StoredCommand, "id" | "version" | "application_id" | "guild_id">;

/**
 * A full command from a validated create/bulk body: provided fields, defaults for the
 * rest (as the service fills them).
 */
function fieldsFromBody(value: Json, s: Scope): CommandFields {
  const type = typeof value["type"] === "number" ? value["type"] : 1;
  const base: Json = { type, name: String(value["name"] ?? "") };
  return normalize({ ...base, ...pickKnown(value), type }, s);
}

/** The command fields a body may set (the rest of a body is ignored). */
export const KNOWN_FIELDS = [
  "name",
  "name_localizations",
  "description",
  "description_localizations",
  "options",
  "default_member_permissions",
  "dm_permission",
  "default_permission",
  "nsfw",
  "integration_types",
  "contexts",
  "handler",
] as const;

function pickKnown(value: Json): Json {
  const out: Json = {};
  for (const k of KNOWN_FIELDS) if (Object.hasOwn(value, k)) out[k] = value[k];
  return out;
}

/** Applies the service's defaults and drops what the scope does not keep. */
function normalize(f: Json, s: Scope): CommandFields {
  const type = typeof f["type"] === "number" ? f["type"] : 1;
  const out: {
    -readonly [K in keyof CommandFields]: CommandFields[K];
  } = {
    type,
    name: String(f["name"] ?? ""),
    description:
      type === 2 || type === 3 ? "" : typeof f["description"] === "string" ? f["description"] : "",
    default_member_permissions:
      typeof f["default_member_permissions"] === "string" ? f["default_member_permissions"] : null,
    nsfw: f["nsfw"] === true,
  };
  const nameL = dict(f["name_localizations"]);
  if (nameL) out.name_localizations = nameL;
  const descL = type === 2 || type === 3 ? undefined : dict(f["description_localizations"]);
  if (descL) out.description_localizations = descL;
  const options = f["options"];
  if (type === 1 && Array.isArray(options) && options.length > 0) out.options = clone(options);
  if (f["default_permission"] === false) out.default_permission = false;
  if (s.guildId === undefined) {
    out.dm_permission = f["dm_permission"] !== false;
    out.integration_types = numbers(f["integration_types"]) ?? [...s.app.installationContexts];
    out.contexts = numbers(f["contexts"]) ?? null;
  }
  if (type === 4 && typeof f["handler"] === "number") out.handler = f["handler"];
  return out;
}

/** Stable text of a command's substance (keys sorted): equal text = no substantial change. */
function substance(f: CommandFields | StoredCommand): string {
  const { id: _id, version: _v, ...rest } = f as StoredCommand;
  return stableStringify(rest);
}

function stableStringify(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableStringify).join(",")}]`;
  if (isRecord(v)) {
    return `{${Object.keys(v)
      .sort()
      .filter((k) => v[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableStringify(v[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

/** Rules that depend on the application's settings and on the command as a whole. */
function applicationRules(
  f: CommandFields,
  s: Scope,
  activities: boolean,
  prefix: (string | number)[],
): void {
  if (f.type === 4 && s.guildId === undefined && !activities) {
    throw Errors.fieldError(
      [...prefix, "type"],
      "APPLICATION_COMMAND_ENTRY_POINT_NOT_EMBEDDED",
      "Entry point commands require an application with Activities enabled.",
    );
  }
  if (f.nsfw && s.app.discovery) {
    throw Errors.fieldError(
      [...prefix, "nsfw"],
      "APPLICATION_COMMAND_NSFW_DISCOVERABLE",
      "Applications with discovery enabled cannot have age-restricted commands.",
    );
  }
  if (f.integration_types) {
    const bad = f.integration_types.findIndex((t) => !s.app.installationContexts.includes(t));
    if (bad >= 0) {
      throw Errors.fieldError(
        [...prefix, "integration_types", bad],
        "APPLICATION_COMMAND_INTEGRATION_TYPE_UNSUPPORTED",
        "Integration type is not supported by the application.",
      );
    }
  }
  const size = commandSize(f as unknown as WireCommandBody);
  if (size > SIZE_LIMIT) {
    throw Errors.invalidFormBody(
      errorAt(
        prefix,
        "APPLICATION_COMMAND_TOO_LARGE",
        `Command exceeds maximum size (${SIZE_LIMIT})`,
      ),
    );
  }
}

function countLimit(type: number, s: Scope): number {
  const l = COMMAND_LIMITS[type];
  if (!l) return 0;
  return s.guildId === undefined ? l.global : l.guild;
}

function validateBody(
  body: unknown,
  s: Scope,
  mode: "create" | "edit" | "bulk",
  existingType?: number,
): Json {
  const ctx =
    existingType === undefined
      ? { scope: s.guildId === undefined ? ("global" as const) : ("guild" as const), mode }
      : {
          scope: s.guildId === undefined ? ("global" as const) : ("guild" as const),
          mode,
          existingType,
        };
  const result = validateWireCommand(body, ctx);
  if (!result.ok) invalid(result.issues);
  const value: unknown = result.value;
  if (!isRecord(value))
    throw Errors.invalidFormBody(
      errorAt([], "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType"),
    );
  return value;
}

function checkDailyCreates(ctx: RequestContext, s: Scope, adding: number): void {
  const limit = ctx.store.config.dailyCreateLimit;
  if (adding > 0 && ctx.store.createsToday(scopeKey(s)) + adding > limit) {
    throw Errors.dailyCreates(limit);
  }
}

function localizationMode(ctx: RequestContext): LocalizationMode {
  const q = ctx.query.get("with_localizations");
  if (q !== null && /^(true|1)$/i.test(q)) return FULL;
  const userLocale = ctx.principal?.kind === "user" ? ctx.principal.locale : undefined;
  return { kind: "localized", locale: requesterLocale(ctx.headers, userLocale) };
}

// ---- endpoints -------------------------------------------------------------------------

export function listCommands(ctx: RequestContext, guild: boolean): HandlerResult {
  const s = scopeOf(ctx, guild, false);
  const mode = localizationMode(ctx);
  return {
    status: 200,
    body: ctx.store.commandsIn(s.app.id, s.guildId).map((c) => presentCommand(c, mode)),
  };
}

export function getCommand(ctx: RequestContext, guild: boolean): HandlerResult {
  const s = scopeOf(ctx, guild, false);
  return { status: 200, body: presentCommand(findInScope(ctx, s)) };
}

export function createCommand(ctx: RequestContext, guild: boolean): HandlerResult {
  const s = scopeOf(ctx, guild, true);
  const value = validateBody(ctx.body, s, "create");
  const fields = fieldsFromBody(value, s);
  const store = ctx.store;
  return store.transaction(() => {
    const existing = store
      .commandsIn(s.app.id, s.guildId)
      .find((c) => c.type === fields.type && c.name === fields.name);
    applicationRules(fields, s, store.activitiesEnabled(s.app.id), []);
    if (existing) {
      const version =
        substance(fields) === substance(strip(existing)) ? existing.version : store.ids.next();
      const updated: StoredCommand = { ...ids(existing), ...fields, version };
      store.putCommand(updated);
      return { status: 200, body: presentCommand(updated) };
    }
    const limit = countLimit(fields.type, s);
    const count = store
      .commandsIn(s.app.id, s.guildId)
      .filter((c) => c.type === fields.type).length;
    if (count >= limit) throw Errors.maxCommands(limit);
    checkDailyCreates(ctx, s, 1);
    const id = store.ids.next();
    const created: StoredCommand = {
      id,
      application_id: s.app.id,
      ...(s.guildId === undefined ? {} : { guild_id: s.guildId }),
      ...fields,
      version: store.ids.next(),
    };
    store.putCommand(created);
    store.recordCreates(scopeKey(s), 1);
    return { status: 201, body: presentCommand(created) };
  });
}

function ids(c: StoredCommand): Pick<StoredCommand, "id" | "application_id" | "guild_id"> {
  return c.guild_id === undefined
    ? { id: c.id, application_id: c.application_id }
    : { id: c.id, application_id: c.application_id, guild_id: c.guild_id };
}

function strip(c: StoredCommand): CommandFields {
  const { id: _i, version: _v, application_id: _a, guild_id: _g, ...rest } = c;
  return rest;
}

export function editCommand(ctx: RequestContext, guild: boolean): HandlerResult {
  const s = scopeOf(ctx, guild, true);
  const existing = findInScope(ctx, s);
  const value = validateBody(ctx.body, s, "edit", existing.type);
  const raw = isRecord(ctx.body) ? ctx.body : {};
  const merged: Json = { ...strip(existing) };
  for (const k of KNOWN_FIELDS) {
    if (!Object.hasOwn(raw, k)) continue;
    const v = Object.hasOwn(value, k) ? value[k] : null;
    if (v === null || v === undefined) delete merged[k];
    else merged[k] = v;
  }
  merged["type"] = existing.type;
  const fields = normalize(merged, s);
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
    const version =
      substance(fields) === substance(strip(existing)) ? existing.version : store.ids.next();
    const updated: StoredCommand = { ...ids(existing), ...fields, version };
    store.putCommand(updated);
    return { status: 200, body: presentCommand(updated) };
  });
}

export function deleteCommand(ctx: RequestContext, guild: boolean): HandlerResult {
  const s = scopeOf(ctx, guild, true);
  const existing = findInScope(ctx, s);
  ctx.store.transaction(() => ctx.store.deleteCommand(existing.id));
  return { status: 204 };
}

export function bulkOverwrite(ctx: RequestContext, guild: boolean): HandlerResult {
  const s = scopeOf(ctx, guild, true);
  const body = ctx.body;
  if (!Array.isArray(body)) {
    throw Errors.invalidFormBody(
      errorAt([], "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType"),
    );
  }
  const store = ctx.store;
  const activities = store.activitiesEnabled(s.app.id);
  const issues: SchemaIssue[] = [];
  const items: { fields: CommandFields; id: string | undefined }[] = [];
  body.forEach((element, index) => {
    const result = validateWireCommand(element, {
      scope: s.guildId === undefined ? "global" : "guild",
      mode: "bulk",
    });
    if (!result.ok) {
      issues.push(...prefixed(result.issues, [index]));
      return;
    }
    const value: unknown = result.value;
    if (!isRecord(value)) return;
    const id = typeof value["id"] === "string" ? value["id"] : undefined;
    items.push({ fields: fieldsFromBody(value, s), id });
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
        const version =
          substance(item.fields) === substance(strip(match)) ? match.version : store.ids.next();
        const updated: StoredCommand = { ...ids(match), ...item.fields, version };
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
    store.recordCreates(scopeKey(s), creates);
    return { status: 200, body: result.map((c) => presentCommand(c)) };
  });
}
