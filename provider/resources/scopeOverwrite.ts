/**
 * The bulk overwrite of one scope (endpoints 6 and 12), shared by the bulk write mode of
 * single commands (bulkWriter.ts) and by `ScopeCommands` (scopeCommandsLifecycle.ts).
 *
 * A PUT deletes every command its list leaves out, so the list is always the whole scope:
 * every live command carried unchanged (same id, every field the body accepts) unless the
 * caller replaces it, plus the new ones. `overwriteScope` runs under the scope's lock and
 * builds its list from a list GET made right before the PUT, so another writer's new
 * command can be lost only if it lands within that one round trip (GET, then PUT).
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
import type { ProviderRuntime } from "./runtime";
import { scopeKey } from "./scopeCache";

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
}

/**
 * Per-scope locks of one runtime: a scope's overwrites (and the reads they are built from)
 * never overlap, so two resources of one deployment writing one scope never build their
 * lists from the same old list (the later PUT would drop the earlier one's commands).
 */
export class ScopeLocks {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(applicationId: string, guildId: string | undefined, fn: () => Promise<T>): Promise<T> {
    const key = scopeKey(applicationId, guildId);
    const tail = this.tails.get(key) ?? Promise.resolve();
    const next = tail.then(fn, fn);
    // The chain never rejects (a failed write must not block the scope's next one).
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, settled);
    void settled.then(() => {
      if (this.tails.get(key) === settled) this.tails.delete(key);
    });
    return next;
  }
}

/**
 * The scope's live commands as they are now: a list GET made right before the PUT that is
 * built from it (never the refresh cache, which may be minutes old in a long `up`, nor an
 * earlier answer, which another writer may have overtaken since).
 */
export async function freshScope(
  rt: ProviderRuntime,
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
 * element the answer lacks, or whose PATCH failed, fails alone (the others are written).
 * The PUT's own failure throws. The scope's cached list becomes the answer. The caller
 * holds the scope's lock and has built `list` from the whole scope.
 */
export async function putScope(
  rt: Pick<ProviderRuntime, "client" | "scopes">,
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
    const found =
      e.id !== undefined
        ? answer.find((c) => c.id === e.id)
        : answer.find((c) => sameIdentity(c as unknown as Record<string, unknown>, e.intended));
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
 * `putScope`. Answers each list element's command, in order; any element's failure
 * fails the whole (its resource holds the whole list). The caller holds the scope's lock.
 */
export async function overwriteScope(
  rt: ProviderRuntime,
  applicationId: string,
  guildId: string | undefined,
  live: readonly WireCommand[],
  list: readonly IntendedCommand[],
): Promise<WireCommand[]> {
  const kept = new Set(list.map((e) => e.id).filter((id) => id !== undefined));
  for (const c of live) {
    if (c.type === CommandType.PRIMARY_ENTRY_POINT && !kept.has(c.id)) {
      await rt.client.deleteGlobalCommand(applicationId, c.id);
    }
  }
  const results = await putScope(rt, applicationId, guildId, list);
  const failed = results.find((r) => !r.ok);
  if (failed !== undefined && !failed.ok) {
    rt.scopes.invalidateScope(applicationId, guildId);
    throw failed.error;
  }
  return results.flatMap((r) => (r.ok ? [r.command] : []));
}
