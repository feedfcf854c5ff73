/**
 * The resource plugin from a Go program, through the real CLI and the Go language host,
 * on the generated SDK (sdks/go, by a `replace` directive as the README says): the
 * demo's kinds of resources deploy, a second `up` writes nothing, an invalid field fails
 * the preview with its path, and `destroy` keeps the commands the stack does not manage.
 * The program's modules are pinned at the CLI's versions (test/fixtures/languages/go), so
 * its first build reuses the CLI's compiled packages.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import { PulumiProgram } from "../../scripts/pulumiProgram";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import { Api } from "../emulator/helpers";
import { IDS } from "./lifecycle.helpers";

jest.setTimeout(600_000);

let emu: RunningEmulator;
let prog: PulumiProgram;

const FIXTURE = path.join(PROJECT_ROOT, "test", "fixtures", "languages", "go");

function goMod(): string {
  const base = fs
    .readFileSync(path.join(FIXTURE, "go.mod"), "utf8")
    .replace(/^module .*$/m, "module plugin-go");
  return `${base}
require example.com/pulumi-discord-commands/sdks/go v0.0.0

replace example.com/pulumi-discord-commands/sdks/go => ${path.join(PROJECT_ROOT, "sdks", "go")}
`;
}

function mainGo(optionName: string): string {
  return `package main

import (
	discord "example.com/pulumi-discord-commands/sdks/go/discordcommands"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		ping, err := discord.NewGlobalCommand(ctx, "ping", &discord.GlobalCommandArgs{
			Name:        pulumi.String("ping"),
			Description: pulumi.String("Check the bot"),
			DescriptionLocalizations: pulumi.StringMap{"fr": pulumi.String("Vérifier le bot")},
		})
		if err != nil {
			return err
		}
		ban, err := discord.NewGuildCommand(ctx, "ban", &discord.GuildCommandArgs{
			GuildId:     pulumi.String("${IDS.guild}"),
			Name:        pulumi.String("ban"),
			Description: pulumi.String("Ban a member"),
			Options: discord.CommandOptionArray{discord.CommandOptionArgs{
				Type:        discord.OptionTypeUser,
				Name:        pulumi.String("${optionName}"),
				Description: pulumi.String("Who"),
				Required:    pulumi.Bool(true),
			}},
		})
		if err != nil {
			return err
		}
		_, err = discord.NewGuildCommandPermissions(ctx, "banPermissions", &discord.GuildCommandPermissionsArgs{
			GuildId:   pulumi.String("${IDS.guild}"),
			CommandId: ban.ID().ToStringOutput(),
			Permissions: discord.PermissionOverwriteArray{discord.PermissionOverwriteArgs{
				Id:         pulumi.String("${IDS.role}"),
				Type:       discord.PermissionTypeRole,
				Permission: pulumi.Bool(true),
			}},
		})
		if err != nil {
			return err
		}
		ctx.Export("pingId", ping.CommandId)
		return nil
	})
}
`;
}

const writes = () => emu.requestLog().filter((e) => e.method !== "GET");

beforeAll(async () => {
  emu = await startEmulator({ port: 0, rateLimits: false });
  const api = new Api(emu);
  await api.post(`${api.app}/commands`, { name: "other", description: "Not ours" });
  prog = new PulumiProgram("plugin-go", {
    "Pulumi.yaml": `name: plugin-go\nruntime: go\npackages:\n  discord-commands: ${PROJECT_ROOT}/plugin\n`,
    "go.mod": goMod(),
    "go.sum": fs.readFileSync(path.join(FIXTURE, "go.sum"), "utf8"),
    "main.go": mainGo("member"),
  });
  await prog.stack("dev");
  await prog.ok([
    "config",
    "set-all",
    "--plaintext",
    `discord-commands:apiUrl=${emu.url}`,
    "--plaintext",
    `discord-commands:applicationId=${emu.applicationId}`,
    "--secret",
    `discord-commands:botToken=${emu.botToken}`,
    "--secret",
    `discord-commands:bearerToken=${emu.userBearerToken}`,
  ]);
});

afterAll(async () => {
  prog?.cleanup();
  await emu?.close();
});

test("up deploys the set; a second up writes nothing", async () => {
  await prog.up();
  const ban = emu.control.commands().find((c) => c["name"] === "ban");
  expect(ban).toMatchObject({ guild_id: IDS.guild });
  const ping = emu.control.commands().find((c) => c["name"] === "ping");
  expect(ping).toMatchObject({ description_localizations: { fr: "Vérifier le bot" } });
  const perms = emu.control.state().permissions.find((p) => p["id"] === ban?.["id"]);
  expect(perms?.["permissions"]).toEqual([{ id: IDS.role, type: 1, permission: true }]);
  emu.control.resetLog();
  await prog.up();
  expect(writes()).toEqual([]);
});

test("an invalid field fails the preview with its path, before any write", async () => {
  prog.write({ "main.go": mainGo("Bad Name") });
  emu.control.resetLog();
  const res = await prog.run(["preview", "--non-interactive"]);
  expect(res.code).not.toBe(0);
  expect(res.stdout + res.stderr).toMatch(/options\[0\]\.name: /);
  expect(writes()).toEqual([]);
});

test("destroy keeps every command the stack does not manage", async () => {
  prog.write({ "main.go": mainGo("member") });
  await prog.destroy();
  expect(emu.control.commands().map((c) => c["name"])).toEqual(["other"]);
});
