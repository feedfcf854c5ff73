// Application commands as code: a slash command and a user command everywhere the
// application is installed, and a guild command that only moderators see.
import * as pulumi from "@pulumi/pulumi";
import * as discord from "pulumi-discord-commands";

const config = new pulumi.Config();
const guildId = config.require("guildId");

// A slash command: /ping. Slash command names are lowercase, 1-32 characters.
const ping = new discord.GlobalCommand("ping", {
  name: "ping",
  description: "Check that the bot is alive",
});

// A user command: right-click a member, Apps, Show Profile. No description.
const profile = new discord.GlobalCommand("profile", {
  type: discord.CommandType.USER,
  name: "Show Profile",
});

// A guild command, in one guild, shown only to members who may manage messages.
const purge = new discord.GuildCommand("purge", {
  guildId,
  name: "purge",
  description: "Delete recent messages",
  defaultMemberPermissions: discord.permissions(discord.PermissionFlags.MANAGE_MESSAGES),
  options: [
    {
      type: discord.OptionType.INTEGER,
      name: "count",
      description: "How many messages",
      required: true,
      minValue: 1,
      maxValue: 100,
    },
  ],
});

/** The ids the service gave the commands, for the bot's interaction handler. */
export const commandIds = {
  ping: ping.commandId,
  profile: profile.commandId,
  purge: purge.commandId,
};
