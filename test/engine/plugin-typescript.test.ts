/**
 * The resource plugin from a TypeScript program on the generated Node.js SDK
 * (sdks/nodejs), through the real CLI: the same resources as the dynamic ones, by the
 * plugin's type tokens. Deploy, a second `up` with no write, an invalid field failing
 * the preview with its path, and `destroy` keeping what the stack does not manage.
 */
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import { PulumiProgram } from "../../scripts/pulumiProgram";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import { Api } from "../emulator/helpers";
import { IDS } from "./lifecycle.helpers";

jest.setTimeout(300_000);

let emu: RunningEmulator;
let prog: PulumiProgram;

const SDK = path.join(PROJECT_ROOT, "sdks", "nodejs");

function program(optionName: string): string {
  return `import * as discord from ${JSON.stringify(SDK)};

const ping = new discord.GlobalCommand("ping", {
  name: "ping",
  description: "Check the bot",
  descriptionLocalizations: { fr: "Vérifier le bot" },
});
const ban = new discord.GuildCommand("ban", {
  guildId: "${IDS.guild}",
  name: "ban",
  description: "Ban a member",
  options: [{ type: discord.OptionType.User, name: ${JSON.stringify(optionName)}, description: "Who", required: true }],
});
new discord.GuildCommandPermissions("banPermissions", {
  guildId: "${IDS.guild}",
  commandId: ban.id,
  permissions: [{ id: "${IDS.role}", type: discord.PermissionType.Role, permission: true }],
});
export const pingId = ping.commandId;
`;
}

const writes = () => emu.requestLog().filter((e) => e.method !== "GET");

beforeAll(async () => {
  emu = await startEmulator({ port: 0, rateLimits: false });
  const api = new Api(emu);
  await api.post(`${api.app}/commands`, { name: "other", description: "Not ours" });
  prog = new PulumiProgram("plugin-typescript", {
    "Pulumi.yaml": `name: plugin-typescript\nruntime: nodejs\nmain: index.ts\npackages:\n  discord-commands: ${PROJECT_ROOT}/plugin\n`,
    "index.ts": program("member"),
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
  const perms = emu.control.state().permissions.find((p) => p["id"] === ban?.["id"]);
  expect(perms?.["permissions"]).toEqual([{ id: IDS.role, type: 1, permission: true }]);
  const state = (await prog.ok(["stack", "export"])).stdout;
  expect(state).toContain("discord-commands:index:GuildCommand");
  expect(state).not.toContain("__provider");
  emu.control.resetLog();
  await prog.up();
  expect(writes()).toEqual([]);
});

test("an invalid field fails the preview with its path, before any write", async () => {
  prog.write({ "index.ts": program("Bad Name") });
  emu.control.resetLog();
  const res = await prog.run(["preview", "--non-interactive"]);
  expect(res.code).not.toBe(0);
  expect(res.stdout + res.stderr).toMatch(/options\[0\]\.name: /);
  expect(writes()).toEqual([]);
});

test("destroy keeps every command the stack does not manage", async () => {
  prog.write({ "index.ts": program("member") });
  await prog.destroy();
  expect(emu.control.commands().map((c) => c["name"])).toEqual(["other"]);
});
