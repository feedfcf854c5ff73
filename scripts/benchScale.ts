/**
 * `npm run bench -- --scale`: command sets at scale, through the real CLI against the
 * emulator's realistic rate limits, side by side in one run (not a test; prints figures).
 *
 * 1,100 commands: one `CommandSet` of 100 definitions deployed to the global scope and 10
 * guilds (one unmanaged command already in each scope), from a TypeScript program (the
 * dynamic resources), then through the plugin from a YAML program, a TypeScript program
 * on the generated SDK and, with `--python`, a Python program:
 *  - `up` from empty, with the engine's default parallelism: wall time, requests, 429s,
 *    the provider process's peak RSS;
 *  - a no-op `preview --refresh` against that of 1,100 no-op dynamic resources, and its
 *    list GETs (TypeScript);
 *  - one definition changed: its writes (TypeScript);
 *  - one guild added: wall time and writes, against a no-op `up` of the same stack, and
 *    (TypeScript) the same without the CLI's automatic log;
 *  - the state's bytes per command;
 *  - for each timed run, where the time went (benchTimings.ts): when each process started,
 *    the provider's calls and rate-limit waits (DISCORD_TIMING_LOG), each role's CPU time.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator } from "../emulator";
import type { RunningEmulator } from "../emulator";
import { CommandsApi } from "../provider/client";
import { processSampler, readProgramLog, readTimingLog, whereTheTimeWent } from "./benchTimings";
import {
  buildNodeSdk,
  installPythonSdk,
  linkNodeSdk,
  PulumiProgram,
  pythonPluginProject,
  scratchDir,
  setAutomaticLogs,
  typescriptPluginProject,
} from "./pulumiProgram";
import { PROJECT_ROOT } from "./toolchain";

const DEFINITIONS = 100;
const GUILDS = Array.from({ length: 12 }, (_, i) => `14000000000000000${String(i + 10)}`);
const APP = "1300000000000000001";
const RUN_LIMIT_MS = 20 * 60_000;
const UP = ["up", "--yes", "--non-interactive", "--skip-preview"];
const PREVIEW_REFRESH = ["preview", "--refresh", "--non-interactive"];

function log(line: string): void {
  process.stdout.write(`[scale] ${line}\n`);
}

/**
 * The program's own timings, for "where the time went": when its code began (its runtime
 * loaded) and when its process exited.
 */
export const tsProgramClock = `import * as fs from "node:fs";
const log = process.env["BENCH_PROGRAM_LOG"];
if (log) {
  fs.appendFileSync(log, JSON.stringify({ ranAt: Date.now() }) + "\\n");
  process.on("exit", () => fs.appendFileSync(log, JSON.stringify({ exitedAt: Date.now() }) + "\\n"));
}
`;

/**
 * The TypeScript program: one set, the global scope plus `guilds` guild scopes (a count:
 * the first ones; or the ids).
 */
function tsProgram(guilds: number | readonly string[], changed: boolean): string {
  const ids = typeof guilds === "number" ? GUILDS.slice(0, guilds) : guilds;
  return `import "./programClock";
import * as discord from "pulumi-discord-commands";
const commands = Array.from({ length: ${DEFINITIONS} }, (_, i) => ({
  name: \`cmd\${i}\`,
  description: i === 0 && ${changed} ? "Changed text" : \`Command \${i}\`,
  options: [{ type: discord.OptionType.STRING, name: "text", description: "Some text" }],
}));
new discord.CommandSet("scale", {
  commands,
  scopes: [{}, ...${JSON.stringify(ids)}.map((guildId) => ({ guildId }))],
});
`;
}

const noopProgram = `
import * as pulumi from "@pulumi/pulumi";
const provider: pulumi.dynamic.ResourceProvider = {
  async create() {
    return { id: "noop", outs: {} };
  },
};
for (let i = 0; i < 1100; i++) new pulumi.dynamic.Resource(provider, \`noop-\${i}\`, {}, undefined, "Noop");
`;

/** The TypeScript program of the same set, through the plugin's generated SDK. */
function tsSdkProgram(guilds: readonly string[]): string {
  return `import "./programClock";
import * as discord from "@pulumi-discord-commands/sdk";
const commands = Array.from({ length: ${DEFINITIONS} }, (_, i) => ({
  name: \`cmd\${i}\`,
  description: \`Command \${i}\`,
  options: [{ type: discord.OptionType.String, name: "text", description: "Some text" }],
}));
new discord.CommandSet("scale", {
  commands,
  scopes: [{}, ...${JSON.stringify(guilds)}.map((guildId) => ({ guildId }))],
});
`;
}

/** The Python program of the same set, through the plugin's generated SDK. */
function pyProgram(guilds: readonly string[]): string {
  return `import atexit, json, os, time

_log = os.environ.get("BENCH_PROGRAM_LOG")
if _log:
    with open(_log, "a") as f:
        f.write(json.dumps({"ranAt": time.time() * 1000}) + "\\n")
    def _exited():
        with open(_log, "a") as f:
            f.write(json.dumps({"exitedAt": time.time() * 1000}) + "\\n")
    atexit.register(_exited)

import pulumi_discord_commands as discord

commands = [
    discord.CommandDefinitionArgs(
        name=f"cmd{i}",
        description=f"Command {i}",
        options=[discord.CommandOptionArgs(type=3, name="text", description="Some text")],
    )
    for i in range(${DEFINITIONS})
]
scopes = [discord.CommandSetScopeArgs()] + [
    discord.CommandSetScopeArgs(guild_id=g) for g in ${JSON.stringify(guilds)}
]
discord.CommandSet("scale", commands=commands, scopes=scopes)
`;
}

/** The YAML program of the same set, through the plugin. */
function yamlProgram(guilds: readonly string[]): string {
  const lines = [
    "name: bench-scale-yaml",
    "runtime: yaml",
    "packages:",
    `  discord-commands: ${path.join(PROJECT_ROOT, "plugin")}`,
    "resources:",
    "  scale:",
    "    type: discord-commands:CommandSet",
    "    properties:",
    "      commands:",
  ];
  for (let i = 0; i < DEFINITIONS; i++) {
    lines.push(`        - name: cmd${i}`, `          description: Command ${i}`);
    lines.push("          options:", "            - type: 3", "              name: text");
    lines.push("              description: Some text");
  }
  lines.push("      scopes:", "        - {}", ...guilds.map((g) => `        - guildId: "${g}"`));
  return `${lines.join("\n")}\n`;
}

async function scaleEmulator(): Promise<RunningEmulator> {
  const emu = await startEmulator({
    port: 0,
    rateLimits: false,
    config: {
      guilds: GUILDS.map((id) => ({ id, authorizedApplications: [APP] })),
    },
  });
  // One command of another tool in every scope (a user command: the 100 slash commands
  // fill the CHAT_INPUT cap): each must survive.
  const api = new CommandsApi({ apiUrl: emu.apiUrl, botToken: emu.botToken });
  await api.createGlobalCommand(APP, { type: 2, name: "not-ours" });
  for (const g of GUILDS) await api.createGuildCommand(APP, g, { type: 2, name: "not-ours" });
  await api.close();
  emu.control.setRateLimits(true);
  emu.control.resetLog();
  return emu;
}

export interface RunFigures {
  seconds: number;
  requests: number;
  writes: number;
  listGets: number;
  limited: number;
  /** First to last request (ms): the provider's share of the wall time. */
  providerSpanMs: number;
  /** Sum of the gaps over 1 s between consecutive requests inside that span (ms). */
  idleMs: number;
  /**
   * Per bulk overwrite, ms from the arrival of the list GET it was built from (the scope's
   * last list before it) to the PUT's arrival: the window in which another writer's new
   * command could be lost. The largest.
   */
  windowMs: number;
  /** The provider process's peak RSS (MB). */
  providerRssMb: number;
  /** Where the wall time went (benchTimings.ts). */
  where: string[];
}

/** The files a bench program's runs log their timings to (in its scratch root). */
function timingFiles(root: string): { provider: string; program: string } {
  return {
    provider: path.join(root, "provider-timings.jsonl"),
    program: path.join(root, "program-timings.jsonl"),
  };
}

/** A bench program: the CLI's automatic log on (as users have it), its runs timed. */
export function benchProgram(
  name: string,
  files: Record<string, string>,
  env: Record<string, string> = {},
): PulumiProgram {
  const root = scratchDir(name);
  const logs = timingFiles(root);
  return new PulumiProgram(name, files, {
    root,
    automaticLogs: true,
    env: { DISCORD_TIMING_LOG: logs.provider, BENCH_PROGRAM_LOG: logs.program, ...env },
  });
}

export async function run(
  emu: RunningEmulator,
  prog: PulumiProgram,
  label: string,
  args: string[],
): Promise<RunFigures> {
  emu.control.resetLog();
  const files = timingFiles(prog.root);
  for (const f of Object.values(files)) fs.rmSync(f, { force: true });
  log(`${label}: pulumi ${args.join(" ")} ...`);
  const sampler = processSampler(`PULUMI_HOME=${prog.env["PULUMI_HOME"] ?? ""}`);
  const startedAt = Date.now();
  const t0 = performance.now();
  const res = await prog.run(args, { echo: false, timeoutMs: RUN_LIMIT_MS });
  const seconds = (performance.now() - t0) / 1000;
  const roles = sampler.stop();
  if (res.code !== 0) throw new Error(`${label} failed:\n${res.stdout}\n${res.stderr}`);
  const entries = emu.requestLog();
  const times = entries.map((e) => Date.parse(e.time)).sort((a, b) => a - b);
  let idleMs = 0;
  for (let i = 1; i < times.length; i++) {
    const gap = (times[i] ?? 0) - (times[i - 1] ?? 0);
    if (gap > 1000) idleMs += gap;
  }
  let windowMs = 0;
  const lastList = new Map<string, number>();
  for (const e of entries) {
    const scope = e.path.replace(/\/commands.*$/, "");
    if (e.route === "listGlobalCommands" || e.route === "listGuildCommands") {
      lastList.set(scope, Date.parse(e.time));
    } else if (e.method === "PUT" && e.route?.startsWith("bulkOverwrite")) {
      const listed = lastList.get(scope);
      if (listed !== undefined) windowMs = Math.max(windowMs, Date.parse(e.time) - listed);
    }
  }
  const figures: RunFigures = {
    windowMs,
    seconds,
    requests: entries.length,
    writes: entries.filter((e) => e.method !== "GET").length,
    listGets: entries.filter(
      (e) => e.route === "listGlobalCommands" || e.route === "listGuildCommands",
    ).length,
    limited: entries.filter((e) => e.status === 429).length,
    providerSpanMs: times.length > 1 ? (times.at(-1) ?? 0) - (times[0] ?? 0) : 0,
    idleMs,
    providerRssMb: roles.provider.peakRssMb,
    where: whereTheTimeWent(
      startedAt,
      seconds,
      roles,
      readProgramLog(files.program),
      readTimingLog(files.provider),
    ),
  };
  log(
    `${label}: ${seconds.toFixed(1)} s, ${figures.requests} requests (${figures.writes} writes, ` +
      `${figures.listGets} list GETs), 429s ${figures.limited}`,
  );
  return figures;
}

function kept(emu: RunningEmulator): number {
  return emu.control.commands().filter((c) => c["name"] === "not-ours").length;
}

async function typescriptScale(): Promise<string[]> {
  const emu = await scaleEmulator();
  const prog = benchProgram("bench-scale-ts", {
    "index.ts": tsProgram(10, false),
    "programClock.ts": tsProgramClock,
  });
  const link = path.join(prog.dir, "node_modules", "pulumi-discord-commands");
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.symlinkSync(PROJECT_ROOT, link, "dir");
  const noop = benchProgram("bench-scale-noop", { "index.ts": noopProgram });
  try {
    await prog.stack("bench");
    await prog.setConfig(
      { "discord:apiUrl": emu.url, "discord:applicationId": APP },
      { "discord:botToken": emu.botToken },
    );
    const up = await run(emu, prog, "TypeScript, 1,100 commands: up from empty", UP);
    const peakMb = up.providerRssMb;
    const live = emu.control.commands().length;
    const stateBytes = fs.statSync(prog.stateFile("bench")).size;
    const preview = await run(emu, prog, "no-op preview --refresh", PREVIEW_REFRESH);

    await noop.stack("bench");
    await noop.ok(UP);
    log("1,100 no-op dynamic resources: preview --refresh ...");
    const n0 = performance.now();
    await noop.ok(PREVIEW_REFRESH);
    const noopPreview = (performance.now() - n0) / 1000;
    log(`1,100 no-op dynamic resources: preview --refresh ${noopPreview.toFixed(1)} s`);

    // The engine's fixed cost of an `up` of this stack (program, plugins, 13 resources).
    const noopUp = await run(emu, prog, "no-op up (the engine's fixed cost)", UP);
    prog.write({ "index.ts": tsProgram(10, true) });
    const change = await run(emu, prog, "one definition changed", UP);
    prog.write({ "index.ts": tsProgram(11, true) });
    const added = await run(emu, prog, "one guild added", UP);
    // The same two runs without the CLI's automatic log (pulumiProgram.ts says why), with
    // another guild (the service allows 200 creates a day per guild).
    setAutomaticLogs(prog.home, false);
    const noopQuiet = await run(emu, prog, "no-op up, the CLI's automatic log off", UP);
    prog.write({ "index.ts": tsProgram([...GUILDS.slice(0, 11), GUILDS[11] ?? ""], true) });
    const addedQuiet = await run(emu, prog, "one guild added, the CLI's automatic log off", UP);
    setAutomaticLogs(prog.home, true);
    return [
      `TypeScript (dynamic resources), CommandSet of ${DEFINITIONS} to the global scope + 10 guilds (${live - kept(emu)} commands live, ${kept(emu)}/${GUILDS.length + 1} others kept):`,
      `  up from empty: ${up.seconds.toFixed(1)} s (goal <= 30), ${up.requests} requests (${up.writes} writes), 429s ${up.limited}; ` +
        `provider process peak RSS ${peakMb.toFixed(0)} MB (goal <= 400)`,
      `    requests: ${(up.providerSpanMs / 1000).toFixed(1)} s from the first to the last ` +
        `(${(up.idleMs / 1000).toFixed(1)} s of it in gaps over 1 s)`,
      ...up.where.map((l) => `    ${l}`),
      `  no-op preview --refresh: ${preview.seconds.toFixed(1)} s vs 1,100 no-op dynamic resources ${noopPreview.toFixed(1)} s = ` +
        `${(preview.seconds / noopPreview).toFixed(2)}x (goal <= 1.5x); list GETs ${preview.listGets} (goal 11), writes ${preview.writes}`,
      `  one definition changed: ${change.seconds.toFixed(1)} s, writes ${change.writes} (one per scope: 11), requests ${change.requests}`,
      `  one guild added (100 commands): ${added.seconds.toFixed(1)} s (goal <= 5), writes ${added.writes}, requests ${added.requests}; ` +
        `a no-op up of the same stack takes ${noopUp.seconds.toFixed(1)} s (${noopUp.requests} requests), so the guild costs ${(added.seconds - noopUp.seconds).toFixed(1)} s over the engine's fixed cost`,
      ...added.where.map((l) => `    ${l}`),
      `    with the CLI's automatic log off: the guild added ${addedQuiet.seconds.toFixed(1)} s, a no-op up ${noopQuiet.seconds.toFixed(1)} s ` +
        `(the log costs ${(noopUp.seconds - noopQuiet.seconds).toFixed(1)} s of a no-op up)`,
      ...addedQuiet.where.map((l) => `    ${l}`),
      `  overwrite window (list GET to its PUT, largest): ${up.windowMs} ms in the up from empty, ${added.windowMs} ms when a guild was added`,
      `  state: ${stateBytes} bytes for ${live - kept(emu)} commands = ${(stateBytes / (live - kept(emu))).toFixed(0)} bytes per command (goal <= 3,072)`,
    ];
  } finally {
    prog.cleanup();
    noop.cleanup();
    await emu.close();
  }
}

/**
 * The same set through the plugin from a YAML, a TypeScript (on the generated SDK) or a
 * Python program: `up` from empty, a no-op `up`, and one guild added. The plugin starts with the engine (the program's
 * `packages:` names it), so its start overlaps the program's.
 */
async function pluginScale(language: "python" | "yaml" | "typescript"): Promise<string[]> {
  if (language === "python") installPythonSdk();
  const files = (guilds: readonly string[]): Record<string, string> =>
    language === "yaml"
      ? { "Pulumi.yaml": yamlProgram(guilds) }
      : language === "python"
        ? {
            "Pulumi.yaml": pythonPluginProject("bench-scale-python"),
            "__main__.py": pyProgram(guilds),
          }
        : {
            "Pulumi.yaml": typescriptPluginProject("bench-scale-typescript"),
            "index.ts": tsSdkProgram(guilds),
            "programClock.ts": tsProgramClock,
          };
  const label = { yaml: "YAML", python: "Python", typescript: "TypeScript on the SDK" }[language];
  const emu = await scaleEmulator();
  const prog = benchProgram(`bench-scale-${language}`, files(GUILDS.slice(0, 10)));
  const sdkBin = language === "typescript" ? buildNodeSdk() : undefined;
  if (sdkBin !== undefined) linkNodeSdk(prog.dir, sdkBin);
  try {
    await prog.stack("bench");
    await prog.setConfig(
      { "discord-commands:apiUrl": emu.url, "discord-commands:applicationId": APP },
      { "discord-commands:botToken": emu.botToken },
    );
    const up = await run(emu, prog, `${label} (plugin), 1,100 commands: up from empty`, UP);
    const live = emu.control.commands().length;
    const stateBytes = fs.statSync(prog.stateFile("bench")).size;
    const noopUp = await run(emu, prog, `${label} (plugin): no-op up`, UP);
    prog.write(files(GUILDS.slice(0, 11)));
    const added = await run(emu, prog, `${label} (plugin): one guild added`, UP);
    return [
      `${label} (plugin), the same set (${live - kept(emu)} commands live, ${kept(emu)}/${GUILDS.length + 1} others kept):`,
      `  up from empty: ${up.seconds.toFixed(1)} s, ${up.requests} requests (${up.writes} writes), 429s ${up.limited}; ` +
        `plugin process peak RSS ${up.providerRssMb.toFixed(0)} MB; state ${(stateBytes / (live - kept(emu))).toFixed(0)} bytes per command`,
      ...up.where.map((l) => `    ${l}`),
      `  one guild added (100 commands): ${added.seconds.toFixed(1)} s (goal <= 5), writes ${added.writes}, requests ${added.requests}; ` +
        `a no-op up ${noopUp.seconds.toFixed(1)} s`,
      ...added.where.map((l) => `    ${l}`),
    ];
  } finally {
    prog.cleanup();
    if (sdkBin !== undefined) fs.rmSync(path.dirname(sdkBin), { recursive: true, force: true });
    await emu.close();
  }
}

export async function main(): Promise<void> {
  // `--only=yaml,python` (of dynamic, yaml, typescript, python): those rows alone, e.g. to
  // compare one door with a switch of provider/publicPaths.ts on and off.
  const only = process.argv
    .find((a) => a.startsWith("--only="))
    ?.slice("--only=".length)
    .split(",");
  const want = (row: string): boolean => (only ? only.includes(row) : row !== "python");
  const lines = want("dynamic") ? await typescriptScale() : [];
  if (want("yaml")) lines.push(...(await pluginScale("yaml")));
  if (want("typescript")) lines.push(...(await pluginScale("typescript")));
  if (want("python") || process.argv.includes("--python")) {
    lines.push(...(await pluginScale("python")));
  }
  process.stdout.write(`\n${lines.join("\n")}\n`);
}
