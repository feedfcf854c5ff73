"""Application commands from a Python program, through the discord-commands resource
plugin and its generated Python SDK: a global command with a French translation, a guild
command with an option, and who may use that one in the guild."""

import pulumi
import pulumi_discord_commands as discord

config = pulumi.Config()
guild_id = config.require("guildId")
moderator_role_id = config.require("moderatorRoleId")

ping = discord.GlobalCommand(
    "ping",
    name="ping",
    description="Check the bot",
    name_localizations={"fr": "latence"},
    description_localizations={"fr": "Vérifier le bot"},
)

kick = discord.GuildCommand(
    "kick",
    guild_id=guild_id,
    name="kick",
    description="Remove a member",
    # Hidden from members without Kick Members until the overwrite below says otherwise.
    default_member_permissions="2",
    options=[
        discord.CommandOptionArgs(
            type=discord.OptionType.USER, name="member", description="Who", required=True
        )
    ],
)

# Needs a user's Bearer token (discord-commands:bearerToken): bots cannot write these.
discord.GuildCommandPermissions(
    "kickPermissions",
    guild_id=guild_id,
    # The command's id itself (not its command_id output) stays known in a preview.
    command_id=kick.id,
    permissions=[
        discord.PermissionOverwriteArgs(
            id=moderator_role_id, type=discord.PermissionType.ROLE, permission=True
        )
    ],
)

pulumi.export("pingId", ping.command_id)
pulumi.export("kickId", kick.command_id)
