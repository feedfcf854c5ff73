/**
 * The numeric constants that programs in every language see as enums (the package
 * schema's enum types), with what each value means (spec: "Application Command Type",
 * "Option Type", "Entry Point Handler Type", "Interaction context types", "Installation
 * contexts", "Application Command Permissions"). The values are the constants themselves
 * (constants.ts); an enum's name is the constant's name.
 */
import {
  ChannelType,
  CommandType,
  EntryPointHandler,
  IntegrationType,
  InteractionContextType,
  OptionType,
  PermissionType,
} from "./constants";

export interface EnumDoc<T extends Readonly<Record<string, number>>> {
  readonly values: T;
  readonly description: string;
  /** Per value, where the spec says more than its name. */
  readonly valueDescriptions: { readonly [K in keyof T]?: string };
}

function enumDoc<T extends Readonly<Record<string, number>>>(doc: EnumDoc<T>): EnumDoc<T> {
  return doc;
}

export const ENUMS = {
  CommandType: enumDoc({
    values: CommandType,
    description: "The type of an application command.",
    valueDescriptions: {
      CHAT_INPUT: "A slash command.",
      USER: "A context menu command on a user.",
      MESSAGE: "A context menu command on a message.",
      PRIMARY_ENTRY_POINT: "The primary way to launch the app's Activity (global only).",
    },
  }),
  OptionType: enumDoc({
    values: OptionType,
    description: "The type of a command option.",
    valueDescriptions: {
      INTEGER: "An integer between -2^53+1 and 2^53-1.",
      CHANNEL: "Any channel type, categories included.",
      MENTIONABLE: "Users and roles.",
      NUMBER: "A double between -2^53 and 2^53.",
      ATTACHMENT: "An attachment.",
    },
  }),
  ChannelType: enumDoc({
    values: ChannelType,
    description: "A channel type, to restrict the channels a CHANNEL option shows.",
    valueDescriptions: {},
  }),
  InteractionContextType: enumDoc({
    values: InteractionContextType,
    description: "Where a command can be used.",
    valueDescriptions: {
      GUILD: "In guilds.",
      BOT_DM: "In DMs with the app. Guild commands do not support it.",
      PRIVATE_CHANNEL:
        "In group DMs and DMs other than the app's: meaningful only for commands installed to a user (`integrationTypes` includes USER_INSTALL).",
    },
  }),
  IntegrationType: enumDoc({
    values: IntegrationType,
    description: "An installation context: where the application is installed.",
    valueDescriptions: {
      GUILD_INSTALL: "Installed to a guild.",
      USER_INSTALL: "Installed to a user.",
    },
  }),
  EntryPointHandler: enumDoc({
    values: EntryPointHandler,
    description: "Who handles the launch of a PRIMARY_ENTRY_POINT command.",
    valueDescriptions: {
      APP_HANDLER:
        "The app handles the interaction with the interaction token: it may respond with the LAUNCH_ACTIVITY callback or take another action, such as a follow-up message.",
      DISCORD_LAUNCH_ACTIVITY:
        "The service launches the Activity and sends a message to the channel, without coordinating with the app.",
    },
  }),
  PermissionType: enumDoc({
    values: PermissionType,
    description: "What a permission overwrite's `id` names.",
    valueDescriptions: {
      ROLE: "A role; the guild's id is @everyone.",
      USER: "A user.",
      CHANNEL:
        "A channel, and the threads in it; the guild's id minus 1 is every channel of the guild.",
    },
  }),
} as const;

export type EnumName = keyof typeof ENUMS;
