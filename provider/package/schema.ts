/**
 * The Pulumi package schema of `discord-commands` (what the resource plugin serves and
 * what every language's SDK is generated from), built from the one field description:
 * the wire shapes (provider/schema/shapes.ts, permissions.ts) give every property and its
 * type, the field tables (fields.ts) their descriptions, constants.ts the enums' values.
 * Nothing here lists a command's fields: a field added to the shapes reaches every
 * language. What is said here is what only the package knows: resource and configuration
 * descriptions, the properties the provider adds (`applicationId`, `adopted`, ...), what
 * forces a replacement. Pure: `scripts/generate-package.ts` writes the file.
 */
import { z } from "zod";
import { camelCase } from "../schema/mapping";
import { CHOICE_FIELDS, COMMAND_FIELDS, OPTION_FIELDS } from "../schema/fields";
import type { FieldSpec } from "../schema/fields";
import { RETURNED_COMMAND_FIELD_DESCRIPTIONS } from "../schema/fields";
import { ENUMS } from "../schema/enums";
import { TESTED_RANGE } from "../testedRange";
import type { EnumName } from "../schema/enums";
import {
  GUILD_PERMISSIONS_FIELD_DESCRIPTIONS,
  PERMISSION_FIELD_DESCRIPTIONS,
  wireGuildCommandPermissionsSchema,
  wirePermissionSchema,
} from "../schema/permissions";
import {
  wireChoiceSchema,
  wireCommandBodySchema,
  wireCommandSchema,
  wireOptionSchema,
} from "../schema/shapes";
import type { Scope } from "../schema/shapes";
import { WRITE_MODES, WRITE_MODE_SETTING } from "../writeMode";
import type {
  EnumTypeSpec,
  ObjectTypeSpec,
  PackageSchema,
  Properties,
  PropertySpec,
  ResourceSpec,
  TypeSpec,
} from "./types";
import { COMMAND_REPLACE_KEYS, PERMISSIONS_REPLACE_KEYS } from "../schema/replacements";

export const PACKAGE_NAME = "discord-commands";

/**
 * The repository releases are published from: the Go SDK's module path and the plugin's
 * download URL derive from it. A placeholder until the first release: a maintainer sets the
 * real owner here, then runs `npm run generate`.
 */
export const RELEASE_REPOSITORY = {
  owner: "pulumi-discord-commands",
  name: "pulumi-discord-commands",
} as const;

/**
 * Where the engine downloads a missing plugin from (`<url>/pulumi-resource-<name>-v<version>-<os>-<arch>.tar.gz`):
 * the release workflow's `--plugin-server`, the repository's `release-site` branch as GitHub
 * Pages serves it (.github/workflows/release.yml). A release to other servers sets its own
 * in every artifact (`npm run release -- --plugin-server <url>`).
 */
export const PLUGIN_DOWNLOAD_URL = `https://${RELEASE_REPOSITORY.owner}.github.io/${RELEASE_REPOSITORY.name}/plugins`;

/** Language package names: the npm name `pulumi-discord-commands` is the dynamic-resource package. */
export const SDK_NAMES = {
  nodejs: "@pulumi-discord-commands/sdk",
  python: "pulumi_discord_commands",
  goModule: `github.com/${RELEASE_REPOSITORY.owner}/${RELEASE_REPOSITORY.name}/sdks/go`,
} as const;

export function token(name: string): string {
  return `${PACKAGE_NAME}:index:${name}`;
}

function ref(name: string): TypeSpec {
  return { $ref: `#/types/${token(name)}` };
}

/** The inputs whose change makes the provider replace the resource (its `diff`). */
export { COMMAND_REPLACE_KEYS, PERMISSIONS_REPLACE_KEYS };

/** The command fields a guild command does not have (the service keeps them on global commands only). */
export const GLOBAL_ONLY_FIELDS = (
  Object.keys(COMMAND_FIELDS) as (keyof typeof COMMAND_FIELDS)[]
).filter((k) => !(COMMAND_FIELDS[k].keptIn as readonly Scope[]).includes("guild"));

// ---- configuration -------------------------------------------------------------------

interface ConfigSetting {
  readonly type: "string" | "number" | "WriteMode";
  readonly secret: boolean;
  /** The environment variable the provider falls back to. */
  readonly env: string;
  readonly description: string;
}

/**
 * The provider's settings: the configuration of the provider resource and of the stack
 * (`discord-commands:<key>`). The provider falls back to the environment variable of each
 * (its process inherits the CLI's environment). `defaultInfo` (the generated SDKs read the
 * variable in the program, for an explicit provider) is given for plain strings and
 * numbers only: a secret read that way would become a provider input, kept in the state;
 * and for the enum-typed `writeMode` the Go generator of the language hosts here (pkg
 * v3.200) writes code that does not compile.
 */
export const CONFIG = {
  apiUrl: {
    type: "string",
    secret: false,
    env: "DISCORD_API_URL",
    description:
      "Base URL of the service, with or without `/api/v10`. Default `https://discord.com`. Point it at the emulator, e.g. `http://127.0.0.1:8787`.",
  },
  applicationId: {
    type: "string",
    secret: false,
    env: "DISCORD_APPLICATION_ID",
    description: "The application of every resource that does not set `applicationId`.",
  },
  botToken: {
    type: "string",
    secret: true,
    env: "DISCORD_BOT_TOKEN",
    description:
      "The application's bot token (`Authorization: Bot ...`), for command reads and writes.",
  },
  clientId: {
    type: "string",
    secret: false,
    env: "DISCORD_CLIENT_ID",
    description:
      "With `clientSecret`, instead of a bot token: a client-credentials token (scope `applications.commands.update`) is fetched and refreshed. The bot token wins if both are set.",
  },
  clientSecret: {
    type: "string",
    secret: true,
    env: "DISCORD_CLIENT_SECRET",
    description: "The client secret that goes with `clientId`.",
  },
  bearerToken: {
    type: "string",
    secret: true,
    env: "DISCORD_BEARER_TOKEN",
    description:
      "A user's Bearer token with the scope `applications.commands.permissions.update`: needed only by `GuildCommandPermissions` (the service refuses bot tokens there).",
  },
  refreshToken: {
    type: "string",
    secret: true,
    env: "DISCORD_REFRESH_TOKEN",
    description:
      "The user's refresh token, stored with `bearerToken` by `discord-commands authorize`; with `clientId` (and `clientSecret` for a confidential application) the Bearer token is refreshed when it expires.",
  },
  readCacheMs: {
    type: "number",
    secret: false,
    env: "DISCORD_READ_CACHE_MS",
    description:
      "How long (ms) one list of a scope, read by a refresh, is reused by the other resources of that scope. Default 10000; 0 reads the service for every resource.",
  },
  bulkWindowMs: {
    type: "number",
    secret: false,
    env: "DISCORD_BULK_WINDOW_MS",
    description:
      "Bulk write mode: how long (ms) a batch collects a scope's operations before its PUT. Default 200.",
  },
  timeoutMs: {
    type: "number",
    secret: false,
    env: "DISCORD_TIMEOUT_MS",
    description:
      "How long (ms) to wait for the service to connect, send headers and send the body, each, before retrying. Default 15000.",
  },
  writeMode: {
    type: "WriteMode",
    secret: false,
    env: WRITE_MODE_SETTING.env,
    description:
      "How command writes reach the service: `per-command` (the default: one POST, PATCH or DELETE per command) or `bulk` (one bulk overwrite per scope and batch).",
  },
} as const satisfies Record<string, ConfigSetting>;

const WRITE_MODE_DESCRIPTIONS: Record<(typeof WRITE_MODES)[number], string> = {
  "per-command": "One POST, PATCH or DELETE per command.",
  bulk: "The writes of one deployment to one scope coalesce into bulk overwrites of the scope.",
};

function configProperties(): Properties {
  const out: Properties = {};
  for (const [key, setting] of Object.entries(CONFIG) as [string, ConfigSetting][]) {
    const type: TypeSpec = setting.type === "WriteMode" ? ref("WriteMode") : { type: setting.type };
    out[key] = {
      ...type,
      description: `${setting.description} Unset: the environment variable \`${setting.env}\`.`,
      ...(setting.secret ? { secret: true } : {}),
      ...(setting.secret || setting.type === "WriteMode"
        ? {}
        : { defaultInfo: { environment: [setting.env] } }),
    };
  }
  return out;
}

// ---- from the wire shapes to the schema's types --------------------------------------

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
function isOptional(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

class TypeCollector {
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

function deprecation(field: { description: string; deprecated?: string }): {
  deprecationMessage?: string;
} {
  return field.deprecated === undefined ? {} : { deprecationMessage: field.deprecated };
}

// ---- resources -----------------------------------------------------------------------

interface Side {
  properties: Properties;
  required: string[];
}

function side(): Side {
  return { properties: {}, required: [] };
}

function add(s: Side, name: string, spec: PropertySpec, required: boolean): void {
  s.properties[name] = spec;
  if (required) s.required.push(name);
}

function resource(description: string, inputs: Side, outputs: Side): ResourceSpec {
  return {
    description,
    inputProperties: inputs.properties,
    requiredInputs: inputs.required,
    properties: outputs.properties,
    required: outputs.required,
  };
}

const APPLICATION_DEFAULT = " Default: the provider's `applicationId`.";

/**
 * The inputs of a command resource: the command body's fields that the scope keeps (but
 * `id`, the service's), plus where the command lives; its outputs: the inputs plus what
 * the service and the provider assign.
 */
function commandResource(types: TypeCollector, scope: Scope, description: string): ResourceSpec {
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
function commandDefinitionType(types: TypeCollector): TypeSpec {
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

function scopeCommandsResource(types: TypeCollector): ResourceSpec {
  const definition = commandDefinitionType(types);
  const inputs = side();
  add(
    inputs,
    "guildId",
    {
      type: "string",
      description:
        "The guild whose commands these are; absent: the application's global scope. Changing it replaces the resource (new commands there, these deleted).",
      replaceOnChanges: true,
    },
    false,
  );
  add(
    inputs,
    "commands",
    {
      type: "object",
      additionalProperties: definition,
      description:
        'The commands by key: the command\'s name, prefixed "user:", "message:" or "entry_point:" for those types (a slash command `ban` is `ban`, a user command `Info` is `user:Info`). A key added creates that command, a key removed deletes it (a rename is both: a new id), a definition changed edits only its changed fields. Commands of the scope that no key names are never touched.',
    },
    true,
  );
  add(
    inputs,
    "applicationId",
    {
      type: "string",
      description:
        "The application whose commands these are." +
        APPLICATION_DEFAULT +
        " Changing it replaces the resource.",
      replaceOnChanges: true,
    },
    false,
  );
  const outputs: Side = { properties: { ...inputs.properties }, required: [...inputs.required] };
  add(outputs, "applicationId", outputs.properties["applicationId"] as PropertySpec, true);
  add(
    outputs,
    "commandIds",
    {
      type: "object",
      additionalProperties: { type: "string" },
      description: "The service's id of each command, by key.",
    },
    true,
  );
  return resource(
    "The commands this stack manages in one scope (the global scope, or one guild), as one resource. Created with one list read and one bulk overwrite whatever their number (commands already as declared are taken over with no write); two or fewer changes are one request each (an edit of the changed fields, a create, a delete); more are one bulk overwrite built from a list read right before it. Every command of the scope that `commands` does not name is carried unchanged. The preview names each command and field that changes. Import id: `<guildId>`, `global`, `<applicationId>/<guildId>` or `<applicationId>/global` (every command of the scope comes under management).",
    inputs,
    outputs,
  );
}

function commandSetResource(types: TypeCollector): ResourceSpec {
  const definition = commandDefinitionType(types);
  const scopeType = token("CommandSetScope");
  types.types.set(scopeType, {
    type: "object",
    description:
      "A scope a command set is deployed to: a guild, or (without `guildId`) the global scope.",
    properties: {
      guildId: {
        type: "string",
        description: "The guild; absent: the application's global scope.",
      },
      applicationId: {
        type: "string",
        description: "The application whose commands these are." + APPLICATION_DEFAULT,
      },
    },
    required: [],
  });
  const permissionsType = token("CommandSetPermissions");
  types.types.set(permissionsType, {
    type: "object",
    description:
      "The permission overwrites of one command of the set in one guild (written with a user's Bearer token). The command is the guild's copy when the set is deployed to that guild, else the global one.",
    properties: {
      guildId: { type: "string", description: "The guild the overwrites apply in." },
      command: { type: "string", description: "The command's name." },
      type: {
        type: "integer",
        description:
          "The command's type when not CHAT_INPUT (a user command may share a slash command's name).",
      },
      applicationId: {
        type: "string",
        description: "The application of the scope that holds the command." + APPLICATION_DEFAULT,
      },
      permissions: {
        type: "array",
        items: { $ref: `#/types/${token("PermissionOverwrite")}` },
        description: "The overwrites, at most 100.",
      },
    },
    required: ["guildId", "command", "permissions"],
  });
  const inputs = side();
  add(
    inputs,
    "commands",
    {
      type: "array",
      items: definition,
      description: "The definitions: every field of a command but its scope.",
    },
    true,
  );
  add(
    inputs,
    "scopes",
    {
      type: "array",
      items: { $ref: `#/types/${scopeType}` },
      description:
        "Where to deploy the definitions: one `ScopeCommands` child each (`<name>-<guildId>`, `<name>-global`). Adding a scope creates its commands, removing one deletes only them.",
    },
    true,
  );
  add(
    inputs,
    "permissions",
    {
      type: "array",
      items: { $ref: `#/types/${permissionsType}` },
      description:
        "Permission overwrites per guild and command name: one `GuildCommandPermissions` child each.",
    },
    false,
  );
  const outputs = side();
  add(
    outputs,
    "commandIds",
    {
      type: "object",
      additionalProperties: { type: "object", additionalProperties: { type: "string" } },
      description: "The service's ids: scope label (`global`, a guild id) -> command key -> id.",
    },
    true,
  );
  return {
    ...resource(
      "One list of command definitions deployed to many scopes (the global scope and/or guilds, each optionally of its own application), with permissions per guild by command name. A component: one `ScopeCommands` per scope, so the preview names the scope, the command and the field of every change, and one `GuildCommandPermissions` per permissions entry, whose command id follows the scope's (a rename is a new id: its permissions are written again). A guild's copy leaves out `contexts`, `integrationTypes` and `dmPermission`. Checked at preview: a definition twice, a scope twice, permissions for an unreached guild.",
      inputs,
      outputs,
    ),
    isComponent: true,
  };
}

function permissionsResource(types: TypeCollector): ResourceSpec {
  const replaces: readonly string[] = PERMISSIONS_REPLACE_KEYS;
  const inputs = side();
  const outputs = side();
  for (const [key, schema] of Object.entries(wireGuildCommandPermissionsSchema.shape) as [
    keyof typeof GUILD_PERMISSIONS_FIELD_DESCRIPTIONS,
    z.ZodType,
  ][]) {
    const name = key === "id" ? "commandId" : camelCase(key);
    const replacing = replaces.includes(name);
    const spec = (extra: string): PropertySpec => ({
      ...types.typeOf(schema),
      description:
        GUILD_PERMISSIONS_FIELD_DESCRIPTIONS[key] +
        extra +
        (replacing ? " Changing it replaces the resource." : ""),
      ...(replacing ? { replaceOnChanges: true } : {}),
    });
    add(outputs, name, spec(""), true);
    if (name === "applicationId") add(inputs, name, spec(APPLICATION_DEFAULT), false);
    else add(inputs, name, spec(""), true);
  }
  // Inputs in the order a program writes them: where, what, then the overrides.
  const order = ["guildId", "commandId", "permissions", "applicationId"];
  const sortSide = (s: Side): Side => ({
    properties: Object.fromEntries(order.map((k) => [k, s.properties[k] as PropertySpec])),
    required: order.filter((k) => s.required.includes(k)),
  });
  return resource(
    "The permission overwrites of one command in one guild; or, with the application's id as `commandId`, the application-wide defaults in that guild (for every command without overwrites of its own). Needs a user's Bearer token (the provider's `bearerToken`; `UserAuthorization` keeps it fresh). The resource owns the whole list: an update writes exactly these overwrites, and deleting the resource empties the list.",
    sortSide(inputs),
    sortSide(outputs),
  );
}

function userAuthorizationResource(): ResourceSpec {
  const outputs = side();
  const secret = (description: string): PropertySpec => ({
    type: "string",
    description,
    secret: true,
  });
  add(
    outputs,
    "accessToken",
    secret(
      "The user's current Bearer token, which permission writes use: refreshed when past half its lifetime or refused by the service.",
    ),
    false,
  );
  add(
    outputs,
    "refreshToken",
    secret(
      "The refresh token of the kept session: the service rotates it on every refresh (the one spent is refused from then on), so the newest is kept here.",
    ),
    false,
  );
  add(
    outputs,
    "expiresAt",
    {
      type: "number",
      description: "When the access token expires, in milliseconds since the epoch, when known.",
    },
    false,
  );
  add(
    outputs,
    "expiresInS",
    {
      type: "number",
      description: "The access token's lifetime in seconds, as granted, when known.",
    },
    false,
  );
  add(
    outputs,
    "seed",
    {
      type: "string",
      description:
        "Which configured `refreshToken` the kept session descends from: a SHA-256 prefix of it, never the token. When the configuration holds a new authorization (`discord-commands authorize` again), the resource adopts it.",
    },
    true,
  );
  return resource(
    "Keeps the user's authorization for permission edits (a Bearer token and its refresh token) alive from one deployment to the next, in the stack's state as secrets: the service rotates the refresh token on every refresh, and a provider cannot write the stack's configuration. Declare it before the `GuildCommandPermissions` and make them depend on it. No inputs: it starts from the provider's `bearerToken` and `refreshToken`. Deleting it does not revoke the authorization.",
    side(),
    outputs,
  );
}

// ---- the package ---------------------------------------------------------------------

export const GENERATED_NOTE =
  "This schema is generated from provider/schema by `npm run generate` (scripts/generate-package.ts); edit the source, not the generated files.";

export function buildPackageSchema(version: string): PackageSchema {
  const types = new TypeCollector();
  types.writeModeType();
  const resources: Record<string, ResourceSpec> = {
    [token("GlobalCommand")]: commandResource(
      types,
      "global",
      "A command in the application's global scope: available in every guild that has the app and, as its `contexts` allow, in DMs. A change of `name`, `type` or `applicationId` replaces the command; any other change is an edit of the changed fields. Creating a command whose name, type and scope match a live one takes that command over (`adopted`).",
    ),
    [token("GuildCommand")]: commandResource(
      types,
      "guild",
      "A command in one guild's scope; takes effect in that guild at once. A change of `name`, `type`, `guildId` or `applicationId` replaces the command; any other change is an edit of the changed fields. Creating a command whose name, type and scope match a live one takes that command over (`adopted`).",
    ),
    [token("GuildCommandPermissions")]: permissionsResource(types),
    [token("UserAuthorization")]: userAuthorizationResource(),
    [token("ScopeCommands")]: scopeCommandsResource(types),
    [token("CommandSet")]: commandSetResource(types),
  };
  const config = configProperties();
  return {
    name: PACKAGE_NAME,
    displayName: "Discord application commands",
    version,
    description:
      "Application commands (slash, user and message context menus, the Activity entry point) and their per-guild permissions, validated at preview, with drift detection.",
    attribution: GENERATED_NOTE,
    keywords: ["pulumi", "discord", "application-commands", "category/utility", "kind/native"],
    license: "MIT",
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
    meta: { moduleFormat: "(.*)", supportPack: true },
    config: { variables: config },
    provider: {
      description:
        "The provider of one application's commands: its credentials, the service's URL and how writes reach it. The default provider reads the stack's `discord-commands:*` configuration; declare explicit providers for several applications in one program.",
      inputProperties: config,
      requiredInputs: [],
      properties: config,
      required: [],
    },
    resources,
    types: Object.fromEntries([...types.types].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    language: {
      go: {
        importBasePath: `${SDK_NAMES.goModule}/discordcommands`,
        generateResourceContainerTypes: true,
        respectSchemaVersion: true,
      },
      nodejs: {
        packageName: SDK_NAMES.nodejs,
        packageDescription:
          "Application commands and their permissions, through the discord-commands resource plugin (generated SDK).",
        respectSchemaVersion: true,
        // The tested range (provider/testedRange.ts), not the generator's default `^3.142.0`;
        // npm's hyphen form (`a - b` is `>=a <=b`): the generator's JSON escapes `<` and `>`.
        dependencies: {
          "@pulumi/pulumi": `${TESTED_RANGE.oldest.nodejs} - ${TESTED_RANGE.newest.nodejs}`,
        },
      },
      python: {
        packageName: SDK_NAMES.python,
        respectSchemaVersion: true,
        pyproject: { enabled: true },
        // The tested range (provider/testedRange.ts), not the generator's default `<4`.
        requires: {
          pulumi: `>=${TESTED_RANGE.oldest.python},<=${TESTED_RANGE.newest.python}`,
        },
      },
    },
  };
}
