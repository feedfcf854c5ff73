// Application commands from a TypeScript program, through the discord-commands resource
// plugin and its generated Node.js SDK (not the package's dynamic resources): a global
// command with a French translation, a guild command with an option, and who may use
// that one in the guild.
import * as pulumi from "@pulumi/pulumi";
import * as discord from "@pulumi-discord-commands/sdk";

const config = new pulumi.Config();
const guildId = config.require("guildId");
const moderatorRoleId = config.require("moderatorRoleId");

const ping = new discord.GlobalCommand("ping", {
  name: "ping",
  description: "Check the bot",
  nameLocalizations: { fr: "latence" },
  descriptionLocalizations: { fr: "Vérifier le bot" },
});

const kick = new discord.GuildCommand("kick", {
  guildId,
  name: "kick",
  description: "Remove a member",
  // Hidden from members without Kick Members until the overwrite below says otherwise.
  defaultMemberPermissions: "2",
  options: [{ type: discord.OptionType.User, name: "member", description: "Who", required: true }],
});

// Needs a user's Bearer token (discord-commands:bearerToken): bots cannot write these.
new discord.GuildCommandPermissions("kickPermissions", {
  guildId,
  // The command's id itself (not its commandId output) stays known in a preview.
  commandId: kick.id,
  permissions: [{ id: moderatorRoleId, type: discord.PermissionType.Role, permission: true }],
});

export const pingId = ping.commandId;
export const kickId = kick.commandId;
