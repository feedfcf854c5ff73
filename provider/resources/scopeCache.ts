/**
 * Refresh reads a whole scope once. Every `read` of a resource in one (application,
 * scope) shares one list request per process: concurrent reads wait for the same
 * request, and a write to the scope invalidates it. So a refresh of N commands in S
 * scopes costs S list GETs, not N GETs. The same holds for a guild's permissions.
 *
 * A finished list is reused for a short while only (`discord:readCacheMs` or
 * `DISCORD_READ_CACHE_MS`, read in `configure`; default 10 s): long enough for one
 * refresh, short enough that a later read sees the service.
 */
import type { CommandsApi, WireCommand, WireGuildCommandPermissions } from "../client";
import type { Clock } from "./clock";
import type { ProviderSettings } from "./settings";

interface Entry<T> {
  readonly promise: Promise<T>;
  settledAt: number | undefined;
}

/** What the cache needs of the provider runtime. */
export interface ScopeCacheRuntime {
  readonly client: CommandsApi;
  readonly settings: ProviderSettings;
  readonly clock: Clock;
}

export function scopeKey(applicationId: string, guildId: string | undefined): string {
  return `${applicationId}/${guildId ?? "global"}`;
}

export class ScopeCache {
  private readonly commands = new Map<string, Entry<Map<string, WireCommand>>>();
  private readonly snapshots = new Map<string, Entry<WireCommand[]>>();
  private readonly permissions = new Map<string, Entry<Map<string, WireGuildCommandPermissions>>>();
  private readonly permissionSnapshots = new Map<
    string,
    Entry<Map<string, WireGuildCommandPermissions>>
  >();

  constructor(private readonly rt: ScopeCacheRuntime) {}

  private shared<T>(map: Map<string, Entry<T>>, key: string, load: () => Promise<T>): Promise<T> {
    const now = this.rt.clock.now();
    const hit = map.get(key);
    if (
      hit &&
      (hit.settledAt === undefined || now - hit.settledAt < this.rt.settings.readCacheMs)
    ) {
      return hit.promise;
    }
    const entry: Entry<T> = { promise: load(), settledAt: undefined };
    map.set(key, entry);
    entry.promise.then(
      () => (entry.settledAt = this.rt.clock.now()),
      () => map.get(key) === entry && map.delete(key), // a failed list is not reused
    );
    return entry.promise;
  }

  /** All commands of a scope, by id, with full localizations. */
  scopeCommands(
    applicationId: string,
    guildId: string | undefined,
  ): Promise<Map<string, WireCommand>> {
    return this.shared(this.commands, scopeKey(applicationId, guildId), async () => {
      const api = this.rt.client;
      const list =
        guildId === undefined
          ? await api.listGlobalCommands(applicationId, { withLocalizations: true })
          : await api.listGuildCommands(applicationId, guildId, { withLocalizations: true });
      return new Map(list.map((c) => [c.id, c]));
    });
  }

  /**
   * The commands of a scope as this deployment first saw them, for `create` to find a live
   * twin (liveTwin.ts): one list GET per scope, NOT dropped by this deployment's own
   * writes, so a hundred creates in a scope cost one list, not a hundred. That is sound
   * because the commands a create looks for are those of its own (type, name), and the
   * deployment's claims (claims.ts) let one resource only claim each (application, scope,
   * type, name):
   * no other write of this deployment can change them before that create (deletes run
   * after creates). Reused for the same short while as the lists above.
   */
  scopeSnapshot(
    applicationId: string,
    guildId: string | undefined,
  ): Promise<readonly WireCommand[]> {
    // A fresh list of the refresh cache serves as well (`up --refresh` read it just now).
    return this.shared(this.snapshots, scopeKey(applicationId, guildId), async () => [
      ...(await this.scopeCommands(applicationId, guildId)).values(),
    ]);
  }

  /** All permission objects of a guild, by command id (or application id). */
  guildPermissions(
    applicationId: string,
    guildId: string,
  ): Promise<Map<string, WireGuildCommandPermissions>> {
    return this.shared(this.permissions, scopeKey(applicationId, guildId), async () => {
      const list = await this.rt.client.listGuildCommandPermissions(applicationId, guildId);
      return new Map(list.map((p) => [p.id, p]));
    });
  }

  /**
   * A guild's permission objects as this deployment first saw them, for `create` to adopt
   * overwrites already as declared: one list per guild, not dropped by this deployment's
   * own PUTs (each touches the one command its resource owns). Dropped when a command is
   * renamed in place (`invalidateApplicationPermissions`), since that loses its overwrites.
   */
  guildPermissionsSnapshot(
    applicationId: string,
    guildId: string,
  ): Promise<Map<string, WireGuildCommandPermissions>> {
    return this.shared(this.permissionSnapshots, scopeKey(applicationId, guildId), () =>
      this.guildPermissions(applicationId, guildId),
    );
  }

  /**
   * After a bulk overwrite: the PUT's answer is the scope's whole list (full localizations),
   * so the next batch of the same scope starts from it instead of another list GET.
   */
  primeScope(
    applicationId: string,
    guildId: string | undefined,
    list: readonly WireCommand[],
  ): void {
    const entry: Entry<Map<string, WireCommand>> = {
      promise: Promise.resolve(new Map(list.map((c) => [c.id, c]))),
      settledAt: this.rt.clock.now(),
    };
    this.commands.set(scopeKey(applicationId, guildId), entry);
  }

  /**
   * After creates by POST in bulk mode: a finished list gets the created commands (the next
   * PUT is built from it); a list still loading may predate them, so it is dropped.
   */
  addToScope(
    applicationId: string,
    guildId: string | undefined,
    created: readonly WireCommand[],
  ): void {
    const key = scopeKey(applicationId, guildId);
    const entry = this.commands.get(key);
    if (entry === undefined) return;
    if (entry.settledAt === undefined) {
      this.commands.delete(key);
      return;
    }
    this.commands.set(key, {
      promise: entry.promise.then(
        (live) => new Map([...live, ...created.map((c) => [c.id, c] as const)]),
      ),
      settledAt: entry.settledAt,
    });
  }

  /** Called after every write to a scope. */
  invalidateScope(applicationId: string, guildId: string | undefined): void {
    this.commands.delete(scopeKey(applicationId, guildId));
  }

  invalidatePermissions(applicationId: string, guildId: string): void {
    this.permissions.delete(scopeKey(applicationId, guildId));
  }

  /** Every guild's permissions of an application (a renamed command lost its overwrites). */
  invalidateApplicationPermissions(applicationId: string): void {
    for (const map of [this.permissions, this.permissionSnapshots]) {
      for (const key of map.keys()) if (key.startsWith(`${applicationId}/`)) map.delete(key);
    }
  }

  /** For tests that change the service out of band between reads in one process. */
  clear(): void {
    this.commands.clear();
    this.snapshots.clear();
    this.permissions.clear();
    this.permissionSnapshots.clear();
  }
}
