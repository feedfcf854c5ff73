// Application commands from a Go program, through the discord-commands resource plugin
// and its generated Go SDK: a global command with a French translation, a guild command
// with an option, and who may use that one in the guild.
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"

	discord "github.com/pulumi-discord-commands/pulumi-discord-commands/sdks/go/discordcommands"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		guildID := cfg.Require("guildId")
		moderatorRoleID := cfg.Require("moderatorRoleId")

		ping, err := discord.NewGlobalCommand(ctx, "ping", &discord.GlobalCommandArgs{
			Name:                     pulumi.String("ping"),
			Description:              pulumi.String("Check the bot"),
			NameLocalizations:        pulumi.StringMap{"fr": pulumi.String("latence")},
			DescriptionLocalizations: pulumi.StringMap{"fr": pulumi.String("Vérifier le bot")},
		})
		if err != nil {
			return err
		}

		kick, err := discord.NewGuildCommand(ctx, "kick", &discord.GuildCommandArgs{
			GuildId:     pulumi.String(guildID),
			Name:        pulumi.String("kick"),
			Description: pulumi.String("Remove a member"),
			// Hidden from members without Kick Members until the overwrite below says otherwise.
			DefaultMemberPermissions: pulumi.String("2"),
			Options: discord.CommandOptionArray{
				discord.CommandOptionArgs{
					Type:        discord.OptionTypeUser,
					Name:        pulumi.String("member"),
					Description: pulumi.String("Who"),
					Required:    pulumi.Bool(true),
				},
			},
		})
		if err != nil {
			return err
		}

		// Needs a user's Bearer token (discord-commands:bearerToken): bots cannot write these.
		_, err = discord.NewGuildCommandPermissions(ctx, "kickPermissions", &discord.GuildCommandPermissionsArgs{
			GuildId: pulumi.String(guildID),
			// The command's id itself (not its commandId output) stays known in a preview.
			CommandId: kick.ID().ToStringOutput(),
			Permissions: discord.PermissionOverwriteArray{
				discord.PermissionOverwriteArgs{
					Id:         pulumi.String(moderatorRoleID),
					Type:       discord.PermissionTypeRole,
					Permission: pulumi.Bool(true),
				},
			},
		})
		if err != nil {
			return err
		}

		ctx.Export("pingId", ping.CommandId)
		ctx.Export("kickId", kick.CommandId)
		return nil
	})
}
