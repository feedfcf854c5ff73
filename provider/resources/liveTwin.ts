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
 * - Otherwise `create` POSTs as before (the upsert overwrites a twin that differs).
 */
import type { CommandsApi, WireCommand, WireCommandBody, WireCommandPatch } from "../client";
import { CommandType, diffCommandFields, patchBody } from "../schema";
import type { ScopeCache } from "./scopeCache";

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
 * Adopts the live twin of `body` when that needs no POST: an equal twin as it is, an
 * entry point of another name by a PATCH. Undefined: the caller POSTs.
 */
export async function adoptLiveTwin(
  api: CommandsApi,
  scopes: ScopeCache,
  applicationId: string,
  guildId: string | undefined,
  body: WireCommandBody,
): Promise<Adoption | undefined> {
  const twin = await findLiveTwin(scopes, applicationId, guildId, body);
  if (twin === undefined) return undefined;
  const fields = diffCommandFields(body, twin);
  if (fields.length === 0) return { command: twin, written: false };
  if (twin.name === body.name || guildId !== undefined) return undefined; // the upsert does it
  const patch = patchBody(body, fields) as WireCommandPatch;
  const command = await api.editGlobalCommand(applicationId, twin.id, patch);
  scopes.invalidateApplicationPermissions(applicationId); // a rename drops the command's overwrites
  return { command, written: true };
}
