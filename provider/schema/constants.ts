/**
 * Typed constants of the application command service (spec: "Application Command Type",
 * "Option Type", "Entry Point Handler Type", "Interaction context types", "Installation
 * contexts", "Application Command Permissions"; numeric values the spec leaves out come
 * from the service's API documentation, discord-api-docs).
 *
 * Each constant is a frozen object of literal values, so `OptionType.STRING` has the type
 * `3` and the SDK's input types (derived from the schemas) accept exactly these values.
 */

export const CommandType = {
  CHAT_INPUT: 1,
  USER: 2,
  MESSAGE: 3,
  PRIMARY_ENTRY_POINT: 4,
} as const;
export type CommandType = (typeof CommandType)[keyof typeof CommandType];

export const OptionType = {
  SUB_COMMAND: 1,
  SUB_COMMAND_GROUP: 2,
  STRING: 3,
  INTEGER: 4,
  BOOLEAN: 5,
  USER: 6,
  CHANNEL: 7,
  ROLE: 8,
  MENTIONABLE: 9,
  NUMBER: 10,
  ATTACHMENT: 11,
} as const;
export type OptionType = (typeof OptionType)[keyof typeof OptionType];

export const InteractionContextType = {
  GUILD: 0,
  BOT_DM: 1,
  PRIVATE_CHANNEL: 2,
} as const;
export type InteractionContextType =
  (typeof InteractionContextType)[keyof typeof InteractionContextType];

export const IntegrationType = {
  GUILD_INSTALL: 0,
  USER_INSTALL: 1,
} as const;
export type IntegrationType = (typeof IntegrationType)[keyof typeof IntegrationType];

export const EntryPointHandler = {
  APP_HANDLER: 1,
  DISCORD_LAUNCH_ACTIVITY: 2,
} as const;
export type EntryPointHandler = (typeof EntryPointHandler)[keyof typeof EntryPointHandler];

export const ChannelType = {
  GUILD_TEXT: 0,
  DM: 1,
  GUILD_VOICE: 2,
  GROUP_DM: 3,
  GUILD_CATEGORY: 4,
  GUILD_ANNOUNCEMENT: 5,
  ANNOUNCEMENT_THREAD: 10,
  PUBLIC_THREAD: 11,
  PRIVATE_THREAD: 12,
  GUILD_STAGE_VOICE: 13,
  GUILD_DIRECTORY: 14,
  GUILD_FORUM: 15,
  GUILD_MEDIA: 16,
} as const;
export type ChannelType = (typeof ChannelType)[keyof typeof ChannelType];

export const PermissionType = {
  ROLE: 1,
  USER: 2,
  CHANNEL: 3,
} as const;
export type PermissionType = (typeof PermissionType)[keyof typeof PermissionType];

/** The values of a constant object, as a tuple usable by `z.literal([...])`. */
export function valuesOf<T extends Record<string, number>>(o: T): [T[keyof T], ...T[keyof T][]] {
  return Object.values(o) as [T[keyof T], ...T[keyof T][]];
}

/** The name of each value of a constant object (`1` -> `CHAT_INPUT`), for messages. */
function namesOf(o: Record<string, number>): Readonly<Record<number, string>> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [v, k]));
}

/** A command type's name (`CHAT_INPUT`), undefined for a value the service does not define. */
export const COMMAND_TYPE_NAMES = namesOf(CommandType);
/** An option type's name (`STRING`), undefined for a value the service does not define. */
export const OPTION_TYPE_NAMES = namesOf(OptionType);

export const COMMAND_TYPES = valuesOf(CommandType);
export const OPTION_TYPES = valuesOf(OptionType);
export const CONTEXT_TYPES = valuesOf(InteractionContextType);
export const INTEGRATION_TYPES = valuesOf(IntegrationType);
export const ENTRY_POINT_HANDLERS = valuesOf(EntryPointHandler);
export const CHANNEL_TYPES = valuesOf(ChannelType);
export const PERMISSION_TYPES = valuesOf(PermissionType);

/**
 * Permission bits (for `default_member_permissions`), as BigInt because the bit set has
 * outgrown 53 bits. Combine them with {@link permissions}.
 */
export const PermissionFlags = {
  CREATE_INSTANT_INVITE: 1n << 0n,
  KICK_MEMBERS: 1n << 1n,
  BAN_MEMBERS: 1n << 2n,
  ADMINISTRATOR: 1n << 3n,
  MANAGE_CHANNELS: 1n << 4n,
  MANAGE_GUILD: 1n << 5n,
  ADD_REACTIONS: 1n << 6n,
  VIEW_AUDIT_LOG: 1n << 7n,
  PRIORITY_SPEAKER: 1n << 8n,
  STREAM: 1n << 9n,
  VIEW_CHANNEL: 1n << 10n,
  SEND_MESSAGES: 1n << 11n,
  SEND_TTS_MESSAGES: 1n << 12n,
  MANAGE_MESSAGES: 1n << 13n,
  EMBED_LINKS: 1n << 14n,
  ATTACH_FILES: 1n << 15n,
  READ_MESSAGE_HISTORY: 1n << 16n,
  MENTION_EVERYONE: 1n << 17n,
  USE_EXTERNAL_EMOJIS: 1n << 18n,
  VIEW_GUILD_INSIGHTS: 1n << 19n,
  CONNECT: 1n << 20n,
  SPEAK: 1n << 21n,
  MUTE_MEMBERS: 1n << 22n,
  DEAFEN_MEMBERS: 1n << 23n,
  MOVE_MEMBERS: 1n << 24n,
  USE_VAD: 1n << 25n,
  CHANGE_NICKNAME: 1n << 26n,
  MANAGE_NICKNAMES: 1n << 27n,
  MANAGE_ROLES: 1n << 28n,
  MANAGE_WEBHOOKS: 1n << 29n,
  MANAGE_GUILD_EXPRESSIONS: 1n << 30n,
  USE_APPLICATION_COMMANDS: 1n << 31n,
  REQUEST_TO_SPEAK: 1n << 32n,
  MANAGE_EVENTS: 1n << 33n,
  MANAGE_THREADS: 1n << 34n,
  CREATE_PUBLIC_THREADS: 1n << 35n,
  CREATE_PRIVATE_THREADS: 1n << 36n,
  USE_EXTERNAL_STICKERS: 1n << 37n,
  SEND_MESSAGES_IN_THREADS: 1n << 38n,
  USE_EMBEDDED_ACTIVITIES: 1n << 39n,
  MODERATE_MEMBERS: 1n << 40n,
  VIEW_CREATOR_MONETIZATION_ANALYTICS: 1n << 41n,
  USE_SOUNDBOARD: 1n << 42n,
  CREATE_GUILD_EXPRESSIONS: 1n << 43n,
  CREATE_EVENTS: 1n << 44n,
  USE_EXTERNAL_SOUNDS: 1n << 45n,
  SEND_VOICE_MESSAGES: 1n << 46n,
  SEND_POLLS: 1n << 49n,
  USE_EXTERNAL_APPS: 1n << 50n,
} as const;
export type PermissionFlag = keyof typeof PermissionFlags;

/**
 * Builds a `default_member_permissions` value: the bitwise OR of the given bits as a
 * decimal string. `permissions()` is `"0"` (nobody but admins and explicit overwrites).
 */
export function permissions(...bits: bigint[]): string {
  let set = 0n;
  for (const bit of bits) {
    if (bit < 0n) throw new RangeError(`permission bit ${bit} is negative`);
    set |= bit;
  }
  return set.toString();
}

/**
 * The service's limits (spec: "Limits"): the one table. The schema's rules, the SDK's
 * program-wide checks, the client's messages and the emulator's enforcement all read it.
 */
export const Limits = {
  NAME_MIN: 1,
  NAME_MAX: 32,
  DESCRIPTION_MIN: 1,
  DESCRIPTION_MAX: 100,
  CHOICE_NAME_MIN: 1,
  CHOICE_NAME_MAX: 100,
  CHOICE_STRING_VALUE_MAX: 100,
  OPTIONS_MAX: 25,
  CHOICES_MAX: 25,
  MIN_LENGTH_MIN: 0,
  MIN_LENGTH_MAX: 6000,
  MAX_LENGTH_MIN: 1,
  MAX_LENGTH_MAX: 6000,
  INTEGER_MIN: -(2 ** 53) + 1,
  INTEGER_MAX: 2 ** 53 - 1,
  NUMBER_MIN: -(2 ** 53),
  NUMBER_MAX: 2 ** 53,
  COMMAND_SIZE_MAX: 8000,
  PERMISSION_OVERWRITES_MAX: 100,
  /** Command creates per scope (per guild; the global scope is counted the same way) per day. */
  DAILY_CREATES: 200,
  /** Commands per type and scope; a guild holds no PRIMARY_ENTRY_POINT at all. */
  COMMANDS_PER_SCOPE: {
    [CommandType.CHAT_INPUT]: { global: 100, guild: 100 },
    [CommandType.USER]: { global: 15, guild: 15 },
    [CommandType.MESSAGE]: { global: 15, guild: 15 },
    [CommandType.PRIMARY_ENTRY_POINT]: { global: 1, guild: 0 },
  },
} as const;

/** How many commands of `type` one scope may hold (0 for an unknown type). */
export function commandsPerScope(type: number, scope: "global" | "guild"): number {
  const entry = (
    Limits.COMMANDS_PER_SCOPE as Readonly<Record<number, { global: number; guild: number }>>
  )[type];
  return entry === undefined ? 0 : entry[scope];
}
