/**
 * Which of a resource's inputs the program marked secret, by path, for the hidden input
 * `__secretPaths` (provider/resources/propertyBags.ts `SECRET_PATHS_KEY`). The
 * dynamic-provider host does not accept secrets, so the engine hands the provider every
 * value in clear and the provider cannot see a mark: only the program can, which inputs are
 * secret Outputs. It tells the provider where they are, never what they are, so that every
 * message the provider builds quotes them as `[secret]`.
 *
 * Pulumi's public interface only: `pulumi.output` lifts every Output inside a value into
 * one whose secretness is theirs together, and `isSecret` tells it. A value with no secret
 * inside costs nothing more; one with a secret is looked into, down to the secret values.
 */
import * as pulumi from "./pulumi";
import type { Path } from "../provider/resources/propertyBags";
import { isRecord } from "../provider/schema";

/** True when `value` holds an Output or a Promise somewhere (a plain value holds no secret). */
function holdsOutputs(value: unknown): boolean {
  if (pulumi.Output.isInstance(value) || value instanceof Promise) return true;
  if (Array.isArray(value)) return value.some(holdsOutputs);
  if (isRecord(value)) return Object.values(value).some(holdsOutputs);
  return false;
}

/**
 * The paths of the secret values in `value` (a resource's arguments as the program gave
 * them), relative to `at`. An Output (or a Promise) that is secret, or that holds a secret
 * in its value, is secret as a whole. Never rejects: a value that fails to resolve fails
 * the resource's registration anyway, and is counted secret here.
 */
export async function secretPathsOf(value: unknown, at: Path = []): Promise<Path[]> {
  if (!holdsOutputs(value)) return [];
  try {
    if (!(await pulumi.isSecret(pulumi.output(value)))) return [];
  } catch {
    return [at];
  }
  if (pulumi.Output.isInstance(value) || value instanceof Promise) return [at];
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value as Record<string, unknown>);
  const nested = await Promise.all(entries.map(([k, v]) => secretPathsOf(v, [...at, k])));
  return nested.flat();
}
