/**
 * The one normalizer (design: "One normalizer"): diff, read (refresh) and the emulator's
 * responses compare commands through this canonical form.
 *
 * - absent, `null` and `{}` localizations are equal; localized values equal to the
 *   default are dropped (the service ignores them); keys are sorted;
 * - `required`, `autocomplete`, `nsfw` absent = false; `default_permission` and
 *   `dm_permission` absent = true (their documented defaults);
 * - description absent = "" (what the service returns for USER and MESSAGE);
 * - numbers compare numerically (`-0` is `0`);
 * - the order of options and choices is kept (users see it); `channel_types`,
 *   `contexts` and `integration_types` are sets: sorted and deduplicated;
 * - `default_member_permissions`: absent = null; null and "0" differ (everyone vs
 *   admins only); leading zeros are dropped ("032" = "32");
 * - `contexts`/`integration_types`: absent = null, kept apart from any list (absent means
 *   "the app's defaults", which the service may fill in);
 * - `handler` absent = null; `id`, `application_id`, `guild_id`, `version` are not part
 *   of the canonical form (they identify a command, they do not describe it).
 */
import type { WireCommand, WireCommandBody } from "./command";
import { isRecord } from "./issues";
import type { WirePermission } from "./permissions";

export type CanonicalLocalizations = Record<string, string>;

export interface CanonicalChoice {
  name: string;
  name_localizations: CanonicalLocalizations;
  value: string | number;
}

export interface CanonicalOption {
  type: number;
  name: string;
  name_localizations: CanonicalLocalizations;
  description: string;
  description_localizations: CanonicalLocalizations;
  required: boolean;
  autocomplete: boolean;
  choices: CanonicalChoice[];
  options: CanonicalOption[];
  channel_types: number[];
  min_value: number | null;
  max_value: number | null;
  min_length: number | null;
  max_length: number | null;
}

export interface CanonicalCommand {
  type: number;
  name: string;
  name_localizations: CanonicalLocalizations;
  description: string;
  description_localizations: CanonicalLocalizations;
  options: CanonicalOption[];
  default_member_permissions: string | null;
  dm_permission: boolean;
  default_permission: boolean;
  nsfw: boolean;
  integration_types: number[] | null;
  contexts: number[] | null;
  handler: number | null;
}

function str(v: unknown, fallback = ""): string {
  return typeof v === "string" ? v : fallback;
}

function num(v: unknown): number | null {
  if (typeof v === "number") return v === 0 ? 0 : v; // -0 -> 0
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  return null;
}

function bool(v: unknown, fallback: boolean): boolean {
  return typeof v === "boolean" ? v : fallback;
}

function localizations(v: unknown, defaultValue: string): CanonicalLocalizations {
  const out: CanonicalLocalizations = {};
  if (!isRecord(v)) return out;
  for (const key of Object.keys(v).sort()) {
    const value = v[key];
    if (typeof value === "string" && value !== defaultValue) out[key] = value;
  }
  return out;
}

function numberSet(v: unknown): number[] {
  if (!Array.isArray(v)) return [];
  const set = new Set<number>();
  for (const x of v) {
    const n = num(x);
    if (n !== null) set.add(n);
  }
  return [...set].sort((a, b) => a - b);
}

function list<T>(v: unknown, f: (x: Record<string, unknown>) => T): T[] {
  return Array.isArray(v) ? v.filter(isRecord).map(f) : [];
}

function canonicalChoice(c: Record<string, unknown>): CanonicalChoice {
  const name = str(c["name"]);
  const v = c["value"];
  return {
    name,
    name_localizations: localizations(c["name_localizations"], name),
    value: typeof v === "number" ? (v === 0 ? 0 : v) : str(v),
  };
}

function canonicalOption(o: Record<string, unknown>): CanonicalOption {
  const name = str(o["name"]);
  const description = str(o["description"]);
  return {
    type: num(o["type"]) ?? 0,
    name,
    name_localizations: localizations(o["name_localizations"], name),
    description,
    description_localizations: localizations(o["description_localizations"], description),
    required: bool(o["required"], false),
    autocomplete: bool(o["autocomplete"], false),
    choices: list(o["choices"], canonicalChoice),
    options: list(o["options"], canonicalOption),
    channel_types: numberSet(o["channel_types"]),
    min_value: num(o["min_value"]),
    max_value: num(o["max_value"]),
    min_length: num(o["min_length"]),
    max_length: num(o["max_length"]),
  };
}

function permissionBits(v: unknown): string | null {
  if (typeof v !== "string") return null;
  return /^\d+$/.test(v) ? BigInt(v).toString() : v;
}

/** The canonical form of a command body, a returned command, or a canonical form. */
export function canonicalCommand(
  body: WireCommandBody | WireCommand | CanonicalCommand,
): CanonicalCommand {
  const b: Record<string, unknown> = { ...body };
  const name = str(b["name"]);
  const description = str(b["description"]);
  const setOrNull = (v: unknown) => (v === undefined || v === null ? null : numberSet(v));
  return {
    type: num(b["type"]) ?? 1,
    name,
    name_localizations: localizations(b["name_localizations"], name),
    description,
    description_localizations: localizations(b["description_localizations"], description),
    options: list(b["options"], canonicalOption),
    default_member_permissions: permissionBits(b["default_member_permissions"]),
    dm_permission: bool(b["dm_permission"], true),
    default_permission: bool(b["default_permission"], true),
    nsfw: bool(b["nsfw"], false),
    integration_types: setOrNull(b["integration_types"]),
    contexts: setOrNull(b["contexts"]),
    handler: num(b["handler"]),
  };
}

/** Structural equality of JSON-like values (key order does not matter). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (isRecord(a) && isRecord(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    for (const k of ka) if (!(k in b) || !deepEqual(a[k], b[k])) return false;
    return true;
  }
  return false;
}

type CommandLike = WireCommandBody | WireCommand | CanonicalCommand;

export function commandsEqual(a: CommandLike, b: CommandLike): boolean {
  return deepEqual(canonicalCommand(a), canonicalCommand(b));
}

/**
 * Top-level wire field names whose canonical values differ, in a stable order: what the
 * provider's diff reports and what an update PATCHes.
 */
export function diffCommandFields(a: CommandLike, b: CommandLike): (keyof CanonicalCommand)[] {
  const ca = canonicalCommand(a);
  const cb = canonicalCommand(b);
  return (Object.keys(ca) as (keyof CanonicalCommand)[]).filter((k) => !deepEqual(ca[k], cb[k]));
}

/**
 * The canonical form of a permission overwrite list. The service treats the list as a
 * set keyed by (id, type) (at most one overwrite per pair; the order has no meaning), so
 * it is sorted by type, then numerically by id; ids lose leading zeros.
 */
export function canonicalPermissions(list: readonly WirePermission[]): WirePermission[] {
  return list
    .map((p) => ({ id: BigInt(p.id).toString(), type: p.type, permission: p.permission }))
    .sort((x, y) =>
      x.type !== y.type
        ? x.type - y.type
        : BigInt(x.id) < BigInt(y.id)
          ? -1
          : x.id === y.id
            ? 0
            : 1,
    );
}

/** Order-insensitive comparison of two overwrite lists. */
export function permissionsEqual(
  a: readonly WirePermission[],
  b: readonly WirePermission[],
): boolean {
  return deepEqual(canonicalPermissions(a), canonicalPermissions(b));
}
