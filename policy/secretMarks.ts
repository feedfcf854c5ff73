/**
 * Which of a resource's values the engine marked secret, for the policies' messages.
 *
 * The engine sends a policy pack every value with its secret mark (the analyzer's
 * `KeepSecrets`), but `@pulumi/policy` 1.21 hands a policy plain values: a rule cannot
 * tell a secret name from a plain one. So the pack wraps the one function of
 * `@pulumi/policy` that turns the engine's properties into a policy's (its internal
 * `deserialize` module, called by its server at each analysis) and keeps, beside the
 * properties, the paths of the values that were secret: decided by the mark, never by the
 * text. `DISCORD_COMMANDS_PUBLIC_PATHS=policy-secrets` (or a release of `@pulumi/policy`
 * without that function) leaves it out: every command name then counts as secret, and
 * the messages name commands by their place instead.
 */
import { publicPath } from "../provider/publicPaths";

/** The engine's mark of a secret value on the wire (`@pulumi/pulumi/runtime/rpc`). */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** Where the pack keeps a resource's secret paths: a key no resource property can have. */
const MARKS = Symbol("discord-commands secret marks");

export type PropertyPath = readonly (string | number)[];

/** The paths of the values marked secret in the engine's plain form of some properties. */
export function secretPathsOf(value: unknown, at: PropertyPath = []): PropertyPath[] {
  if (value === null || typeof value !== "object") return [];
  const obj = value as Record<string, unknown>;
  if (obj[SIG_KEY] === SECRET_SIG) return [at];
  const entries = Array.isArray(value)
    ? value.map((v, i) => [i, v] as const)
    : Object.entries(obj).map(([k, v]) => [k, v] as const);
  return entries.flatMap(([k, v]) => secretPathsOf(v, [...at, k]));
}

interface StructLike {
  toJavaScript(): unknown;
}
type Deserialize = (struct: StructLike, proxySecrets: boolean) => Record<string, unknown>;

let installed = false;

/**
 * Wraps `@pulumi/policy`'s deserialization, once, so that the properties each policy gets
 * carry their secret paths (`marksOf`). Returns whether the marks are kept.
 */
export function keepSecretMarks(): boolean {
  if (installed) return true;
  if (publicPath("policy-secrets")) return false;
  let mod: { deserializeProperties?: Deserialize };
  try {
    // The module object itself, whose export the server reads at each call.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    mod = require("@pulumi/policy/deserialize") as typeof mod;
  } catch {
    return false;
  }
  const original = mod.deserializeProperties;
  if (typeof original !== "function") return false;
  mod.deserializeProperties = (struct, proxySecrets) => {
    const props = original(struct, proxySecrets);
    Object.defineProperty(props, MARKS, { value: secretPathsOf(struct.toJavaScript()) });
    return props;
  };
  installed = true;
  return true;
}

/**
 * The secret paths of a policy's properties; undefined when the pack could not keep them
 * (then nothing the program gave may be quoted as if plain).
 */
export function marksOf(props: Record<string, unknown>): PropertyPath[] | undefined {
  const marks = (props as Record<symbol, unknown>)[MARKS];
  return Array.isArray(marks) ? (marks as PropertyPath[]) : undefined;
}

/** Whether the value at `path`, or anything holding it, is secret (unknown marks: yes). */
export function isSecretAt(marks: PropertyPath[] | undefined, path: PropertyPath): boolean {
  if (marks === undefined) return true;
  return marks.some((m) => m.length <= path.length && m.every((k, i) => k === path[i]));
}
