/**
 * The daily create budget across deployments, as a pure function of what is known and of
 * the time (injected): the service allows 200 command creates per scope in any 24 hours
 * (code 30034), and one deployment alone can never reach that in a guild (at most 131
 * commands), but a day of deployments can: each rename is a create.
 *
 * What counts, each a creation time on the service's clock:
 * - the live commands of the scope (any writer's): a command's id is a snowflake, which
 *   holds the millisecond the service created it;
 * - the commands this stack created and has since deleted or renamed: the provider keeps
 *   their creation times in the state of the resource that replaced or removed them
 *   (`replacedCreates`, pruned to the window at each write);
 * - the creates this deployment plans.
 * Not knowable: the creates of commands that others created and deleted since, and of
 * resources removed from the stack (their state is gone).
 */
import { isSnowflake, snowflakeTime } from "../schema";

export const DAY_MS = 24 * 60 * 60 * 1000;
/** From this share of the budget on, a preview warns. */
export const WARN_SHARE = 0.8;

/** The output that keeps the creation times of a resource's deleted or renamed commands. */
export const REPLACED_CREATES_KEY = "replacedCreates";

/** The creation times of commands by their ids (snowflakes); other ids are skipped. */
export function createdAt(ids: Iterable<string>): number[] {
  return [...ids].filter(isSnowflake).map(snowflakeTime);
}

/** The times within the 24 hours before `now`, oldest first (what state keeps). */
export function withinWindow(times: readonly number[], now: number): number[] {
  return times.filter((t) => Number.isFinite(t) && t > now - DAY_MS).sort((a, b) => a - b);
}

/** The creation times a bag keeps (`replacedCreates`), or []. */
export function replacedCreatesOf(bag: Readonly<Record<string, unknown>>): number[] {
  const v = bag[REPLACED_CREATES_KEY];
  return Array.isArray(v) ? v.filter((t): t is number => typeof t === "number") : [];
}

export interface BudgetFacts {
  /** The service's time now, in milliseconds. */
  readonly now: number;
  /** Creation times of the scope's live commands. */
  readonly live: readonly number[];
  /** Creation times of the stack's deleted or renamed commands (from state). */
  readonly replaced: readonly number[];
  /** Creates this deployment plans in the scope. */
  readonly planned: number;
  /** Creates allowed per scope in 24 hours. */
  readonly limit: number;
}

export interface BudgetVerdict {
  readonly level: "ok" | "warn" | "over";
  /** Live commands created within the window. */
  readonly live: number;
  /** Deleted or renamed commands created within the window. */
  readonly replaced: number;
  readonly planned: number;
  readonly total: number;
  readonly limit: number;
  /** When the oldest counted create leaves the window (ms); undefined when none counted. */
  readonly oldestLeavesAt: number | undefined;
}

export function judgeDailyBudget(f: BudgetFacts): BudgetVerdict {
  const live = withinWindow(f.live, f.now);
  const replaced = withinWindow(f.replaced, f.now);
  const total = live.length + replaced.length + f.planned;
  const oldest = Math.min(...live, ...replaced);
  const level = total > f.limit ? "over" : total >= f.limit * WARN_SHARE ? "warn" : "ok";
  return {
    level,
    live: live.length,
    replaced: replaced.length,
    planned: f.planned,
    total,
    limit: f.limit,
    oldestLeavesAt: Number.isFinite(oldest) ? oldest + DAY_MS : undefined,
  };
}

/** The verdict in words, for `where` (scopeName.ts): a failure or a warning. */
export function budgetMessage(where: string, v: BudgetVerdict): string {
  const counted =
    `${v.live} live commands created in the last 24 hours, ${v.replaced} created by this ` +
    `stack and since deleted or renamed, and ${v.planned} this deployment creates`;
  const leaves =
    v.oldestLeavesAt === undefined
      ? ""
      : ` The oldest counted create leaves the 24-hour window at ${new Date(v.oldestLeavesAt).toISOString()}.`;
  const unknowable =
    " Creates by others of commands since deleted cannot be known, so the service may count more.";
  if (v.level === "over") {
    return (
      `${where}: ${v.total} command creates in 24 hours, more than the service's daily ` +
      `budget of ${v.limit} (code 30034): ${counted}.${leaves}${unknowable} ` +
      "Create fewer (renames are creates), or wait"
    );
  }
  return (
    `${where}: ${v.total} of the daily budget of ${v.limit} command creates would be spent ` +
    `in 24 hours: ${counted}.${leaves}${unknowable}`
  );
}

/** The `replacedCreates` output of a resource: the times within the window, or nothing. */
export function replacedCreatesField(
  times: readonly number[],
  now: number,
): { [REPLACED_CREATES_KEY]?: number[] } {
  const kept = withinWindow(times, now);
  return kept.length === 0 ? {} : { [REPLACED_CREATES_KEY]: kept };
}
