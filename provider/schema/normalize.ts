/**
 * The one normalizer: the provider's diff, read (refresh) and
 * update, and the emulator's storage, version bumps, presenters and drift all compare
 * commands through this canonical form, built field by field from the one description
 * (fields.ts):
 *
 * - absent, `null` and `{}` localizations are equal; localized values equal to the
 *   default are dropped (the service ignores them); keys are sorted;
 * - a field left out is its documented default, each row's `canonical` (false for the
 *   flags but `default_permission` and `dm_permission`, true); with `contexts` given as
 *   a list, `dm_permission` is derived from them (BOT_DM among them), as the service does;
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
import type { CanonicalCommand, CanonicalCommandField } from "./fields";
import { CANONICAL_COMMAND_FIELDS, COMMAND_FIELDS } from "./fields";
import { canonicalOf } from "./fieldSpec";
import { isRecord } from "./issues";
import type { WirePermission } from "./permissions";

export type { CanonicalChoice, CanonicalCommand, CanonicalOption } from "./fields";

/** The canonical form of a command body, a returned command, or a canonical form. */
export function canonicalCommand(body: object): CanonicalCommand {
  return canonicalOf(COMMAND_FIELDS, { ...body } as Record<string, unknown>) as CanonicalCommand;
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

/**
 * The top-level fields whose canonical values differ, in the table's order: the one
 * comparison behind diff, drift, PATCH and version bumps. `declared` is the side that
 * says what should be: a field compared only `whenDeclared` is skipped when it leaves
 * the field out.
 */
export function diffCommandFields(declared: object, other: object): CanonicalCommandField[] {
  const raw = declared as Record<string, unknown>;
  const a = canonicalCommand(declared);
  const b = canonicalCommand(other);
  return CANONICAL_COMMAND_FIELDS.filter((field) => {
    if (COMMAND_FIELDS[field].compared === "whenDeclared" && raw[field] === undefined) return false;
    return !deepEqual(a[field], b[field]);
  });
}

/**
 * The PATCH body that makes the service hold `declared` for the given fields. A field the
 * program no longer declares is sent as its reset value, because the service keeps any
 * field a PATCH leaves out; fields that are never patched (a type change is a
 * replacement) are left out.
 */
export function patchBody(
  declared: object,
  fields: readonly CanonicalCommandField[],
): Record<string, unknown> {
  const src = declared as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    // With contexts declared, the service derives dm_permission from them (fields.ts):
    // sending it too could only contradict them.
    if (field === "dm_permission" && Array.isArray(src["contexts"])) continue;
    const value = src[field] !== undefined ? src[field] : COMMAND_FIELDS[field].reset;
    if (value !== undefined && field !== "type") out[field] = value;
  }
  return out;
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
