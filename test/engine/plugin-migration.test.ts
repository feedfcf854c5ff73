/**
 * Migration: a stack deployed with the dynamic resources moves to the plugin's resources
 * with no command recreated. The program declares the plugin's resources with an alias
 * naming the dynamic resource's old type (README: "Move a stack to the plugin"); one
 * `up` takes them over with no request that writes, keeps every id, and leaves no
 * serialized provider code in the state.
 */
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import type { PulumiProgram } from "../../scripts/pulumiProgram";
import { IDS, programAgainst, configurePluginStack } from "./lifecycle.helpers";

jest.setTimeout(400_000);

let emu: RunningEmulator;
let prog: PulumiProgram;

const dynamicProgram = `
import * as discord from "pulumi-discord-commands";
const ping = new discord.GlobalCommand("ping", { name: "ping", description: "Check the bot" });
const ban = new discord.GuildCommand("ban", {
  guildId: "${IDS.guild}",
  name: "ban",
  description: "Ban a member",
  options: [{ type: discord.OptionType.USER, name: "member", description: "Who", required: true }],
});
new discord.GuildCommandPermissions("banPermissions", {
  guildId: "${IDS.guild}",
  commandId: ban.commandId,
  permissions: [{ id: "${IDS.role}", type: discord.PermissionType.ROLE, permission: true }],
});
`;

/** The same resources through the plugin, each aliased to its dynamic type. */
function pluginProgram(project: string): string {
  const alias = (type: string, name: string) =>
    `    options:\n      aliases:\n        - urn:pulumi:dev::${project}::pulumi-nodejs:dynamic/discord:${type}::${name}\n`;
  return `name: ${project}
runtime: yaml
packages:
  discord-commands: ${PROJECT_ROOT}/plugin
resources:
  ping:
    type: discord-commands:GlobalCommand
    properties:
      name: ping
      description: Check the bot
${alias("GlobalCommand", "ping")}  ban:
    type: discord-commands:GuildCommand
    properties:
      guildId: "${IDS.guild}"
      name: ban
      description: Ban a member
      options:
        - type: 6
          name: member
          description: Who
          required: true
${alias("GuildCommand", "ban")}  banPermissions:
    type: discord-commands:GuildCommandPermissions
    properties:
      guildId: "${IDS.guild}"
      commandId: \${ban.id}
      permissions:
        - id: "${IDS.role}"
          type: 1
          permission: true
${alias("GuildCommandPermissions", "banPermissions")}`;
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0, rateLimits: false });
  prog = await programAgainst(emu, "plugin-migration", dynamicProgram);
});

afterAll(async () => {
  prog?.cleanup();
  await emu?.close();
});

interface StateResource {
  urn: string;
  type: string;
  id?: string;
}

async function stateResources(): Promise<StateResource[]> {
  const exported = JSON.parse((await prog.ok(["stack", "export"])).stdout) as {
    deployment: { resources: StateResource[] };
  };
  return exported.deployment.resources;
}

test("one up moves the stack to the plugin: same ids, no write, no provider code in state", async () => {
  await prog.up();
  const before = (await stateResources()).filter((r) => r.type.startsWith("pulumi-nodejs:dynamic"));
  expect(before.map((r) => r.type).sort()).toEqual([
    "pulumi-nodejs:dynamic/discord:GlobalCommand",
    "pulumi-nodejs:dynamic/discord:GuildCommand",
    "pulumi-nodejs:dynamic/discord:GuildCommandPermissions",
  ]);

  prog.write({ "Pulumi.yaml": pluginProgram(prog.name) });
  await configurePluginStack(prog, emu);
  emu.control.resetLog();
  const preview = await prog.ok(["preview", "--non-interactive"]);
  expect(preview.stdout).not.toMatch(/replace|create|delete/);
  await prog.up();
  expect(emu.requestLog().filter((e) => e.method !== "GET")).toEqual([]);

  const after = await stateResources();
  const byType = (t: string) => after.find((r) => r.type === `discord-commands:index:${t}`)?.id;
  const idOf = (t: string) =>
    before.find((r) => r.type === `pulumi-nodejs:dynamic/discord:${t}`)?.id;
  for (const t of ["GlobalCommand", "GuildCommand", "GuildCommandPermissions"]) {
    expect(byType(t)).toBeDefined();
    expect(byType(t)).toBe(idOf(t));
  }
  expect(after.some((r) => r.type.startsWith("pulumi-nodejs:"))).toBe(false);
  expect((await prog.ok(["stack", "export"])).stdout).not.toContain("__provider");

  const summary = await prog.previewSummary();
  expect(summary).toEqual({ same: 4 });
  await prog.destroy();
  expect(emu.control.commands()).toEqual([]);
});
