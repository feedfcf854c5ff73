/**
 * Command permissions in one guild: who may use which command, and where.
 *
 * Editing permissions needs a user's Bearer token with the scope
 * `applications.commands.permissions.update` (a bot token is refused), from the user who
 * can manage the guild and its roles. Get it once, as that user, with
 *   discord-commands authorize
 * which stores discord:bearerToken and discord:refreshToken as secrets of the stack; the
 * `UserAuthorization` below refreshes the token when it expires and keeps the rotated
 * refresh token (encrypted) in the state, so later runs, in CI too, need nobody.
 * The ids (guild, role, user, channel) are plain stack config: see README.md.
 */
import * as pulumi from "@pulumi/pulumi";
import * as discord from "pulumi-discord-commands";

const config = new pulumi.Config();
const guildId = config.require("guildId");
const moderatorRoleId = config.require("moderatorRoleId");
const ownerUserId = config.require("ownerUserId");
const botChannelId = config.require("botChannelId");
const applicationId = new pulumi.Config("discord").require("applicationId");

const { OptionType, PermissionFlags, PermissionType } = discord;

// /ban: by default only members who can ban see it (defaultMemberPermissions); the
// overwrites below narrow it further in this guild.
const ban = new discord.GuildCommand("ban", {
  guildId,
  name: "ban",
  description: "Ban a member",
  defaultMemberPermissions: discord.permissions(PermissionFlags.BAN_MEMBERS),
  options: [{ type: OptionType.USER, name: "member", description: "Who", required: true }],
});

// /poll: anyone, but only in the bot channel.
const poll = new discord.GuildCommand("poll", {
  guildId,
  name: "poll",
  description: "Start a poll",
  options: [
    { type: OptionType.STRING, name: "question", description: "What to ask", required: true },
  ],
});

// The user's authorization that every permission write below acts under.
const authorization = new discord.UserAuthorization("authorization");

// Nobody (@everyone) may use /ban, except the moderators' role and the owner.
// A command's overwrites replace the app-wide defaults below for that command.
export const banPermissions = new discord.GuildCommandPermissions("ban-permissions", {
  authorization,
  guildId,
  commandId: ban.commandId,
  permissions: [
    { id: discord.everyone(guildId), type: PermissionType.ROLE, permission: false },
    { id: moderatorRoleId, type: PermissionType.ROLE, permission: true },
    { id: ownerUserId, type: PermissionType.USER, permission: true },
  ],
}).permissions;

// /poll in no channel (All Channels) except the bot channel (and its threads).
export const pollPermissions = new discord.GuildCommandPermissions("poll-permissions", {
  authorization,
  guildId,
  commandId: poll.commandId,
  permissions: [
    { id: discord.allChannels(guildId), type: PermissionType.CHANNEL, permission: false },
    { id: botChannelId, type: PermissionType.CHANNEL, permission: true },
  ],
}).permissions;

// App-wide defaults: with the application id as `commandId`, the overwrites apply to
// every command of the application in this guild that has none of its own (global
// commands included). Here: the moderators may use them everywhere.
export const appDefaults = new discord.GuildCommandPermissions("app-defaults", {
  authorization,
  guildId,
  commandId: applicationId,
  permissions: [{ id: moderatorRoleId, type: PermissionType.ROLE, permission: true }],
}).permissions;

export const commandIds = { ban: ban.commandId, poll: poll.commandId };
