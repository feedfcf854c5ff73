/**
 * From the wire shapes (zod) to the package schema's types: each zod type to its schema
 * type, the object shapes to named object types described by the field tables, the
 * literal unions to the enums of constants.ts.
 */
import { z } from "zod";
import { camelCase } from "../schema/mapping";
import { CHOICE_FIELDS, OPTION_FIELDS } from "../schema/fields";
import { ENUMS } from "../schema/enums";
import type { EnumName } from "../schema/enums";
import { PERMISSION_FIELD_DESCRIPTIONS, wirePermissionSchema } from "../schema/permissions";
import { wireChoiceSchema, wireOptionSchema } from "../schema/shapes";
import { WRITE_MODES } from "../writeMode";
import { WRITE_MODE_DESCRIPTIONS } from "./config";
import { ref, token } from "./names";
import type { EnumTypeSpec, ObjectTypeSpec, TypeSpec } from "./types";

/** The object types of the package, by the zod shape they come from. */
const OBJECT_TYPES = new Map<
  z.ZodObject,
  { name: string; description: string; fields: Readonly<Record<string, { description: string }>> }
>([
  [
    wireOptionSchema,
    {
      name: "CommandOption",
      description:
        "An option of a CHAT_INPUT command: a parameter, a subcommand or a subcommand group. Required options come before optional ones; names are unique within a list.",
      fields: OPTION_FIELDS,
    },
  ],
  [
    wireChoiceSchema,
    {
      name: "CommandOptionChoice",
      description:
        "A predefined value of a STRING, INTEGER or NUMBER option: the only values users may pick.",
      fields: CHOICE_FIELDS,
    },
  ],
  [
    wirePermissionSchema,
    {
      name: "PermissionOverwrite",
      description:
        "One permission overwrite: allows or denies the command to a role, a user or a channel.",
      fields: Object.fromEntries(
        Object.entries(PERMISSION_FIELD_DESCRIPTIONS).map(([k, description]) => [
          k,
          { description },
        ]),
      ),
    },
  ],
]);

/** The enum whose values are exactly `values` (an error unless there is one). */
function enumOf(values: ReadonlySet<unknown>): EnumName {
  const matches = (Object.keys(ENUMS) as EnumName[]).filter((name) => {
    const own = Object.values(ENUMS[name].values);
    return own.length === values.size && own.every((v) => values.has(v));
  });
  const [only, ...more] = matches;
  if (only === undefined || more.length > 0) {
    throw new Error(
      `no single enum has the values ${[...values].join(", ")}: ${matches.join(", ")}`,
    );
  }
  return only;
}

/**
 * `CHAT_INPUT` -> `ChatInput`: enum value names in a package schema are PascalCase, which
 * each language's generator turns into its own style (Python `CHAT_INPUT`, Go
 * `CommandTypeChatInput`); Python's mangles an upper-case name (`CHA_T_INPUT`).
 */
export function pascalCase(constant: string): string {
  return constant
    .split("_")
    .map((w) => w.charAt(0) + w.slice(1).toLowerCase())
    .join("");
}

/** Whether a program may leave the field out. */
export function isOptional(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

export class TypeCollector {
  readonly types = new Map<string, ObjectTypeSpec | EnumTypeSpec>();

  typeOf(schema: z.core.$ZodType): TypeSpec {
    if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) {
      // Pulumi has no null: an absent value is the only "no value".
      return this.typeOf(schema.unwrap());
    }
    if (schema instanceof z.ZodString) return { type: "string" };
    if (schema instanceof z.ZodNumber) return { type: schema.isInt ? "integer" : "number" };
    if (schema instanceof z.ZodBoolean) return { type: "boolean" };
    if (schema instanceof z.ZodLiteral) return this.enumType(enumOf(schema.values));
    if (schema instanceof z.ZodArray) return { type: "array", items: this.typeOf(schema.element) };
    if (schema instanceof z.ZodRecord) {
      return { type: "object", additionalProperties: this.typeOf(schema.valueType) };
    }
    if (schema instanceof z.ZodUnion) {
      return { oneOf: schema.options.map((o: z.core.$ZodType) => this.typeOf(o)) };
    }
    if (schema instanceof z.ZodObject) return this.objectType(schema);
    throw new Error(`no package schema type for a zod ${schema._zod.def.type}`);
  }

  private enumType(name: EnumName): TypeSpec {
    if (!this.types.has(token(name))) {
      const doc = ENUMS[name];
      const valueDescriptions: Readonly<Record<string, string | undefined>> = doc.valueDescriptions;
      this.types.set(token(name), {
        type: "integer",
        description: doc.description,
        enum: Object.entries(doc.values).map(([key, value]) => {
          const description = valueDescriptions[key];
          return {
            name: pascalCase(key),
            value,
            ...(description === undefined ? {} : { description }),
          };
        }),
      });
    }
    return ref(name);
  }

  private objectType(schema: z.ZodObject): TypeSpec {
    const known = OBJECT_TYPES.get(schema);
    if (known === undefined) throw new Error("an object shape with no type name in OBJECT_TYPES");
    const t = token(known.name);
    if (!this.types.has(t)) {
      const spec: ObjectTypeSpec = {
        type: "object",
        description: known.description,
        properties: {},
        required: [],
      };
      this.types.set(t, spec); // before the fields: options hold options
      for (const [key, field] of Object.entries(schema.shape) as [string, z.ZodType][]) {
        const described = known.fields[key];
        if (described === undefined) throw new Error(`no description of ${known.name}.${key}`);
        spec.properties[camelCase(key)] = {
          ...this.typeOf(field),
          description: described.description,
          ...deprecation(described),
        };
        if (!isOptional(field)) spec.required.push(camelCase(key));
      }
    }
    return ref(known.name);
  }

  writeModeType(): void {
    this.types.set(token("WriteMode"), {
      type: "string",
      description: "How command writes reach the service.",
      enum: WRITE_MODES.map((value) => ({
        name: pascalCase(value.toUpperCase().replace(/-/g, "_")),
        value,
        description: WRITE_MODE_DESCRIPTIONS[value],
      })),
    });
  }
}

export function deprecation(field: { description: string; deprecated?: string }): {
  deprecationMessage?: string;
} {
  return field.deprecated === undefined ? {} : { deprecationMessage: field.deprecated };
}
