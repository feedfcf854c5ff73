/**
 * The canonical value of each kind of field (fields.ts names one per field): what "no
 * change" means for it, defaults included, so that the normalizer compares values the
 * way the service treats them.
 */
import { InteractionContextType } from "./constants";
import type { Raw } from "./fieldSpec";
import { isRecord } from "./issues";

const BOT_DM: number = InteractionContextType.BOT_DM;

/** Text: the string, or "" when there is none. */
export function text(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/** A number, from a number or a decimal string (-0 is 0); null when it is neither. */
export function canonicalNumber(v: unknown): number | null {
  if (typeof v === "number") return v === 0 ? 0 : v; // -0 -> 0
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  return null;
}

/** A boolean; `fallback`, the documented default, when there is none. */
export const flag =
  (fallback: boolean) =>
  (v: unknown): boolean =>
    typeof v === "boolean" ? v : fallback;

/** Localized values: sorted keys, values equal to the default dropped (the service ignores them). */
export function localized(of: "name" | "description") {
  return (v: unknown, whole: Raw): Record<string, string> => {
    const out: Record<string, string> = {};
    if (!isRecord(v)) return out;
    const defaultValue = text(whole[of]);
    for (const key of Object.keys(v).sort()) {
      const value = v[key];
      if (typeof value === "string" && value !== defaultValue) out[key] = value;
    }
    return out;
  };
}

/** A set of numbers: sorted, deduplicated. */
export function numberSet(v: unknown): number[] {
  if (!Array.isArray(v)) return [];
  const set = new Set<number>();
  for (const x of v) {
    const n = canonicalNumber(x);
    if (n !== null) set.add(n);
  }
  return [...set].sort((a, b) => a - b);
}

/** A set, or null when absent: absent means "the application's defaults", not "none". */
export function numberSetOrNull(v: unknown): number[] | null {
  return v === undefined || v === null ? null : numberSet(v);
}

/** Decimal permission bits lose leading zeros ("032" = "32"); null and "0" differ. */
export function permissionBits(v: unknown): string | null {
  if (typeof v !== "string") return null;
  return /^\d+$/.test(v) ? BigInt(v).toString() : v;
}

/** The deprecated dm_permission: follows `contexts` when they are a list (see COMMAND_FIELDS). */
export function dmPermission(v: unknown, whole: Raw): boolean {
  const contexts = whole["contexts"];
  if (Array.isArray(contexts)) return contexts.some((c) => canonicalNumber(c) === BOT_DM);
  return typeof v === "boolean" ? v : true;
}

/** A type number; `fallback`, the default type, when there is none. */
export function typeOr(fallback: number) {
  return (v: unknown): number => canonicalNumber(v) ?? fallback;
}

/** A choice's value: a number as it is (-0 is 0), anything else as text. */
export function choiceValue(v: unknown): string | number {
  return typeof v === "number" ? (v === 0 ? 0 : v) : text(v);
}

/** A list of nested objects, each in canonical form by `f`; what is not an object is dropped. */
export function listOf<T>(f: (x: Raw) => T) {
  return (v: unknown): T[] => (Array.isArray(v) ? v.filter(isRecord).map(f) : []);
}
