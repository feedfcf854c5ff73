/**
 * Which of a resource's inputs the program marked secret, by path, for the hidden input
 * `SECRET_PATHS_KEY` (provider/resources/propertyBags.ts). The
 * dynamic-provider host does not accept secrets, so the engine hands the provider every
 * value in clear and the provider cannot see a mark: only the program can, which inputs are
 * secret Outputs. It tells the provider where they are, never what they are, so that every
 * message the provider builds quotes them as `[secret]`.
 *
 * Pulumi's public interface only: `pulumi.output` lifts every Output inside a value into
 * one whose secretness is theirs together, and `isSecret` tells it. The plain containers
 * the program wrote are walked once; each Output or Promise in them is asked once.
 */
import * as pulumi from "./pulumi";
import type { Path } from "../provider/resources/propertyBags";
import type { PathSegment } from "../provider/schema";

type Pending = pulumi.Output<unknown> | Promise<unknown>;

/**
 * Every Output and Promise inside `value` (plain containers walked), with its path: `at`
 * is the walk's current path, copied only for what is found (most values are plain).
 */
function pendingIn(value: unknown, at: Path, found: [Path, Pending][]): void {
  if (pulumi.Output.isInstance(value) || value instanceof Promise) {
    found.push([[...at], value]);
    return;
  }
  if (typeof value !== "object" || value === null) return;
  const entries: Iterable<[PathSegment, unknown]> = Array.isArray(value)
    ? value.entries()
    : Object.entries(value);
  for (const [k, v] of entries) {
    at.push(k);
    pendingIn(v, at, found);
    at.pop();
  }
}

/**
 * The paths of the secret values in `value` (a resource's arguments as the program gave
 * them), relative to `at`: each Output (or Promise) that is secret, or that holds a secret
 * in its value, is secret as a whole. A plain value holds no secret. Never rejects: a value
 * that fails to resolve fails the resource's registration anyway, and counts as secret.
 */
export async function secretPathsOf(value: unknown, at: Path = []): Promise<Path[]> {
  const found: [Path, Pending][] = [];
  pendingIn(value, [...at], found);
  const secret = await Promise.all(
    found.map(([, v]) => pulumi.isSecret(pulumi.output(v)).catch(() => true)),
  );
  return found.filter((_, i) => secret[i]).map(([path]) => path);
}
