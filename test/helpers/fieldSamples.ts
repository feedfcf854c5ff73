/**
 * A valid, non-neutral value of each command field, for tests that set every field of the
 * table (provider/schema/fields.ts): derived from the field's wire type (shapes.ts) for the
 * plain kinds (a boolean is `true`, an enum its last value, a list of an enum its first),
 * written here only for the fields whose valid values the wire type cannot tell.
 * A new boolean, enum or list-of-enum field needs nothing here.
 */
import type { z } from "zod";
import type { CommandField } from "../../provider/schema";
import { wireCommandBodySchema, wireOptionSchema } from "../../provider/schema";

/** The fields whose wire type does not tell a valid value. */
const WRITTEN: Partial<Record<CommandField, unknown>> = {
  id: "1300000000000000099",
  name: "sample",
  name_localizations: { fr: "exemple" },
  description: "A sample",
  description_localizations: { fr: "Un exemple" },
  options: [{ type: 3, name: "text", description: "Some text" }],
  default_member_permissions: "32",
};

interface Def {
  readonly type: string;
  readonly innerType?: z.ZodType;
  readonly values?: readonly unknown[];
  readonly element?: z.ZodType;
}

function sampleOf(schema: z.ZodType): unknown {
  const def = (schema as unknown as { def: Def }).def;
  switch (def.type) {
    case "optional":
    case "nullable":
      return def.innerType === undefined ? undefined : sampleOf(def.innerType);
    case "boolean":
      return true;
    case "literal":
      return def.values?.[def.values.length - 1];
    case "array": {
      const item = def.element === undefined ? undefined : sampleOf(def.element);
      return item === undefined ? undefined : [item];
    }
    default:
      return undefined;
  }
}

/** A valid value of `field` other than its neutral one. */
export function fieldSample(field: CommandField): unknown {
  if (Object.hasOwn(WRITTEN, field)) return WRITTEN[field];
  const shape: Record<string, z.ZodType> = wireCommandBodySchema.shape;
  const schema = shape[field];
  const sample = schema === undefined ? undefined : sampleOf(schema);
  if (sample === undefined) {
    throw new Error(
      `test/helpers/fieldSamples.ts: no sample of \`${field}\` (its wire type does not tell a valid value): add one to WRITTEN`,
    );
  }
  return sample;
}

/** The option fields whose valid values the wire type does not tell: a whole option each. */
const WRITTEN_OPTIONS: Record<string, Record<string, unknown>> = {
  type: { type: 5 },
  name: { type: 3, name: "other" },
  name_localizations: { type: 3, name_localizations: { fr: "nom" } },
  description: { type: 3, description: "Another" },
  description_localizations: { type: 3, description_localizations: { fr: "Une option" } },
  choices: { type: 3, choices: [{ name: "alpha", value: "a" }] },
  options: { type: 1, options: [{ type: 3, name: "inner", description: "Inner" }] },
  channel_types: { type: 7, channel_types: [0] },
  min_value: { type: 4, min_value: 1 },
  max_value: { type: 4, max_value: 9 },
  min_length: { type: 3, min_length: 1 },
  max_length: { type: 3, max_length: 50 },
};

/**
 * A valid option (of the first command's options) that sets `field` to a value other than
 * its neutral one: written above, or a STRING option with the wire type's sample.
 */
export function optionSample(field: string): Record<string, unknown> {
  const base = { name: "sample", description: "A sample" };
  const written = WRITTEN_OPTIONS[field];
  if (written !== undefined) return { ...base, ...written };
  const shape: Record<string, z.ZodType> = wireOptionSchema.shape;
  const schema = shape[field];
  const sample = schema === undefined ? undefined : sampleOf(schema);
  if (sample === undefined) {
    throw new Error(
      `test/helpers/fieldSamples.ts: no sample option for \`${field}\`: add one to WRITTEN_OPTIONS`,
    );
  }
  return { ...base, type: 3, [field]: sample };
}
