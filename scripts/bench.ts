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
import type { RunningEmulator } from "../emulator";
import { describeFigures, figures, log, printTable, timed, UP } from "./benchMeasures";
import type { Row } from "./benchMeasures";
import { noopProgram, PER_SCOPE } from "./benchPrograms";
import {
  blindScenario,
  bulkScenario,
  engineOverhead,
  linkPackage,
  perCommandScenario,
  pluginBulkScenario,
} from "./benchScenarios";
import { PulumiProgram } from "./pulumiProgram";
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
  if (process.argv.includes("--fleet")) {
    // A bot's commands at a fleet's size (scripts/benchFleet.ts).
    await (await import("./benchFleet")).fleetMain();
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
    await pluginOnly();
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
  const after = await stackAfterwards(perCommand.prog, perCommand.emu);

  const overhead = await engineOverhead();
  printTable(rows);
  process.stdout.write(
    ["engine overhead:", overhead, "", "per-command stack afterwards:", ...after, ""].join("\n"),
  );
}

/** `--plugin`: the plugin's rows against the dynamic resources' bulk row and a no-op baseline. */
async function pluginOnly(): Promise<void> {
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
}

/**
 * On the per-command stack, right after its `up`: a no-op `up`, a `preview`, a `preview
 * --refresh`, and the state file's size; one line each. The stack and emulator are closed.
 */
async function stackAfterwards(prog: PulumiProgram, emu: RunningEmulator): Promise<string[]> {
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
  return after;
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
