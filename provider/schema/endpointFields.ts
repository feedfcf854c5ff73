/**
 * Which command fields a write endpoint takes, and what the service does with each: from
 * the command table (fields.ts, `acceptedIn`, `tolerated`). Users: command.ts
 * (acceptance per endpoint) and provider/resources/scopeOverwrite.ts (what a bulk body
 * carries, and what it cannot).
 */
import { COMMAND_FIELDS } from "./fields";
import type { CommandFieldSpec, Tolerance, Where } from "./fieldSpec";
import type { CommandField } from "./shapes";

/** Whether the write endpoint `where` accepts `field` in its body (spec: the provider's rule). */
export function acceptedIn(field: CommandField, where: Where): boolean {
  const accepted: readonly Where[] = COMMAND_FIELDS[field].acceptedIn;
  return accepted.includes(where);
}

/**
 * Whether a body written at `where` should carry `field` to keep the command as it is:
 * accepted by the spec, or kept by the service where the spec leaves the cell blank.
 */
export function carriedIn(field: CommandField, where: Where): boolean {
  return acceptedIn(field, where) || toleratedIn(field, where) === "kept";
}

/** What the real service does with `field` at `where` where the spec leaves it blank. */
export function toleratedIn(field: CommandField, where: Where): Tolerance | undefined {
  const spec: Pick<CommandFieldSpec, "acceptedIn" | "tolerated"> = COMMAND_FIELDS[field];
  return spec.tolerated?.[where];
}
