/**
 * Which command fields a write endpoint and a command type take, and what the service does
 * with each: from the command table (fields.ts, `acceptedIn`, `tolerated`, `keptIn`,
 * `onlyFor`). Users: command.ts (the provider's checks), the emulator's rules
 * (emulator/rules/command.ts: what each endpoint keeps or drops, the type refusals) and
 * provider/resources/scopeOverwrite.ts (what a bulk body carries, and what it cannot).
 */
import { COMMAND_TYPE_NAMES } from "./constants";
import { COMMAND_FIELDS } from "./fields";
import type { Code } from "./issues";
import type { CommandFieldSpec, Tolerance, Where } from "./fieldSpec";
import type { CommandField, Scope } from "./shapes";

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

/**
 * What the service does with `field` in a body written at `where`: `keep` (applied),
 * `drop` (accepted and ignored, named in the emulator's warning header), or undefined (not
 * taken there). Kept where the spec or the service accepts it and the scope keeps it.
 */
export function endpointTreatment(field: CommandField, where: Where): "keep" | "drop" | undefined {
  const tolerance = toleratedIn(field, where);
  if (!acceptedIn(field, where) && tolerance === undefined) return undefined;
  const scope = where.slice(0, where.indexOf(":")) as Scope;
  const kept: readonly Scope[] = COMMAND_FIELDS[field].keptIn;
  return kept.includes(scope) && tolerance !== "ignored" ? "keep" : "drop";
}

/**
 * A value that sets nothing and is harmless on any command type: false, an empty list.
 * (null is the caller's to take as absent: the emulator does, as the document makes every
 * optional field nullable; the provider's shapes do not.)
 */
function isNeutral(value: unknown): boolean {
  return value === false || (Array.isArray(value) && value.length === 0);
}

/**
 * The refusal of `field` given `value` on a command of `type` (fields.ts `onlyFor`), or
 * undefined when the type takes it: the service's code and the one wording of the rule
 * ("handler may only be set on PRIMARY_ENTRY_POINT commands"), which the provider ends with
 * the type it got and the emulator with a full stop.
 */
export function typeRefusal(
  field: CommandField,
  type: number,
  value: unknown,
): { code: Code; rule: string } | undefined {
  const spec: Pick<CommandFieldSpec, "onlyFor" | "keptIn"> = COMMAND_FIELDS[field];
  const only = spec.onlyFor;
  if (only === undefined || only.types.includes(type) || isNeutral(value)) return undefined;
  const names = only.types.map((t) => COMMAND_TYPE_NAMES[t] ?? String(t)).join(" and ");
  return { code: only.code, rule: `${field} may only be set on ${names} commands` };
}
