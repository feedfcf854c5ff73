/**
 * What the emulator keeps of a command: the canonical form of the one normalizer
 * (provider/schema), restricted to the fields the command's scope keeps (guild commands
 * have no `dm_permission`, `contexts` or `integration_types`), with the defaults only
 * the service knows filled in (a global command's `integration_types` default to the
 * application's installation contexts). Storing the canonical form makes "did anything
 * change?" (version bumps, drift) one comparison, and presenting it one table walk.
 */
import type { CanonicalCommand, CommandField } from "./schema";
import { canonicalCommand, COMMAND_FIELDS, diffCommandFields, neutralValue } from "./schema";

/** The identity of a stored command: what the service assigns. */
interface CommandIdentity {
  readonly id: string;
  readonly application_id: string;
  readonly guild_id?: string;
  readonly version: string;
}

/** The fields of a stored command that a body describes. */
export type CommandRecordFields = Readonly<CanonicalCommand>;

export type StoredCommand = CommandIdentity & CommandRecordFields;

export interface RecordScope {
  readonly guildId: string | undefined;
  /** The application's installation contexts (the default of `integration_types`). */
  readonly installationContexts: readonly number[];
}

/** The record of a body (validated or not) in a scope. */
export function commandRecord(body: object, scope: RecordScope): CommandRecordFields {
  const fields: Record<string, unknown> = { ...canonicalCommand(body) };
  const kept = scope.guildId === undefined ? "global" : "guild";
  for (const key of Object.keys(fields) as CommandField[]) {
    const spec = COMMAND_FIELDS[key];
    if (spec.canonical !== undefined && !(spec.keptIn as readonly string[]).includes(kept)) {
      fields[key] = neutralValue(spec);
    }
  }
  if (kept === "global" && fields["integration_types"] === null) {
    fields["integration_types"] = [...scope.installationContexts];
  }
  return fields as CommandRecordFields;
}

/** The described fields of a stored command (its identity left out). */
export function recordFields(c: StoredCommand): CommandRecordFields {
  const { id: _i, version: _v, application_id: _a, guild_id: _g, ...fields } = c;
  return fields;
}

/** The identity part of a stored command. */
export function identityOf(c: CommandIdentity): Omit<CommandIdentity, "version"> {
  return c.guild_id === undefined
    ? { id: c.id, application_id: c.application_id }
    : { id: c.id, application_id: c.application_id, guild_id: c.guild_id };
}

/**
 * The version a command gets when its fields become `next`: the same when nothing
 * substantial changed (the one comparison), a new one otherwise.
 */
export function nextVersion(
  existing: StoredCommand,
  next: CommandRecordFields,
  newVersion: () => string,
): string {
  return diffCommandFields(next, recordFields(existing)).length === 0
    ? existing.version
    : newVersion();
}
