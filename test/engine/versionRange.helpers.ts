/**
 * The engine smoke at one end of the tested range of Pulumi (issue 37): that end's CLI,
 * Node.js SDK and Python SDK (scripts/versionRange.ts, built and cached by setup), against
 * the emulator. One program per door, each step one command: through the plugin from
 * YAML a deploy with a CommandSet, a no-op, a rename with permissions, a field error at
 * preview, `pulumi import` and destroy; the dynamic resources from JavaScript and the
 * plugin from Python a deploy, a field error at preview and destroy. The whole suite runs
 * at the pinned version; this only says that each end still works.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import { installPythonSdk, PulumiProgram } from "../../scripts/pulumiProgram";
import { PROJECT_ROOT, requireToolchain } from "../../scripts/toolchain";
import type { RangeEnd, RangeToolchain } from "../../scripts/versionRange";
import { findRangeToolchain, rangePath } from "../../scripts/versionRange";
import { Api } from "../emulator/helpers";
import {
  commandKeys,
  configurePluginStack,
  IDS,
  moderatedGuild,
  writes,
} from "./lifecycle.helpers";

const G = IDS.guild;

function yamlProgram(name: string, kick: string, options = ""): string {
  return `name: range-yaml
runtime: yaml
packages:
  discord-commands: ${PROJECT_ROOT}/plugin
resources:
  kick:
    type: discord-commands:GuildCommand
    properties:
      guildId: "${G}"
      name: ${kick}
      description: Remove a member${options}
  kickPermissions:
    type: discord-commands:GuildCommandPermissions
    properties:
      guildId: "${G}"
      commandId: \${kick.id}
      permissions:
        - id: "${IDS.role}"
          type: 1
          permission: true
  utility:
    type: discord-commands:CommandSet
    properties:
      commands:
        - name: help
          description: How to use the bot
      scopes:
        - guildId: "${G}"
`.replace("range-yaml", name);
}

const BAD_OPTION = `
      options:
        - type: 3
          name: Bad Name
          description: x`;

/**
 * The engine's answer about its CLI's version (provider/cliVersion.ts), asked from the
 * program through the same engine address the providers get, with the tested range and
 * with two ranges this CLI lies above and below: each end's real engine answers (3.216.0
 * under the call's first name, CheckPulumiVersion).
 */
const CLI_PROBES = `
// An internal module, by its file (the package's exports name only its entry points).
const { cliOutsideRange } = require("./node_modules/pulumi-discord-commands/dist/provider/cliVersion.js");
const engine = process.env.PULUMI_NODEJS_ENGINE;
exports.cliInRange = cliOutsideRange(engine).then((line) => line ?? "none");
exports.cliNewer = cliOutsideRange(engine, { oldest: "3.0.0", newest: "3.1.0" });
exports.cliOlder = cliOutsideRange(engine, { oldest: "4.0.0", newest: "4.1.0" });
// Where the program codes Structs from plain values (provider/plainStructs.ts): "run".
exports.structs = require("./node_modules/pulumi-discord-commands/dist/provider/plainStructs.js").plainStructsInstalled() ?? "none";
`;

/** The warning a provider would give outside the tested range (cliVersion.ts). */
const OUTSIDE_LINE = /warning: pulumi-discord-commands is tested with the Pulumi CLI/;

function jsProgram(bad: boolean): string {
  return `const discord = require("pulumi-discord-commands");${CLI_PROBES}
new discord.CommandSet("utility", {
  commands: [{ name: "help", description: "How to use the bot" }],
  scopes: [{ guildId: "${G}" }, {}],
});
new discord.GuildCommand("about", {
  guildId: "${G}",
  name: "about",
  description: "About the bot",${bad ? `\n  options: [{ type: 3, name: "Bad Name", description: "x" }],` : ""}
});
`;
}

function pythonProgram(bad: boolean): string {
  return `import pulumi_discord_commands as discord

discord.GlobalCommand(
    "ping",
    name="ping",
    description="Check the bot",${bad ? `\n    options=[discord.CommandOptionArgs(type=discord.OptionType.STRING, name="Bad Name", description="x")],` : ""}
)
`;
}

/** `node_modules` for a program at this end: its SDK and a copy of the built package. */
function installNodeModules(programDir: string, rt: RangeToolchain): void {
  const target = path.join(programDir, "node_modules");
  fs.mkdirSync(target, { recursive: true });
  for (const entry of fs.readdirSync(rt.nodeModules)) {
    if (entry === ".bin" || entry.startsWith(".")) continue;
    fs.symlinkSync(path.join(rt.nodeModules, entry), path.join(target, entry), "dir");
  }
  // A copy, not a link: a link's real path would load the repository's @pulumi/pulumi.
  const pkg = path.join(target, "pulumi-discord-commands");
  fs.mkdirSync(pkg);
  fs.cpSync(path.join(PROJECT_ROOT, "dist"), path.join(pkg, "dist"), { recursive: true });
  fs.copyFileSync(path.join(PROJECT_ROOT, "package.json"), path.join(pkg, "package.json"));
}

/** The preview fails on the bad option's name, with its field path, and writes nothing. */
async function expectFieldErrorAtPreview(prog: PulumiProgram, emu: RunningEmulator): Promise<void> {
  emu.control.resetLog();
  const bad = await prog.run(["preview", "--non-interactive"]);
  expect(bad.code).not.toBe(0);
  expect(bad.stdout + bad.stderr).toMatch(/options\[0\]\.name/);
  expect(writes(emu)).toEqual([]);
}

export function rangeSmoke(end: RangeEnd): void {
  const rt = findRangeToolchain(end);
  if (rt === undefined) {
    // Not built (setup left it out, DISCORD_COMMANDS_SKIP_RANGE): a failure, never a skip.
    test(`the ${end} end of the tested range is built`, () => {
      throw new Error(
        `the ${end} end of the tested Pulumi range is not built: run \`npm run setup\` ` +
          "(without DISCORD_COMMANDS_SKIP_RANGE) to build and cache it",
      );
    });
    return;
  }
  const v = rt.versions;
  describe(`the ${end} end of the tested range (CLI ${v.cli}, @pulumi/pulumi ${v.nodejs}, pulumi ${v.python} on Python)`, () => {
    let emu: RunningEmulator;
    let env: Record<string, string>;

    beforeAll(async () => {
      emu = await startEmulator({
        port: 0,
        rateLimits: false,
        config: { guilds: [moderatedGuild(G)] },
      });
      env = { PATH: rangePath(requireToolchain(), rt) };
    });
    afterAll(async () => {
      await emu?.close();
    });

    test("YAML through the plugin: deploy, no-op, rename with permissions, field error, import, destroy", async () => {
      const prog = new PulumiProgram(
        `range-yaml-${end}`,
        { "Pulumi.yaml": yamlProgram(`range-yaml-${end}`, "kick") },
        { env },
      );
      try {
        const version = (await prog.ok(["version"])).stdout;
        expect(version.trim()).toBe(`v${v?.cli}`);
        await prog.stack("dev");
        await configurePluginStack(prog, emu);
        const deployed = await prog.up();
        expect(commandKeys(emu)).toEqual([`${G} 1 help`, `${G} 1 kick`]);
        expect(deployed.stdout + deployed.stderr).not.toMatch(OUTSIDE_LINE);
        emu.control.resetLog();
        await prog.ok(["preview", "--expect-no-changes", "--non-interactive"]);
        prog.write({ "Pulumi.yaml": yamlProgram(`range-yaml-${end}`, "remove") });
        await prog.up();
        expect(commandKeys(emu)).toEqual([`${G} 1 help`, `${G} 1 remove`]);
        expect(writes(emu).some((w) => w.startsWith("PUT editCommandPermissions"))).toBe(true);
        prog.write({ "Pulumi.yaml": yamlProgram(`range-yaml-${end}`, "remove", BAD_OPTION) });
        await expectFieldErrorAtPreview(prog, emu);
        // An unmanaged command, adopted by id (the Read of an import carries no properties).
        const api = new Api(emu);
        const other = await api.post(`${api.app}/commands`, { name: "other", description: "x" });
        const id = String((other.body as { id?: unknown }).id);
        emu.control.resetLog();
        await prog.ok([
          "import",
          "discord-commands:index:GlobalCommand",
          "other",
          id,
          "--yes",
          "--non-interactive",
          "--protect=false",
        ]);
        expect(writes(emu)).toEqual([]);
        await prog.ok(["destroy", "--yes", "--non-interactive"]);
        expect(commandKeys(emu)).toEqual([]);
      } finally {
        prog.cleanup();
      }
    });

    test("JavaScript on the dynamic resources: deploy a CommandSet and a command, field error, destroy", async () => {
      const prog = new PulumiProgram(
        `range-js-${end}`,
        {
          "Pulumi.yaml": `name: range-js-${end}\nruntime: nodejs\nmain: index.js\n`,
          "index.js": jsProgram(false),
        },
        { env },
      );
      try {
        // JavaScript, as the SDK runs it without TypeScript installed (no tsconfig.json,
        // or its vendored ts-node compiles with an old TypeScript).
        fs.rmSync(path.join(prog.dir, "tsconfig.json"));
        installNodeModules(prog.dir, rt);
        prog.env["DISCORD_TIMING_LOG"] = path.join(prog.root, "timings.jsonl");
        await prog.stack("dev");
        await prog.setConfig(
          { "discord:apiUrl": emu.url, "discord:applicationId": emu.applicationId },
          { "discord:botToken": emu.botToken },
        );
        const deployed = await prog.up();
        expect(commandKeys(emu)).toEqual(
          expect.arrayContaining([`${G} 1 about`, `${G} 1 help`, "global 1 help"]),
        );
        // Inside the range the providers say nothing of the CLI; outside it, one line.
        expect(deployed.stdout + deployed.stderr).not.toMatch(OUTSIDE_LINE);
        const outputs = JSON.parse(
          (await prog.ok(["stack", "output", "--json", "--non-interactive"])).stdout,
        ) as Record<string, string>;
        expect(outputs).toEqual({
          structs: "run",
          cliInRange: "none",
          cliNewer: `pulumi-discord-commands is tested with the Pulumi CLI 3.0.0 to 3.1.0; this CLI is ${v.cli} (newer than tested).`,
          cliOlder: `pulumi-discord-commands is tested with the Pulumi CLI 4.0.0 to 4.1.0; this CLI is ${v.cli}: upgrade it to 4.0.0 or later.`,
        });
        // The dynamic-provider host of this end decodes and encodes Structs from plain
        // values too (its process line in the timing log says so).
        const timings = fs.readFileSync(path.join(prog.root, "timings.jsonl"), "utf8");
        expect(timings).toContain('"plainStructs":"dynamic-provider"');
        prog.write({ "index.js": jsProgram(true) });
        await expectFieldErrorAtPreview(prog, emu);
        await prog.ok(["destroy", "--yes", "--non-interactive"]);
      } finally {
        prog.cleanup();
      }
    });

    test("Python through the plugin: deploy, field error, destroy", async () => {
      const venv = rt.venv;
      installPythonSdk(venv);
      const project = [
        `name: range-python-${end}`,
        "runtime:",
        "  name: python",
        "  options:",
        `    virtualenv: ${venv}`,
        "packages:",
        `  discord-commands: ${PROJECT_ROOT}/plugin`,
        "",
      ].join("\n");
      const prog = new PulumiProgram(
        `range-python-${end}`,
        { "Pulumi.yaml": project, "__main__.py": pythonProgram(false) },
        { env },
      );
      try {
        await prog.stack("dev");
        await configurePluginStack(prog, emu);
        await prog.up();
        expect(commandKeys(emu)).toContain("global 1 ping");
        prog.write({ "__main__.py": pythonProgram(true) });
        await expectFieldErrorAtPreview(prog, emu);
        await prog.ok(["destroy", "--yes", "--non-interactive"]);
      } finally {
        prog.cleanup();
      }
    });
  });
}
