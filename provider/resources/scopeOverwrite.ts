/**
 * The bulk overwrite of one scope (endpoints 6 and 12), shared by the bulk write mode of
 * single commands (bulkWriter.ts) and by `ScopeCommands` (scopeCommandsLifecycle.ts).
 *
 * A PUT deletes every command its list leaves out, so the list is always the whole scope:
 * every live command carried unchanged (same id, every field the body accepts) unless the
 * caller replaces it, plus the new ones. Every write to a scope goes through the scope's
 * one lock on the provider runtime (`ScopeLocks`): a PUT (a `ScopeCommands` overwrite, a
 * bulk batch of single resources) holds it alone, from a list GET made after it was taken
 * to the PUT's answer (`withScopeList`, `freshScope`); one-command writes (POST, PATCH,
 * DELETE) share it (`writeOne`). So no write of this deployment lands between a PUT and
 * the list it was built from, and another writer's new command can be lost only if it
 * lands within that one round trip (GET, then PUT: 10-25 ms measured against the
 * emulator, test/provider/scopeWriters.test.ts). A command another writer deletes in
 * that window is made again by the PUT, which carried it: the write succeeds and the
 * user is told in one warning line (`putScope`).
 */
import type { WireCommand, WireCommandBody, WireCommandPatch } from "../client";
import type { CanonicalCommandField, CommandField, Scope, Where } from "../schema";
import {
  acceptedIn,
  canonicalCommand,
  carriedIn,
  CommandType,
  COMMAND_FIELDS,
  diffCommandFields,
  patchBody,
} from "../schema";
import { DEFAULT_MAX_RATE_LIMIT_WAIT_MS } from "../client";
import type { RouteDef, RouteParams } from "../routes";
import { Routes } from "../routes";
import type { ProviderRuntime } from "./runtime";
import { scopeKey } from "./scopeCache";
import { racedOverwriteWarning } from "./warnings";

/** Whether two commands have one identity in a scope: type and name. */
export function sameIdentity(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const ca = canonicalCommand(a);
  const cb = canonicalCommand(b);
  return ca.type === cb.type && ca.name === cb.name;
}

/**
 * One element of the PUT's list: every field of the one field table that this endpoint's
 * body accepts and this scope keeps, as the command holds it (null is what the service
 * takes for an absent field in a full overwrite), plus the id of a live command.
 */
export function bulkBody(
  id: string | undefined,
  intended: Record<string, unknown>,
  scope: Scope,
  where: Where,
): WireCommandBody {
  const out: Record<string, unknown> = {};
  for (const field of Object.keys(COMMAND_FIELDS) as CommandField[]) {
    if (field === "id") continue;
    const keptIn: readonly Scope[] = COMMAND_FIELDS[field].keptIn;
    const value = intended[field];
    if (value === undefined || value === null) continue;
    if (!carriedIn(field, where) || !keptIn.includes(scope)) continue;
    out[field] = value;
  }
  if (id !== undefined) out["id"] = id;
  return out as unknown as WireCommandBody;
}

/**
 * Fields of `intended` outside the spec's list for this body that the answer does not hold
 * (a field the service is known to keep, but lost here, is restored too).
 */
export function fieldsTheBodyCannotCarry(
  intended: Record<string, unknown>,
  answer: WireCommand,
  where: Where,
): CanonicalCommandField[] {
  return diffCommandFields(intended, answer).filter((f) => !acceptedIn(f, where));
}

/** One command of the list a PUT sends. */
export interface IntendedCommand {
  /** The live id; undefined for a command the PUT creates. */
  readonly id: string | undefined;
  /** The whole command the scope should hold (wire fields). */
  readonly intended: Record<string, unknown>;
  /**
   * Carried only because the caller does not manage it (another tool's command, or one of
   * another resource): the PUT must hold it or would delete it. Its absence from the answer
   * fails nobody; it is told in one warning line (`putScope`).
   */
  readonly carried?: boolean;
}

/** One caller waiting for a scope's lock. */
interface LockWaiter {
  readonly exclusive: boolean;
  start(): void;
}

/** A scope's lock: who holds it and who waits, first come first served. */
interface LockState {
  /** Holders now: one exclusive, or any number of shared ones. */
  active: number;
  exclusive: boolean;
  readonly queue: LockWaiter[];
}

/**
 * The one lock per scope of a runtime, through which every write to the scope goes:
 *
 * - `run` (exclusive): a write built from the scope's list, a list GET then the PUT built
 *   from it (a `ScopeCommands` overwrite, a bulk batch of single resources). Nothing else
 *   of this runtime writes the scope meanwhile, so no write of the deployment lands
 *   between the GET and the PUT (the PUT would delete a command it created, or revert an
 *   edit).
 * - `shared`: a write of one command (POST, PATCH, DELETE), which touches no other
 *   command: any number of them at once, never during an exclusive write.
 *
 * First come, first served: a shared write that arrives while an exclusive one waits
 * queues behind it, so a stream of one-command writes never starves an overwrite.
 * A failed write releases the lock like a successful one.
 */
export class ScopeLocks {
  private readonly states = new Map<string, LockState>();

  run<T>(applicationId: string, guildId: string | undefined, fn: () => Promise<T>): Promise<T> {
    return this.acquire(scopeKey(applicationId, guildId), true, fn);
  }

  shared<T>(applicationId: string, guildId: string | undefined, fn: () => Promise<T>): Promise<T> {
    return this.acquire(scopeKey(applicationId, guildId), false, fn);
  }

  /** Whether any write of the scope holds or waits for its lock (tests). */
  busy(applicationId: string, guildId: string | undefined): boolean {
    return this.states.has(scopeKey(applicationId, guildId));
  }

  private acquire<T>(key: string, exclusive: boolean, fn: () => Promise<T>): Promise<T> {
    let found = this.states.get(key);
    if (found === undefined) {
      found = { active: 0, exclusive: false, queue: [] };
      this.states.set(key, found);
    }
    const state = found;
    return new Promise<T>((resolve, reject) => {
      const release = (): void => {
        state.active--;
        if (state.active === 0) state.exclusive = false;
        this.pump(key, state);
      };
      // Called at once when the lock is free: a shared write's request is queued in its
      // rate-limit bucket before the next caller looks at the bucket's room.
      const start = (): void => {
        state.active++;
        state.exclusive = exclusive;
        let done: Promise<T>;
        try {
          done = fn();
        } catch (error) {
          done = Promise.reject(error);
        }
        done.then(
          (value) => {
            release();
            resolve(value);
          },
          (error: unknown) => {
            release();
            reject(error);
          },
        );
      };
      const free = state.active === 0 || (!exclusive && !state.exclusive);
      if (free && state.queue.length === 0) start();
      else state.queue.push({ exclusive, start });
    });
  }

  private pump(key: string, state: LockState): void {
    for (;;) {
      const next = state.queue[0];
      if (next === undefined) break;
      if (state.active > 0 && (next.exclusive || state.exclusive)) break;
      state.queue.shift();
      next.start();
      if (next.exclusive) break;
    }
    if (state.active === 0 && state.queue.length === 0) this.states.delete(key);
  }
}

/** What the scope's writes need of the provider runtime. */
export type ScopeWriteRuntime = Pick<
  ProviderRuntime,
  "client" | "clock" | "scopeLocks" | "settings" | "scopes" | "warnings"
>;

function routeParams(applicationId: string, guildId: string | undefined): RouteParams {
  return guildId === undefined ? { applicationId } : { applicationId, guildId };
}

/**
 * Waits, without holding the scope's lock, until every one of `routes` has room in its
 * rate-limit bucket: a write does not hold the scope while it waits for its bucket. A
 * wait longer than the client's budget is not waited here: the client fails the request
 * at once and says why (the daily create limit's 429 form).
 */
export async function roomFor(
  rt: Pick<ProviderRuntime, "client" | "clock" | "settings">,
  applicationId: string,
  guildId: string | undefined,
  routes: readonly RouteDef[],
): Promise<void> {
  const params = routeParams(applicationId, guildId);
  const budget = rt.settings.client.maxRateLimitWaitMs ?? DEFAULT_MAX_RATE_LIMIT_WAIT_MS;
  for (;;) {
    const rest = rt.client.rest;
    const waits = routes.map((r) =>
      rest.rateLimitRoom(r, params) > 0 ? 0 : Math.max(rest.rateLimitWaitMs(r, params), 10),
    );
    const wait = Math.max(0, ...waits);
    if (wait === 0 || wait > budget) return;
    await rt.clock.sleep(wait);
  }
}

/**
 * One write of one command (POST, PATCH, DELETE on `route`) under the scope's shared lock,
 * taken once the route's bucket has room (so a rate-limit wait does not hold the scope).
 */
export async function writeOne<T>(
  rt: Pick<ProviderRuntime, "client" | "clock" | "settings" | "scopeLocks">,
  applicationId: string,
  guildId: string | undefined,
  route: RouteDef,
  fn: () => Promise<T>,
): Promise<T> {
  await roomFor(rt, applicationId, guildId, [route]);
  return rt.scopeLocks.shared(applicationId, guildId, fn);
}

/**
 * A write built from the scope's list, under the scope's exclusive lock, taken once the
 * list GET and the PUT have room in their buckets: `fn` reads the list (`freshScope`)
 * after the lock was taken and PUTs at once, so the window in which another writer's
 * change can be lost is that one round trip.
 */
export async function withScopeList<T>(
  rt: Pick<ProviderRuntime, "client" | "clock" | "settings" | "scopeLocks">,
  applicationId: string,
  guildId: string | undefined,
  fn: () => Promise<T>,
): Promise<T> {
  const routes =
    guildId === undefined
      ? [Routes.listGlobalCommands, Routes.bulkOverwriteGlobalCommands]
      : [Routes.listGuildCommands, Routes.bulkOverwriteGuildCommands];
  await roomFor(rt, applicationId, guildId, routes);
  return rt.scopeLocks.run(applicationId, guildId, fn);
}

/**
 * The scope's live commands as they are now: a list GET made right before the PUT that is
 * built from it (never the refresh cache, which may be minutes old in a long `up`, nor an
 * earlier answer, which another writer may have overtaken since).
 */
export async function freshScope(
  rt: Pick<ProviderRuntime, "scopes">,
  applicationId: string,
  guildId: string | undefined,
): Promise<WireCommand[]> {
  rt.scopes.invalidateScope(applicationId, guildId);
  return [...(await rt.scopes.scopeCommands(applicationId, guildId)).values()];
}

/** One list element's outcome: the command the scope now holds for it, or why there is none. */
export type OverwriteResult =
  | { readonly ok: true; readonly command: WireCommand }
  | { readonly ok: false; readonly error: unknown };

/** How messages name a scope. */
export function scopeName(applicationId: string, guildId: string | undefined): string {
  return guildId === undefined
    ? `the global scope of application ${applicationId}`
    : `guild ${guildId} (application ${applicationId})`;
}

/**
 * Sends `list` as the scope's whole list in one PUT, then restores with one PATCH each
 * the fields the body could not carry. Answers each element's outcome, in order: an
 * element the answer lacks, or whose PATCH failed, fails alone (the others are written);
 * a `carried` element the answer lacks or renumbers (another writer deleted it in the
 * window) is answered as the service now holds it, with one warning line.
 * The PUT's own failure throws. The scope's cached list becomes the answer. The caller
 * holds the scope's lock and has built `list` from the whole scope.
 */
export async function putScope(
  rt: Pick<ProviderRuntime, "client" | "scopes" | "warnings" | "claims">,
  applicationId: string,
  guildId: string | undefined,
  list: readonly IntendedCommand[],
): Promise<OverwriteResult[]> {
  const scope: Scope = guildId === undefined ? "global" : "guild";
  const api = rt.client;
  const where: Where = `${scope}:bulk`;
  const bodies = list.map((e) => bulkBody(e.id, e.intended, scope, where));
  let answer: WireCommand[];
  try {
    answer =
      guildId === undefined
        ? await api.bulkOverwriteGlobalCommands(applicationId, bodies)
        : await api.bulkOverwriteGuildCommands(applicationId, guildId, bodies);
  } catch (err) {
    rt.scopes.invalidateScope(applicationId, guildId);
    throw err;
  }
  const patched = new Map<string, WireCommand>();
  const results: OverwriteResult[] = [];
  for (const e of list) {
    let found =
      e.id !== undefined
        ? answer.find((c) => c.id === e.id)
        : answer.find((c) => sameIdentity(c as unknown as Record<string, unknown>, e.intended));
    if (found === undefined && e.carried === true) {
      // Another writer deleted it between the list GET and this PUT, which carried it by its
      // old id: the service made it again (a new id), or the answer lacks it. Not the
      // caller's command: the write succeeds, the user is told.
      const name = String(e.intended["name"]);
      found = answer.find((c) => sameIdentity(c as unknown as Record<string, unknown>, e.intended));
      const type = Number(e.intended["type"] ?? CommandType.CHAT_INPUT);
      await rt.warnings.warn(
        racedOverwriteWarning({
          where: scopeName(applicationId, guildId),
          name,
          id: String(e.id),
          newId: found?.id,
          declaredBy: rt.claims.declaring(applicationId, guildId, type, name),
        }),
      );
      if (found === undefined) {
        results.push({ ok: false, error: new Error(`the unmanaged command ${name} is gone`) });
        continue;
      }
      results.push({ ok: true, command: found });
      continue;
    }
    if (found === undefined) {
      results.push({
        ok: false,
        error: new Error(
          `the bulk overwrite of ${scopeName(applicationId, guildId)} answered without the command ` +
            String(e.intended["name"]),
        ),
      });
      continue;
    }
    const lost = fieldsTheBodyCannotCarry(e.intended, found, where);
    if (lost.length === 0) {
      results.push({ ok: true, command: found });
      continue;
    }
    try {
      const patch = patchBody(e.intended, lost) as WireCommandPatch;
      const command =
        guildId === undefined
          ? await api.editGlobalCommand(applicationId, found.id, patch)
          : await api.editGuildCommand(applicationId, guildId, found.id, patch);
      patched.set(command.id, command);
      results.push({ ok: true, command });
    } catch (error) {
      results.push({ ok: false, error });
    }
  }
  // The answer is the scope's whole list: the next write of the deployment starts from it.
  rt.scopes.primeScope(
    applicationId,
    guildId,
    answer.map((c) => patched.get(c.id) ?? c),
  );
  return results;
}

/**
 * Writes `list` as the scope's whole list: the entry points the list leaves out are
 * deleted on their own first (a PUT that leaves one out is refused, 50240), then
 * `putScope`. Answers each list element's command, in order (undefined for a `carried`
 * element the answer lacks); any other element's failure fails the whole (its resource
 * holds the whole list). The caller holds the scope's lock.
 */
export async function overwriteScope(
  rt: ProviderRuntime,
  applicationId: string,
  guildId: string | undefined,
  live: readonly WireCommand[],
  list: readonly IntendedCommand[],
): Promise<(WireCommand | undefined)[]> {
  const kept = new Set(list.map((e) => e.id).filter((id) => id !== undefined));
  for (const c of live) {
    if (c.type === CommandType.PRIMARY_ENTRY_POINT && !kept.has(c.id)) {
      await rt.client.deleteGlobalCommand(applicationId, c.id);
    }
  }
  const results = await putScope(rt, applicationId, guildId, list);
  const failed = results.find((r, i) => !r.ok && list[i]?.carried !== true);
  if (failed !== undefined && !failed.ok) {
    rt.scopes.invalidateScope(applicationId, guildId);
    throw failed.error;
  }
  return results.map((r) => (r.ok ? r.command : undefined));
}
