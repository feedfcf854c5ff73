/**
 * Snowflakes: ids serialized as decimal strings. The service's are 17-20 digits; any 1-20
 * digit decimal that fits in an unsigned 64-bit integer is accepted.
 */
import { z } from "zod";
import type { IssueCollector, Path } from "./issues";
import { Codes } from "./issues";

const UINT64_MAX = (1n << 64n) - 1n;
/** The textual form of a snowflake; `isSnowflake` also checks the 64-bit range. */
export const SNOWFLAKE_PATTERN = /^\d{1,20}$/;

export function isSnowflake(v: unknown): v is string {
  return typeof v === "string" && SNOWFLAKE_PATTERN.test(v) && BigInt(v) <= UINT64_MAX;
}

/**
 * The service's epoch, 2015-01-01T00:00:00.000Z, in milliseconds: a snowflake is
 * `((ms - epoch) << 22) | worker, process and increment bits`.
 */
export const SERVICE_EPOCH_MS = 1420070400000;

/** The creation time (ms since the Unix epoch) a snowflake carries. */
export function snowflakeTime(id: string): number {
  return Number(BigInt(id) >> 22n) + SERVICE_EPOCH_MS;
}

/**
 * The one wording of the snowflake rule, for every check of an id (command bodies, the ids
 * that say where a resource lives, a CommandSet's scopes, import ids on the command line):
 * `subject` names the value ("Value \"12x\"", "guildId").
 */
export function notSnowflake(subject: string): string {
  return `${subject} is not a snowflake (a decimal id of at most 20 digits)`;
}

export const snowflakeSchema = z.string().refine(isSnowflake, {
  params: { code: Codes.NUMBER_COERCE, message: `${notSnowflake("Value")}.` },
});

export function checkSnowflake(out: IssueCollector, v: unknown, path: Path): v is string {
  if (!isSnowflake(v)) {
    out.add(path, Codes.NUMBER_COERCE, `${notSnowflake(`Value ${out.quote(v, path)}`)}.`);
    return false;
  }
  return true;
}

function requireSnowflake(guildId: string): bigint {
  if (!isSnowflake(guildId)) throw new RangeError(notSnowflake(`"${guildId}"`));
  return BigInt(guildId);
}

/** The @everyone constant of a guild for permission overwrites: the guild id itself. */
export function everyone(guildId: string): string {
  return requireSnowflake(guildId).toString();
}

/** The "All Channels" constant of a guild for permission overwrites: guild id minus 1. */
export function allChannels(guildId: string): string {
  const id = requireSnowflake(guildId);
  if (id === 0n) throw new RangeError("guild id 0 has no All Channels constant");
  return (id - 1n).toString();
}
