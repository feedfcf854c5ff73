/**
 * The package schema (plugin/schema.json) and its reference (docs/reference.md): the
 * committed files are what the generator produces now, and the schema says what matters
 * to programs in other languages: every argument of the TypeScript SDK with its type,
 * secrets, replacements, enums with the service's numbers, the provider's settings.
 * The expected types below are written by hand for the fields whose package type is more
 * than their wire type says (enums, lists, objects); a plain boolean or string command field
 * is expected by its wire type (shapes.ts), so a new one needs no entry here, and any other
 * argument without an entry fails with a message naming it.
 */
import { CREDENTIAL_SETTINGS } from "../../provider/resources/settings";
import * as fs from "node:fs";
import * as path from "node:path";
import * as constants from "../../provider/schema/constants";
import { ENUMS } from "../../provider/schema/enums";
import type { z } from "zod";
import { COMMAND_FIELDS, OPTION_FIELDS } from "../../provider/schema/fields";
import { camelCase, wireCommandBodySchema, wireOptionSchema } from "../../provider/schema";
import type { SdkChoice, SdkOption } from "../../provider/schema";
import type { WirePermission } from "../../provider/schema";
import { readSettings } from "../../provider/resources/settings";
import {
  COMMAND_REPLACE_KEYS,
  GENERATED_NOTE,
  PERMISSIONS_REPLACE_KEYS,
  SDK_NAMES,
} from "../../provider/package/schema";
import { CONFIG } from "../../provider/package/config";
import { token } from "../../provider/package/names";
import { pascalCase } from "../../provider/package/wireTypes";
import type {
  EnumTypeSpec,
  ObjectTypeSpec,
  PackageSchema,
  Properties,
  ResourceSpec,
  TypeSpec,
} from "../../provider/package/types";
import type {
  GlobalCommandArgs,
  GuildCommandArgs,
  GuildCommandPermissionsArgs,
} from "../../sdk/resources";
import {
  packageSchema,
  packageVersion,
  REFERENCE_FILE,
  renderReferenceFile,
  renderSchemaFile,
  SCHEMA_FILE,
  SDK_LANGUAGES,
  SDKS_DIR,
  brokenImports,
  listFiles,
} from "../../scripts/generate-package";

const schema: PackageSchema = packageSchema();

const STRING: TypeSpec = { type: "string" };
const NUMBER: TypeSpec = { type: "number" };
const INTEGER: TypeSpec = { type: "integer" };
const BOOLEAN: TypeSpec = { type: "boolean" };
const LOCALIZED: TypeSpec = { type: "object", additionalProperties: STRING };
const ref = (name: string): TypeSpec => ({ $ref: `#/types/discord-commands:index:${name}` });
const listOf = (items: TypeSpec): TypeSpec => ({ type: "array", items });

/** The package type of a plain (boolean or string) wire field, from its zod shape. */
function plainType(schema: z.ZodType): TypeSpec | undefined {
  const def = (schema as unknown as { def: { type: string; innerType?: z.ZodType } }).def;
  if (def.type === "optional" || def.type === "nullable") {
    return def.innerType === undefined ? undefined : plainType(def.innerType);
  }
  return def.type === "boolean" ? BOOLEAN : def.type === "string" ? STRING : undefined;
}

/** The plain fields among `fields`, by SDK key, typed by their wire type. */
function plainArgs(
  shape: Record<string, z.ZodType>,
  fields: readonly string[],
): Record<string, TypeSpec> {
  const out: Record<string, TypeSpec> = {};
  for (const field of fields) {
    const type = shape[field] === undefined ? undefined : plainType(shape[field]);
    if (type !== undefined) out[camelCase(field)] = type;
  }
  return out;
}

/** The plain command fields a resource of `scope` keeps (not `id`, which identifies). */
function plainCommandArgs(scope: "global" | "guild"): Record<string, TypeSpec> {
  const kept = Object.entries(COMMAND_FIELDS)
    .filter(([field, spec]) => field !== "id" && (spec.keptIn as readonly string[]).includes(scope))
    .map(([field]) => field);
  return plainArgs(wireCommandBodySchema.shape, kept);
}

/**
 * What a command resource's arguments share (the TypeScript SDK's `SdkCommandArgs`,
 * `applicationId`) beyond the plain fields.
 */
const COMMAND_ARGS = {
  type: ref("CommandType"),
  nameLocalizations: LOCALIZED,
  descriptionLocalizations: LOCALIZED,
  options: listOf(ref("CommandOption")),
  handler: ref("EntryPointHandler"),
  applicationId: STRING,
} as const satisfies Partial<Record<keyof GlobalCommandArgs, TypeSpec>>;

const GLOBAL_COMMAND_ARGS: Partial<Record<keyof GlobalCommandArgs, TypeSpec>> = {
  ...plainCommandArgs("global"),
  ...COMMAND_ARGS,
  integrationTypes: listOf(ref("IntegrationType")),
  contexts: listOf(ref("InteractionContextType")),
};

const GUILD_COMMAND_ARGS: Partial<Record<keyof GuildCommandArgs, TypeSpec>> = {
  ...plainCommandArgs("guild"),
  ...COMMAND_ARGS,
  guildId: STRING,
};

/** Every argument has an expected type: a plain field's, or one written above. */
function expectTyped(
  actual: Record<string, TypeSpec>,
  expected: Record<string, unknown>,
  list = "COMMAND_ARGS",
): void {
  const missing = Object.keys(actual).filter((k) => !Object.hasOwn(expected, k));
  expect(
    missing.map(
      (k) =>
        `test/package/schema.test.ts: \`${k}\` is not a plain boolean or string; add its package type to ${list}`,
    ),
  ).toEqual([]);
  expect(actual).toEqual(expected);
}

/** `authorization` is a TypeScript-only convenience (a dependency): other languages use dependsOn. */
const PERMISSIONS_ARGS: Record<
  Exclude<keyof GuildCommandPermissionsArgs, "authorization">,
  TypeSpec
> = {
  guildId: STRING,
  commandId: STRING,
  permissions: listOf(ref("PermissionOverwrite")),
  applicationId: STRING,
};

/** An option's arguments beyond its plain (boolean or string) fields. */
const OPTION: Partial<Record<keyof SdkOption, TypeSpec>> = {
  ...plainArgs(wireOptionSchema.shape, Object.keys(OPTION_FIELDS)),
  type: ref("OptionType"),
  nameLocalizations: LOCALIZED,
  descriptionLocalizations: LOCALIZED,
  choices: listOf(ref("CommandOptionChoice")),
  options: listOf(ref("CommandOption")),
  channelTypes: listOf(ref("ChannelType")),
  minValue: NUMBER,
  maxValue: NUMBER,
  minLength: INTEGER,
  maxLength: INTEGER,
};

const CHOICE: Record<keyof SdkChoice, TypeSpec> = {
  name: STRING,
  nameLocalizations: LOCALIZED,
  value: { oneOf: [STRING, NUMBER] },
};

const OVERWRITE: Record<keyof WirePermission, TypeSpec> = {
  id: STRING,
  type: ref("PermissionType"),
  permission: BOOLEAN,
};

/** The type of a property, without its description and flags. */
function typeOf(p: TypeSpec): TypeSpec {
  const { type, items, additionalProperties, $ref, oneOf } = p;
  return Object.fromEntries(
    Object.entries({ type, items, additionalProperties, $ref, oneOf }).filter(
      ([, v]) => v !== undefined,
    ),
  );
}

function typesOf(props: Properties): Record<string, TypeSpec> {
  return Object.fromEntries(Object.entries(props).map(([k, p]) => [k, typeOf(p)]));
}

function res(name: string): ResourceSpec {
  const r = schema.resources[token(name)];
  if (r === undefined) throw new Error(`no resource ${name}`);
  return r;
}

function objectType(name: string): ObjectTypeSpec {
  const t = schema.types[token(name)];
  if (t === undefined || t.type !== "object") throw new Error(`no object type ${name}`);
  return t;
}

function replacing(props: Properties): string[] {
  return Object.keys(props)
    .filter((k) => props[k]?.replaceOnChanges === true)
    .sort();
}

describe("the committed files", () => {
  it("plugin/schema.json is what `npm run generate` writes now", async () => {
    expect(fs.readFileSync(SCHEMA_FILE, "utf8")).toBe(await renderSchemaFile());
  });

  it("docs/reference.md is what `npm run generate` writes now", async () => {
    expect(fs.readFileSync(REFERENCE_FILE, "utf8")).toBe(await renderReferenceFile());
  });

  it("say they are generated, and by what", () => {
    expect(JSON.parse(fs.readFileSync(SCHEMA_FILE, "utf8")).attribution).toBe(GENERATED_NOTE);
    expect(GENERATED_NOTE).toMatch(/npm run generate/);
    expect(fs.readFileSync(REFERENCE_FILE, "utf8")).toMatch(
      /^<!-- Generated from provider\/schema by `npm run generate`/,
    );
  });
});

describe("the committed SDKs", () => {
  it.each(SDK_LANGUAGES)("sdks/%s imports only files that exist", (language) => {
    expect(listFiles(path.join(SDKS_DIR, language)).length).toBeGreaterThan(5);
    expect(brokenImports(language, path.join(SDKS_DIR, language))).toEqual([]);
  });
});

describe("the package", () => {
  it("is discord-commands at the npm package's version, with its language package names", () => {
    expect(schema.name).toBe("discord-commands");
    expect(schema.version).toBe(packageVersion());
    expect(schema.language["nodejs"]?.["packageName"]).toBe("@pulumi-discord-commands/sdk");
    expect(schema.language["nodejs"]?.["packageName"]).not.toBe("pulumi-discord-commands");
    expect(schema.language["python"]?.["packageName"]).toBe("pulumi_discord_commands");
    expect(schema.language["go"]?.["importBasePath"]).toBe(`${SDK_NAMES.goModule}/discordcommands`);
    expect(Object.keys(schema.resources)).toEqual(
      [
        "GlobalCommand",
        "GuildCommand",
        "GuildCommandPermissions",
        "UserAuthorization",
        "ScopeCommands",
        "CommandSet",
      ].map(token),
    );
  });

  test("CommandSet is a component: definitions, scopes, permissions, packed in; ids by scope out", () => {
    const r = schema.resources[token("CommandSet")];
    expect(r?.isComponent).toBe(true);
    expect(r?.requiredInputs).toEqual(["commands", "scopes"]);
    expect(r?.inputProperties["commands"]?.items).toEqual({
      $ref: `#/types/${token("CommandDefinition")}`,
    });
    expect(r?.inputProperties["scopes"]?.items).toEqual({
      $ref: `#/types/${token("CommandSetScope")}`,
    });
    expect(r?.inputProperties["permissions"]?.items).toEqual({
      $ref: `#/types/${token("CommandSetPermissions")}`,
    });
    // Every scope in one child (provider/plugin/packedSet.ts); optional, default false.
    expect(r?.inputProperties["packed"]?.type).toBe("boolean");
  });

  test("ScopeCommands: commands by key as CommandDefinition, the scope replaces, ids out", () => {
    const r = schema.resources[token("ScopeCommands")];
    expect(r?.requiredInputs).toEqual(["commands"]);
    expect(r?.inputProperties["commands"]?.additionalProperties).toEqual({
      $ref: `#/types/${token("CommandDefinition")}`,
    });
    expect(r?.inputProperties["guildId"]?.replaceOnChanges).toBe(true);
    expect(r?.inputProperties["applicationId"]?.replaceOnChanges).toBe(true);
    expect(r?.properties["commandIds"]?.additionalProperties).toEqual({ type: "string" });
    const def = schema.types[token("CommandDefinition")];
    expect(def && "properties" in def ? Object.keys(def.properties) : []).toEqual(
      expect.arrayContaining(["name", "description", "options", "contexts", "nsfw"]),
    );
    expect(def && "properties" in def ? def.properties["applicationId"] : "none").toBeUndefined();
  });

  it("describes every property of every resource, type and setting", () => {
    const undescribed: string[] = [];
    const check = (where: string, props: Properties) => {
      for (const [k, p] of Object.entries(props)) {
        if (p.description.trim().length < 10) undescribed.push(`${where}.${k}`);
      }
    };
    check("config", schema.config.variables);
    check("provider", schema.provider.inputProperties);
    for (const [t, r] of Object.entries(schema.resources)) {
      expect(r.description.length).toBeGreaterThan(40);
      check(`${t} inputs`, r.inputProperties);
      check(`${t} outputs`, r.properties);
    }
    for (const [t, spec] of Object.entries(schema.types)) {
      expect(spec.description.length).toBeGreaterThan(10);
      if (spec.type === "object") check(t, spec.properties);
    }
    expect(undescribed).toEqual([]);
  });

  it("takes the field descriptions from the one field description (fields.ts)", () => {
    const global = res("GlobalCommand").inputProperties;
    expect(global["nameLocalizations"]?.description).toBe(
      COMMAND_FIELDS.name_localizations.description,
    );
    expect(global["name"]?.description.startsWith(COMMAND_FIELDS.name.description)).toBe(true);
    expect(objectType("CommandOption").properties["minLength"]?.description).toBe(
      OPTION_FIELDS.min_length.description,
    );
    expect(global["dmPermission"]?.deprecationMessage).toBe(
      COMMAND_FIELDS.dm_permission.deprecated,
    );
    expect(global["defaultPermission"]?.deprecationMessage).toBe(
      COMMAND_FIELDS.default_permission.deprecated,
    );
  });
});

describe("resources", () => {
  it("GlobalCommand takes every argument of the TypeScript SDK's GlobalCommandArgs, typed", () => {
    const r = res("GlobalCommand");
    expectTyped(typesOf(r.inputProperties), GLOBAL_COMMAND_ARGS);
    expect(r.requiredInputs).toEqual(["name"]);
  });

  it("GuildCommand takes GuildCommandArgs: no global-only field, a required guildId", () => {
    const r = res("GuildCommand");
    expectTyped(typesOf(r.inputProperties), GUILD_COMMAND_ARGS);
    expect(r.requiredInputs.sort()).toEqual(["guildId", "name"]);
  });

  it.each(["GlobalCommand", "GuildCommand"])(
    "%s outputs every input plus what the service assigns",
    (name) => {
      const r = res(name);
      for (const k of Object.keys(r.inputProperties)) {
        expect(typeOf(r.properties[k] ?? {})).toEqual(typeOf(r.inputProperties[k] ?? {}));
      }
      expect(typesOf(r.properties)).toMatchObject({
        commandId: STRING,
        version: STRING,
        adopted: BOOLEAN,
        applicationId: STRING,
      });
      expect(r.required).toEqual(
        expect.arrayContaining(["name", "applicationId", "commandId", "version", "adopted"]),
      );
      expect(r.requiredInputs).not.toContain("applicationId");
    },
  );

  it("a command's name, type, guild and application force a replacement, nothing else", () => {
    expect(replacing(res("GlobalCommand").inputProperties)).toEqual([
      "applicationId",
      "name",
      "type",
    ]);
    expect(replacing(res("GuildCommand").inputProperties)).toEqual([
      "applicationId",
      "guildId",
      "name",
      "type",
    ]);
    expect(replacing(res("GuildCommand").properties)).toEqual([...COMMAND_REPLACE_KEYS].sort());
  });

  it("GuildCommandPermissions: guild, command and overwrites required; all but the overwrites replace", () => {
    const r = res("GuildCommandPermissions");
    expect(typesOf(r.inputProperties)).toEqual(PERMISSIONS_ARGS);
    expect(r.requiredInputs).toEqual(["guildId", "commandId", "permissions"]);
    expect(typesOf(r.properties)).toEqual(PERMISSIONS_ARGS);
    expect(r.required).toEqual(["guildId", "commandId", "permissions", "applicationId"]);
    expect(replacing(r.inputProperties)).toEqual([...PERMISSIONS_REPLACE_KEYS].sort());
  });

  it("UserAuthorization has no inputs; its tokens are secret outputs", () => {
    const r = res("UserAuthorization");
    expect(r.inputProperties).toEqual({});
    expect(typesOf(r.properties)).toEqual({
      accessToken: STRING,
      refreshToken: STRING,
      expiresAt: NUMBER,
      expiresInS: NUMBER,
      seed: STRING,
    });
    expect(Object.keys(r.properties).filter((k) => r.properties[k]?.secret === true)).toEqual([
      "accessToken",
      "refreshToken",
    ]);
  });
});

describe("object types", () => {
  it("CommandOption holds every field of an option (options nest), typed", () => {
    expectTyped(typesOf(objectType("CommandOption").properties), OPTION, "OPTION");
    expect(objectType("CommandOption").required).toEqual(["type", "name", "description"]);
  });

  it("CommandOptionChoice: a name and a string or number value", () => {
    expect(typesOf(objectType("CommandOptionChoice").properties)).toEqual(CHOICE);
    expect(objectType("CommandOptionChoice").required).toEqual(["name", "value"]);
  });

  it("PermissionOverwrite: id, type and permission, all required", () => {
    expect(typesOf(objectType("PermissionOverwrite").properties)).toEqual(OVERWRITE);
    expect(objectType("PermissionOverwrite").required).toEqual(["id", "type", "permission"]);
  });
});

describe("enums", () => {
  const integerEnums = Object.entries(schema.types).filter(
    (e): e is [string, EnumTypeSpec] => e[1].type === "integer",
  );

  it("are the service's numeric constants, by the constants' names", () => {
    expect(integerEnums.map(([t]) => t).sort()).toEqual(Object.keys(ENUMS).map(token).sort());
  });

  it.each(Object.keys(ENUMS))("%s has exactly the values of constants.ts", (name) => {
    const constant = (constants as unknown as Record<string, Record<string, number>>)[name];
    expect(constant).toBeDefined();
    const t = schema.types[token(name)] as EnumTypeSpec;
    expect(Object.fromEntries(t.enum.map((v) => [v.name, v.value]))).toEqual(
      Object.fromEntries(Object.entries(constant ?? {}).map(([k, v]) => [pascalCase(k), v])),
    );
  });

  it("value names are PascalCase, which each language's generator turns into its own style", () => {
    expect(pascalCase("CHAT_INPUT")).toBe("ChatInput");
    expect(pascalCase("DM")).toBe("Dm");
    expect(pascalCase("GUILD_STAGE_VOICE")).toBe("GuildStageVoice");
  });

  it("reach Python programs by the constants' own names (CommandType.CHAT_INPUT)", () => {
    const py = fs.readFileSync(
      path.join(SDKS_DIR, "python", "pulumi_discord_commands", "_enums.py"),
      "utf8",
    );
    for (const [name, doc] of Object.entries(ENUMS)) {
      expect(py).toContain(`class ${name}(_builtins.int, Enum):`);
      for (const [key, value] of Object.entries(doc.values)) {
        expect(py).toContain(`\n    ${key} = ${value}\n`);
      }
    }
  });
});

describe("provider configuration", () => {
  const SECRETS: readonly string[] = CREDENTIAL_SETTINGS;

  it("is the same in the stack's config and on an explicit provider", () => {
    expect(schema.provider.inputProperties).toEqual(schema.config.variables);
    expect(Object.keys(schema.config.variables)).toEqual([
      "apiUrl",
      "applicationId",
      "botToken",
      "clientId",
      "clientSecret",
      "bearerToken",
      "refreshToken",
      "readCacheMs",
      "bulkWindowMs",
      "timeoutMs",
      "writeMode",
    ]);
  });

  it("marks the credentials secret, and only them", () => {
    const vars = schema.config.variables;
    expect(Object.keys(vars).filter((k) => vars[k]?.secret === true)).toEqual(SECRETS);
  });

  it("lets generated SDKs read no secret from the program's environment", () => {
    for (const key of SECRETS) expect(schema.config.variables[key]?.defaultInfo).toBeUndefined();
    expect(schema.config.variables["apiUrl"]?.defaultInfo).toEqual({
      environment: ["DISCORD_API_URL"],
    });
  });

  it("types the numbers and the write mode", () => {
    expect(typesOf(schema.config.variables)).toMatchObject({
      readCacheMs: NUMBER,
      bulkWindowMs: NUMBER,
      timeoutMs: NUMBER,
      writeMode: ref("WriteMode"),
    });
    const writeMode = schema.types[token("WriteMode")] as EnumTypeSpec;
    expect(writeMode.enum.map((v) => v.value)).toEqual(["per-command", "bulk"]);
  });

  // The provider's own reading of its settings (today's `discord:` keys): each key and
  // environment variable named in the schema is one the provider reads, into that setting.
  function setting(settings: ReturnType<typeof readSettings>, key: string): unknown {
    return (
      (settings.client as Record<string, unknown>)[key] ??
      (settings as unknown as Record<string, unknown>)[key]
    );
  }
  const sample = (key: keyof typeof CONFIG) =>
    CONFIG[key].type === "number" ? "1234" : CONFIG[key].type === "WriteMode" ? "bulk" : "x-1";
  const parsed = (key: keyof typeof CONFIG) => (CONFIG[key].type === "number" ? 1234 : sample(key));

  it.each(Object.keys(CONFIG) as (keyof typeof CONFIG)[])(
    "%s: the provider reads its environment variable and config key",
    (key) => {
      const fromEnv = readSettings(undefined, { [CONFIG[key].env]: sample(key) });
      expect(setting(fromEnv, key)).toEqual(parsed(key));
      const fromConfig = readSettings(
        { get: (k: string) => (k === `discord:${key}` ? sample(key) : undefined) },
        {},
      );
      expect(setting(fromConfig, key)).toEqual(parsed(key));
    },
  );
});
