/**
 * The one description of every field of a command, an option and a choice, beyond its
 * wire type (shapes.ts): a table per level, a row per field (what a row says is in
 * fieldSpec.ts): where the service accepts it, its canonical value (canonicalValues.ts:
 * what "no change" means, defaults included), whether it is compared, what a PATCH sends
 * when the program no longer declares it, in which scope the service keeps it, and how the
 * service presents it. Each table must name exactly the keys of its shape (checked by
 * the compiler through `satisfies`), so a field added to the service is added here once
 * and cannot slip out of validation, diff, drift or PATCH. The emulator stores and presents
 * it from these tables and keeps or drops it per endpoint by them; it checks the value by
 * its own rules (emulator/rules/command.ts), and a field they do not keep fails
 * test/emulator/fieldKeeping.test.ts.
 *
 * Users of these tables: endpointFields.ts (acceptance per endpoint and command type: the
 * provider's checks, command.ts, and the emulator's rules, emulator/rules/command.ts, both
 * read it), normalize.ts
 * (canonical form, field diff, PATCH body), mapping.ts (SDK keys, child levels), the
 * emulator's store and presenter, and the package schema (provider/package: the
 * descriptions).
 */
import type { ChoiceField, CommandField, OptionField, ReturnedCommandField, Scope } from "./shapes";
import type { CanonicalOf, CommandFieldSpec, FieldSpec, Where } from "./fieldSpec";
import { canonicalOf } from "./fieldSpec";
import { CommandType } from "./constants";
import { Codes } from "./issues";
import {
  canonicalNumber,
  choiceValue,
  dmPermission,
  flag,
  listOf,
  localized,
  numberSet,
  numberSetOrNull,
  permissionBits,
  text,
  typeOr,
} from "./canonicalValues";

// ---- the tables ----------------------------------------------------------------------

const ALL: readonly Where[] = [
  "global:create",
  "global:edit",
  "global:bulk",
  "guild:create",
  "guild:edit",
  "guild:bulk",
];
const NOT_EDIT = ALL.filter((w) => !w.endsWith(":edit"));
const BULK: readonly Where[] = ["global:bulk", "guild:bulk"];
/** Global writes and the guild bulk body (whose table marks them, with stated defaults). */
const GLOBAL_AND_GUILD_BULK: readonly Where[] = [
  "global:create",
  "global:edit",
  "global:bulk",
  "guild:bulk",
];
/**
 * Guild create and edit: blank in the spec's table for the global-only fields; the
 * service's OpenAPI description accepts them there and guild commands do not keep them
 * (a discord.js builder reused for a test guild sends `integration_types`/`contexts`).
 */
const GUILD_WRITES_IGNORE = { "guild:create": "ignored", "guild:edit": "ignored" } as const;
const BOTH = ["global", "guild"] as const satisfies readonly Scope[];
/** Literal, so that the SDK's guild command arguments leave these fields out (mapping.ts). */
const GLOBAL = ["global"] as const satisfies readonly Scope[];

export const CHOICE_FIELDS = {
  name: {
    description: "The choice's name, shown to users: 1-100 characters.",
    canonical: text,
    compared: "always",
    presence: "always",
  },
  name_localizations: {
    description: "Localized names, keyed by locale; values follow the same rules as `name`.",
    canonical: localized("name"),
    compared: "always",
    presence: "localizations",
    localizes: "name",
  },
  value: {
    description:
      "The value the app receives: a string of up to 100 characters for a STRING option, an integer for an INTEGER option, a double for a NUMBER option.",
    canonical: choiceValue,
    compared: "always",
    presence: "always",
  },
} as const satisfies Record<ChoiceField, FieldSpec>;

export type CanonicalChoice = CanonicalOf<typeof CHOICE_FIELDS>;

/** An option in canonical form (an interface, because options nest). */
export interface CanonicalOption extends CanonicalOf<Omit<typeof OPTION_FIELDS, "options">> {
  options: CanonicalOption[];
}

function canonicalChoiceList(v: unknown): CanonicalChoice[] {
  return listOf((c) => canonicalOf(CHOICE_FIELDS, c) as CanonicalChoice)(v);
}

function canonicalOptionList(v: unknown): CanonicalOption[] {
  return listOf((o) => canonicalOf(OPTION_FIELDS, o) as unknown as CanonicalOption)(v);
}

const number = {
  canonical: canonicalNumber,
  compared: "always",
  presence: "unlessNeutral",
} as const;

export const OPTION_FIELDS = {
  type: {
    description: "The option's type.",
    canonical: typeOr(0),
    compared: "always",
    presence: "always",
  },
  name: {
    description:
      "1-32 characters, by the rules of CHAT_INPUT command names (lowercase where a letter has a lowercase form); unique within its list of options.",
    canonical: text,
    compared: "always",
    presence: "always",
  },
  name_localizations: {
    description:
      "Localized names, keyed by locale; values follow the same rules as `name`, and differ from the other names of the same list.",
    canonical: localized("name"),
    compared: "always",
    presence: "localizations",
    localizes: "name",
  },
  description: {
    description: "1-100 characters.",
    canonical: text,
    compared: "always",
    presence: "always",
  },
  description_localizations: {
    description:
      "Localized descriptions, keyed by locale; values follow the same rules as `description`.",
    canonical: localized("description"),
    compared: "always",
    presence: "localizations",
    localizes: "description",
  },
  required: {
    description:
      "Whether users must fill the option in (default false); required options come before optional ones. Not for SUB_COMMAND and SUB_COMMAND_GROUP.",
    canonical: flag(false),
    compared: "always",
    presence: "unlessNeutral",
  },
  choices: {
    description:
      "At most 25; when present, they are the only valid values. STRING, INTEGER and NUMBER options only.",
    canonical: canonicalChoiceList,
    compared: "always",
    presence: "unlessNeutral",
    children: "choice",
  },
  options: {
    description:
      "The parameters of a SUB_COMMAND, or the subcommands of a SUB_COMMAND_GROUP; at most 25. Nesting is one level deep: groups hold subcommands, subcommands hold plain options.",
    canonical: canonicalOptionList,
    compared: "always",
    presence: "unlessNeutral",
    children: "option",
  },
  channel_types: {
    description: "Restricts the channels shown to these types. CHANNEL options only.",
    canonical: numberSet,
    compared: "always",
    presence: "unlessNeutral",
  },
  min_value: {
    ...number,
    description:
      "The minimum permitted value: an integer for an INTEGER option, a double for a NUMBER option.",
  },
  max_value: {
    ...number,
    description:
      "The maximum permitted value: an integer for an INTEGER option, a double for a NUMBER option.",
  },
  min_length: {
    ...number,
    description: "The minimum permitted length, 0 to 6000. STRING options only.",
  },
  max_length: {
    ...number,
    description: "The maximum permitted length, 1 to 6000. STRING options only.",
  },
  autocomplete: {
    description:
      "Sends autocomplete interactions while the user types (STRING, INTEGER and NUMBER options); may not be true when `choices` are present. Users may then enter values the app did not suggest.",
    canonical: flag(false),
    compared: "always",
    presence: "unlessNeutral",
  },
} as const satisfies Record<OptionField, FieldSpec>;

export const COMMAND_FIELDS = {
  /**
   * Only in bulk bodies, to match an existing command; it identifies, it does not describe.
   * Create and edit: absent from the document's bodies; the service ignores it.
   */
  id: {
    description: "The command's unique id, assigned by the service.",
    canonical: undefined,
    compared: "always",
    presence: "always",
    acceptedIn: BULK,
    tolerated: {
      "global:create": "ignored",
      "global:edit": "ignored",
      "guild:create": "ignored",
      "guild:edit": "ignored",
    },
    reset: undefined,
    keptIn: BOTH,
  },
  /** Edit: discord.js's `edit()` with a builder body sends it; the service ignores it. */
  type: {
    description:
      "The command's type: CHAT_INPUT (1, the default), USER (2), MESSAGE (3) or PRIMARY_ENTRY_POINT (4, global only).",
    canonical: typeOr(1),
    compared: "always",
    presence: "always",
    acceptedIn: NOT_EDIT,
    tolerated: { "global:edit": "ignored", "guild:edit": "ignored" },
    reset: undefined,
    keptIn: BOTH,
  },
  name: {
    description:
      "1-32 characters. CHAT_INPUT names match `^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$` (unicode) in lowercase where a letter has a lowercase form; USER, MESSAGE and PRIMARY_ENTRY_POINT names may be mixed case and contain spaces.",
    canonical: text,
    compared: "always",
    presence: "always",
    acceptedIn: ALL,
    reset: undefined,
    keptIn: BOTH,
  },
  name_localizations: {
    description: "Localized names, keyed by locale; values follow the same rules as `name`.",
    canonical: localized("name"),
    compared: "always",
    presence: "localizations",
    localizes: "name",
    acceptedIn: ALL,
    reset: null,
    keptIn: BOTH,
  },
  /** "" for USER and MESSAGE, as the service returns it. */
  description: {
    description:
      "CHAT_INPUT and PRIMARY_ENTRY_POINT: 1-100 characters, required. USER and MESSAGE: none (the service returns an empty string).",
    canonical: text,
    compared: "always",
    presence: "always",
    acceptedIn: ALL,
    reset: "",
    keptIn: BOTH,
  },
  description_localizations: {
    description:
      "Localized descriptions, keyed by locale; values follow the same rules as `description`.",
    canonical: localized("description"),
    compared: "always",
    presence: "localizations",
    localizes: "description",
    acceptedIn: ALL,
    reset: null,
    keptIn: BOTH,
  },
  options: {
    description:
      "The parameters, subcommands or subcommand groups of a CHAT_INPUT command (only CHAT_INPUT commands have options); at most 25.",
    canonical: canonicalOptionList,
    compared: "always",
    presence: "unlessNeutral",
    children: "option",
    acceptedIn: ALL,
    reset: [],
    keptIn: BOTH,
    onlyFor: { types: [CommandType.CHAT_INPUT], code: Codes.CONTEXT_MENU_OPTIONS },
  },
  /** Always present on the wire (string or null). */
  default_member_permissions: {
    description:
      'The permissions a member needs to use the command, unless an overwrite says otherwise: a bit set as a decimal string (the bitwise OR of permission bits, e.g. MANAGE_GUILD, `1 << 5`, is "32"). "0" forbids everyone in a guild except admins and those with a specific overwrite.',
    canonical: permissionBits,
    compared: "always",
    presence: "always",
    acceptedIn: ALL,
    reset: null,
    keptIn: BOTH,
  },
  /**
   * Deprecated; documented default true (visible in DMs). When `contexts` are set, the
   * service derives it from them: true exactly when BOT_DM (1) is among them (slash-create
   * computes the same to compare; a program that declares both sees no false diff).
   */
  dm_permission: {
    description:
      "Whether the command is available in DMs with the app (default true). Global commands only.",
    deprecated: "Deprecated by the service: use contexts (BOT_DM allows DMs with the app).",
    canonical: dmPermission,
    compared: "always",
    presence: "globalOnly",
    acceptedIn: GLOBAL_AND_GUILD_BULK,
    tolerated: GUILD_WRITES_IGNORE,
    reset: true,
    keptIn: GLOBAL,
  },
  /** Deprecated; documented default true. */
  default_permission: {
    description:
      "Whether the command is enabled by default when the app is added to a guild (default true).",
    deprecated:
      'Deprecated by the service: use defaultMemberPermissions ("0" disables the command for everyone but admins).',
    canonical: flag(true),
    compared: "always",
    presence: "unlessNeutral",
    acceptedIn: ALL,
    reset: true,
    keptIn: BOTH,
  },
  /**
   * Guild bulk: blank in the spec's table, so a program cannot declare it for one; the
   * service keeps it (slash-create sends `nsfw` in every guild bulk overwrite), so the
   * bulk writer carries it.
   */
  nsfw: {
    description: "Marks the command age-restricted. Default false.",
    canonical: flag(false),
    compared: "always",
    presence: "always",
    acceptedIn: ALL.filter((w) => w !== "guild:bulk"),
    tolerated: { "guild:bulk": "kept" },
    reset: false,
    keptIn: BOTH,
  },
  /** Defaults to the application's installation contexts, which only the service knows. */
  integration_types: {
    description:
      "The installation contexts where the command is available; global commands only. Only contexts the application supports; left undeclared, the application's configured contexts apply and are not compared.",
    canonical: numberSetOrNull,
    compared: "whenDeclared",
    presence: "globalOnly",
    acceptedIn: GLOBAL_AND_GUILD_BULK,
    tolerated: GUILD_WRITES_IGNORE,
    reset: undefined,
    keptIn: GLOBAL,
  },
  contexts: {
    description:
      "Where the command can be used; global commands only (BOT_DM allows DMs with the app).",
    canonical: numberSetOrNull,
    compared: "always",
    presence: "globalOnly",
    acceptedIn: GLOBAL_AND_GUILD_BULK,
    tolerated: GUILD_WRITES_IGNORE,
    reset: null,
    keptIn: GLOBAL,
  },
  /** PRIMARY_ENTRY_POINT only. */
  handler: {
    description:
      "Who handles the launch of a PRIMARY_ENTRY_POINT command (only those; only for apps with an Activity).",
    canonical: canonicalNumber,
    compared: "always",
    presence: "unlessNeutral",
    acceptedIn: ALL,
    reset: null,
    keptIn: BOTH,
    onlyFor: { types: [CommandType.PRIMARY_ENTRY_POINT], code: Codes.HANDLER_NOT_ALLOWED },
  },
} as const satisfies Record<
  CommandField,
  CommandFieldSpec | (Omit<CommandFieldSpec, "canonical"> & { canonical: undefined })
>;

/**
 * The fields the service adds to a command it returns (spec: "Application Command"),
 * beyond the body's: what they mean.
 */
export const RETURNED_COMMAND_FIELD_DESCRIPTIONS = {
  application_id: "The application that owns the command.",
  guild_id: "The guild whose scope holds the command (guild commands only).",
  version:
    "The command's version, an id the service renews whenever it records a substantial change of the command.",
} as const satisfies Record<Exclude<ReturnedCommandField, CommandField>, string>;

// ---- derived -------------------------------------------------------------------------

export type CanonicalCommand = CanonicalOf<typeof COMMAND_FIELDS>;
export type CanonicalCommandField = keyof CanonicalCommand;

/** The fields of the canonical command form, in table order. */
export const CANONICAL_COMMAND_FIELDS = (Object.keys(COMMAND_FIELDS) as CommandField[]).filter(
  (k): k is CanonicalCommandField => COMMAND_FIELDS[k].canonical !== undefined,
);
