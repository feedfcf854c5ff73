/**
 * The bench's scenarios, each on a fresh emulator: per-command mode, bulk mode, the plugin,
 * a blind bulk overwrite (against realistic rate limits, with 5 other commands live), and
 * the engine's own cost against no-op resources (rate limits off).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../emulator";
import type { RunningEmulator } from "../emulator";
import { CommandsApi } from "../provider/client";
import type { PluginForm } from "./benchPrograms";
import {
  commandsProgram,
  noopProgram,
  PER_SCOPE,
  pluginProgram,
  pythonProgramFiles,
  shapedNoopProgram,
  typescriptSdkProgramFiles,
} from "./benchPrograms";
import type { Row } from "./benchMeasures";
import { batchesNote, figures, median, slotsLabel, timed, UP, upWithSlots } from "./benchMeasures";
import { buildNodeSdk, installPythonSdk, linkNodeSdk, PulumiProgram } from "./pulumiProgram";
import { PROJECT_ROOT } from "./toolchain";

export function linkPackage(prog: PulumiProgram): void {
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

export async function perCommandScenario(): Promise<{
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

export async function bulkScenario(windowMs: number, parallel: number | undefined): Promise<Row> {
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
    const slots = slotsLabel(parallel);
    const args = upWithSlots(parallel);
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

/** Through the plugin, realistic limits, the engine's default slots. */
export async function pluginBulkScenario(
  form: PluginForm,
  parallel?: number,
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
    const slots = slotsLabel(parallel);
    const label = {
      scopes: `plugin (YAML), 2 ScopeCommands, ${slots}`,
      resources: `plugin (YAML), bulk, ${slots}`,
      python: `plugin (Python), bulk, ${slots}`,
      typescript: `plugin (TypeScript on the generated SDK), bulk, ${slots}`,
    }[form];
    const args = upWithSlots(parallel);
    const startedAt = Date.now();
    const up = await timed(prog, `${label}: up`, args);
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
export async function blindScenario(): Promise<Row> {
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

/**
 * The engine overhead is a ratio of two runs of a few seconds each, which vary by 10-20%
 * from run to run on a 2-core machine: each side runs this many times, alternating, and
 * the medians are compared.
 */
const OVERHEAD_ROUNDS = 5;

/**
 * The engine's own cost: `up` of the 100 commands with rate limits off against `up` of 100
 * no-op dynamic resources, alternating, each on a fresh stack (and a fresh emulator for
 * the commands); the medians of OVERHEAD_ROUNDS runs.
 */
export async function engineOverhead(): Promise<string> {
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
