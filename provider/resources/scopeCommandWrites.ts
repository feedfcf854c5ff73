/**
 * How a `ScopeCommands` writes its commands, once scopeWritePlan.ts has chosen the way: its
 * changes one request each (`writeEach`: a PATCH of only the changed fields, a POST, a
 * DELETE, none touching another command), or the whole scope in one bulk overwrite built
 * from a fresh list (`writeOverwrite`, scopeOverwrite.ts), which carries every command the
 * resource does not manage unchanged.
 */
import type { WireCommand, WireCommandBody, WireCommandPatch } from "../client";
import { ConfigurationError } from "../client";
import { diffCommandFields, patchBody, Secrecy } from "../schema";
import { createdAt, replacedCreatesOf } from "./dailyBudget";
import { isGone } from "./permissionsLifecycle";
import type { Bag } from "./propertyBags";
import { secrecyOf } from "./propertyBags";
import type { ProviderRuntime } from "./runtime";
import { scopeCapProblems } from "./scopeCaps";
import type { Change } from "./scopeCommandChanges";
import { changesBetween, commandIds, definitions, wireBody } from "./scopeCommandChanges";
import { finishOverwrite, freshScope, overwriteScope, sameIdentity } from "./scopeOverwrite";
import type { IntendedCommand, PutResult } from "./scopeOverwrite";
import { createOne, deleteOne, editOne, withExclusiveScopeList } from "./scopeWrites";
import { scopeKind } from "./scopeName";
import { planScopeWrite } from "./scopeWritePlan";

/**
 * Writes `changes` one request each (planned small enough; none touches another command),
 * each under the scope's shared lock (scopeWrites.ts); `ids` gets each written key's id.
 */
export async function writeEach(
  rt: ProviderRuntime,
  applicationId: string,
  guildId: string | undefined,
  changes: readonly Change[],
  ids: Record<string, string>,
): Promise<void> {
  // Deletes first: a rename in a full scope needs the room.
  for (const c of changes) {
    if (c.kind !== "delete" || c.id === undefined) continue;
    if (!rt.deployment.isLiveCommand(c.id)) await deleteOne(rt, applicationId, guildId, c.id);
    delete ids[c.key];
  }
  for (const c of changes) {
    if (c.body === undefined) continue;
    let command: WireCommand | undefined;
    if (c.kind === "edit" && c.id !== undefined) {
      const patch = patchBody(c.body, c.fields ?? []) as WireCommandPatch;
      try {
        command = await editOne(rt, applicationId, guildId, c.id, patch);
      } catch (err) {
        // Deleted outside the stack since the last refresh: created again below.
        if (!isGone(err)) throw err;
      }
    }
    if (command === undefined) {
      // Create is an upsert by name: a live command of this name is taken over.
      const created = await createOne(rt, applicationId, guildId, c.body);
      command = created.command;
    }
    ids[c.key] = command.id;
    rt.deployment.commandWritten(command.id);
  }
  rt.scopes.invalidateScope(applicationId, guildId);
}

/** The list of an overwrite, built from the live scope. */
interface OverwriteList {
  readonly list: IntendedCommand[];
  /** The key of each element of `list`; undefined for a command carried unchanged. */
  readonly keyAt: (string | undefined)[];
  /** Whether the PUT would change anything. */
  readonly differs: boolean;
}

/**
 * The whole list of the scope: the declared commands (`bodies`, by key) as declared, each
 * in the place of its live command (the one it manages, or a live command of its type and
 * name, which it takes over with its id); every other live command carried unchanged,
 * except one the resource manages and no longer declares (left out, so deleted); then the
 * declared commands that are new.
 */
function overwriteList(
  rt: ProviderRuntime,
  live: readonly WireCommand[],
  bodies: readonly (readonly [string, WireCommandBody])[],
  managedIds: Record<string, string>,
): OverwriteList {
  const managed = new Set(Object.values(managedIds));
  const list: IntendedCommand[] = [];
  const keyAt: (string | undefined)[] = [];
  const placed = new Set<string>();
  let differs = false;
  for (const c of live) {
    const match = bodies.find(
      ([key, body]) =>
        managedIds[key] === c.id ||
        (!placed.has(key) && sameIdentity(c as unknown as Bag, body as unknown as Bag)),
    );
    if (match !== undefined && !placed.has(match[0])) {
      const [key, body] = match;
      placed.add(key);
      list.push({ id: c.id, intended: { ...body } });
      keyAt.push(key);
      if (diffCommandFields(body, c).length > 0) differs = true;
      continue;
    }
    if (managed.has(c.id) && !rt.deployment.isLiveCommand(c.id)) {
      differs = true; // managed, no longer declared: left out, so deleted
      continue;
    }
    list.push({ id: c.id, intended: { ...c } as Bag, carried: true });
    keyAt.push(undefined);
  }
  for (const [key, body] of bodies) {
    if (placed.has(key)) continue;
    list.push({ id: undefined, intended: { ...body } });
    keyAt.push(key);
    differs = true;
  }
  return { list, keyAt, differs };
}

/**
 * Writes the declared commands as one bulk overwrite built from a fresh list
 * (`overwriteList`); answers the ids by key. No write when the list would change nothing.
 */
export async function writeOverwrite(
  rt: ProviderRuntime,
  applicationId: string,
  guildId: string | undefined,
  declared: Record<string, Bag>,
  managedIds: Record<string, string>,
  secrecy: Secrecy,
): Promise<Record<string, string>> {
  const scope = scopeKind(guildId);
  // Under the exclusive lock, tried again whole from a new list after a failure (scopeWrites.ts).
  const written = await withExclusiveScopeList(rt, applicationId, guildId, async (write) => {
    const live = await freshScope(rt, write, applicationId, guildId);
    // The caps against this list, before the PUT (an update's check leaves them here).
    const managed = new Set(Object.values(managedIds));
    const over = scopeCapProblems(
      rt,
      applicationId,
      guildId,
      live,
      Object.values(declared),
      managed,
    );
    if (over.length > 0) throw new ConfigurationError(over.join("\n"));
    const bodies = Object.entries(declared).map(
      ([key, args]) => [key, wireBody(key, args, scope, secrecy)] as const,
    );
    const { list, keyAt, differs } = overwriteList(rt, live, bodies, managedIds);
    const put: PutResult[] | undefined = differs
      ? await overwriteScope(rt, write, applicationId, guildId, live, list)
      : undefined;
    return { list, keyAt, put };
  });
  const { list, keyAt, put } = written;
  const ids: Record<string, string> = {};
  if (put === undefined) {
    // The scope holds every command as declared already: adopted, no write.
    list.forEach((e, i) => {
      const key = keyAt[i];
      if (key !== undefined && e.id !== undefined) ids[key] = e.id;
    });
  } else {
    // With the lock let go: the fields the answer lost are restored one PATCH each.
    const answer = await finishOverwrite(rt, applicationId, guildId, list, put);
    answer.forEach((command, i) => {
      const key = keyAt[i];
      if (key !== undefined && command !== undefined) ids[key] = command.id;
      // No id in its place before the PUT: the service made a new command.
      if (command !== undefined && list[i]?.id === undefined)
        rt.deployment.commandCreated(command.id);
    });
  }
  for (const id of Object.values(ids)) rt.deployment.commandWritten(id);
  return ids;
}

/**
 * A scope's update from its old state to its new inputs (a `ScopeCommands`', or one scope
 * of a packed set's): per command when a few change, else one overwrite (scopeWritePlan.ts).
 * Answers the ids by key, and the creation times of the commands it deleted or renamed
 * (their creates stay counted for a day, dailyBudget.ts).
 */
export async function updateScope(
  rt: ProviderRuntime,
  olds: Bag,
  news: Bag,
): Promise<{ ids: Record<string, string>; replaced: number[] }> {
  const { applicationId, guildId } = rt.where(news);
  const changes = changesBetween(olds, news);
  const ids = { ...commandIds(olds) };
  const plan = planScopeWrite({
    creates: changes.filter((c) => c.kind === "create").length,
    edits: changes.filter((c) => c.kind === "edit").length,
    deletes: changes.filter((c) => c.kind === "delete").length,
  });
  let next: Record<string, string>;
  if (plan === "none") next = ids;
  else if (plan === "each") {
    await writeEach(rt, applicationId, guildId, changes, ids);
    next = ids;
  } else {
    const declared = definitions(news);
    next = await writeOverwrite(
      rt,
      applicationId,
      guildId,
      declared,
      commandIds(olds),
      secrecyOf(news),
    );
  }
  const kept = new Set(Object.values(next));
  const gone = Object.values(commandIds(olds)).filter((old) => !kept.has(old));
  return { ids: next, replaced: [...replacedCreatesOf(olds), ...createdAt(gone)] };
}

/** Deletes the commands a scope's state manages, but those another resource took over. */
export async function deleteScope(rt: ProviderRuntime, props: Bag): Promise<void> {
  const { applicationId, guildId } = rt.where(props);
  const ids = commandIds(props);
  const changes: Change[] = Object.entries(ids)
    .filter(([, id]) => !rt.deployment.isLiveCommand(id))
    .map(([key, id]) => ({ key, kind: "delete", id }));
  const plan = planScopeWrite({ creates: 0, edits: 0, deletes: changes.length });
  if (plan === "none") return;
  if (plan === "each") {
    await writeEach(rt, applicationId, guildId, changes, { ...ids });
    return;
  }
  await writeOverwrite(rt, applicationId, guildId, {}, ids, Secrecy.NONE);
}
