/**
 * What one deployment remembers between the calls the engine makes (one provider process
 * per deployment): the command ids its creates and updates returned, the permissions it
 * wrote, the names its creates add per scope, the replacements that delete first, the
 * list each scope's limit checks count from, and what the daily create budget counts
 * (dailyBudget.ts, scopeBudget.ts). Part of the provider runtime (runtime.ts).
 */
import type { ReauthorizationRequiredError, RefreshRefusals, WireCommand } from "../client";

export class DeploymentMemory implements RefreshRefusals {
  /** Command ids that a create or update of this deployment returned. */
  private readonly writtenCommandIds = new Set<string>();
  /** Command ids that this deployment's writes brought into being (no such id was live). */
  private readonly newCommandIds = new Set<string>();
  /** Command ids whose permissions a create or update of this deployment wrote. */
  private readonly writtenPermissionIds = new Set<string>();
  /** Per (application, scope, type): names this deployment's creates and renames add. */
  private readonly plannedNames = new Map<string, Set<string>>();
  /** (application, scope, type, name) of the new commands of this deployment's replacements. */
  private readonly replacements = new Set<string>();
  /** Per (application, scope, type): old command ids that replacements delete first. */
  private readonly deletedFirstIds = new Map<string, Set<string>>();
  /** Per (application, scope): the list the limit checks of this deployment count from. */
  private readonly limitLists = new Map<string, Promise<readonly WireCommand[]>>();
  /**
   * Refresh tokens the service refused in this deployment, by digest: the first refusal
   * answers every later resource, so an `up` makes one token request, not one per
   * permissions resource (a refused token stays refused; see client/auth.ts).
   */
  private readonly refusedRefreshes = new Map<string, ReauthorizationRequiredError>();
  /** Per (application, scope), per resource: creation times its state keeps (dailyBudget.ts). */
  private readonly replacedTimes = new Map<string, Map<string, readonly number[]>>();
  /** Per (application, scope), per `ScopeCommands`: the keys it adds (creates). */
  private readonly scopeAdds = new Map<string, Map<string, number>>();
  /** Whether a check said this deployment is an update, not a preview (`__updating`). */
  private update = false;
  /** Scopes whose budget warning was given. */
  private readonly budgetWarnings = new Set<string>();
  /** Per new command of a replacement (application, scope, type, name): its old id and record. */
  private readonly replacedBy = new Map<string, { oldId: string; times: readonly number[] }>();

  refusedRefresh(digest: string): ReauthorizationRequiredError | undefined {
    return this.refusedRefreshes.get(digest);
  }

  rememberRefusedRefresh(digest: string, err: ReauthorizationRequiredError): void {
    this.refusedRefreshes.set(digest, err);
  }

  commandWritten(id: string): void {
    this.writtenCommandIds.add(id);
  }

  /** True when a create or update of this deployment returned this command id. */
  isLiveCommand(id: string): boolean {
    return this.writtenCommandIds.has(id);
  }

  /** A command this deployment's write created: the id was not live before it. */
  commandCreated(id: string): void {
    this.newCommandIds.add(id);
  }

  /**
   * True when this deployment created the command: it can have no permission overwrites
   * yet, so its permissions are written without reading the guild's first.
   */
  isNewCommand(id: string): boolean {
    return this.newCommandIds.has(id);
  }

  permissionsWritten(commandId: string): void {
    this.writtenPermissionIds.add(commandId);
  }

  arePermissionsLive(commandId: string): boolean {
    return this.writtenPermissionIds.has(commandId);
  }

  /** Notes that a create or rename of this deployment adds `name` under `key`; returns all. */
  planName(key: string, name: string): ReadonlySet<string> {
    const set = this.plannedNames.get(key) ?? new Set<string>();
    set.add(name);
    this.plannedNames.set(key, set);
    return set;
  }

  /** A replacement that deletes its old command (`id`) first. */
  deleteFirst(key: string, id: string): void {
    const set = this.deletedFirstIds.get(key) ?? new Set<string>();
    set.add(id);
    this.deletedFirstIds.set(key, set);
  }

  /**
   * The scope's list as the deployment's first limit check read it: later checks count
   * from the same list plus what the deployment plans, so they agree however the engine
   * interleaves them with writes. A failed read is not kept.
   */
  limitList(
    key: string,
    load: () => Promise<readonly WireCommand[]>,
  ): Promise<readonly WireCommand[]> {
    let list = this.limitLists.get(key);
    if (list === undefined) {
      list = load();
      this.limitLists.set(key, list);
      list.catch(() => this.limitLists.delete(key));
    }
    return list;
  }

  deletedFirst(key: string): ReadonlySet<string> {
    return this.deletedFirstIds.get(key) ?? new Set();
  }

  replacing(key: string): void {
    this.replacements.add(key);
  }

  isReplacement(key: string): boolean {
    return this.replacements.has(key);
  }

  plannedCount(key: string): number {
    return this.plannedNames.get(key)?.size ?? 0;
  }

  /** Notes the creation times a resource's state keeps for the scope (once per resource). */
  noteReplacedCreates(scope: string, resource: string, times: readonly number[]): void {
    const m = this.replacedTimes.get(scope) ?? new Map<string, readonly number[]>();
    m.set(resource, times);
    this.replacedTimes.set(scope, m);
  }

  replacedCreates(scope: string): number[] {
    return [...(this.replacedTimes.get(scope)?.values() ?? [])].flat();
  }

  /** Notes how many commands a `ScopeCommands` adds to its scope (its latest count). */
  planScopeAdds(scope: string, resource: string, count: number): void {
    const m = this.scopeAdds.get(scope) ?? new Map<string, number>();
    m.set(resource, count);
    this.scopeAdds.set(scope, m);
  }

  scopeAddCount(scope: string): number {
    let n = 0;
    for (const c of this.scopeAdds.get(scope)?.values() ?? []) n += c;
    return n;
  }

  /** Notes that this deployment is an update (a `ScopeCommands`' check said so). */
  markUpdate(): void {
    this.update = true;
  }

  /** True when a check said this deployment is an update: the preview judged the budget. */
  get isUpdate(): boolean {
    return this.update;
  }

  /** True the first time a scope's budget warning is asked for. */
  firstBudgetWarning(scope: string): boolean {
    if (this.budgetWarnings.has(scope)) return false;
    this.budgetWarnings.add(scope);
    return true;
  }

  /** A replacement's old command and its record, for the new command's create to keep. */
  rememberReplaced(key: string, oldId: string, times: readonly number[]): void {
    this.replacedBy.set(key, { oldId, times });
  }

  replacedCommand(key: string): { oldId: string; times: readonly number[] } | undefined {
    return this.replacedBy.get(key);
  }
}
