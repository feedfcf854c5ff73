/**
 * Pulumi's public paths (DISCORD_COMMANDS_PUBLIC_PATHS=all, provider/publicPaths.ts) through
 * the real CLI: the plugin on google-protobuf's Struct coders and without its compile
 * cache (YAML, a command and a CommandSet), the dynamic resources without their
 * registration order and promise-stack suppression (TypeScript, two scopes and a set):
 * each deploys, previews no change and is destroyed. Every other engine test runs our own
 * paths; test/provider/publicPaths.test.ts runs both paths of each switch.
 */
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import { PulumiProgram } from "../../scripts/pulumiProgram";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import { commandKeys, configurePluginStack, IDS, moderatedGuild } from "./lifecycle.helpers";

jest.setTimeout(600_000);

const G = IDS.guild;
const env = { DISCORD_COMMANDS_PUBLIC_PATHS: "all" };
let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({
    port: 0,
    rateLimits: false,
    config: { guilds: [moderatedGuild(G)] },
  });
});
afterAll(async () => {
  await emu?.close();
});

test("the plugin from YAML: deploy, no change, destroy", async () => {
  const prog = new PulumiProgram(
    "public-paths-yaml",
    {
      "Pulumi.yaml": `name: public-paths-yaml
runtime: yaml
packages:
  discord-commands: ${PROJECT_ROOT}/plugin
resources:
  ping:
    type: discord-commands:GlobalCommand
    properties:
      name: ping
      description: Check the bot
  utility:
    type: discord-commands:CommandSet
    properties:
      commands:
        - name: help
          description: How to use the bot
      scopes:
        - guildId: "${G}"
`,
    },
    { env },
  );
  try {
    await prog.stack("dev");
    await configurePluginStack(prog, emu);
    await prog.up();
    expect(commandKeys(emu)).toEqual([`${G} 1 help`, "global 1 ping"]);
    await prog.ok(["preview", "--expect-no-changes", "--non-interactive"]);
    await prog.destroy();
    expect(commandKeys(emu)).toEqual([]);
  } finally {
    prog.cleanup();
  }
});

test("the dynamic resources from TypeScript: deploy, no change, destroy", async () => {
  const prog = new PulumiProgram(
    "public-paths-ts",
    {
      "index.ts": `import * as discord from "pulumi-discord-commands";
new discord.GlobalCommand("ping", { name: "ping", description: "Check the bot" });
new discord.GuildCommand("about", { guildId: "${G}", name: "about", description: "About the bot" });
new discord.CommandSet("utility", {
  commands: [{ name: "help", description: "How to use the bot" }],
  scopes: [{ guildId: "${G}" }],
});
`,
    },
    { env },
  );
  try {
    await prog.stack("dev");
    await prog.setConfig(
      { "discord:apiUrl": emu.url, "discord:applicationId": emu.applicationId },
      { "discord:botToken": emu.botToken },
    );
    await prog.up();
    expect(commandKeys(emu)).toEqual([`${G} 1 about`, `${G} 1 help`, "global 1 ping"]);
    await prog.ok(["preview", "--expect-no-changes", "--non-interactive"]);
    await prog.destroy();
    expect(commandKeys(emu)).toEqual([]);
  } finally {
    prog.cleanup();
  }
});
