/**
 * What a deployment costs through the real CLI against the emulator (not a test; prints
 * figures).
 *
 * Against the emulator's realistic rate limits (creates 5 per 20 s per scope, lists and
 * bulk overwrites 5 per 5 s per scope), with 5 commands another tool made (2 global, 3 in
 * the guild) already live, 100 new commands (50 global + 50 in a guild), side by side:
 *  - per-command mode (`up`, one POST per command);
 *  - bulk mode (`up` with `discord:writeMode bulk`), for a few batching windows;
 *  - a blind bulk overwrite of the same set (one PUT per scope listing only the 100, as
 *    tools that ignore the commands they do not know do);
 * each with wall time, requests, 429s and how many of the 5 other commands survived.
 * Then the engine's own cost: `up` of the same 100 commands with rate limits off against
 * `up` of 100 no-op dynamic resources, and of 100 no-op resources with a command's
 * properties (what the engine and SDK cost per property, without this package's code);
 * medians of 5 alternating runs. Then, on the per-command stack: a no-op `up`, a
 * `preview`, a `preview --refresh`, and the state file's size.
 *
 *   npm run bench          (about 5 minutes: per-command creates wait on the rate limit)
 *   npm run bench -- --plugin   (the plugin's bulk row from a YAML program, about 30 s)
 *   npm run bench -- --scale [--python]   (1,100 commands in command sets: scripts/benchScale.ts)
 *   npm run bench -- --chaos [--fraction 0.25] [--seed 7]   (a bulk overwrite's window under
 *     5xx, 429s and drops, in process, no CLI: scripts/benchChaos.ts; about 2 minutes)
 *
 * Needs `npm run setup` first (the engine runs dist/).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../emulator";
import type { RunningEmulator } from "../emulator";
import { CommandsApi } from "../provider/client";
import {
  buildNodeSdk,
  installPythonSdk,
  linkNodeSdk,
  PulumiProgram,
  pythonPluginProject,
  typescriptPluginProject,
} from "./pulumiProgram";
import { PROJECT_ROOT } from "./toolchain";

const PER_SCOPE = 50;
/** Every CLI run is bounded; the whole bench is a few of them. */
const RUN_LIMIT_MS = 15 * 60_000;
/**
 * Bulk mode runs: the batching window, and the engine's parallel slots (`--parallel`;
 * undefined = the engine's default, 4 per CPU). An operation holds its slot until its
 * PUT answers, so the slots bound how many operations one PUT can carry.
 */
const BULK_RUNS: { windowMs: number; parallel: number | undefined }[] = [
  { windowMs: 200, parallel: undefined },
  { windowMs: 50, parallel: 100 },
  { windowMs: 10, parallel: 100 },
  { windowMs: 200, parallel: 100 },
];
/** `npm run bench -- --bulk-only`: the bulk rows and the blind overwrite only. */
const BULK_ONLY = process.argv.includes("--bulk-only");
/** `npm run bench -- --bulk-only --default-slots`: the bulk row with the engine's default slots only. */
const DEFAULT_SLOTS_ONLY = process.argv.includes("--default-slots");
/**
 * `npm run bench -- --plugin`: bulk mode through the resource plugin from a YAML program
 * (no code of ours in the program, so no program-side ordering), with the engine's
 * default slots, against 100 no-op dynamic resources in the same run; state per command.
 */
const PLUGIN_ONLY = process.argv.includes("--plugin");
/**
 * `npm run bench -- --per-command-only`: the per-command row alone (about 3 minutes), e.g.
 * with and without DISCORD_COMMANDS_PUBLIC_PATHS=ordering (provider/publicPaths.ts).
 */
const PER_COMMAND_ONLY = process.argv.includes("--per-command-only");
/** `npm run bench -- --overhead-only`: the engine overhead figures only. */
const OVERHEAD_ONLY = process.argv.includes("--overhead-only");
/**
 * The engine overhead is a ratio of two runs of a few seconds each, which vary by 10-20%
 * from run to run on a 2-core machine: each side runs this many times, alternating, and
 * the medians are compared.
 */
const OVERHEAD_ROUNDS = 5;

const commandsProgram = (guildId: string): string => `
import * as discord from "pulumi-discord-commands";
for (let i = 0; i < ${PER_SCOPE}; i++) {
  new discord.GlobalCommand(\`global-\${i}\`, { name: \`global\${i}\`, description: \`Global command \${i}\` });
  new discord.GuildCommand(\`guild-\${i}\`, { guildId: "${guildId}", name: \`guild\${i}\`, description: \`Guild command \${i}\` });
}
`;

const noopProgram = `
import * as pulumi from "@pulumi/pulumi";
const provider: pulumi.dynamic.ResourceProvider = {
  async create() {
    return { id: "noop", outs: {} };
  },
};
for (let i = 0; i < ${PER_SCOPE * 2}; i++) new pulumi.dynamic.Resource(provider, \`noop-\${i}\`, {}, undefined, "Noop");
`;

/**
 * The no-op resource with the properties a command resource registers (its arguments, the
 * hidden inputs, and the outputs the provider sets): what the engine and the SDK cost for
 * such a resource, without any of this package's code.
 */
const shapedNoopProgram = `
import * as pulumi from "@pulumi/pulumi";
const provider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    return { id: String(Date.now()), outs: { ...inputs, version: "1", adopted: false } };
  },
};
for (let i = 0; i < ${PER_SCOPE * 2}; i++) {
  new pulumi.dynamic.Resource(
    provider,
    \`noop-\${i}\`,
    {
      name: \`command\${i}\`,
      description: \`Command \${i}\`,
      applicationId: "1300000000000000001",
      __programProblems: undefined,
      version: undefined,
      adopted: undefined,
    },
    undefined,
    "Noop",
  );
}
`;

function log(line: string): void {
  process.stdout.write(`[bench] ${line}\n`);
}

async function timed(
  prog: PulumiProgram,
  label: string,
  args: string[],
): Promise<{ seconds: number; stdout: string }> {
  log(`${label}: pulumi ${args.join(" ")} ...`);
  const t0 = performance.now();
  const res = await prog.run(args, { echo: false, timeoutMs: RUN_LIMIT_MS });
  const seconds = (performance.now() - t0) / 1000;
  if (res.code !== 0) {
    throw new Error(`${label} failed (exit ${res.code}):\n${res.stdout}\n${res.stderr}`);
  }
  log(`${label}: ${seconds.toFixed(1)} s`);
  return { seconds, stdout: res.stdout };
}

interface Figures {
  requests: number;
  writes: number;
  limited: number;
  byRoute: string;
}

function figures(emu: RunningEmulator): Figures {
  const c = emu.counters();
  return {
    requests: c.total,
    writes: c.writes,
    limited: c.byStatus["429"] ?? 0,
    byRoute: Object.entries(c.byRoute)
      .map(([r, n]) => `${r} ${n}`)
      .join(", "),
  };
}

function describeFigures(f: Figures): string {
  return `requests ${f.requests}, writes ${f.writes}, 429s ${f.limited} (${f.byRoute || "none"})`;
}

function linkPackage(prog: PulumiProgram): void {
  const link = path.join(prog.dir, "node_modules", "pulumi-discord-commands");
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.symlinkSync(PROJECT_ROOT, link, "dir");
}

/** A commands program with its stack configured against `emu`. */
async function commandsStack(
  emu: RunningEmulator,
  name: string,
  extraConfig: Record<string, string> = {},
  env: Record<string, string> = {},
): Promise<PulumiProgram> {
  const prog = new PulumiProgram(
    name,
    { "index.ts": commandsProgram(emu.guildId) },
    { env, automaticLogs: true },
  );
  linkPackage(prog);
  await prog.stack("bench");
  const config = {
    "discord:apiUrl": emu.url,
    "discord:applicationId": emu.applicationId,
    ...extraConfig,
  };
  await prog.setConfig(config, { "discord:botToken": emu.botToken });
  return prog;
}

/** Five commands another tool made: 2 global, 3 in the guild. Returns their ids. */
async function seedOthers(emu: RunningEmulator): Promise<string[]> {
  const api = new CommandsApi({ apiUrl: emu.apiUrl, botToken: emu.botToken });
  try {
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await api.createGlobalCommand(emu.applicationId, {
        name: `other-global${i}`,
        description: "Another tool's command",
      });
      ids.push(r.command.id);
    }
    for (let i = 0; i < 3; i++) {
      const r = await api.createGuildCommand(emu.applicationId, emu.guildId, {
        name: `other-guild${i}`,
        description: "Another tool's command",
      });
      ids.push(r.command.id);
    }
    return ids;
  } finally {
    await api.close();
  }
}

function survivors(emu: RunningEmulator, ids: readonly string[]): number {
  const live = new Set(emu.control.commands().map((c) => c["id"]));
  return ids.filter((id) => live.has(id)).length;
}

interface Row {
  label: string;
  seconds: number;
  figures: Figures;
  kept: number;
  live: number;
  note?: string;
}

/** A fresh emulator with realistic limits and 5 other commands; the seeding is not counted. */
async function realisticEmulator(): Promise<{ emu: RunningEmulator; others: string[] }> {
  const emu = await startEmulator({ port: 0, rateLimits: true });
  const others = await seedOthers(emu);
  // The seeding spent some of the create buckets: start every scenario with full ones.
  emu.control.setRateLimits(false);
  emu.control.setRateLimits(true);
  emu.control.resetLog();
  return { emu, others };
}

async function perCommandScenario(): Promise<{
  row: Row;
  prog: PulumiProgram;
  emu: RunningEmulator;
}> {
  const { emu, others } = await realisticEmulator();
  const prog = await commandsStack(emu, "bench-per-command");
  const up = await timed(prog, "per-command mode: up of 100 new commands", UP);
  return {
    row: {
      label: "per-command mode (up)",
      seconds: up.seconds,
      figures: figures(emu),
      kept: survivors(emu, others),
      live: emu.control.commands().length,
    },
    prog,
    emu,
  };
}

/**
 * The batches a bulk-mode run logged (DISCORD_BULK_LOG): how many, their sizes, and when
 * each left, from the start of `up`: seconds, scope (G global, g guild), operations (P: as
 * POSTs, not a PUT), and the time it was held for the rate limit.
 */
function batchesNote(logFile: string, startedAt: number): { count: number; note: string } {
  if (!fs.existsSync(logFile)) return { count: 0, note: "0 batches" };
  const batches = fs
    .readFileSync(logFile, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map(
      (l) =>
        JSON.parse(l) as {
          scope: string;
          size: number;
          spreadMs: number;
          via: string;
          at: number;
          heldMs: number;
        },
    );
  if (batches.length === 0) return { count: 0, note: "0 batches" };
  const timeline = batches
    .map(
      (b) =>
        `${((b.at - startedAt) / 1000).toFixed(1)} ${b.scope === "global" ? "G" : "g"}${b.size}` +
        (b.via === "post" ? "P" : "") +
        (b.heldMs > 50 ? ` (held ${(b.heldMs / 1000).toFixed(1)} s)` : ""),
    )
    .join(", ");
  const sizes = batches.map((b) => b.size);
  const spread = Math.max(0, ...batches.map((b) => b.spreadMs));
  return {
    count: batches.length,
    note:
      `${batches.length} batches of ${Math.min(...sizes)}-${Math.max(...sizes)} operations, ` +
      `largest arrival spread ${spread} ms\n      batches at (s from start): ${timeline}`,
  };
}

async function bulkScenario(windowMs: number, parallel: number | undefined): Promise<Row> {
  const { emu, others } = await realisticEmulator();
  const tag = `${windowMs}-${parallel ?? "default"}`;
  const logFile = path.join(os.tmpdir(), `bench-bulk-${process.pid}-${tag}.jsonl`);
  fs.rmSync(logFile, { force: true });
  const prog = await commandsStack(
    emu,
    `bench-bulk-${tag}`,
    { "discord:writeMode": "bulk" },
    { DISCORD_BULK_WINDOW_MS: String(windowMs), DISCORD_BULK_LOG: logFile },
  );
  try {
    const slots = parallel === undefined ? "default slots" : `--parallel ${parallel}`;
    const args = parallel === undefined ? UP : [...UP, "--parallel", String(parallel)];
    const startedAt = Date.now();
    const up = await timed(prog, `bulk mode, window ${windowMs} ms, ${slots}: up`, args);
    const { count, note } = batchesNote(logFile, startedAt);
    return {
      label: `bulk, ${windowMs} ms, ${slots}`,
      seconds: up.seconds,
      figures: figures(emu),
      kept: survivors(emu, others),
      live: emu.control.commands().length,
      note: count === 0 ? "no batches" : note,
    };
  } finally {
    prog.cleanup();
    fs.rmSync(logFile, { force: true });
    await emu.close();
  }
}

/**
 * The 100 commands as a YAML program of the plugin's resources: one resource per command
 * (bulk mode batches them), or one `ScopeCommands` per scope.
 */
function pluginProgram(name: string, guildId: string, form: PluginForm): string {
  const lines = [`name: ${name}`, "runtime: yaml", "packages:"];
  lines.push(`  discord-commands: ${path.join(PROJECT_ROOT, "plugin")}`, "resources:");
  if (form === "scopes") {
    for (const [res, where] of [
      ["global", undefined],
      ["guild", guildId],
    ] as const) {
      lines.push(
        `  ${res}-commands:`,
        "    type: discord-commands:ScopeCommands",
        "    properties:",
      );
      if (where !== undefined) lines.push(`      guildId: "${where}"`);
      lines.push("      commands:");
      for (let i = 0; i < PER_SCOPE; i++) {
        lines.push(`        ${res}${i}:`, `          name: ${res}${i}`);
        lines.push(`          description: ${res === "global" ? "Global" : "Guild"} command ${i}`);
      }
    }
    return `${lines.join("\n")}\n`;
  }
  for (let i = 0; i < PER_SCOPE; i++) {
    lines.push(`  global-${i}:`, "    type: discord-commands:GlobalCommand", "    properties:");
    lines.push(`      name: global${i}`, `      description: Global command ${i}`);
  }
  for (let i = 0; i < PER_SCOPE; i++) {
    lines.push(`  guild-${i}:`, "    type: discord-commands:GuildCommand", "    properties:");
    lines.push(`      guildId: "${guildId}"`, `      name: guild${i}`);
    lines.push(`      description: Guild command ${i}`);
  }
  return `${lines.join("\n")}\n`;
}

type PluginForm = "resources" | "scopes" | "python" | "typescript";

/** The 100 commands as a TypeScript program on the generated SDK (through the plugin). */
function typescriptSdkProgramFiles(name: string, guildId: string): Record<string, string> {
  return {
    "Pulumi.yaml": typescriptPluginProject(name),
    "index.ts": [
      'import * as discord from "@pulumi-discord-commands/sdk";',
      `for (let i = 0; i < ${PER_SCOPE}; i++) {`,
      "  new discord.GlobalCommand(`global-${i}`, { name: `global${i}`, description: `Global command ${i}` });",
      "  new discord.GuildCommand(`guild-${i}`, {",
      `    guildId: "${guildId}",`,
      "    name: `guild${i}`,",
      "    description: `Guild command ${i}`,",
      "  });",
      "}",
      "",
    ].join("\n"),
  };
}

/** The 100 commands as a Python program of the plugin's resources (generated SDK). */
function pythonProgramFiles(name: string, guildId: string): Record<string, string> {
  return {
    "Pulumi.yaml": pythonPluginProject(name),
    "__main__.py": [
      "import pulumi_discord_commands as discord",
      "",
      `for i in range(${PER_SCOPE}):`,
      '    discord.GlobalCommand(f"global-{i}", name=f"global{i}", description=f"Global command {i}")',
      "    discord.GuildCommand(",
      `        f"guild-{i}", guild_id="${guildId}", name=f"guild{i}", description=f"Guild command {i}"`,
      "    )",
      "",
    ].join("\n"),
  };
}

/** Through the plugin, realistic limits, the engine's default slots. */
async function pluginBulkScenario(
  form: PluginForm,
): Promise<{ row: Row; stateBytes: number; commands: number }> {
  const { emu, others } = await realisticEmulator();
  const logFile = path.join(os.tmpdir(), `bench-plugin-${process.pid}.jsonl`);
  fs.rmSync(logFile, { force: true });
  const name = `bench-plugin-${form}`;
  if (form === "python") installPythonSdk();
  const files =
    form === "python"
      ? pythonProgramFiles(name, emu.guildId)
      : form === "typescript"
        ? typescriptSdkProgramFiles(name, emu.guildId)
        : { "Pulumi.yaml": pluginProgram(name, emu.guildId, form) };
  const prog = new PulumiProgram(name, files, {
    env: { DISCORD_BULK_LOG: logFile },
    automaticLogs: true,
  });
  const sdkBin = form === "typescript" ? buildNodeSdk() : undefined;
  if (sdkBin !== undefined) linkNodeSdk(prog.dir, sdkBin);
  try {
    await prog.stack("bench");
    await prog.setConfig(
      {
        "discord-commands:apiUrl": emu.url,
        "discord-commands:applicationId": emu.applicationId,
        "discord-commands:writeMode": "bulk",
      },
      { "discord-commands:botToken": emu.botToken },
    );
    emu.control.resetLog();
    const label = {
      scopes: "plugin (YAML), 2 ScopeCommands, default slots",
      resources: "plugin (YAML), bulk, default slots",
      python: "plugin (Python), bulk, default slots",
      typescript: "plugin (TypeScript on the generated SDK), bulk, default slots",
    }[form];
    const startedAt = Date.now();
    const up = await timed(prog, `${label}: up`, UP);
    const batches = batchesNote(logFile, startedAt);
    const row: Row = {
      label,
      seconds: up.seconds,
      figures: figures(emu),
      kept: survivors(emu, others),
      live: emu.control.commands().length,
      note: batches.note,
    };
    return { row, stateBytes: fs.statSync(prog.stateFile("bench")).size, commands: PER_SCOPE * 2 };
  } finally {
    prog.cleanup();
    if (sdkBin !== undefined) fs.rmSync(path.dirname(sdkBin), { recursive: true, force: true });
    fs.rmSync(logFile, { force: true });
    await emu.close();
  }
}

/** One PUT per scope listing only the 100 commands: what tools that ignore others do. */
async function blindScenario(): Promise<Row> {
  const { emu, others } = await realisticEmulator();
  const api = new CommandsApi({ apiUrl: emu.apiUrl, botToken: emu.botToken });
  try {
    const bodies = (prefix: string, label: string) =>
      Array.from({ length: PER_SCOPE }, (_, i) => ({
        name: `${prefix}${i}`,
        description: `${label} command ${i}`,
      }));
    const t0 = performance.now();
    await Promise.all([
      api.bulkOverwriteGlobalCommands(emu.applicationId, bodies("global", "Global")),
      api.bulkOverwriteGuildCommands(emu.applicationId, emu.guildId, bodies("guild", "Guild")),
    ]);
    const seconds = (performance.now() - t0) / 1000;
    return {
      label: "blind bulk overwrite (2 PUTs)",
      seconds,
      figures: figures(emu),
      kept: survivors(emu, others),
      live: emu.control.commands().length,
      note: "no engine: the PUTs alone",
    };
  } finally {
    await api.close();
    await emu.close();
  }
}

const UP = ["up", "--yes", "--non-interactive", "--skip-preview"];

interface StateResource {
  type: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

async function main(): Promise<void> {
  if (process.argv.includes("--scale")) {
    // Command sets at scale (scripts/benchScale.ts).
    await (await import("./benchScale")).main();
    return;
  }
  if (process.argv.includes("--chaos")) {
    // A bulk overwrite's window under injected faults, no CLI (scripts/benchChaos.ts).
    await (await import("./benchChaos")).main();
    return;
  }
  const rows: Row[] = [];
  log(
    `${PER_SCOPE} global + ${PER_SCOPE} guild commands; 5 other commands live (2 global, 3 guild)`,
  );

  if (PLUGIN_ONLY) {
    const rows = [
      await pluginBulkScenario("resources"),
      await pluginBulkScenario("typescript"),
      await pluginBulkScenario("python"),
      await pluginBulkScenario("scopes"),
    ];
    const dynamicBulk = await bulkScenario(200, undefined);
    const noop = new PulumiProgram(
      "bench-noop-plugin-row",
      { "index.ts": noopProgram },
      { automaticLogs: true },
    );
    linkPackage(noop);
    await noop.stack("bench");
    const noopUp = await timed(noop, "100 no-op dynamic resources: up", UP);
    noop.cleanup();
    printTable([...rows.map((r) => r.row), dynamicBulk]);
    process.stdout.write(
      [
        `dynamic resources (TypeScript), bulk, default slots: ${dynamicBulk.seconds.toFixed(1)} s`,
        ...rows.map(
          (r) =>
            `${r.row.label}: up / no-op dynamic up: ${r.row.seconds.toFixed(1)} s / ${noopUp.seconds.toFixed(1)} s = ${(r.row.seconds / noopUp.seconds).toFixed(2)}x; ` +
            `state ${r.stateBytes} bytes for ${r.commands} commands (${(r.stateBytes / r.commands).toFixed(0)} bytes per command, provider and stack included)`,
        ),
        "",
      ].join("\n"),
    );
    return;
  }
  if (OVERHEAD_ONLY) {
    process.stdout.write(["", "engine overhead:", await engineOverhead(), ""].join("\n"));
    return;
  }
  // 1. Realistic limits, side by side.
  const perCommand = BULK_ONLY ? undefined : await perCommandScenario();
  if (perCommand) rows.push(perCommand.row);
  if (perCommand && PER_COMMAND_ONLY) {
    printTable(rows);
    perCommand.prog.cleanup();
    await perCommand.emu.close();
    return;
  }
  const runs = DEFAULT_SLOTS_ONLY ? BULK_RUNS.filter((r) => r.parallel === undefined) : BULK_RUNS;
  for (const run of runs) rows.push(await bulkScenario(run.windowMs, run.parallel));
  rows.push(await blindScenario());
  if (perCommand === undefined) {
    printTable(rows);
    return;
  }

  // 2. On the per-command stack: no-op up, preview, preview --refresh, state size.
  const { prog, emu } = perCommand;
  const after: string[] = [];
  try {
    emu.control.resetLog();
    const noChange = await timed(prog, "no-op up", UP);
    after.push(
      `  no-op up right after:                       ${noChange.seconds.toFixed(1)} s; ${describeFigures(figures(emu))}`,
    );
    emu.control.resetLog();
    const preview = await timed(prog, "preview", ["preview", "--non-interactive"]);
    after.push(
      `  preview right after:                        ${preview.seconds.toFixed(1)} s; ${describeFigures(figures(emu))}`,
    );
    emu.control.resetLog();
    const refresh = await timed(prog, "preview --refresh", [
      "preview",
      "--refresh",
      "--non-interactive",
    ]);
    after.push(
      `  preview --refresh (100 commands, 2 scopes): ${refresh.seconds.toFixed(1)} s; ${describeFigures(figures(emu))}`,
    );

    const stateBytes = fs.statSync(prog.stateFile("bench")).size;
    const state = JSON.parse(fs.readFileSync(prog.stateFile("bench"), "utf8")) as {
      checkpoint: { latest?: { resources?: StateResource[] } };
    };
    const ours = (state.checkpoint.latest?.resources ?? []).filter((r) =>
      r.type.startsWith("pulumi-nodejs:dynamic/discord:"),
    );
    const providerBytes = ours.map(
      (r) =>
        String(r.inputs?.["__provider"] ?? "").length +
        String(r.outputs?.["__provider"] ?? "").length,
    );
    const perResource = providerBytes.reduce((a, b) => a + b, 0) / Math.max(1, ours.length);
    after.push(
      `  state file: ${stateBytes} bytes for ${ours.length} commands (${(stateBytes / Math.max(1, ours.length)).toFixed(0)} bytes per command); __provider ${perResource.toFixed(0)} bytes per resource`,
    );
  } finally {
    prog.cleanup();
    await emu.close();
  }

  const overhead = await engineOverhead();
  printTable(rows);
  process.stdout.write(
    ["engine overhead:", overhead, "", "per-command stack afterwards:", ...after, ""].join("\n"),
  );
}

/**
 * The engine's own cost: `up` of the 100 commands with rate limits off against `up` of 100
 * no-op dynamic resources, alternating, each on a fresh stack (and a fresh emulator for
 * the commands); the medians of OVERHEAD_ROUNDS runs.
 */
async function engineOverhead(): Promise<string> {
  const noopSeconds: number[] = [];
  const shapedSeconds: number[] = [];
  const commandSeconds: number[] = [];
  for (let round = 0; round < OVERHEAD_ROUNDS; round++) {
    const noop = new PulumiProgram(
      `bench-noop-${round}`,
      { "index.ts": noopProgram },
      { automaticLogs: true },
    );
    const shaped = new PulumiProgram(
      `bench-shaped-${round}`,
      { "index.ts": shapedNoopProgram },
      { automaticLogs: true },
    );
    const unlimited = await startEmulator({ port: 0, rateLimits: false });
    const fast = await commandsStack(unlimited, `bench-unlimited-${round}`);
    try {
      await noop.stack("bench");
      await shaped.stack("bench");
      const n = round + 1;
      noopSeconds.push(
        (await timed(noop, `baseline ${n}: 100 no-op dynamic resources`, UP)).seconds,
      );
      shapedSeconds.push(
        (await timed(shaped, `baseline ${n}: 100 no-op resources shaped like commands`, UP))
          .seconds,
      );
      commandSeconds.push(
        (await timed(fast, `up ${n} of 100 new commands, rate limits off`, UP)).seconds,
      );
    } finally {
      noop.cleanup();
      shaped.cleanup();
      fast.cleanup();
      await unlimited.close();
    }
  }
  const base = median(noopSeconds);
  const shapedBase = median(shapedSeconds);
  const commands = median(commandSeconds);
  const all = (xs: number[]): string => xs.map((x) => x.toFixed(1)).join(", ");
  return [
    `  up, 100 commands, rate limits off: median ${commands.toFixed(1)} s (${all(commandSeconds)})`,
    `  100 no-op dynamic resources: median ${base.toFixed(1)} s (${all(noopSeconds)})`,
    `  100 no-op dynamic resources with a command's properties: median ${shapedBase.toFixed(1)} s (${all(shapedSeconds)})`,
    `  engine overhead ratio ${(commands / base).toFixed(2)}x; against the shaped no-op ${(commands / shapedBase).toFixed(2)}x`,
  ].join("\n");
}

function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? NaN)
    : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
}

function printTable(rows: readonly Row[]): void {
  const slowest = rows[0]?.seconds ?? NaN;
  const table = rows.map(
    (r) =>
      `  ${r.label.padEnd(34)} ${r.seconds.toFixed(1).padStart(6)} s ` +
      `(${(slowest / r.seconds).toFixed(1).padStart(5)}x) ` +
      `requests ${String(r.figures.requests).padStart(3)}, 429s ${String(r.figures.limited).padStart(2)}, ` +
      `others kept ${r.kept}/5, live ${r.live}` +
      `\n      ${r.figures.byRoute}${r.note ? `; ${r.note}` : ""}`,
  );
  process.stdout.write(
    [
      "",
      "100 new commands (50 global + 50 guild), emulator with its realistic rate limits,",
      `5 other commands live; speed-up relative to the first row:`,
      ...table,
      "",
    ].join("\n"),
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
