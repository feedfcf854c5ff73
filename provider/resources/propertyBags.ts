/**
 * Helpers for the property bags the engine hands a dynamic provider: values not yet
 * known at preview, which of them are secret, and the split between a resource's own keys
 * and the command's.
 */
import type { PathSegment } from "../schema";
import { isRecord, Secrecy } from "../schema";

export { isRecord };

/**
 * The engine's placeholder for a value unknown at preview time, as dynamic providers
 * receive it (`rpc.unknownValue` in `@pulumi/pulumi`).
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** A value Pulumi marks as secret, as the engine sends it to a provider that accepts secrets. */
export const SECRET_SIG = "4dabf18193072939515e22adb298388d";
export const SECRET_VALUE = "1b47061264138c4ac30d75fd1eb44270";

/** True when `value` is one of the engine's secret values (`{ [SECRET_SIG]: SECRET_VALUE, value }`). */
export function isSecretValue(value: unknown): value is { value?: unknown } {
  return isRecord(value) && value[SECRET_SIG] === SECRET_VALUE;
}

/** `value` as one of the engine's secret values. */
export function secretValue<T>(value: T): { [SECRET_SIG]: string; value: T } {
  return { [SECRET_SIG]: SECRET_VALUE, value };
}

/** Plain values: secrets unwrapped (the runtime keeps credentials in memory only). */
export function unwrapSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unwrapSecrets);
  if (isRecord(value)) {
    if (value[SECRET_SIG] === SECRET_VALUE) return unwrapSecrets(value["value"]);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unwrapSecrets(v)]));
  }
  return value;
}

/** True when a secret value sits anywhere inside `value`. */
export function containsSecret(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(containsSecret);
  if (isRecord(value)) return isSecretValue(value) || Object.values(value).some(containsSecret);
  return false;
}

/** Every string inside the engine's secret values in `value` (to keep them out of messages). */
export function secretStrings(value: unknown, inSecret = false): string[] {
  if (typeof value === "string") return inSecret ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((v) => secretStrings(v, inSecret));
  if (!isRecord(value)) return [];
  if (isSecretValue(value)) return secretStrings(value.value, true);
  return Object.values(value).flatMap((v) => secretStrings(v, inSecret));
}

export type Path = PathSegment[];
export type Bag = Record<string, unknown>;

/**
 * The hidden input that tells the provider which of a resource's inputs are secret, by
 * path (`[["name"], ["options", 0, "description"]]`), never by value: the dynamic
 * resources send it (sdk/secretPaths.ts: the program sees which inputs are secret
 * Outputs; the dynamic-provider host gets no secret marks), and the plugin builds it from
 * the engine's marks (`secretPathsIn`). Every message the lifecycles build quotes a value
 * at these paths as `[secret]` (provider/schema/secrecy.ts).
 */
export const SECRET_PATHS_KEY = "__secretPaths";

/** The paths of every one of the engine's secret values inside `value`. */
export function secretPathsIn(value: unknown, at: Path = []): Path[] {
  if (isSecretValue(value)) return [at];
  if (Array.isArray(value)) return value.flatMap((v, i) => secretPathsIn(v, [...at, i]));
  if (isRecord(value)) {
    return Object.entries(value).flatMap(([k, v]) => secretPathsIn(v, [...at, k]));
  }
  return [];
}

const isPath = (p: unknown): p is Path =>
  Array.isArray(p) && p.every((s) => typeof s === "string" || typeof s === "number");

/**
 * Which of a bag's values are secret (`SECRET_PATHS_KEY`). A list that is not one of
 * paths (unknown at preview, or written by something else) makes every value secret.
 */
export function secrecyOf(bag: Bag): Secrecy {
  const paths = bag[SECRET_PATHS_KEY];
  if (paths === undefined) return Secrecy.NONE;
  if (!Array.isArray(paths) || !paths.every(isPath)) return Secrecy.ALL;
  return paths.length === 0 ? Secrecy.NONE : new Secrecy(paths);
}

/** Paths of every unknown value inside `value`. */
export function unknownPaths(value: unknown, at: Path = []): Path[] {
  if (value === UNKNOWN) return [at];
  if (Array.isArray(value)) return value.flatMap((v, i) => unknownPaths(v, [...at, i]));
  if (isRecord(value))
    return Object.entries(value).flatMap(([k, v]) => unknownPaths(v, [...at, k]));
  return [];
}

/** A copy of `value` with unknown values removed (object keys dropped, array items kept as undefined). */
export function withoutUnknowns<T>(value: T): T {
  if (value === UNKNOWN) return undefined as T;
  if (Array.isArray(value)) return value.map((v) => withoutUnknowns(v)) as T;
  if (isRecord(value)) {
    const out: Bag = {};
    for (const [k, v] of Object.entries(value)) {
      if (v !== UNKNOWN) out[k] = withoutUnknowns(v);
    }
    return out as T;
  }
  return value;
}

/** True when one path lies on the other's branch (either is a prefix of the other). */
export function sameBranch(a: Path, b: Path): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (String(a[i]) !== String(b[i])) return false;
  return true;
}

/** `bag` without the given keys and without undefined values. */
export function omit(bag: Bag, keys: readonly string[]): Bag {
  const out: Bag = {};
  for (const [k, v] of Object.entries(bag)) {
    if (!keys.includes(k) && v !== undefined) out[k] = v;
  }
  return out;
}

export function optionalString(bag: Bag, key: string): string | undefined {
  const v = bag[key];
  return typeof v === "string" && v !== "" ? v : undefined;
}

export function requireString(bag: Bag, key: string): string {
  const v = optionalString(bag, key);
  if (v === undefined) throw new Error(`${key} is missing from the resource's state`);
  return v;
}
