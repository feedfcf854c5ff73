/**
 * The demo's command set: what `npm start` deploys to the embedded emulator. A realistic
 * mix: global slash commands with subcommands, groups, choices and localizations, a user
 * and a message command, an age-restricted command, contexts, and guild commands with
 * permissions for a role, a user and a channel.
 */
import * as pulumi from "@pulumi/pulumi";
import * as discord from "pulumi-discord-commands";

const config = new pulumi.Config();
const guildId = config.require("guildId");
const moderatorRoleId = config.require("moderatorRoleId");
const ownerUserId = config.require("ownerUserId");
const announcementsChannelId = config.require("announcementsChannelId");

const { OptionType, CommandType, InteractionContextType, ChannelType, PermissionFlags } = discord;

const ping = new discord.GlobalCommand("ping", {
  name: "ping",
  description: "Check that the bot is alive",
  descriptionLocalizations: {
    fr: "Vérifier que le bot répond",
    de: "Prüfen, ob der Bot antwortet",
  },
  contexts: [InteractionContextType.GUILD, InteractionContextType.BOT_DM],
});

const settings = new discord.GlobalCommand("settings", {
  name: "settings",
  nameLocalizations: { fr: "réglages", "es-ES": "ajustes" },
  description: "Change how the bot behaves",
  defaultMemberPermissions: discord.permissions(PermissionFlags.MANAGE_GUILD),
  contexts: [InteractionContextType.GUILD],
  options: [
    {
      type: OptionType.SUB_COMMAND_GROUP,
      name: "notifications",
      description: "Where and how the bot notifies",
      options: [
        {
          type: OptionType.SUB_COMMAND,
          name: "channel",
          description: "Set the notification channel",
          options: [
            {
              type: OptionType.CHANNEL,
              name: "target",
              description: "The channel",
              required: true,
              channelTypes: [ChannelType.GUILD_TEXT, ChannelType.GUILD_ANNOUNCEMENT],
            },
          ],
        },
        {
          type: OptionType.SUB_COMMAND,
          name: "level",
          description: "Set how much the bot says",
          options: [
            {
              type: OptionType.STRING,
              name: "level",
              description: "The level",
              required: true,
              choices: [
                { name: "Everything", value: "all", nameLocalizations: { fr: "Tout" } },
                { name: "Mentions only", value: "mentions" },
                { name: "Nothing", value: "none", nameLocalizations: { fr: "Rien" } },
              ],
            },
          ],
        },
      ],
    },
    {
      type: OptionType.SUB_COMMAND,
      name: "reset",
      description: "Reset every setting",
    },
  ],
});

const roll = new discord.GlobalCommand("roll", {
  name: "roll",
  description: "Roll dice",
  options: [
    {
      type: OptionType.INTEGER,
      name: "sides",
      description: "Sides of each die",
      required: true,
      choices: [
        { name: "d6", value: 6 },
        { name: "d20", value: 20 },
      ],
    },
    {
      type: OptionType.INTEGER,
      name: "count",
      description: "How many dice",
      minValue: 1,
      maxValue: 10,
    },
    {
      type: OptionType.NUMBER,
      name: "bonus",
      description: "Added to the total",
      minValue: -5.5,
      maxValue: 5.5,
    },
  ],
});

const profile = new discord.GlobalCommand("profile", {
  type: CommandType.USER,
  name: "Show Profile",
  nameLocalizations: { fr: "Voir le profil" },
});

const report = new discord.GlobalCommand("report", {
  type: CommandType.MESSAGE,
  name: "Report Message",
});

const meme = new discord.GuildCommand("meme", {
  guildId,
  name: "meme",
  description: "Post a random meme (age-restricted)",
  nsfw: true,
});

const ban = new discord.GuildCommand("ban", {
  guildId,
  name: "ban",
  description: "Ban a member",
  defaultMemberPermissions: discord.permissions(PermissionFlags.BAN_MEMBERS),
  options: [
    { type: OptionType.USER, name: "member", description: "Who to ban", required: true },
    { type: OptionType.STRING, name: "reason", description: "Why", maxLength: 512 },
  ],
});

const announce = new discord.GuildCommand("announce", {
  guildId,
  name: "announce",
  description: "Post an announcement",
  options: [
    {
      type: OptionType.STRING,
      name: "text",
      description: "What to say",
      required: true,
      minLength: 1,
      maxLength: 2000,
    },
  ],
});

// Moderators and the owner may ban; nobody else, and never from the announcements channel.
const banPermissions = new discord.GuildCommandPermissions("ban-permissions", {
  guildId,
  commandId: ban.commandId,
  permissions: [
    { id: discord.everyone(guildId), type: discord.PermissionType.ROLE, permission: false },
    { id: moderatorRoleId, type: discord.PermissionType.ROLE, permission: true },
    { id: ownerUserId, type: discord.PermissionType.USER, permission: true },
    { id: announcementsChannelId, type: discord.PermissionType.CHANNEL, permission: false },
  ],
});

// Announcements only in the announcements channel.
const announcePermissions = new discord.GuildCommandPermissions("announce-permissions", {
  guildId,
  commandId: announce.commandId,
  permissions: [
    { id: discord.allChannels(guildId), type: discord.PermissionType.CHANNEL, permission: false },
    { id: announcementsChannelId, type: discord.PermissionType.CHANNEL, permission: true },
  ],
});

/** The command ids the service assigned, by resource. */
export const commandIds = {
  ping: ping.commandId,
  settings: settings.commandId,
  roll: roll.commandId,
  profile: profile.commandId,
  report: report.commandId,
  meme: meme.commandId,
  ban: ban.commandId,
  announce: announce.commandId,
};
export const permissionIds = [banPermissions.id, announcePermissions.id];
