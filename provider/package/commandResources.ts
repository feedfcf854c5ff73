/**
 * The command resources of the package (`GlobalCommand`, `GuildCommand`) and the
 * `CommandDefinition` type the scope-wide resources hold: every field of the command body
 * that the scope keeps, described by the field tables, and what the service and the
 * provider add.
 */
import type { z } from "zod";
import { camelCase } from "../schema/mapping";
import { COMMAND_FIELDS, RETURNED_COMMAND_FIELD_DESCRIPTIONS } from "../schema/fields";
import type { FieldSpec } from "../schema/fieldSpec";
import { COMMAND_REPLACE_KEYS } from "../schema/replacements";
import { wireCommandBodySchema, wireCommandSchema } from "../schema/shapes";
import type { Scope } from "../schema/shapes";
import { token } from "./names";
import { add, APPLICATION_DEFAULT, resource, side } from "./resourceSpec";
import type { Side } from "./resourceSpec";
import type { PropertySpec, ResourceSpec, TypeSpec } from "./types";
import type { TypeCollector } from "./wireTypes";
import { deprecation, isOptional } from "./wireTypes";

/**
 * The inputs of a command resource: the command body's fields that the scope keeps (but
 * `id`, the service's), plus where the command lives; its outputs: the inputs plus what
 * the service and the provider assign.
 */
export function commandResource(
  types: TypeCollector,
  scope: Scope,
  description: string,
): ResourceSpec {
  const replaces: readonly string[] = COMMAND_REPLACE_KEYS;
  const prop = (schema: z.ZodType, text: string, name: string, extra = ""): PropertySpec => {
    const replacing = replaces.includes(name);
    const note = " Changing it replaces the command (a new id: its permissions are written again).";
    return {
      ...types.typeOf(schema),
      description: text + extra + (replacing ? note : ""),
      ...(replacing ? { replaceOnChanges: true } : {}),
    };
  };
  const inputs = side();
  const returned = wireCommandSchema.shape;
  if (scope === "guild") {
    add(
      inputs,
      "guildId",
      prop(returned.guild_id, RETURNED_COMMAND_FIELD_DESCRIPTIONS.guild_id, "guildId"),
      true,
    );
  }
  for (const [key, schema] of Object.entries(wireCommandBodySchema.shape) as [
    keyof typeof COMMAND_FIELDS,
    z.ZodType,
  ][]) {
    const field: Pick<FieldSpec, "description" | "deprecated"> & { keptIn: readonly Scope[] } =
      COMMAND_FIELDS[key];
    if (key === "id" || !field.keptIn.includes(scope)) continue;
    const name = camelCase(key);
    add(
      inputs,
      name,
      { ...prop(schema, field.description, name), ...deprecation(field) },
      !isOptional(schema),
    );
  }
  const applicationText = RETURNED_COMMAND_FIELD_DESCRIPTIONS.application_id;
  const applicationId = prop(returned.application_id, applicationText, "applicationId");
  add(
    inputs,
    "applicationId",
    prop(returned.application_id, applicationText, "applicationId", APPLICATION_DEFAULT),
    false,
  );

  const outputs: Side = { properties: { ...inputs.properties }, required: [...inputs.required] };
  add(outputs, "applicationId", applicationId, true);
  add(outputs, "commandId", prop(returned.id, COMMAND_FIELDS.id.description, "commandId"), true);
  add(
    outputs,
    "version",
    prop(returned.version, RETURNED_COMMAND_FIELD_DESCRIPTIONS.version, "version"),
    true,
  );
  add(
    outputs,
    "adopted",
    {
      type: "boolean",
      description:
        "True when the create found a live command of the same name, type and scope and took it over (the service's create is an upsert).",
    },
    true,
  );
  return resource(description, inputs, outputs);
}

/**
 * `CommandDefinition`: a command's fields without its scope (what `ScopeCommands` holds by
 * key); the global scope's fields, of which a guild keeps all but the global-only ones.
 */
export function commandDefinitionType(types: TypeCollector): TypeSpec {
  const name = token("CommandDefinition");
  if (!types.types.has(name)) {
    const global = commandResource(types, "global", "");
    const properties = { ...global.inputProperties };
    delete properties["applicationId"];
    for (const spec of Object.values(properties)) delete spec.replaceOnChanges;
    types.types.set(name, {
      type: "object",
      description:
        "One command's definition, without its scope: the fields of a global command (a guild's copy leaves out `contexts`, `integrationTypes` and `dmPermission`, which guilds do not keep).",
      properties,
      required: global.requiredInputs.filter((k) => k !== "applicationId"),
    });
  }
  return { $ref: `#/types/${name}` };
}
