/**
 * How `ScopeCommands` writes a change of its scope: a pure function of the change's size.
 *
 * One request per change (PATCH of the changed fields, POST, DELETE) touches only the
 * commands the resource manages, so it can never drop another writer's command. A bulk
 * overwrite costs a list GET (its list must be fresh) and one PUT whatever it carries, and
 * only the PUT counts against the scope's write limit (about 5 per 20 s for creates, per
 * scope), so past two changes it is the cheaper write: 100 new commands are 2 requests
 * instead of 100 rate-limited POSTs. At two or fewer (a definition changed, a rename: a
 * DELETE and a POST) the requests cost no more than the overwrite would.
 */
export type ScopeWrite = "none" | "each" | "overwrite";

export interface ScopeChangeCounts {
  readonly creates: number;
  readonly edits: number;
  readonly deletes: number;
}

/** Changes up to this many go one request each. */
export const MAX_REQUESTS_EACH = 2;

export function planScopeWrite(counts: ScopeChangeCounts): ScopeWrite {
  const total = counts.creates + counts.edits + counts.deletes;
  if (total === 0) return "none";
  return total <= MAX_REQUESTS_EACH ? "each" : "overwrite";
}
