/**
 * The checks of one scope's commands that read the scope (its caps, counting the live
 * commands of other writers, and its daily create budget), shared by `ScopeCommands`
 * (scopeCommandsLifecycle.ts, one scope per resource) and a packed `CommandSet`
 * (commandSetScopesLifecycle.ts, every scope of the set in one resource). The bags are
 * one scope's view: `applicationId`, `guildId`, `commands` by key.
 */
import type { WireCommand } from "../client";
import type { Scope, Secrecy } from "../schema";
import { COMMAND_TYPE_NAMES, CommandType, commandsPerScope } from "../schema";
import type { CheckFailure } from "./lifecycle";
import type { Bag } from "./propertyBags";
import { optionalString, UNKNOWN } from "./propertyBags";
import type { ProviderRuntime } from "./runtime";
import { managedBefore, scopeCapProblems } from "./scopeCaps";
import type { Change } from "./scopeCommandChanges";
import { definitions } from "./scopeCommandChanges";
import { scopeAddProblems } from "./scopeBudget";
import { definitionFailures } from "./scopeCommandDefinitions";

/**
 * The failure property of a problem of the whole list (caps, program-wide claims): none,
 * so the engine prints the reason alone instead of the whole `commands` map's value.
 */
export const WHOLE_SCOPE = "";

/** The resource id of a scope: where the commands live. */
export function scopeResourceId(applicationId: string, guildId: string | undefined): string {
  return `${applicationId}/${guildId ?? "global"}`;
}

/** The commands the changes create, as the budget counts them (scopeBudget.ts). */
function createdBy(changes: readonly Change[]): { type: number; name: string }[] {
  return changes.flatMap((c) =>
    c.kind === "create" && c.body !== undefined
      ? [{ type: c.body.type ?? CommandType.CHAT_INPUT, name: c.body.name }]
      : [],
  );
}

/** The daily budget of the scope with these changes' creates (scopeBudget.ts). */
export async function budgetFailures(
  rt: ProviderRuntime,
  inputs: Bag,
  resource: string | undefined,
  changes: Change[],
): Promise<string[]> {
  const adds = createdBy(changes);
  const applicationId = optionalString(inputs, "applicationId");
  const guildId = optionalString(inputs, "guildId");
  if (adds.length === 0 || applicationId === undefined || applicationId === UNKNOWN) return [];
  if (guildId === UNKNOWN) return [];
  try {
    const owner = resource ?? scopeResourceId(applicationId, guildId);
    return await scopeAddProblems(rt, applicationId, guildId, owner, adds);
  } catch {
    return []; // the scope cannot be read: the write will say why
  }
}

/**
 * The caps of the scope, counting the live commands the resource does not manage. `olds`
 * are the old inputs (check's), which have no `commandIds`: its own are the live commands
 * the old definitions declared, in the same scope.
 */
export async function capFailures(
  rt: ProviderRuntime,
  olds: Bag,
  inputs: Bag,
): Promise<CheckFailure[]> {
  const applicationId = optionalString(inputs, "applicationId");
  if (applicationId === undefined || applicationId === UNKNOWN) return [];
  const guildId = optionalString(inputs, "guildId");
  if (guildId === UNKNOWN) return [];
  let live: readonly WireCommand[];
  try {
    live = await rt.scopes.scopeSnapshot(applicationId, guildId);
  } catch {
    return []; // no credentials at preview, or the scope cannot be read: the write will tell
  }
  const defs = Object.values(definitions(inputs));
  const before = rt.withApplication(olds);
  const sameScope =
    optionalString(before, "applicationId") === applicationId &&
    optionalString(before, "guildId") === guildId;
  const managed = sameScope
    ? managedBefore(live, Object.values(definitions(before)))
    : new Set<string>();
  return scopeCapProblems(rt, applicationId, guildId, live, defs, managed).map((reason) => ({
    property: WHOLE_SCOPE,
    reason,
  }));
}

/**
 * The failures of a scope's definitions by key (each definition's rules at the path a user
 * reads, its key, its scope) and of the scope's limit per type, with the schema's warnings.
 */
export function commandMapFailures(
  commands: Record<string, unknown>,
  scope: Scope,
  secrecy: Secrecy,
): { failures: CheckFailure[]; warnings: string[] } {
  const failures: CheckFailure[] = [];
  const warnings: string[] = [];
  const byType = new Map<number, string[]>();
  for (const [key, value] of Object.entries(commands)) {
    if (value === UNKNOWN) continue;
    const checked = definitionFailures(key, value, scope, secrecy);
    failures.push(...checked.failures);
    warnings.push(...checked.warnings);
    if (checked.type !== undefined)
      byType.set(checked.type, [...(byType.get(checked.type) ?? []), key]);
  }
  for (const [type, keys] of byType) {
    const limit = commandsPerScope(type, scope);
    if (limit > 0 && keys.length > limit) {
      failures.push({
        property: WHOLE_SCOPE,
        reason: `commands: ${keys.length} ${COMMAND_TYPE_NAMES[type] ?? type} commands declared in one scope (the limit is ${limit})`,
      });
    }
  }
  return { failures, warnings };
}
