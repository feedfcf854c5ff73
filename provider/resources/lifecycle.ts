/**
 * What every resource's lifecycle is, whatever the front door: the operations the
 * dynamic-provider host and the plugin call (commandLifecycle.ts, permissionsLifecycle.ts,
 * scopeCommandsLifecycle.ts, authorizationLifecycle.ts implement them), and the check
 * failures every one of them gives for the ids that say where a resource lives.
 */
import type { Secrecy } from "../schema";
import { isSnowflake, notSnowflake } from "../schema";
import type { Bag } from "./propertyBags";
import { UNKNOWN } from "./propertyBags";
import type { StackConfig } from "./settings";

/** One thing wrong with a resource's inputs: the top-level key the engine shows, and why. */
export interface CheckFailure {
  readonly property: string;
  readonly reason: string;
}

/** A check's answer: the inputs to record, and what is wrong with them. */
export interface Checked {
  readonly inputs: Bag;
  readonly failures: CheckFailure[];
}

/** A diff's answer, as both doors hand it to the engine. */
export interface Diffed {
  readonly changes: boolean;
  readonly replaces: string[];
  readonly deleteBeforeReplace: boolean;
  /** Property paths that change (the preview shows these). */
  readonly detailedDiff?: Record<string, "add" | "update" | "delete">;
}

/** A resource's operations, as the engine calls them through either door. */
export interface Lifecycle {
  check(olds: Bag, news: Bag): Promise<Checked>;
  diff(id: string, olds: Bag, news: Bag): Promise<Diffed>;
  create(inputs: Bag): Promise<{ id: string; outs: Bag }>;
  /** `props` empty for a `ScopeCommands`: an import (the plugin's Read with no properties). */
  read(id: string, props: Bag): Promise<{ id: string; props?: Bag; inputs?: Bag }>;
  update(id: string, olds: Bag, news: Bag): Promise<{ outs: Bag }>;
  delete(id: string, props: Bag): Promise<void>;
}

/** A lifecycle with the dynamic-provider host's `configure` (the stack's config). */
export interface ConfiguredLifecycle extends Lifecycle {
  configure(req: { config: StackConfig }): Promise<void>;
}

/**
 * The ids that say where a resource lives (`keys` of the inputs) that are not snowflakes,
 * or that a program marked secret: refused, since they cannot be kept secret. They are
 * parts of resource ids and of the service's request paths, which Pulumi and every error
 * message show in clear. An id unknown at preview is judged once known; an absent one only
 * when `required`.
 */
export function idFailures(
  inputs: Bag,
  secrecy: Secrecy,
  keys: readonly string[],
  required: boolean,
): CheckFailure[] {
  const failures: CheckFailure[] = [];
  for (const key of keys) {
    const v = inputs[key];
    if (v === UNKNOWN || (v === undefined && !required)) continue;
    if (!isSnowflake(v)) {
      failures.push({ property: key, reason: notSnowflake(key) });
    }
  }
  for (const key of keys.filter((k) => secrecy.marks(k))) {
    failures.push({
      property: key,
      reason:
        `${key}: cannot be a secret: an id that says where a command lives is part of ` +
        "resource ids and of the service's request paths, which are never secret; pass it as a plain value",
    });
  }
  return failures;
}
