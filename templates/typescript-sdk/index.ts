// Application commands as code: a slash command and a user command everywhere the
// application is installed, and a guild command that only moderators see.
import * as pulumi from "@pulumi/pulumi";
import * as discord from "@pulumi-discord-commands/sdk";

const config = new pulumi.Config();
const guildId = config.require("guildId");

// A slash command: /ping. Slash command names are lowercase, 1-32 characters.
const ping = new discord.GlobalCommand("ping", {
  name: "ping",
  description: "Check that the bot is alive",
});

// A user command: right-click a member, Apps, Show Profile. No description.
const profile = new discord.GlobalCommand("profile", {
  type: discord.CommandType.User,
  name: "Show Profile",
});

// A guild command, in one guild, shown only to members who may manage messages
// (permission bits as a decimal string: Manage Messages is 1 << 13).
const purge = new discord.GuildCommand("purge", {
  guildId,
  name: "purge",
  description: "Delete recent messages",
  defaultMemberPermissions: "8192",
  options: [
    {
      type: discord.OptionType.Integer,
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
