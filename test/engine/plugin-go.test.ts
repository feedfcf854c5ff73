/**
 * The resource plugin from a Go program (examples/go), through the real CLI and the Go
 * language host, on the generated Go SDK (sdks/go as the npm package ships it, named by
 * the `replace` directive of the example's go.mod): the demo's kinds of resources
 * deploy, a second `up` writes nothing, an invalid field fails the preview with its path,
 * and `destroy` keeps the commands the stack does not manage. The Go host builds the program at every run that runs it; with
 * the CLI's build flags (engineEnv's GOFLAGS) the Pulumi SDK's packages come from Go's
 * build cache, so a build costs seconds once the generated SDK's package is compiled.
 */
import { IDS } from "./lifecycle.helpers";
import type { PluginExample } from "./pluginLanguages.helpers";
import { edit, startPluginExample } from "./pluginLanguages.helpers";

// The first build of a machine compiles the generated SDK's package (about 15 s here).
jest.setTimeout(300_000);

let ex: PluginExample;

beforeAll(async () => {
  // go.mod replaces the SDK's module by node_modules/pulumi-discord-commands/sdks/go.
  ex = await startPluginExample("go");
});

afterAll(async () => {
  await ex?.close();
});

test("up deploys the example's set; a second up writes nothing", async () => {
  await ex.prog.up();
  const kick = ex.liveNamed("kick");
  expect(kick).toMatchObject({ guild_id: IDS.guild, default_member_permissions: "2" });
  expect(kick).toMatchObject({
    options: [{ type: 6, name: "member", description: "Who", required: true }],
  });
  expect(ex.liveNamed("ping")).toMatchObject({
    name_localizations: { fr: "latence" },
    description_localizations: { fr: "Vérifier le bot" },
  });
  expect(ex.livePermissions(kick?.["id"])).toEqual([{ id: IDS.role, type: 1, permission: true }]);
  expect(await ex.prog.outputs()).toEqual({
    pingId: ex.liveNamed("ping")?.["id"],
    kickId: kick?.["id"],
  });

  ex.emu.control.resetLog();
  const again = await ex.prog.up();
  expect(again.stdout).toMatch(/4 unchanged/);
  expect(ex.writes()).toEqual([]);
});

test("an invalid field fails the preview with its path, before any write", async () => {
  ex.prog.write({
    "main.go": edit(
      ex.files["main.go"],
      `ctx.Export("pingId", ping.CommandId)`,
      `if _, err := discord.NewGlobalCommand(ctx, "broken", &discord.GlobalCommandArgs{
			Name:        pulumi.String("broken"),
			Description: pulumi.String("Has a bad option"),
			Options: discord.CommandOptionArray{discord.CommandOptionArgs{
				Type: discord.OptionTypeString, Name: pulumi.String("Bad Name"), Description: pulumi.String("x"),
			}},
		}); err != nil {
			return err
		}
		ctx.Export("pingId", ping.CommandId)`,
    ),
  });
  ex.emu.control.resetLog();
  const res = await ex.prog.run(["preview", "--non-interactive"]);
  expect(res.code).not.toBe(0);
  expect(res.stdout + res.stderr).toMatch(
    /GlobalCommand resource 'broken' has a problem: options\[0\]\.name: /,
  );
  expect(ex.writes()).toEqual([]);
});

test("secrets nested in a Go program's inputs stay secret in the state and the output", async () => {
  const S = {
    description: "go-hidden-option-description-9e3a",
    localized: "go-geheime-option-1f7c",
    choice: "go-hidden-choice-4b2d",
    role: "1400000000000005151",
  };
  const secret = (v: string): string =>
    `pulumi.ToSecret(pulumi.String("${v}")).(pulumi.StringOutput)`;
  ex.prog.write({
    "main.go": edit(
      ex.files["main.go"],
      `ctx.Export("pingId", ping.CommandId)`,
      `poll, err := discord.NewGuildCommand(ctx, "poll", &discord.GuildCommandArgs{
			GuildId:     pulumi.String(guildID),
			Name:        pulumi.String("poll"),
			Description: pulumi.String("Run a poll"),
			Options: discord.CommandOptionArray{discord.CommandOptionArgs{
				Type:                     discord.OptionTypeString,
				Name:                     pulumi.String("topic"),
				Description:              ${secret(S.description)},
				DescriptionLocalizations: pulumi.StringMap{"de": ${secret(S.localized)}},
				Choices: discord.CommandOptionChoiceArray{
					discord.CommandOptionChoiceArgs{Name: ${secret(S.choice)}, Value: pulumi.String("a")},
					discord.CommandOptionChoiceArgs{Name: pulumi.String("plain"), Value: pulumi.String("b")},
				},
			}},
		})
		if err != nil {
			return err
		}
		if _, err := discord.NewGuildCommandPermissions(ctx, "pollPermissions", &discord.GuildCommandPermissionsArgs{
			GuildId:   pulumi.String(guildID),
			CommandId: poll.ID().ToStringOutput(),
			Permissions: discord.PermissionOverwriteArray{discord.PermissionOverwriteArgs{
				Id: ${secret(S.role)}, Type: discord.PermissionTypeRole, Permission: pulumi.Bool(true),
			}},
		}); err != nil {
			return err
		}
		ctx.Export("pingId", ping.CommandId)`,
    ),
  });
  const res = await ex.prog.up();
  expect(ex.liveNamed("poll")?.["options"]).toMatchObject([{ description: S.description }]);
  const state = (await ex.prog.ok(["stack", "export"])).stdout;
  const shown = Object.values(S).filter((s) => (res.stdout + res.stderr + state).includes(s));
  expect(shown).toEqual([]);
});

test("destroy keeps every command the stack does not manage", async () => {
  ex.prog.write({ "main.go": ex.files["main.go"] ?? "" });
  await ex.prog.destroy();
  expect(ex.emu.control.commands().map((c) => c["name"])).toEqual(["other"]);
  expect(ex.emu.control.state().permissions).toEqual([]);
});
