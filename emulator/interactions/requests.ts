/**
 * The bodies of the interaction control endpoints (`/__emulator/interactions*`) and of
 * `emu.invoke / autocomplete / canUse`: what a user does in a client, named in the
 * service's terms (zod; the same schemas check HTTP bodies and calls in code).
 */
import { z } from "zod";
import { COMMAND_TYPES, InteractionContextType, SNOWFLAKE_PATTERN } from "../schema";

const snowflake = z.string().regex(SNOWFLAKE_PATTERN, "a snowflake: a decimal string");

/** An ATTACHMENT option's value: a file name, or a described file. */
const AttachmentValue = z.strictObject({
  filename: z.string().min(1),
  size: z.number().int().min(0).default(0),
  contentType: z.string().optional(),
});

export const OptionValue = z.union([z.string(), z.number(), z.boolean(), AttachmentValue]);
export type OptionValue = z.infer<typeof OptionValue>;

/** Who uses which command where. */
const Target = z.strictObject({
  /** Default: the first configured application. */
  applicationId: snowflake.optional(),
  /** Absent: outside guilds (a DM with the app, or a group DM: see `context`). */
  guildId: snowflake.optional(),
  channelId: snowflake,
  userId: snowflake,
  commandId: snowflake.optional(),
  /** The command's default name (with `type`, default CHAT_INPUT) instead of its id. */
  name: z.string().min(1).optional(),
  type: z.literal(COMMAND_TYPES).optional(),
  /** Outside guilds: BOT_DM (1, the default) or PRIVATE_CHANNEL (2). */
  context: z
    .union([
      z.literal(InteractionContextType.BOT_DM),
      z.literal(InteractionContextType.PRIVATE_CHANNEL),
    ])
    .optional(),
});

const refine = <T extends { commandId?: string | undefined; name?: string | undefined }>(
  v: T,
): boolean => (v.commandId === undefined) !== (v.name === undefined);
const REFINE_MESSAGE = { message: "give exactly one of commandId and name" };

export const CanUseRequest = Target.refine(refine, REFINE_MESSAGE);
export type CanUseRequest = z.infer<typeof CanUseRequest>;

const InvokeFields = Target.extend({
  /** Subcommand path: "sub", "group sub", or ["group", "sub"]. */
  subcommand: z.union([z.string(), z.array(z.string()).max(2)]).optional(),
  /** Option values by default name (for the subcommand the path names). */
  options: z.record(z.string(), OptionValue).default({}),
  /** USER command: the clicked user; MESSAGE command: the clicked message's id. */
  targetId: snowflake.optional(),
  /** MESSAGE command: the clicked message (default: an empty message by the invoking user). */
  targetMessage: z
    .strictObject({ content: z.string().default(""), authorId: snowflake.optional() })
    .optional(),
  /** The user's client locale; default: the user's configured locale. */
  locale: z.string().optional(),
  /** The command version the user's client holds (read-repair of global commands). */
  version: snowflake.optional(),
});

export const InvokeRequest = InvokeFields.refine(refine, REFINE_MESSAGE);
export type InvokeRequest = z.input<typeof InvokeRequest>;
export type ParsedInvokeRequest = z.infer<typeof InvokeRequest>;

export const AutocompleteRequest = InvokeFields.extend({
  /** The option being typed in. */
  focused: z.string().min(1),
  /** What has been typed so far. */
  value: z.string().default(""),
}).refine(refine, REFINE_MESSAGE);
export type AutocompleteRequest = z.input<typeof AutocompleteRequest>;
export type ParsedAutocompleteRequest = z.infer<typeof AutocompleteRequest>;

export const EndpointRequest = z.strictObject({
  /** The interactions endpoint URL; null removes it. */
  url: z.union([z.url({ protocol: /^https?$/ }), z.null()]),
});
