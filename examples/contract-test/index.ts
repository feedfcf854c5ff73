/**
 * The commands of the bot: what `pulumi up` deploys, to the service or to the emulator
 * (the contract test, contract-test.ts, does the latter and invokes each one).
 */
import * as discord from "pulumi-discord-commands";

const { CommandType, OptionType, PermissionFlags } = discord;

const ping = new discord.GlobalCommand("ping", {
  name: "ping",
  description: "Check that the bot is alive",
});

// An option with autocomplete: the bot suggests cities while the user types.
const weather = new discord.GlobalCommand("weather", {
  name: "weather",
  description: "The weather in a city",
  options: [
    {
      type: OptionType.STRING,
      name: "city",
      description: "Which city",
      required: true,
      autocomplete: true,
    },
    {
      type: OptionType.STRING,
      name: "units",
      description: "Units",
      choices: [
        { name: "Metric", value: "metric" },
        { name: "Imperial", value: "imperial" },
      ],
    },
  ],
});

// A subcommand, for members who can manage the guild.
const mod = new discord.GlobalCommand("mod", {
  name: "mod",
  description: "Moderation",
  defaultMemberPermissions: discord.permissions(PermissionFlags.MANAGE_GUILD),
  options: [
    {
      type: OptionType.SUB_COMMAND,
      name: "warn",
      description: "Warn a member",
      options: [
        { type: OptionType.USER, name: "member", description: "Who", required: true },
        { type: OptionType.STRING, name: "reason", description: "Why", maxLength: 200 },
      ],
    },
  ],
});

// A context-menu command on a user.
const highFive = new discord.GlobalCommand("high-five", {
  type: CommandType.USER,
  name: "High Five",
});

export const commandIds = {
  ping: ping.commandId,
  weather: weather.commandId,
  mod: mod.commandId,
  highFive: highFive.commandId,
};
