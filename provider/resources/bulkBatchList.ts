/**
 * The list a bulk batch PUTs (bulkWriter.ts), built from the live scope as a list GET
 * under the scope's lock just answered it: a pure function of that list and the batch's
 * operations, run again on every try of the batch (a try that failed is tried again
 * whole, from a new list: scopeWrites.ts).
 *
 * Every live command the batch does not touch is carried unchanged; an update applies to
 * its live command (what a PATCH makes of it); a create is an upsert by (type, name), as
 * the POST is: it takes over a live command of its identity, or adds a new one; a delete
 * leaves its command out, except the entry point, which a PUT may not leave out (50240):
 * it is deleted on its own first. A delete of an id that a create or update of the batch
 * holds (names swapped) leaves nothing out: the original is gone already.
 */
import type { WireCommand, WireCommandBody } from "../client";
import { CANONICAL_COMMAND_FIELDS, CommandType, patchBody } from "../schema";
import { sameIdentity } from "./scopeOverwrite";

export type BulkOperation =
  | { readonly kind: "create"; readonly body: WireCommandBody }
  | { readonly kind: "update"; readonly id: string; readonly body: WireCommandBody }
  | { readonly kind: "delete"; readonly id: string };

/** An update of a command that is no longer in the live scope (deleted outside the stack). */
export class CommandGoneError extends Error {
  constructor(readonly commandId: string) {
    super(
      `command ${commandId} is not in its scope's live list (deleted outside the stack): ` +
        "run `pulumi refresh`, and the next `pulumi up` creates it again",
    );
    this.name = "CommandGoneError";
  }
}

/** One command of the list the PUT sends. */
export interface ListEntry<P> {
  /** The live id; undefined for a command the batch creates. */
  readonly id: string | undefined;
  /** The whole command the scope should hold (wire fields). */
  intended: Record<string, unknown>;
  /** The operations that resolve with this command. */
  readonly waiting: P[];
  /** For a create: it makes the command (rather than taking over another one by name). */
  created: boolean;
}

/** A delete or an update of one command, with its operation. */
export interface OfCommand<P> {
  readonly pending: P;
  readonly id: string;
}

export interface BatchList<P> {
  /** Every live command, then the new ones; `leftOut` tells which the PUT leaves out. */
  readonly entries: ListEntry<P>[];
  /** The ids the PUT deletes by leaving them out. */
  readonly leftOut: ReadonlySet<string>;
  /** Deletes of the entry point: a DELETE of its own each, before the PUT. */
  readonly entryPoints: OfCommand<P>[];
  /** Updates of commands the live list lacks (deleted outside the stack). */
  readonly gone: OfCommand<P>[];
  /** Every delete of the batch: each is done once the PUT answered (or nothing was left to write). */
  readonly deletes: P[];
}

/**
 * Builds the batch's list from `live`. `madeEarlier(id)`: the live command may be one an
 * earlier try's PUT made (it took effect, its answer was lost), so a create that takes it
 * over made it.
 */
export function buildBatchList<P extends { readonly op: BulkOperation }>(
  live: readonly WireCommand[],
  batch: readonly P[],
  madeEarlier: (id: string) => boolean,
): BatchList<P> {
  const entries: ListEntry<P>[] = live.map((c) => ({
    id: c.id,
    intended: { ...c },
    waiting: [],
    created: false,
  }));
  const byId = new Map(entries.map((e) => [e.id, e]));
  const deletes: P[] = [];
  const gone: OfCommand<P>[] = [];
  for (const p of batch) {
    const op = p.op;
    if (op.kind === "delete") {
      deletes.push(p);
    } else if (op.kind === "update") {
      const entry = byId.get(op.id);
      if (entry === undefined) {
        gone.push({ pending: p, id: op.id });
        continue;
      }
      entry.intended = { ...entry.intended, ...patchBody(op.body, CANONICAL_COMMAND_FIELDS) };
      entry.waiting.push(p);
    } else {
      const body = op.body as Record<string, unknown>;
      const same = entries.find((e) => sameIdentity(e.intended, body));
      if (same !== undefined && same.id !== undefined) {
        same.intended = { ...body };
        same.created = madeEarlier(same.id);
        same.waiting.push(p);
      } else {
        entries.push({ id: undefined, intended: { ...body }, waiting: [p], created: true });
      }
    }
  }
  const leftOut = new Set<string>();
  const entryPoints: OfCommand<P>[] = [];
  for (const p of deletes) {
    if (p.op.kind !== "delete") continue;
    const entry = byId.get(p.op.id);
    if (entry === undefined || entry.waiting.length > 0) continue;
    if (entry.intended["type"] === CommandType.PRIMARY_ENTRY_POINT) {
      entryPoints.push({ pending: p, id: p.op.id });
    } else {
      leftOut.add(p.op.id);
    }
  }
  return { entries, leftOut, entryPoints, gone, deletes };
}
