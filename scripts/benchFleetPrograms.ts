/**
 * The programs of the fleet bench (scripts/benchFleet.ts): a bot's command set at a
 * fleet's size, as issue 49 measured it.
 *
 * The rich set: 100 definitions, 90 slash commands (options with choices and ranges,
 * subcommands, channel types, French and German localizations), 5 USER and 5 MESSAGE
 * commands; deployed by one `CommandSet` to the global scope and N guilds, with one
 * permissions entry per guild. The small set: 10 slash commands, no permissions (a bot in
 * 1,000 guilds). Each program exists for the dynamic resources (TypeScript) and the plugin
 * (YAML), built from the same definitions.
 */
import * as path from "node:path";
import { PROJECT_ROOT } from "./toolchain";

export const APP = "1300000000000000001";
/** The emulator's default role (the permissions entries grant it). */
export const ROLE = "1300000000000000004";

/** The `n`-th guild id of the fleet (distinct from the emulator's defaults). */
export function fleetGuild(n: number): string {
  return `14${String(n).padStart(17, "0")}`;
}

export function fleetGuilds(count: number): string[] {
  return Array.from({ length: count }, (_, i) => fleetGuild(i + 1));
}

type Definition = Record<string, unknown>;

const OPTION = { SUB_COMMAND: 1, STRING: 3, INTEGER: 4, BOOLEAN: 5, USER: 6, CHANNEL: 7, ROLE: 8 };

/** The options of slash command `i`: three shapes, in turn. */
function optionsOf(i: number): Definition[] {
  switch (i % 3) {
    case 0:
      return [
        {
          type: OPTION.STRING,
          name: "text",
          description: "Some text",
          required: true,
          choices: [
            { name: "one", value: "1", nameLocalizations: { fr: "un", de: "eins" } },
            { name: "two", value: "2", nameLocalizations: { fr: "deux", de: "zwei" } },
            { name: "three", value: "3" },
          ],
        },
        {
          type: OPTION.INTEGER,
          name: "count",
          description: "How many",
          minValue: 1,
          maxValue: 100,
        },
      ];
    case 1:
      return [
        {
          type: OPTION.SUB_COMMAND,
          name: "add",
          description: "Add one",
          options: [{ type: OPTION.USER, name: "member", description: "Who", required: true }],
        },
        {
          type: OPTION.SUB_COMMAND,
          name: "remove",
          description: "Remove one",
          options: [{ type: OPTION.ROLE, name: "role", description: "Which role" }],
        },
      ];
    default:
      return [
        { type: OPTION.BOOLEAN, name: "flag", description: "A flag" },
        { type: OPTION.CHANNEL, name: "where", description: "Where", channelTypes: [0, 5] },
      ];
  }
}

/**
 * The definitions in the SDK's shape (what a program declares). `changed` alters one
 * definition's description (the "one definition changed" run).
 */
export function fleetDefinitions(size: "rich" | "small", changed = false): Definition[] {
  const slash = size === "rich" ? 90 : 10;
  const defs: Definition[] = [];
  for (let i = 0; i < slash; i++) {
    const def: Definition = {
      name: `cmd${i}`,
      description: i === 0 && changed ? "Changed text" : `Command number ${i}`,
    };
    if (size === "rich") {
      def["nameLocalizations"] = { fr: `commande${i}`, de: `befehl${i}` };
      def["descriptionLocalizations"] = { fr: `Commande numéro ${i}`, de: `Befehl Nummer ${i}` };
      def["options"] = optionsOf(i);
    }
    defs.push(def);
  }
  if (size === "rich") {
    for (let i = 0; i < 5; i++) defs.push({ type: 2, name: `User action ${i}` });
    for (let i = 0; i < 5; i++) defs.push({ type: 3, name: `Message action ${i}` });
  }
  return defs;
}

export interface FleetShape {
  readonly size: "rich" | "small";
  readonly guilds: number;
  /** One permissions entry per guild (the rich set's first command, the default role). */
  readonly permissions: boolean;
  readonly changed?: boolean;
  /** The set in one resource (`packed: true`): the definitions once. */
  readonly packed?: boolean;
}

function permissionsOf(shape: FleetShape): Definition[] {
  if (!shape.permissions) return [];
  return fleetGuilds(shape.guilds).map((guildId) => ({
    guildId,
    command: "cmd0",
    permissions: [{ id: ROLE, type: 1, permission: true }],
  }));
}

/** The TypeScript program on the dynamic resources. */
export function fleetTypescript(shape: FleetShape): string {
  const scopes = [{}, ...fleetGuilds(shape.guilds).map((guildId) => ({ guildId }))];
  return `import "./programClock";
import * as discord from "pulumi-discord-commands";
new discord.CommandSet("fleet", {
  commands: ${JSON.stringify(fleetDefinitions(shape.size, shape.changed))},
  scopes: ${JSON.stringify(scopes)},
  permissions: ${JSON.stringify(permissionsOf(shape))},${shape.packed === true ? "\n  packed: true," : ""}
});
`;
}

/** The YAML program on the plugin (JSON is YAML: the same definitions, written once). */
export function fleetYaml(name: string, shape: FleetShape): string {
  const scopes = [{}, ...fleetGuilds(shape.guilds).map((guildId) => ({ guildId }))];
  const properties = {
    commands: fleetDefinitions(shape.size, shape.changed),
    scopes,
    ...(shape.permissions ? { permissions: permissionsOf(shape) } : {}),
    ...(shape.packed === true ? { packed: true } : {}),
  };
  return [
    `name: ${name}`,
    "runtime: yaml",
    "packages:",
    `  discord-commands: ${path.join(PROJECT_ROOT, "plugin")}`,
    "resources:",
    "  fleet:",
    "    type: discord-commands:CommandSet",
    `    properties: ${JSON.stringify(properties)}`,
    "",
  ].join("\n");
}

/**
 * The engine's cost of a fleet's state shape, without this package (no requests, no-op
 * dynamic resources that return their inputs as outputs), for the set of 100 rich
 * definitions in the global scope and `guilds` guilds: "per scope" as a `CommandSet` holds
 * them (a resource per scope carrying every definition, a permissions resource per guild),
 * or "once" (one resource: the definitions once, the scopes, and each scope's command ids).
 */
export function shapeProgram(shape: "per scope" | "once", guilds: number): string {
  const defs = Object.fromEntries(fleetDefinitions("rich").map((d) => [d["name"], d]));
  const scopes = ["global", ...fleetGuilds(guilds)];
  const resources =
    shape === "per scope"
      ? `for (const s of scopes) new pulumi.dynamic.Resource(provider, "scope-" + s, { guildId: s, commands: defs }, undefined, "Scope");
for (const s of scopes.slice(1)) new pulumi.dynamic.Resource(provider, "permissions-" + s, { guildId: s, permissions: [{ id: s, type: 1, permission: true }] }, undefined, "Permissions");`
      : `const ids = Object.fromEntries(scopes.map((s) => [s, Object.fromEntries(Object.keys(defs).map((k, i) => [k, String(1578744457061203968n + BigInt(i))]))]));
new pulumi.dynamic.Resource(provider, "fleet", { scopes, definitions: defs, ids }, undefined, "Fleet");`;
  return `import * as pulumi from "@pulumi/pulumi";
const provider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    return { id: "x", outs: inputs };
  },
};
const defs = ${JSON.stringify(defs)};
const scopes: string[] = ${JSON.stringify(scopes)};
${resources}
`;
}
