/**
 * The one description of every field of a command, an option and a choice, beyond its
 * wire type (shapes.ts): where the service accepts it, its canonical value (what "no
 * change" means, defaults included), whether it is compared, what a PATCH sends when the
 * program no longer declares it, in which scope the service keeps it, and how the
 * service presents it. Each table must name exactly the keys of its shape (checked by
 * the compiler through `satisfies`), so a field added to the service is added here once
 * and cannot slip out of validation, diff, drift, PATCH or the emulator.
 *
 * Users of these tables: command.ts (acceptance per endpoint), normalize.ts (canonical
 * form, field diff, PATCH body), mapping.ts (SDK keys, child levels), the emulator's
 * store and presenter, and the package schema (provider/package: the descriptions).
 */
import type {
  ChoiceField,
  CommandField,
  OptionField,
  ReturnedCommandField,
  Scope,
  WriteMode,
} from "./shapes";
import { isRecord } from "./issues";
import { InteractionContextType } from "./constants";

const BOT_DM: number = InteractionContextType.BOT_DM;

/** A write endpoint: the scope and the kind of write. */
export type Where = `${Scope}:${WriteMode}`;

type Raw = Record<string, unknown>;

/**
 * How the service presents a field in a returned object:
 * - `always`: every object carries it;
 * - `unlessNeutral`: left out when it holds its neutral value (false, [], null: the
 *   service omits empty and false fields);
 * - `localizations`: the dictionary (when not empty), or on list endpoints without
 *   `with_localizations` the one value for the requester's locale (`<base>_localized`);
 * - `globalOnly`: carried by global commands only (guild commands have no such field).
 */
export type Presence = "always" | "unlessNeutral" | "localizations" | "globalOnly";

export interface FieldSpec<C = unknown> {
  /**
   * What the field means, for people who write programs (the package schema and the
   * reference generated from it): from the spec's field tables, other fields named by
   * their SDK (camelCase) names.
   */
  readonly description: string;
  /** For fields the service deprecates: what to use instead (SDKs warn when it is set). */
  readonly deprecated?: string;
  /** The canonical value, given the field's raw value and the whole raw object. */
  readonly canonical: (value: unknown, whole: Raw) => C;
  /**
   * `always`; or `whenDeclared` for fields whose default the service fills from the
   * application's settings, which the provider cannot know: left undeclared, the live
   * value is the service's to manage, neither compared nor restored.
   */
  readonly compared: "always" | "whenDeclared";
  readonly presence: Presence;
  /** For `localizations`: the field it localizes. */
  readonly localizes?: "name" | "description";
  /** For lists of nested objects: the level of the items. */
  readonly children?: "option" | "choice";
}

/**
 * What the real service does with a field in a body where the spec's table leaves it
 * blank, when real clients are known to send it there (evidence: emulator/README.md,
 * "Fields the spec leaves blank"): `kept`, it is accepted and applied; `ignored`, it is
 * accepted and dropped. The provider's checks stay with the spec (`acceptedIn`), so a
 * program never declares a field the service would drop; the emulator accepts it; and the
 * bulk writer carries a `kept` field in the list it builds (`carriedIn`), so that a
 * command the batch does not touch keeps it without a second write.
 */
export type Tolerance = "kept" | "ignored";

export interface CommandFieldSpec<C = unknown> extends FieldSpec<C> {
  /** The write endpoints whose body accepts the field (spec: "Body fields per write endpoint"). */
  readonly acceptedIn: readonly Where[];
  /** Endpoints outside `acceptedIn` where the service tolerates the field (emulator only). */
  readonly tolerated?: Readonly<Partial<Record<Where, Tolerance>>>;
  /**
   * What a PATCH sends when the program no longer declares the field (the service keeps
   * any field a PATCH leaves out); `undefined`: never sent in a PATCH (a change of it is
   * a replacement, or the field is always declared).
   */
  readonly reset: unknown;
  /** The scopes whose commands keep the field (the service drops it elsewhere). */
  readonly keptIn: readonly Scope[];
}

// ---- canonical values --------------------------------------------------------------

function text(v: unknown): string {
  return typeof v === "string" ? v : "";
}

export function canonicalNumber(v: unknown): number | null {
  if (typeof v === "number") return v === 0 ? 0 : v; // -0 -> 0
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  return null;
}

const flag =
  (fallback: boolean) =>
  (v: unknown): boolean =>
    typeof v === "boolean" ? v : fallback;

/** Localized values: sorted keys, values equal to the default dropped (the service ignores them). */
function localized(of: "name" | "description") {
  return (v: unknown, whole: Raw): Record<string, string> => {
    const out: Record<string, string> = {};
    if (!isRecord(v)) return out;
    const defaultValue = text(whole[of]);
    for (const key of Object.keys(v).sort()) {
      const value = v[key];
      if (typeof value === "string" && value !== defaultValue) out[key] = value;
    }
    return out;
  };
}

/** A set of numbers: sorted, deduplicated. */
function numberSet(v: unknown): number[] {
  if (!Array.isArray(v)) return [];
  const set = new Set<number>();
  for (const x of v) {
    const n = canonicalNumber(x);
    if (n !== null) set.add(n);
  }
  return [...set].sort((a, b) => a - b);
}

/** A set, or null when absent: absent means "the application's defaults", not "none". */
function numberSetOrNull(v: unknown): number[] | null {
  return v === undefined || v === null ? null : numberSet(v);
}

/** Decimal permission bits lose leading zeros ("032" = "32"); null and "0" differ. */
function permissionBits(v: unknown): string | null {
  if (typeof v !== "string") return null;
  return /^\d+$/.test(v) ? BigInt(v).toString() : v;
}

/** The deprecated dm_permission: follows `contexts` when they are a list (see COMMAND_FIELDS). */
function dmPermission(v: unknown, whole: Raw): boolean {
  const contexts = whole["contexts"];
  if (Array.isArray(contexts)) return contexts.some((c) => canonicalNumber(c) === BOT_DM);
  return typeof v === "boolean" ? v : true;
}

function typeOr(fallback: number) {
  return (v: unknown): number => canonicalNumber(v) ?? fallback;
}

function choiceValue(v: unknown): string | number {
  return typeof v === "number" ? (v === 0 ? 0 : v) : text(v);
}

function listOf<T>(f: (x: Raw) => T) {
  return (v: unknown): T[] => (Array.isArray(v) ? v.filter(isRecord).map(f) : []);
}

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
const BOTH: readonly Scope[] = ["global", "guild"];
const GLOBAL: readonly Scope[] = ["global"];

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
  /** Only in bulk bodies, to match an existing command; it identifies, it does not describe. */
  id: {
    description: "The command's unique id, assigned by the service.",
    canonical: undefined,
    compared: "always",
    presence: "always",
    acceptedIn: BULK,
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

type AnySpec = { readonly canonical: ((v: unknown, whole: Raw) => unknown) | undefined };

/** The canonical form a table describes: one key per field that has a canonical value. */
export type CanonicalOf<T> = {
  -readonly [
    K in keyof T as T[K] extends { canonical: (...args: never[]) => unknown } ? K : never
  ]: T[K] extends { canonical: (...args: never[]) => infer C } ? C : never;
};

export type CanonicalCommand = CanonicalOf<typeof COMMAND_FIELDS>;
export type CanonicalCommandField = keyof CanonicalCommand;

/** The canonical form of a raw object at one level (commands, options or choices). */
export function canonicalOf(table: Readonly<Record<string, AnySpec>>, raw: Raw): Raw {
  const out: Raw = {};
  for (const [key, spec] of Object.entries(table)) {
    if (spec.canonical !== undefined) out[key] = spec.canonical(raw[key], raw);
  }
  return out;
}

/** The value a field holds when it is not given: what the service omits when presenting. */
export function neutralValue(
  spec: AnySpec & { canonical: (v: unknown, w: Raw) => unknown },
): unknown {
  return spec.canonical(undefined, {});
}

/** The fields of the canonical command form, in table order. */
export const CANONICAL_COMMAND_FIELDS = (Object.keys(COMMAND_FIELDS) as CommandField[]).filter(
  (k): k is CanonicalCommandField => COMMAND_FIELDS[k].canonical !== undefined,
);

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
 * The fields of a body that the service accepts at `where` and then drops: tolerated as
 * `ignored`, or accepted but not kept by commands of that scope (guild commands keep no
 * `contexts`). What the emulator names in its `X-Emulator-Warning` header.
 */
export function ignoredFields(
  body: Readonly<Record<string, unknown>>,
  where: Where,
): CommandField[] {
  const scope = where.split(":")[0] as Scope;
  return (Object.keys(COMMAND_FIELDS) as CommandField[]).filter((field) => {
    if (body[field] === undefined) return false;
    if (toleratedIn(field, where) === "ignored") return true;
    const kept: readonly Scope[] = COMMAND_FIELDS[field].keptIn;
    return acceptedIn(field, where) && !kept.includes(scope);
  });
}
