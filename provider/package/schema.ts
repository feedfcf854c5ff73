/**
 * The Pulumi package schema of `discord-commands` (what the resource plugin serves and
 * what every language's SDK is generated from), built from the one field description:
 * the wire shapes (provider/schema/shapes.ts, permissions.ts) give every property and its
 * type, the field tables (fields.ts) their descriptions, constants.ts the enums' values.
 * Nothing in provider/package lists a command's fields: a field added to the shapes reaches
 * every language. What is said there is what only the package knows: resource and
 * configuration descriptions, the properties the provider adds (`applicationId`,
 * `adopted`, ...), what forces a replacement. Here: the package's names and metadata, put
 * together from the configuration (config.ts), the resources (commandResources.ts,
 * scopeResources.ts, permissionResources.ts) and the types they collect (wireTypes.ts).
 * Pure: `scripts/generate-package.ts` writes the file.
 */
import { COMMAND_FIELDS } from "../schema/fields";
import type { Scope } from "../schema/shapes";
import { COMMAND_REPLACE_KEYS, PERMISSIONS_REPLACE_KEYS } from "../schema/replacements";
import { TESTED_RANGE } from "../testedRange";
import { commandResource } from "./commandResources";
import { configProperties } from "./config";
import { PACKAGE_NAME, token } from "./names";
import { permissionsResource, userAuthorizationResource } from "./permissionResources";
import { commandSetResource, scopeCommandsResource } from "./scopeResources";
import type { PackageSchema, ResourceSpec } from "./types";
import { TypeCollector } from "./wireTypes";

// scripts/package.ts names the package from here.
export { PACKAGE_NAME } from "./names";

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

/** The inputs whose change makes the provider replace the resource (its `diff`). */
export { COMMAND_REPLACE_KEYS, PERMISSIONS_REPLACE_KEYS };

/** The command fields a guild command does not have (the service keeps them on global commands only). */
export const GLOBAL_ONLY_FIELDS = (
  Object.keys(COMMAND_FIELDS) as (keyof typeof COMMAND_FIELDS)[]
).filter((k) => !(COMMAND_FIELDS[k].keptIn as readonly Scope[]).includes("guild"));

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
