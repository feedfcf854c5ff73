/**
 * Single commands in bulk mode under the engine's parallel slots, through the real CLI
 * against the emulator, from TypeScript (dynamic resources) and from YAML (the plugin):
 * 30 new commands in the global scope and 30 in a guild. With `--parallel 100` the engine
 * hands the provider each scope's whole wave and each scope takes one PUT (issue 49: at
 * most 2); with 8 slots (the default on a 2-core machine; from TypeScript) a PUT carries
 * at most 8 operations, and the CLI prints, once, how to raise the slots. Another writer's
 * commands are kept either way. (Times: `npm run bench -- --fleet --only=singles`.)
 */
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import type { PulumiProgram } from "../../scripts/pulumiProgram";
import { PulumiProgram as Program } from "../../scripts/pulumiProgram";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import { Api } from "../emulator/helpers";
import { commandKeys, configurePluginStack, IDS, programAgainst } from "./lifecycle.helpers";

jest.setTimeout(300_000);

const G = IDS.guild;
const PER_SCOPE = 30;
const ADVICE =
  /warning: bulk mode: (the global scope|guild \d+) of application \d+ took 3 bulk overwrites for \d+ operations so far, because the engine hands the provider at most \d+ operations at once/;

function typescript(): string {
  return `
import * as discord from "pulumi-discord-commands";
for (let i = 0; i < ${PER_SCOPE}; i++) {
  new discord.GlobalCommand(\`global-\${i}\`, { name: \`global\${i}\`, description: \`Global \${i}\` });
  new discord.GuildCommand(\`guild-\${i}\`, { guildId: "${G}", name: \`guild\${i}\`, description: \`Guild \${i}\` });
}
`;
}

function yaml(): string {
  const lines = ["name: bulk-slots-yaml", "runtime: yaml", "packages:"];
  lines.push(`  discord-commands: ${PROJECT_ROOT}/plugin`, "resources:");
  for (let i = 0; i < PER_SCOPE; i++) {
    lines.push(`  global-${i}:`, "    type: discord-commands:GlobalCommand", "    properties:");
    lines.push(`      name: global${i}`, `      description: Global ${i}`);
    lines.push(`  guild-${i}:`, "    type: discord-commands:GuildCommand", "    properties:");
    lines.push(`      guildId: "${G}"`, `      name: guild${i}`, `      description: Guild ${i}`);
  }
  return `${lines.join("\n")}\n`;
}

/** Two commands of another tool in each scope. */
async function seedOthers(emu: RunningEmulator): Promise<string[]> {
  const api = new Api(emu);
  for (const base of [api.app, api.guild]) {
    for (const name of ["other-a", "other-b"]) {
      const res = await api.post(`${base}/commands`, { name, description: "Another tool's" });
      expect(res.status).toBe(201);
    }
  }
  return commandKeys(emu);
}

/** Bulk overwrite PUTs per scope since the log was reset. */
function putsPerScope(emu: RunningEmulator): { global: number; guild: number } {
  const log = emu.requestLog();
  return {
    global: log.filter((e) => e.route === "bulkOverwriteGlobalCommands").length,
    guild: log.filter((e) => e.route === "bulkOverwriteGuildCommands").length,
  };
}

async function typescriptProgram(emu: RunningEmulator): Promise<PulumiProgram> {
  const prog = await programAgainst(emu, "bulk-slots-ts", typescript());
  await prog.setConfig({ "discord:writeMode": "bulk" });
  return prog;
}

async function yamlProgram(emu: RunningEmulator): Promise<PulumiProgram> {
  const prog = new Program("bulk-slots-yaml", { "Pulumi.yaml": yaml() });
  await prog.stack("dev");
  await configurePluginStack(prog, emu, { "discord-commands:writeMode": "bulk" });
  return prog;
}

/** `up --parallel 100` from empty: one PUT per scope, no advice, the other tool's kept. */
async function upWithRaisedSlots(emu: RunningEmulator, prog: PulumiProgram): Promise<void> {
  const others = await seedOthers(emu);
  emu.control.resetLog();
  const res = await prog.up(["--parallel", "100"]);
  expect(putsPerScope(emu)).toEqual({ global: 1, guild: 1 });
  expect(res.stdout).not.toMatch(ADVICE);
  expect(commandKeys(emu)).toEqual(expect.arrayContaining(others));
  expect(commandKeys(emu)).toHaveLength(2 * PER_SCOPE + others.length);
}

describe.each([
  ["TypeScript (dynamic resources)", typescriptProgram],
  ["YAML (the plugin)", yamlProgram],
])("bulk singles from %s", (_door, makeProgram) => {
  let emu: RunningEmulator;
  let prog: PulumiProgram;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, rateLimits: false });
    prog = await makeProgram(emu);
  });
  afterAll(async () => {
    prog?.cleanup();
    await emu?.close();
  });

  test("--parallel 100: one PUT per scope, no advice, another tool's commands kept", async () => {
    await upWithRaisedSlots(emu, prog);
  });

  // The advice is the provider core's, the same in both doors: shown through the CLI once.
  if (makeProgram === typescriptProgram) {
    test("8 slots: 60 creates take 8 or more PUTs, and the CLI says once how to raise the slots", async () => {
      await prog.destroy();
      const others = commandKeys(emu);
      expect(others).toHaveLength(4);
      emu.control.resetLog();
      const res = await prog.up(["--parallel", "8"]);
      const puts = putsPerScope(emu);
      expect(puts.global + puts.guild).toBeGreaterThanOrEqual(Math.ceil((2 * PER_SCOPE) / 8));
      // Given once: the CLI prints a warning as it comes and again under "Diagnostics:".
      const diagnostics = res.stdout.slice(res.stdout.indexOf("Diagnostics:"));
      expect(diagnostics.match(new RegExp(ADVICE.source, "g"))).toHaveLength(1);
      expect(commandKeys(emu)).toEqual(expect.arrayContaining(others));
      expect(commandKeys(emu)).toHaveLength(2 * PER_SCOPE + others.length);
    });
  }
});
