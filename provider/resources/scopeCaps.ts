/**
 * A scope's caps (commands per type, scopeLimits in the schema) for one `ScopeCommands`,
 * counting the live commands it does not manage: the commands it declares plus those of
 * another writer must fit. Checked at preview from the scope's snapshot (the lifecycle's
 * `check`), and, when the program runs an update (propertyBags.ts `UPDATING_KEY`), by the
 * write from the list it reads right before its PUT, so an `up` reads each scope once.
 */
import type { WireCommand } from "../client";
import { COMMAND_TYPE_NAMES, CommandType, commandsPerScope } from "../schema";
import type { Bag } from "./propertyBags";
import type { ProviderRuntime } from "./runtime";
import { sameIdentity } from "./scopeOverwrite";
import { scopeKind, scopeName } from "./scopeName";

/**
 * The caps `declared` (the definitions, by key) would pass in the scope holding `live`,
 * where `managed` are the ids the resource already manages: one reason per command type.
 */
export function scopeCapProblems(
  rt: Pick<ProviderRuntime, "claims">,
  applicationId: string,
  guildId: string | undefined,
  live: readonly WireCommand[],
  declared: readonly Bag[],
  managed: ReadonlySet<string>,
): string[] {
  const unmanaged = live.filter(
    (c) =>
      !managed.has(c.id) &&
      !declared.some((d) =>
        sameIdentity(c as unknown as Bag, { type: d["type"], name: d["name"] }),
      ),
  );
  const problems: string[] = [];
  const scope = scopeKind(guildId);
  for (const type of Object.values(CommandType)) {
    const count = declared.filter((d) => (d["type"] ?? CommandType.CHAT_INPUT) === type).length;
    const others = unmanaged.filter((c) => c.type === type);
    const limit = commandsPerScope(type, scope);
    if (count > 0 && count + others.length > limit) {
      problems.push(
        `commands: ${scopeName(applicationId, guildId)} would hold ${count + others.length} ` +
          `${COMMAND_TYPE_NAMES[type] ?? type} commands (the limit is ${limit}): ${count} declared here and ` +
          `${others.length} there already that this resource does not manage (` +
          `${rt.claims.whoDeclares(applicationId, guildId, type, others)}); ` +
          "remove those or declare fewer",
      );
    }
  }
  return problems;
}

/**
 * The ids of the live commands a resource manages, as far as its check can tell: check gets
 * the old inputs, which hold no `commandIds` (in both doors), so these are the live
 * commands its previous definitions name (by type and name; a scope holds one of each),
 * which its write replaces, renamed or removed ones included.
 */
export function managedBefore(live: readonly WireCommand[], previous: readonly Bag[]): Set<string> {
  return new Set(
    live
      .filter((c) =>
        previous.some((d) =>
          sameIdentity(c as unknown as Bag, { type: d["type"], name: d["name"] }),
        ),
      )
      .map((c) => c.id),
  );
}
