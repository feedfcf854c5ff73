/**
 * One command set, two environments. The stack's config decides where it goes:
 *  - `guildId` set (Pulumi.dev.yaml): guild commands in that test guild, which take
 *    effect in the guild at once;
 *  - `guildId` not set (Pulumi.prod.yaml): global commands, in every guild that added
 *    the application.
 * The credentials come from stack config too (`discord:applicationId`, and the secret
 * `discord:botToken`), read by the provider; the program never sees the token.
 */
import * as pulumi from "@pulumi/pulumi";
import * as discord from "pulumi-discord-commands";

const config = new pulumi.Config();
const guildId = config.get("guildId");

/** A command's fields that both scopes accept (a guild command's arguments, less the guild). */
type CommandSpec = Omit<discord.GuildCommandArgs, "guildId">;

// The command set, written once. The keys are the Pulumi resource names.
const commandSet: Record<string, CommandSpec> = {
  ping: { name: "ping", description: "Check that the bot is alive" },
  weather: {
    name: "weather",
    description: "Today's weather",
    options: [
      {
        type: discord.OptionType.STRING,
        name: "city",
        description: "Where",
        required: true,
        autocomplete: true,
      },
      {
        type: discord.OptionType.STRING,
        name: "units",
        description: "Units of measure",
        choices: [
          { name: "Metric", value: "metric" },
          { name: "Imperial", value: "imperial" },
        ],
      },
    ],
  },
  translate: { type: discord.CommandType.MESSAGE, name: "Translate" },
};

const commands = Object.entries(commandSet).map(([resourceName, spec]) =>
  guildId === undefined
    ? new discord.GlobalCommand(resourceName, spec)
    : new discord.GuildCommand(resourceName, { ...spec, guildId }),
);

/** Where this stack deployed the set. */
export const scope = guildId === undefined ? "global" : `guild ${guildId}`;
/** Command name -> id, as the service assigned them. */
export const commandIds = pulumi
  .all(commands.map((c) => pulumi.all([c.name, c.commandId])))
  .apply((pairs) => Object.fromEntries(pairs));
