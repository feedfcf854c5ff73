/**
 * slash-create 7 as a drop-in user of the emulator: `syncCommands` (global, then each
 * guild with `syncCommandsIn`) of a realistic set succeeds with no warning, a second
 * sync writes nothing (slash-create compares its own JSON with the service's answer,
 * key for key: null localizations, derived dm_permission and canonical permissions all
 * have to be exactly the service's), and a changed description writes only the scope it
 * belongs to, changing only that command's version.
 *
 * slash-create's comparator adds `null` localizations to top-level options only: nested
 * options and choices must declare theirs (a dictionary or null), or every sync writes.
 */
import type { ApplicationCommandOption, SlashCommandOptions } from "slash-create";
import {
  ApplicationCommandType,
  CommandOptionType,
  InteractionContextType,
  SlashCommand,
  SlashCreator,
} from "slash-create";
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";

let emu: RunningEmulator;

beforeEach(async () => {
  emu = await startEmulator({ rateLimits: false });
});
afterEach(() => emu.close());

const loc = { name_localizations: null, description_localizations: null };

/** A realistic command set: a group of subcommands with choices, localizations, menus. */
function commandSet(guildId: string, pingDescription = "Replies with pong"): SlashCommandOptions[] {
  const envChoices = [
    { name: "Production", value: "prod", name_localizations: { fr: "Production FR" } },
    { name: "Staging", value: "staging", name_localizations: null },
  ];
  const deployOptions: ApplicationCommandOption[] = [
    {
      type: CommandOptionType.SUB_COMMAND_GROUP,
      name: "service",
      description: "Deploy a service",
      options: [
        {
          type: CommandOptionType.SUB_COMMAND,
          name: "up",
          description: "Start a deploy",
          ...loc,
          options: [
            {
              type: CommandOptionType.STRING,
              name: "env",
              description: "Environment",
              required: true,
              choices: envChoices,
              name_localizations: { fr: "environnement" },
              description_localizations: { fr: "Environnement cible" },
            },
            {
              type: CommandOptionType.INTEGER,
              name: "replicas",
              description: "How many",
              min_value: 1,
              max_value: 10,
              ...loc,
            },
          ],
        },
        { type: CommandOptionType.SUB_COMMAND, name: "down", description: "Stop it", ...loc },
      ],
    },
    {
      type: CommandOptionType.SUB_COMMAND,
      name: "status",
      description: "Deploy status",
      options: [
        {
          type: CommandOptionType.CHANNEL,
          name: "channel",
          description: "Where",
          channel_types: [0, 5],
          ...loc,
        },
      ],
    },
  ];
  return [
    {
      name: "deploy",
      description: "Deploy things",
      nameLocalizations: { fr: "deployer", de: "bereitstellen" },
      descriptionLocalizations: { fr: "Déployer des choses" },
      requiredPermissions: ["MANAGE_GUILD"],
      contexts: [InteractionContextType.GUILD, InteractionContextType.BOT_DM],
      options: deployOptions,
    },
    { name: "ping", description: pingDescription, descriptionLocalizations: { fr: "Répond" } },
    { type: ApplicationCommandType.USER, name: "Show Profile" },
    { type: ApplicationCommandType.MESSAGE, name: "Quote" },
    {
      name: "admin",
      description: "Guild admin tools",
      guildIDs: [guildId],
      nsfw: true,
      options: [
        {
          type: CommandOptionType.STRING,
          name: "level",
          description: "Level",
          autocomplete: true,
        },
      ],
    },
    { type: ApplicationCommandType.USER, name: "Warn", guildIDs: [guildId] },
  ];
}

function creatorWith(set: SlashCommandOptions[]): { creator: SlashCreator; warnings: string[] } {
  const creator = new SlashCreator({
    applicationID: emu.applicationId,
    token: `Bot ${emu.botToken}`,
    // slash-create arms a request-timeout timer per request and never clears it: a
    // short timeout lets the test process exit soon after the last request.
    rest: { baseURL: emu.apiUrl, requestTimeout: 5000 },
  });
  const warnings: string[] = [];
  creator.on("warn", (w) => warnings.push(String(w)));
  creator.on("error", (e) => warnings.push(`error: ${String(e)}`));
  for (const options of set) {
    creator.registerCommand(
      class extends SlashCommand {
        constructor(c: SlashCreator) {
          super(c, options);
        }
      },
    );
  }
  return { creator, warnings };
}

const writes = () => emu.requestLog().filter((e) => e.method !== "GET");

test("syncCommands: created, then a second sync writes nothing", async () => {
  const { creator, warnings } = creatorWith(commandSet(emu.guildId));
  await creator.syncCommands({ skipGuildErrors: false });
  expect(warnings).toEqual([]);
  expect(writes().map((e) => `${e.method} ${e.route} ${e.status}`)).toEqual([
    "PUT bulkOverwriteGlobalCommands 200",
    "PUT bulkOverwriteGuildCommands 200",
  ]);
  expect(writes().filter((e) => e.warning !== undefined)).toEqual([]);
  const global = emu.store.commandsIn(emu.applicationId, undefined);
  const guild = emu.store.commandsIn(emu.applicationId, emu.guildId);
  expect(global.map((c) => c.name).sort()).toEqual(["Quote", "Show Profile", "deploy", "ping"]);
  expect(guild.map((c) => c.name).sort()).toEqual(["Warn", "admin"]);
  expect(guild.find((c) => c.name === "admin")?.nsfw).toBe(true);
  expect(global.find((c) => c.name === "deploy")?.default_member_permissions).toBe("32");

  // A fresh process (a second CI run): same set, nothing to write.
  emu.control.resetLog();
  const again = creatorWith(commandSet(emu.guildId));
  await again.creator.syncCommands({ skipGuildErrors: false });
  expect(again.warnings).toEqual([]);
  expect(emu.requestLog().map((e) => `${e.method} ${e.route}`)).toEqual([
    "GET listGlobalCommands",
    "GET listGuildCommands",
  ]);
});

test("a changed description writes only its scope and bumps only that command's version", async () => {
  await creatorWith(commandSet(emu.guildId)).creator.syncCommands({ skipGuildErrors: false });
  const versions = new Map(emu.store.allCommands().map((c) => [c.name, c.version]));
  emu.control.resetLog();

  const { creator, warnings } = creatorWith(commandSet(emu.guildId, "Replies with pong, fast"));
  await creator.syncCommands({ skipGuildErrors: false });
  expect(warnings).toEqual([]);
  expect(writes().map((e) => `${e.method} ${e.route} ${e.status}`)).toEqual([
    "PUT bulkOverwriteGlobalCommands 200",
  ]);
  const changed = emu.store
    .allCommands()
    .filter((c) => versions.get(c.name) !== c.version)
    .map((c) => c.name);
  expect(changed).toEqual(["ping"]);
  expect(emu.store.allCommands().find((c) => c.name === "ping")?.description).toBe(
    "Replies with pong, fast",
  );
});

test("syncCommandsIn alone syncs one guild, and again writes nothing", async () => {
  const { creator, warnings } = creatorWith(commandSet(emu.guildId));
  await creator.syncCommandsIn(emu.guildId);
  await creator.syncCommandsIn(emu.guildId);
  expect(warnings).toEqual([]);
  expect(writes().map((e) => `${e.method} ${e.route}`)).toEqual(["PUT bulkOverwriteGuildCommands"]);
});
