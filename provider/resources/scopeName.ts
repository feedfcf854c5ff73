import type { Scope } from "../schema";

/** The kind of scope a guild id names: a guild's, or (none) the application's global one. */
export function scopeKind(guildId: string | undefined): Scope {
  return guildId === undefined ? "global" : "guild";
}

/**
 * How every message names a scope, in one wording: `the global scope of application A`,
 * `guild G of application A`; without an application (a command set's scope that takes the
 * provider's), `the global scope`, `guild G`. It prints the ids it is given: a resource's
 * check refuses secret ids, and a description of a resource's props masks them first.
 */
export function scopeName(applicationId: string | undefined, guildId: string | undefined): string {
  const where = guildId === undefined ? "the global scope" : `guild ${guildId}`;
  return applicationId === undefined ? where : `${where} of application ${applicationId}`;
}
