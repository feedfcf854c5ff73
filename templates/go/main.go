// Application commands as code: a slash command and a user command everywhere the
// application is installed, and a guild command that only moderators see.
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"

	discord "github.com/pulumi-discord-commands/pulumi-discord-commands/sdks/go/discordcommands"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		guildID := config.New(ctx, "").Require("guildId")

		// A slash command: /ping. Slash command names are lowercase, 1-32 characters.
		ping, err := discord.NewGlobalCommand(ctx, "ping", &discord.GlobalCommandArgs{
			Name:        pulumi.String("ping"),
			Description: pulumi.String("Check that the bot is alive"),
		})
		if err != nil {
			return err
		}

		// A user command: right-click a member, Apps, Show Profile. No description.
		profile, err := discord.NewGlobalCommand(ctx, "profile", &discord.GlobalCommandArgs{
			Type: discord.CommandTypeUser,
			Name: pulumi.String("Show Profile"),
		})
		if err != nil {
			return err
		}

		// A guild command, in one guild, shown only to members who may manage messages
		// (permission bits as a decimal string: Manage Messages is 1 << 13).
		purge, err := discord.NewGuildCommand(ctx, "purge", &discord.GuildCommandArgs{
			GuildId:                  pulumi.String(guildID),
			Name:                     pulumi.String("purge"),
			Description:              pulumi.String("Delete recent messages"),
			DefaultMemberPermissions: pulumi.String("8192"),
			Options: discord.CommandOptionArray{
				discord.CommandOptionArgs{
					Type:        discord.OptionTypeInteger,
					Name:        pulumi.String("count"),
					Description: pulumi.String("How many messages"),
					Required:    pulumi.Bool(true),
					MinValue:    pulumi.Float64(1),
					MaxValue:    pulumi.Float64(100),
				},
			},
		})
		if err != nil {
			return err
		}

		// The ids the service gave the commands, for the bot's interaction handler.
		ctx.Export("commandIds", pulumi.StringMap{
			"ping":    ping.CommandId,
			"profile": profile.CommandId,
			"purge":   purge.CommandId,
		})
		return nil
	})
}
