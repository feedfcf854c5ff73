/**
 * Helpers for the property bags the engine hands a dynamic provider: values not yet
 * known at preview, which of them are secret, and the split between a resource's own keys
 * and the command's; and the hidden inputs, the keys a bag carries for the provider alone,
 * each named once here with its one builder and reader.
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

/** The paths of every one of the engine's secret values inside `value`. */
export function secretPathsIn(value: unknown, at: Path = []): Path[] {
  if (isSecretValue(value)) return [at];
  if (Array.isArray(value)) return value.flatMap((v, i) => secretPathsIn(v, [...at, i]));
  if (isRecord(value)) {
    return Object.entries(value).flatMap(([k, v]) => secretPathsIn(v, [...at, k]));
  }
  return [];
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

/**
 * Where Pulumi's dynamic resources carry their serialized provider, among the inputs and
 * the state (the SDK sets it; the lifecycles keep it out of what they record as inputs).
 */
export const DYNAMIC_PROVIDER_KEY = "__provider";

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

// The hidden inputs. Their names are the state's (a state written by an earlier version
// holds them): never change them.

/**
 * The hidden input that tells the provider which of a resource's inputs are secret, by
 * path (`[["name"], ["options", 0, "description"]]`), never by value: the dynamic
 * resources send it (sdk/secretPaths.ts: the program sees which inputs are secret
 * Outputs; the dynamic-provider host gets no secret marks), and the plugin builds it from
 * the engine's marks (`secretPathsIn`). Every message the lifecycles build quotes a value
 * at these paths as `[secret]` (provider/schema/secrecy.ts). Kept in the state: read and
 * delete need it.
 */
export const SECRET_PATHS_KEY = "__secretPaths";

/** The hidden input of a resource's secret paths (`paths`: plain, or the program's Input). */
export function secretPathsField<P>(paths: P): { [SECRET_PATHS_KEY]: P } {
  return { [SECRET_PATHS_KEY]: paths };
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

/**
 * The hidden input each dynamic resource names itself with, its URN as the program
 * computes it (sdk/resources.ts): the dynamic-provider host's `check` is not told the URN
 * (@pulumi/pulumi 3.259 to 3.276 at least), and the program-wide claims (claims.ts) key
 * each resource by it. Taken out of the inputs before the state (dynamicProviders.ts).
 */
export const CLAIMANT_KEY = "__claimant";

/** The hidden input of a dynamic resource's URN (`urn`: the program's Input). */
export function claimantField<U>(urn: U): { [CLAIMANT_KEY]: U } {
  return { [CLAIMANT_KEY]: urn };
}

/**
 * Problems found outside a `ScopeCommands`' own inputs and handed to its `check` (its
 * command set's structural problems, commandSetPlan.ts), one a line; present only when
 * there are any. Taken out of the inputs before the state.
 */
export const PROGRAM_PROBLEMS_KEY = "__programProblems";

/**
 * The hidden input of a set's problems for one of its `ScopeCommands` (unknown while the
 * set's definitions are); none when there are no problems.
 */
export function programProblemsField(problems: readonly string[] | typeof UNKNOWN): {
  [PROGRAM_PROBLEMS_KEY]?: string;
} {
  if (problems === UNKNOWN) return { [PROGRAM_PROBLEMS_KEY]: UNKNOWN };
  return problems.length > 0 ? { [PROGRAM_PROBLEMS_KEY]: problems.join("\n") } : {};
}

/**
 * Whether the program runs an update (true) or a preview (false), when its front door
 * knows: the TypeScript SDK (`isDryRun()`) and the plugin's `CommandSet` (its Construct
 * request's `dryRun`) say it; a plugin resource a program declares itself does not (the
 * provider is never told). A `ScopeCommands` known to be updating leaves its scope's caps
 * to its write, which checks them against the list it reads right before its PUT (the same
 * message): one list GET per scope instead of two. A preview, or an unknown, checks them
 * in `check`. Taken out of the inputs before the state.
 */
export const UPDATING_KEY = "__updating";

/** The hidden input that says the program runs an update (`UPDATING_KEY`). */
export function updatingField(updating: boolean): { [UPDATING_KEY]: boolean } {
  return { [UPDATING_KEY]: updating };
}

/** Whether a bag says its program runs an update (true only when it says so), and the rest. */
export function takeUpdating(bag: Bag): { updating: boolean; rest: Bag } {
  const { [UPDATING_KEY]: value, ...rest } = bag;
  return { updating: value === true, rest };
}

/**
 * The command a `GuildCommandPermissions` of a `CommandSet` follows, by identity: its
 * scope, type and name (permissionsLifecycle.ts `sameCommandLive`). Kept in the state.
 */
export const COMMAND_REF_KEY = "__commandRef";

/** A command's identity, as `COMMAND_REF_KEY` holds it. */
export interface CommandRef {
  /** Undefined: the provider's configured application. */
  readonly applicationId: string | undefined;
  /** Undefined: the global scope. */
  readonly guildId: string | undefined;
  readonly type: number;
  readonly name: string;
}

/** The hidden input of the command a permissions resource follows (`type` absent: CHAT_INPUT). */
export function commandRefField(ref: {
  readonly applicationId: string | undefined;
  readonly guildId: string | undefined;
  readonly type: number | undefined;
  readonly name: string;
}): { [COMMAND_REF_KEY]: Record<string, string | number> } {
  return {
    [COMMAND_REF_KEY]: {
      ...(ref.applicationId === undefined ? {} : { applicationId: ref.applicationId }),
      ...(ref.guildId === undefined ? {} : { guildId: ref.guildId }),
      type: ref.type ?? 1,
      name: ref.name,
    },
  };
}

/** The command a bag's `COMMAND_REF_KEY` names; undefined when absent or not one. */
export function commandRefOf(bag: Bag): CommandRef | undefined {
  const ref = bag[COMMAND_REF_KEY];
  if (!isRecord(ref)) return undefined;
  const { applicationId, guildId, type, name } = ref;
  if (typeof name !== "string") return undefined;
  if (applicationId !== undefined && typeof applicationId !== "string") return undefined;
  if (guildId !== undefined && typeof guildId !== "string") return undefined;
  return { applicationId, guildId, type: typeof type === "number" ? type : 1, name };
}

/**
 * A hidden input that the state never keeps (`CLAIMANT_KEY`, `PROGRAM_PROBLEMS_KEY`) taken
 * out of a bag: its value when known (a string, not the unknown placeholder), and the rest.
 */
export function takeHidden(
  bag: Bag,
  key: typeof CLAIMANT_KEY | typeof PROGRAM_PROBLEMS_KEY,
): { value: string | undefined; rest: Bag } {
  const { [key]: value, ...rest } = bag;
  return { value: typeof value === "string" && value !== UNKNOWN ? value : undefined, rest };
}
