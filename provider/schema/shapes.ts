/**
 * The wire shapes of a command, an option and a choice (spec: "Application Command",
 * "Application Command Option", "Option Choice"): the types of every field. What each
 * field means beyond its type (where it is accepted, its default, how it is compared,
 * reset and presented) is in fields.ts, whose tables must name exactly these keys.
 * The SDK's input types are derived from these shapes (mapping.ts).
 */
import { z } from "zod";
import {
  CHANNEL_TYPES,
  COMMAND_TYPES,
  CONTEXT_TYPES,
  ENTRY_POINT_HANDLERS,
  INTEGRATION_TYPES,
  OPTION_TYPES,
} from "./constants";
import { LOCALES } from "./locales";
import { snowflakeSchema } from "./snowflake";

export type Scope = "global" | "guild";
export type WriteMode = "create" | "edit" | "bulk";

/** A localization dictionary on the wire: partial, keyed by locale, nullable. */
export const localizationsSchema = z.partialRecord(z.enum(LOCALES), z.string()).nullish();

export const wireChoiceSchema = z.object({
  name: z.string(),
  name_localizations: localizationsSchema,
  value: z.union([z.string(), z.number()]),
});

export const wireOptionSchema = z.object({
  type: z.literal(OPTION_TYPES),
  name: z.string(),
  name_localizations: localizationsSchema,
  description: z.string(),
  description_localizations: localizationsSchema,
  required: z.boolean().optional(),
  choices: z.array(wireChoiceSchema).optional(),
  get options() {
    return z.array(wireOptionSchema).optional();
  },
  channel_types: z.array(z.literal(CHANNEL_TYPES)).optional(),
  min_value: z.number().optional(),
  max_value: z.number().optional(),
  min_length: z.int().optional(),
  max_length: z.int().optional(),
  autocomplete: z.boolean().optional(),
});

export const wireCommandBodySchema = z.object({
  /** Only in bulk bodies: the id of an existing command. */
  id: snowflakeSchema.optional(),
  type: z.literal(COMMAND_TYPES).optional(),
  name: z.string(),
  name_localizations: localizationsSchema,
  description: z.string().optional(),
  description_localizations: localizationsSchema,
  options: z.array(wireOptionSchema).optional(),
  default_member_permissions: z.string().nullish(),
  dm_permission: z.boolean().optional(),
  default_permission: z.boolean().nullish(),
  nsfw: z.boolean().optional(),
  integration_types: z.array(z.literal(INTEGRATION_TYPES)).nullish(),
  contexts: z.array(z.literal(CONTEXT_TYPES)).nullish(),
  handler: z.literal(ENTRY_POINT_HANDLERS).optional(),
});

/** A PATCH body: every field optional, no `type`. */
export const wireCommandPatchSchema = wireCommandBodySchema
  .omit({ type: true, id: true })
  .partial();

/** A command as the service returns it. */
export const wireCommandSchema = wireCommandBodySchema.omit({ id: true }).extend({
  id: snowflakeSchema,
  application_id: snowflakeSchema,
  guild_id: snowflakeSchema.optional(),
  version: snowflakeSchema,
  description: z.string(),
  nsfw: z.boolean().optional(),
  default_member_permissions: z.string().nullable().optional(),
});

export type WireChoice = z.infer<typeof wireChoiceSchema>;
export type WireOption = z.infer<typeof wireOptionSchema>;
export type WireCommandBody = z.infer<typeof wireCommandBodySchema>;
export type WireCommandPatch = z.infer<typeof wireCommandPatchSchema>;
export type WireCommand = z.infer<typeof wireCommandSchema>;

export type CommandField = keyof typeof wireCommandBodySchema.shape;
export type OptionField = keyof typeof wireOptionSchema.shape;
export type ChoiceField = keyof typeof wireChoiceSchema.shape;
export type ReturnedCommandField = keyof typeof wireCommandSchema.shape;
