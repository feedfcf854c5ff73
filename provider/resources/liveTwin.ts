/**
 * What `create` does when the service already holds the command it is asked to create:
 * its live twin, the command of the same application, scope, type and name (the one a
 * POST would overwrite, since the service's create is an upsert by name).
 *
 * - A twin already equal to the declaration in the canonical form (the one normalizer)
 *   is adopted as it is: no write, so bringing a live command set under management
 *   costs one list GET per scope and nothing else.
 * - An application has at most one entry point (PRIMARY_ENTRY_POINT) command, and the
 *   service creates one by itself ("Launch") when Activities are enabled. A POST of an
 *   entry point under another name fails with 30032 (too many), so the declared entry
 *   point takes the live one over: a PATCH of the fields that differ, the name included
 *   (a rename in place, keeping its id).
 * - A twin of the same name that differs is brought to the declaration by one PATCH of
 *   the fields that differ, to its id. The POST's upsert would do it too, but a POST is a
 *   create request, and the daily budget ("Command creates: 200 per day, per guild", spec
 *   Limits) counts creates; nothing says an upsert is spared. With the bulk write mode the
 *   twin is left to the scope's bulk PUT, where "commands that do not already exist" are
 *   the ones that count (spec, Endpoints).
 * - Otherwise (no twin) `create` POSTs.
 */
import type { CommandsApi, WireCommand, WireCommandBody, WireCommandPatch } from "../client";
import { CommandType, diffCommandFields, patchBody } from "../schema";
import type { ScopeCache } from "./scopeCache";
import type { ProviderRuntime, Where } from "./runtime";

/** The live command a create of `body` lands on, if any. */
export async function findLiveTwin(
  scopes: ScopeCache,
  applicationId: string,
  guildId: string | undefined,
  body: WireCommandBody,
): Promise<WireCommand | undefined> {
  const type = body.type ?? CommandType.CHAT_INPUT;
  const live = await scopes.scopeSnapshot(applicationId, guildId);
  const sameType = live.filter((c) => (c.type ?? CommandType.CHAT_INPUT) === type);
  const byName = sameType.find((c) => c.name === body.name);
  if (byName !== undefined) return byName;
  // The one entry point of the application, whatever its name.
  if (type === CommandType.PRIMARY_ENTRY_POINT && guildId === undefined) return sameType[0];
  return undefined;
}

/** A command `create` adopted from the service; `written` when it took a PATCH. */
export interface Adoption {
  readonly command: Pick<WireCommand, "id" | "version">;
  readonly written: boolean;
}

/**
 * Adopts the live twin of `body` without a POST: an equal twin as it is, a differing one
 * by a PATCH of the differing fields (an entry point of another name included).
 * Undefined: no twin (or, with `bulk`, a same-name twin left to the bulk PUT): the
 * caller creates.
 */
export async function adoptLiveTwin(
  rt: Pick<ProviderRuntime, "client" | "scopes">,
  where: Where,
  body: WireCommandBody,
  options: {
    /** Bulk mode: a same-name twin is left to the bulk PUT. */
    readonly bulk?: boolean;
    /** Runs the PATCH (the caller's per-scope write lock), on the client it is given; default: at once. */
    readonly write?: <T>(fn: (api: CommandsApi) => Promise<T>) => Promise<T>;
  } = {},
): Promise<Adoption | undefined> {
  const { applicationId, guildId } = where;
  const scopes = rt.scopes;
  const write = options.write ?? ((fn) => fn(rt.client));
  const twin = await findLiveTwin(scopes, applicationId, guildId, body);
  if (twin === undefined) return undefined;
  const fields = diffCommandFields(body, twin);
  if (fields.length === 0) return { command: twin, written: false };
  const renamed = twin.name !== body.name; // only the application's entry point
  if (options.bulk === true && !renamed) return undefined;
  const patch = patchBody(body, fields) as WireCommandPatch;
  const command = await write((writer) =>
    guildId === undefined
      ? writer.editGlobalCommand(applicationId, twin.id, patch)
      : writer.editGuildCommand(applicationId, guildId, twin.id, patch),
  );
  // A rename drops the command's overwrites.
  if (renamed) scopes.invalidateApplicationPermissions(applicationId);
  return { command, written: true };
}
