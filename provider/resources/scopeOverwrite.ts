/**
 * The bulk overwrite of one scope (endpoints 6 and 12), shared by the bulk write mode of
 * single commands (bulkWriter.ts) and by `ScopeCommands` (scopeCommandsLifecycle.ts).
 *
 * A PUT deletes every command its list leaves out, so the list is always the whole scope:
 * every live command carried unchanged (same id, every field the body accepts) unless the
 * caller replaces it, plus the new ones. Every write to a scope goes through the scope's
 * one lock on the provider runtime (`ScopeLocks`): a PUT (a `ScopeCommands` overwrite, a
 * bulk batch of single resources) holds it alone, from a list GET made after it was taken
 * to the PUT's answer (`withExclusiveScopeList`, `freshScope`); one-command writes (POST,
 * PATCH, DELETE) share it (`writeOneShared`). A PUT is never sent again with an earlier
 * list's body: a failed try is tried again whole, from a new list GET (scopeWrites.ts). So
 * no write of this deployment lands between a PUT and the list it was built from, and
 * another writer's new command can be lost only if it lands within that one round trip
 * (GET, then PUT; measured under injected faults: docs/bulk-mode.md). A command another writer
 * deletes in that window is made again by the PUT, which carried it: the write succeeds
 * and the user is told in one warning line (`putScope`).
 */
import type { WireCommand, WireCommandBody, WireCommandPatch } from "../client";
import type { CanonicalCommandField, CommandField, Scope, Where } from "../schema";
import {
  acceptedIn,
  canonicalCommand,
  carriedIn,
  CommandType,
  COMMAND_FIELDS,
  COMMAND_TYPE_NAMES,
  diffCommandFields,
  patchBody,
} from "../schema";
import type { DeploymentClaims } from "./claims";
import type { ScopeCache } from "./scopeCache";
import { scopeKind, scopeName } from "./scopeName";
import type { Warnings } from "./warnings";
import { racedOverwriteWarning } from "./warnings";
import type { ListedWrite, ScopeWriteRuntime } from "./scopeWrites";
import { editOne } from "./scopeWrites";

/**
 * The parts of the provider runtime a scope's writes use (named here, not taken from
 * `ProviderRuntime`, which builds the bulk writer that uses this module: no import circle).
 */
export interface ScopeParts {
  readonly scopes: ScopeCache;
  readonly warnings: Warnings;
  readonly claims: DeploymentClaims;
}

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

/**
 * The scope's live commands as they are now: a list GET made right before the PUT that is
 * built from it (never the refresh cache, which may be minutes old in a long `up`, nor an
 * earlier answer, which another writer may have overtaken since).
 */
export async function freshScope(
  rt: Pick<ScopeParts, "scopes">,
  write: ListedWrite,
  applicationId: string,
  guildId: string | undefined,
): Promise<WireCommand[]> {
  rt.scopes.invalidateScope(applicationId, guildId);
  write.listing();
  const options = { withLocalizations: true };
  const live =
    guildId === undefined
      ? await write.api.listGlobalCommands(applicationId, options)
      : await write.api.listGuildCommands(applicationId, guildId, options);
  rt.scopes.primeScope(applicationId, guildId, live);
  return live;
}

/** One list element's outcome: the command the scope now holds for it, or why there is none. */
export type OverwriteResult =
  | { readonly ok: true; readonly command: WireCommand }
  | { readonly ok: false; readonly error: unknown };

/**
 * One list element's outcome as the PUT answered it, with the fields its answer lost, which
 * a PATCH restores once the scope's exclusive lock is let go (`restoreFields`).
 */
export type PutResult =
  | {
      readonly ok: true;
      readonly command: WireCommand;
      readonly lost: readonly CanonicalCommandField[];
    }
  | { readonly ok: false; readonly error: unknown };

/**
 * Sends `list` as the scope's whole list in one PUT (sent once: `write.api`). Answers each
 * element's outcome, in order, with the fields the body could not carry and the answer
 * lost (`restoreFields` PATCHes them): an element the answer lacks fails alone (the
 * others are written); a `carried` element the answer lacks or renumbers (another writer
 * deleted it in the window) is answered as the service now holds it, with one warning
 * line. The PUT's own failure throws. The scope's cached list becomes the answer. The
 * caller holds the scope's lock and has built `list` from the whole scope just now.
 */
export async function putScope(
  rt: Pick<ScopeParts, "scopes" | "warnings" | "claims">,
  write: ListedWrite,
  applicationId: string,
  guildId: string | undefined,
  list: readonly IntendedCommand[],
): Promise<PutResult[]> {
  const scope = scopeKind(guildId);
  const api = write.api;
  const where: Where = `${scope}:bulk`;
  const bodies = list.map((e) => bulkBody(e.id, e.intended, scope, where));
  let answer: WireCommand[];
  write.putting();
  try {
    answer =
      guildId === undefined
        ? await api.bulkOverwriteGlobalCommands(applicationId, bodies)
        : await api.bulkOverwriteGuildCommands(applicationId, guildId, bodies);
  } catch (err) {
    write.putSettled(false);
    rt.scopes.invalidateScope(applicationId, guildId);
    throw err;
  }
  write.putSettled(true);
  const results: PutResult[] = [];
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
        results.push({ ok: false, error: new Error(`the unmanaged command ${e.id} is gone`) });
        continue;
      }
      results.push({ ok: true, command: found, lost: [] });
      continue;
    }
    if (found === undefined) {
      results.push({ ok: false, error: answeredWithout(applicationId, guildId, e) });
      continue;
    }
    results.push({
      ok: true,
      command: found,
      lost: fieldsTheBodyCannotCarry(e.intended, found, where),
    });
  }
  // The answer is the scope's whole list: the deployment's next reads start from it.
  rt.scopes.primeScope(applicationId, guildId, answer);
  return results;
}

/**
 * The failure of a list element the PUT's answer lacks. It names the command by id (or as
 * the new command of its type), never by name: this module does not know which names are
 * secret, and the error reaches the user through the resource that wrote it (issue 50).
 */
function answeredWithout(
  applicationId: string,
  guildId: string | undefined,
  e: IntendedCommand,
): Error {
  const type = Number(e.intended["type"] ?? CommandType.CHAT_INPUT);
  const command =
    e.id !== undefined
      ? `the command of id ${e.id}`
      : `the new ${COMMAND_TYPE_NAMES[type] ?? `type ${type}`} command it was to create`;
  return new Error(
    `the bulk overwrite of ${scopeName(applicationId, guildId)} answered without ${command}`,
  );
}

/**
 * Restores, one PATCH each, the fields a PUT's answer lost (`PutResult.lost`), once the
 * caller has let the scope's exclusive lock go: each is a one-command write
 * (`writeOneShared`), which never waits for a rate limit holding the lock. A failed PATCH
 * fails its element alone.
 */
export async function restoreFields(
  rt: ScopeWriteRuntime & Pick<ScopeParts, "scopes">,
  applicationId: string,
  guildId: string | undefined,
  list: readonly IntendedCommand[],
  results: readonly PutResult[],
): Promise<OverwriteResult[]> {
  const out: OverwriteResult[] = [];
  for (const [i, r] of results.entries()) {
    const intended = list[i]?.intended;
    if (!r.ok || r.lost.length === 0 || intended === undefined) {
      out.push(r.ok ? { ok: true, command: r.command } : r);
      continue;
    }
    const patch = patchBody(intended, r.lost) as WireCommandPatch;
    try {
      const command = await editOne(rt, applicationId, guildId, r.command.id, patch);
      out.push({ ok: true, command });
    } catch (error) {
      out.push({ ok: false, error });
    }
    // The cached list is the PUT's answer, which lacks what the PATCH restored.
    rt.scopes.invalidateScope(applicationId, guildId);
  }
  return out;
}

/**
 * Writes `list` as the scope's whole list: the entry points the list leaves out are
 * deleted on their own first (a PUT that leaves one out is refused, 50240), then
 * `putScope`. The caller holds the scope's lock, has read `live` just now, and then lets
 * the lock go and calls `finishOverwrite`.
 */
export async function overwriteScope(
  rt: Pick<ScopeParts, "scopes" | "warnings" | "claims">,
  write: ListedWrite,
  applicationId: string,
  guildId: string | undefined,
  live: readonly WireCommand[],
  list: readonly IntendedCommand[],
): Promise<PutResult[]> {
  const kept = new Set(list.map((e) => e.id).filter((id) => id !== undefined));
  for (const c of live) {
    if (c.type === CommandType.PRIMARY_ENTRY_POINT && !kept.has(c.id)) {
      await write.api.deleteGlobalCommand(applicationId, c.id);
    }
  }
  return putScope(rt, write, applicationId, guildId, list);
}

/**
 * After `overwriteScope`, with the lock let go: restores the fields its answer lost, and
 * answers each list element's command, in order (undefined for a `carried` element the
 * answer lacks); any other element's failure fails the whole (its resource holds the
 * whole list).
 */
export async function finishOverwrite(
  rt: ScopeWriteRuntime & Pick<ScopeParts, "scopes">,
  applicationId: string,
  guildId: string | undefined,
  list: readonly IntendedCommand[],
  put: readonly PutResult[],
): Promise<(WireCommand | undefined)[]> {
  const results = await restoreFields(rt, applicationId, guildId, list, put);
  const failed = results.find((r, i) => !r.ok && list[i]?.carried !== true);
  if (failed !== undefined && !failed.ok) {
    rt.scopes.invalidateScope(applicationId, guildId);
    throw failed.error;
  }
  return results.map((r) => (r.ok ? r.command : undefined));
}
