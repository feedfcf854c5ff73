"""Application commands as code: a slash command and a user command everywhere the
application is installed, and a guild command that only moderators see."""

import pulumi
import pulumi_discord_commands as discord

config = pulumi.Config()
guild_id = config.require("guildId")

# A slash command: /ping. Slash command names are lowercase, 1-32 characters.
ping = discord.GlobalCommand("ping", name="ping", description="Check that the bot is alive")

# A user command: right-click a member, Apps, Show Profile. No description.
profile = discord.GlobalCommand("profile", type=discord.CommandType.USER, name="Show Profile")

# A guild command, in one guild, shown only to members who may manage messages
# (permission bits as a decimal string: Manage Messages is 1 << 13).
purge = discord.GuildCommand(
    "purge",
    guild_id=guild_id,
    name="purge",
    description="Delete recent messages",
    default_member_permissions="8192",
    options=[
        discord.CommandOptionArgs(
            type=discord.OptionType.INTEGER,
            name="count",
            description="How many messages",
            required=True,
            min_value=1,
            max_value=100,
        )
    ],
)

# The ids the service gave the commands, for the bot's interaction handler.
pulumi.export(
    "commandIds",
    {"ping": ping.command_id, "profile": profile.command_id, "purge": purge.command_id},
)
