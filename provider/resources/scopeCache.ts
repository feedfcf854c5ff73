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
import type { WireCommand, WireGuildCommandPermissions } from "../client";
import { client, settings } from "./providerProcess";

interface Entry<T> {
  readonly promise: Promise<T>;
  settledAt: number | undefined;
}

const KEY = Symbol.for("pulumi-discord-commands.scopeCache");
type Caches = {
  commands: Map<string, Entry<Map<string, WireCommand>>>;
  permissions: Map<string, Entry<Map<string, WireGuildCommandPermissions>>>;
};
type GlobalWithCaches = typeof globalThis & { [KEY]?: Caches };

function caches(): Caches {
  const g = globalThis as GlobalWithCaches;
  g[KEY] ??= { commands: new Map(), permissions: new Map() };
  return g[KEY];
}

function scopeKey(applicationId: string, guildId: string | undefined): string {
  return `${applicationId}/${guildId ?? "global"}`;
}

function shared<T>(map: Map<string, Entry<T>>, key: string, load: () => Promise<T>): Promise<T> {
  const hit = map.get(key);
  if (hit && (hit.settledAt === undefined || Date.now() - hit.settledAt < settings().readCacheMs)) {
    return hit.promise;
  }
  const entry: Entry<T> = { promise: load(), settledAt: undefined };
  map.set(key, entry);
  entry.promise.then(
    () => (entry.settledAt = Date.now()),
    () => map.get(key) === entry && map.delete(key), // a failed list is not reused
  );
  return entry.promise;
}

/** All commands of a scope, by id, with full localizations. */
export function scopeCommands(
  applicationId: string,
  guildId: string | undefined,
): Promise<Map<string, WireCommand>> {
  return shared(caches().commands, scopeKey(applicationId, guildId), async () => {
    const api = client();
    const list =
      guildId === undefined
        ? await api.listGlobalCommands(applicationId, { withLocalizations: true })
        : await api.listGuildCommands(applicationId, guildId, { withLocalizations: true });
    return new Map(list.map((c) => [c.id, c]));
  });
}

/** All permission objects of a guild, by command id (or application id). */
export function guildPermissions(
  applicationId: string,
  guildId: string,
): Promise<Map<string, WireGuildCommandPermissions>> {
  return shared(caches().permissions, scopeKey(applicationId, guildId), async () => {
    const list = await client().listGuildCommandPermissions(applicationId, guildId);
    return new Map(list.map((p) => [p.id, p]));
  });
}

/** Called after every write to a scope. */
export function invalidateScope(applicationId: string, guildId: string | undefined): void {
  caches().commands.delete(scopeKey(applicationId, guildId));
}

export function invalidatePermissions(applicationId: string, guildId: string): void {
  caches().permissions.delete(scopeKey(applicationId, guildId));
}

/** For tests that change the service out of band between reads in one process. */
export function clearScopeCaches(): void {
  caches().commands.clear();
  caches().permissions.clear();
}
