/**
 * The daily create budget of a scope in one deployment (the rule: dailyBudget.ts): what
 * the deployment has learned so far, judged again at each thing it learns (a resource
 * that plans creates, a state that keeps creation times), so the last of them sees it all
 * whatever order the engine calls them in. Over the budget fails the preview at the
 * resource where it is first seen, naming the scope; from 80 % on, one warning per scope.
 *
 * The scope's list is the one its limit checks read (one GET per scope and deployment,
 * scopeLimits.ts); "now" is the service's clock, from that response's `Date`.
 */
import { CommandType, Limits } from "../schema";
import { budgetMessage, createdAt, judgeDailyBudget, replacedCreatesOf } from "./dailyBudget";
import type { Bag } from "./propertyBags";
import type { ProviderRuntime } from "./runtime";
import { scopeName } from "./scopeName";

export function budgetScopeKey(applicationId: string, guildId: string | undefined): string {
  return `${applicationId}/${guildId ?? "global"}`;
}

/** The creates this deployment plans in a scope: command resources' names and sets' keys. */
function plannedCreates(rt: ProviderRuntime, scope: string): number {
  let n = rt.deployment.scopeAddCount(scope);
  for (const type of Object.values(CommandType)) {
    n += rt.deployment.plannedCount(`${scope}/${type}`);
  }
  return n;
}

/**
 * Why the scope's planned creates would pass the daily budget ([] when they would not;
 * a warning line instead from 80 % on). Throws when the scope cannot be read.
 */
export async function budgetProblems(
  rt: ProviderRuntime,
  applicationId: string,
  guildId: string | undefined,
): Promise<string[]> {
  const scope = budgetScopeKey(applicationId, guildId);
  const live = await rt.deployment.limitList(scope, () =>
    rt.scopes.scopeSnapshot(applicationId, guildId),
  );
  const verdict = judgeDailyBudget({
    now: rt.client.serviceNow(),
    live: createdAt(live.map((c) => c.id)),
    replaced: rt.deployment.replacedCreates(scope),
    planned: plannedCreates(rt, scope),
    limit: Limits.DAILY_CREATES,
  });
  if (verdict.planned === 0) return [];
  const message = budgetMessage(scopeName(applicationId, guildId), verdict);
  if (verdict.level === "over") return [message];
  if (verdict.level === "warn" && rt.deployment.firstBudgetWarning(scope)) {
    await rt.warnings.warn(message);
  }
  return [];
}

/** `budgetProblems`, or [] when the scope cannot be read (the writes will say why). */
export async function budgetProblemsIfReadable(
  rt: ProviderRuntime,
  applicationId: string,
  guildId: string | undefined,
): Promise<string[]> {
  try {
    return await budgetProblems(rt, applicationId, guildId);
  } catch {
    return [];
  }
}

/**
 * Notes the creation times a resource's state keeps (`replacedCreates`) for its scope,
 * and judges the budget again when the deployment plans creates there: the reason it
 * would pass, or [].
 */
export async function noteReplacedCreates(
  rt: ProviderRuntime,
  state: Bag,
  resource: string,
): Promise<string[]> {
  const times = replacedCreatesOf(state);
  const applicationId = state["applicationId"] ?? rt.settings.applicationId;
  if (times.length === 0 || typeof applicationId !== "string") return [];
  const guildId = typeof state["guildId"] === "string" ? state["guildId"] : undefined;
  const scope = budgetScopeKey(applicationId, guildId);
  rt.deployment.noteReplacedCreates(scope, resource, times);
  if (plannedCreates(rt, scope) === 0) return [];
  return budgetProblemsIfReadable(rt, applicationId, guildId);
}

/**
 * Notes the commands a `ScopeCommands` adds to its scope, those not live already (a live
 * name is taken over, not created), then judges the budget. Throws when the scope cannot
 * be read.
 */
export async function scopeAddProblems(
  rt: ProviderRuntime,
  applicationId: string,
  guildId: string | undefined,
  resource: string,
  adds: readonly { readonly type: number; readonly name: string }[],
): Promise<string[]> {
  const scope = budgetScopeKey(applicationId, guildId);
  const live = await rt.deployment.limitList(scope, () =>
    rt.scopes.scopeSnapshot(applicationId, guildId),
  );
  const liveKeys = new Set(live.map((c) => `${c.type ?? CommandType.CHAT_INPUT}/${c.name}`));
  const created = adds.filter((a) => !liveKeys.has(`${a.type}/${a.name}`)).length;
  rt.deployment.planScopeAdds(scope, resource, created);
  return budgetProblems(rt, applicationId, guildId);
}
