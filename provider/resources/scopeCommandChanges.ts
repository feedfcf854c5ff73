/**
 * What a `ScopeCommands`' inputs and state hold (its definitions by key, the ids of the
 * commands it manages, its scope), and what a change between old state and new inputs means
 * for the service: per key, a create, an edit of some fields, or a delete. The resource's
 * `diff` names these in the preview; its `update` and `delete` write them
 * (scopeCommandWrites.ts).
 */
import { isDeepStrictEqual } from "node:util";
import type { WireCommandBody } from "../client";
import type { CanonicalCommandField, Scope, Secrecy } from "../schema";
import { diffCommandFields, isRecord, validateSdkCommand } from "../schema";
import type { Bag } from "./propertyBags";
import { optionalString, secrecyOf } from "./propertyBags";
import { issueFailure } from "./scopeCommandDefinitions";
import { scopeKind } from "./scopeName";

/** The definitions by key (`commands`), each an object. */
export function definitions(bag: Bag): Record<string, Bag> {
  const value = bag["commands"];
  if (!isRecord(value)) return {};
  const out: Record<string, Bag> = {};
  for (const [k, v] of Object.entries(value)) if (isRecord(v)) out[k] = v;
  return out;
}

/** The ids of the commands the resource manages, by key (`commandIds`). */
export function commandIds(bag: Bag): Record<string, string> {
  const value = bag["commandIds"];
  if (!isRecord(value)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === "string") out[k] = v;
  return out;
}

export function scopeOf(bag: Bag): Scope {
  return scopeKind(optionalString(bag, "guildId"));
}

/** The wire body of a known, valid definition; throws otherwise (check prevents that). */
export function wireBody(key: string, args: Bag, scope: Scope, secrecy: Secrecy): WireCommandBody {
  const result = validateSdkCommand(args, { scope, secrecy: secrecy.within(["commands", key]) });
  if (!result.ok) {
    const lines = result.issues.map((i) => issueFailure(key, i, secrecy).reason);
    throw new Error(`invalid command:\n${lines.join("\n")}`);
  }
  return result.value;
}

/** What one definition change means for the service. */
export interface Change {
  readonly key: string;
  readonly kind: "create" | "edit" | "delete";
  /** The live id (edit, delete). */
  readonly id?: string;
  /** The declared body (create, edit). */
  readonly body?: WireCommandBody;
  /** The fields an edit changes. */
  readonly fields?: readonly CanonicalCommandField[];
}

/** The changes from the old outputs to the new inputs, per key. */
export function changesBetween(olds: Bag, news: Bag): Change[] {
  const scope = scopeOf(news);
  const secrecy = secrecyOf(news);
  const oldDefs = definitions(olds);
  const ids = commandIds(olds);
  const newDefs = definitions(news);
  const changes: Change[] = [];
  for (const [key, args] of Object.entries(newDefs)) {
    const id = ids[key];
    const before = oldDefs[key];
    // The same definition: nothing to normalize or compare (a no-op preview of a large set).
    if (id !== undefined && isDeepStrictEqual(before, args)) continue;
    const body = wireBody(key, args, scope, secrecy);
    if (id === undefined || before === undefined) {
      changes.push({ key, kind: "create", body });
      continue;
    }
    const prev = validateSdkCommand(before, { scope });
    const fields = prev.ok
      ? diffCommandFields(body, prev.value)
      : diffCommandFields(body, {} as WireCommandBody);
    if (fields.length > 0) changes.push({ key, kind: "edit", id, body, fields });
  }
  for (const [key, id] of Object.entries(ids)) {
    if (newDefs[key] === undefined) changes.push({ key, kind: "delete", id });
  }
  return changes;
}
