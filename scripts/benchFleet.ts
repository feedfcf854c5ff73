/**
 * `npm run bench -- --fleet`: a bot's commands at a fleet's size, through the real CLI
 * against the emulator's realistic rate limits (not a test; prints figures beside their
 * goals, their baselines and the service's limit of 50 requests a second).
 *
 *  - `set`: one `CommandSet` of 100 rich definitions (scripts/benchFleetPrograms.ts) to the
 *    global scope and 100 guilds (10,100 commands), one permissions entry per guild, one
 *    command of another tool in every scope, from TypeScript (the dynamic resources):
 *    `up` from empty, a no-op `preview --refresh`, one definition changed;
 *  - `set-yaml`: the same through the plugin, from YAML;
 *  - `thousand`: 10 definitions to the global scope and 1,000 guilds (10,010 commands):
 *    `up` from empty, a no-op `preview --refresh`, then the emulator's page (the first
 *    scope) with 1,000 guilds held.
 *
 *   npm run bench -- --fleet [--only=set,set-yaml,packed,packed-yaml,thousand,thousand-packed,singles,noop,shape] [--guilds=10,100]
 *     [--per-command] [--parallel=<n>] [--profile=<dir>] [--write-docs]
 *
 *  - `singles`: 100 `GuildCommand`s in 2 scopes in bulk mode, from TypeScript (dynamic
 *    resources), YAML and Python (the plugin), with the engine's default slots and with
 *    `--parallel=<n>` (100 unless given), beside 100 no-op resources with the same slots
 *    (and, with `--per-command`, in per-command mode: about 3 minutes, the service's 5
 *    creates per 20 s per scope);
 *  - `noop`: 100 and 1,100 no-op dynamic resources, the engine's own cost;
 *  - `shape`: the set's data at each `--guilds` size in no-op dynamic resources (no request,
 *    none of this package's code), one resource per scope as a `CommandSet` holds it, and
 *    the data once in one resource: the engine's cost of the state's shape;
 *  - `--write-docs`: docs/performance.md and its charts, from this run (scripts/benchChart.ts).
 *
 * `--profile=<dir>` writes CPU profiles of every process of each run: the engine's
 * (`pulumi --profiling`, Go's pprof) and the Node processes' (`--cpu-prof`: the program and
 * the provider), read by scripts/benchProfile.ts.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEFAULTS, startEmulator } from "../emulator";
import type { RunningEmulator } from "../emulator";
import { CommandsApi } from "../provider/client";
import type { RunFigures } from "./benchScale";
import { benchProgram, run, tsProgramClock } from "./benchScale";
import type { FleetShape } from "./benchFleetPrograms";
import { APP, fleetGuilds, fleetTypescript, fleetYaml, shapeProgram } from "./benchFleetPrograms";
import type { BenchPoint } from "./benchChart";
import { writePerformanceDocs } from "./benchChart";
import type { Row } from "./benchMeasures";
import { describeFigures, slotsLabel, upWithSlots } from "./benchMeasures";
import { noopProgram } from "./benchPrograms";
import { bulkScenario, perCommandScenario, pluginBulkScenario } from "./benchScenarios";
import type { PulumiProgram } from "./pulumiProgram";
import { PROJECT_ROOT } from "./toolchain";

/** Makes a Node process end normally on a signal, so that `--cpu-prof` writes its profile. */
const PROFILE_PRELOAD = path.join(PROJECT_ROOT, "scripts", "benchExitOnSignal.js");
const UP = ["up", "--yes", "--non-interactive", "--skip-preview"];
const PREVIEW_REFRESH = ["preview", "--refresh", "--non-interactive"];

function flag(name: string): string | undefined {
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

/** A guild where the default user may write permissions (a role with Manage Guild). */
function moderated(id: string) {
  return {
    id,
    roles: [{ id: DEFAULTS.managerRoleId, permissions: String((1n << 5n) | (1n << 28n)) }],
    channels: [{ id: DEFAULTS.channelId }],
    members: [{ userId: DEFAULTS.userId, roles: [DEFAULTS.managerRoleId] }],
    authorizedApplications: [APP],
  };
}

/** The emulator of a fleet: its guilds, and one command of another tool in every scope. */
async function fleetEmulator(guilds: readonly string[], others: boolean): Promise<RunningEmulator> {
  const emu = await startEmulator({
    port: 0,
    rateLimits: false,
    config: { guilds: guilds.map(moderated) },
  });
  if (others) {
    const api = new CommandsApi({ apiUrl: emu.apiUrl, botToken: emu.botToken });
    await api.createGlobalCommand(APP, { type: 2, name: "not-ours" });
    for (const g of guilds) await api.createGuildCommand(APP, g, { type: 2, name: "not-ours" });
    await api.close();
  }
  emu.control.setRateLimits(true);
  emu.control.resetLog();
  return emu;
}

/** `pulumi <args>`, with the engine's own profile when profiling. */
function cliArgs(args: readonly string[], dir: string | undefined, label: string): string[] {
  if (dir === undefined) return [...args];
  return [...args, "--profiling", path.join(dir, `engine-${label}`)];
}

interface FleetRun {
  readonly label: string;
  readonly figures: RunFigures;
}

async function timedRun(
  emu: RunningEmulator,
  prog: PulumiProgram,
  label: string,
  args: readonly string[],
  profile: string | undefined,
): Promise<FleetRun> {
  const dir = profile === undefined ? undefined : path.join(profile, label.replace(/\W+/g, "-"));
  if (dir !== undefined) {
    fs.mkdirSync(dir, { recursive: true });
    prog.env["NODE_OPTIONS"] = `--cpu-prof --cpu-prof-dir=${dir} --require ${PROFILE_PRELOAD}`;
  }
  const figures = await run(emu, prog, label, cliArgs(args, dir, "cli"));
  delete prog.env["NODE_OPTIONS"];
  return { label, figures };
}

function linkPackage(prog: PulumiProgram): void {
  const link = path.join(prog.dir, "node_modules", "pulumi-discord-commands");
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.symlinkSync(PROJECT_ROOT, link, "dir");
}

/** A fleet's stack from one door: `up` from empty, a no-op preview --refresh, one change. */
async function fleetScenario(
  door: "typescript" | "yaml",
  shape: FleetShape,
  profile: string | undefined,
  withChange: boolean,
): Promise<{ runs: FleetRun[]; stateBytes: number; commands: number; emu: RunningEmulator }> {
  const guilds = fleetGuilds(shape.guilds);
  const emu = await fleetEmulator(guilds, shape.permissions);
  const name = `bench-fleet-${door}-${shape.guilds}`;
  const files = (s: FleetShape): Record<string, string> =>
    door === "typescript"
      ? { "index.ts": fleetTypescript(s), "programClock.ts": tsProgramClock }
      : { "Pulumi.yaml": fleetYaml(name, s) };
  const prog = benchProgram(name, files(shape));
  if (door === "typescript") linkPackage(prog);
  const ns = door === "typescript" ? "discord" : "discord-commands";
  const runs: FleetRun[] = [];
  try {
    await prog.stack("bench");
    await prog.setConfig(
      { [`${ns}:apiUrl`]: emu.url, [`${ns}:applicationId`]: APP },
      { [`${ns}:botToken`]: emu.botToken, [`${ns}:bearerToken`]: emu.userBearerToken },
    );
    runs.push(await timedRun(emu, prog, "up from empty", UP, profile));
    const commands = emu.control.commands().filter((c) => c["name"] !== "not-ours").length;
    const stateBytes = fs.statSync(prog.stateFile("bench")).size;
    runs.push(await timedRun(emu, prog, "no-op preview --refresh", PREVIEW_REFRESH, profile));
    if (withChange) {
      prog.write(files({ ...shape, changed: true }));
      runs.push(await timedRun(emu, prog, "one definition changed", UP, profile));
    }
    return { runs, stateBytes, commands, emu };
  } finally {
    prog.cleanup();
  }
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
}

function describeRun(r: FleetRun, goal: string): string {
  const f = r.figures;
  const floor = f.requests / 50;
  return (
    `  ${r.label}: ${f.seconds.toFixed(1)} s (${goal}; the service's 50 requests/s floor ` +
    `${floor.toFixed(1)} s), ${f.requests} requests (${f.writes} writes, ${f.listGets} list GETs), ` +
    `429s ${f.limited}, provider peak RSS ${f.providerRssMb.toFixed(0)} MB; load average ${loadAverage()}`
  );
}

function point(
  series: string,
  r: FleetRun,
  commands: number,
  scopes: number,
  goal?: string,
): BenchPoint {
  const f = r.figures;
  const run = r.label.startsWith("no-op preview") ? "preview --refresh" : "up";
  return {
    series,
    run,
    commands,
    scopes,
    seconds: f.seconds,
    requests: f.requests,
    limited: f.limited,
    providerRssMb: f.providerRssMb,
    ...(goal === undefined ? {} : { goal }),
  };
}

/** A set of 100 rich definitions to the global scope and `guilds` guilds, one door. */
async function setRows(
  door: "typescript" | "yaml",
  guilds: number,
  profile: string | undefined,
  points: BenchPoint[],
  packed = false,
): Promise<string[]> {
  const shape: FleetShape = { size: "rich", guilds, permissions: true, packed };
  const res = await fleetScenario(door, shape, profile, true);
  await res.emu.close();
  const [up, preview, change] = res.runs as [FleetRun, FleetRun, FleetRun];
  const series =
    (door === "typescript" ? "set of 100 (TypeScript)" : "set of 100 (plugin, YAML)") +
    (packed ? ", packed" : "");
  const big = guilds >= 100;
  points.push(
    point(series, up, res.commands, guilds + 1, big ? "<= 30 s, no 429" : undefined),
    point(series, preview, res.commands, guilds + 1, big ? "<= 15 s" : undefined),
  );
  return [
    `${series}: CommandSet of 100 rich definitions, global + ${guilds} guilds ` +
      `(${res.commands} commands), a permissions entry per guild:`,
    describeRun(up, "goal at 100 guilds <= 30 s, no 429"),
    ...up.figures.where.map((l) => `    ${l}`),
    describeRun(preview, `goal at 100 guilds <= 15 s; exactly ${guilds + 1} list GETs, no write`),
    ...preview.figures.where.map((l) => `    ${l}`),
    describeRun(change, `goal at 100 guilds <= 15 s; exactly ${guilds + 1} writes`),
    ...change.figures.where.map((l) => `    ${l}`),
    `  state: ${res.stateBytes} bytes = ${(res.stateBytes / res.commands).toFixed(0)} bytes per command`,
  ];
}

/** The emulator's page (the first scope, its default) with a fleet's guilds held: ms. */
async function pageMs(emu: RunningEmulator): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const res = await fetch(`${emu.url}/`);
    await res.text();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[2] ?? NaN;
}

/** A bot in 1,000 guilds: 10 definitions to the global scope and 1,000 guilds. */
async function thousandRows(
  profile: string | undefined,
  points: BenchPoint[],
  packed = false,
): Promise<string[]> {
  const shape: FleetShape = { size: "small", guilds: 1000, permissions: false, packed };
  const series = `set of 10, 1,000 guilds${packed ? ", packed" : ""}`;
  const res = await fleetScenario("typescript", shape, profile, false);
  const page = await pageMs(res.emu);
  await res.emu.close();
  const [up, preview] = res.runs as [FleetRun, FleetRun];
  points.push(
    point(series, up, res.commands, 1001, "<= 60 s, no 429"),
    point(series, preview, res.commands, 1001, "<= 30 s"),
  );
  return [
    `A bot in 1,000 guilds${packed ? " (packed set)" : ""}: 10 definitions to the global scope + 1,000 guilds (${res.commands} commands):`,
    describeRun(up, "goal <= 60 s, no 429"),
    ...up.figures.where.map((l) => `    ${l}`),
    describeRun(preview, "goal <= 30 s with exactly 1,001 list GETs"),
    ...preview.figures.where.map((l) => `    ${l}`),
    `  the emulator's page, first scope, with 1,000 guilds held: ${page.toFixed(0)} ms (goal < 1,000)`,
    `  state: ${res.stateBytes} bytes = ${(res.stateBytes / res.commands).toFixed(0)} bytes per command`,
  ];
}

/**
 * Why bulk singles cannot meet their goal with the engine's default slots: said beside
 * those rows.
 */
const DEFAULT_SLOTS_BOUND =
  "  (default slots: the engine runs 4 operations per CPU at once, 8 here, and hands over no " +
  "more until one is answered (pkg/resource/deploy/step_executor.go, ExecuteSerial's " +
  "unbuffered send), so a PUT carries at most 8 creates and 50 in a scope need 7 PUTs, " +
  "whatever the provider does; docs/bulk-mode.md advises --parallel 100 or PULUMI_PARALLEL=100)";

/** A singles row against the no-op baseline of the same slots: issue 49's goal. */
function singlesVerdict(row: Row, baselineSeconds: number) {
  const ratio = row.seconds / baselineSeconds;
  const puts = Math.max(row.figures.puts.G, row.figures.puts.g);
  return { ratio, puts, met: ratio <= 1.5 && puts <= 2 && row.figures.limited === 0 };
}

/** A singles row beside the no-op baseline of the same slots, with its goal's verdict. */
function singlesLine(row: Row, baselineSeconds: number): string {
  const { ratio, met } = singlesVerdict(row, baselineSeconds);
  return (
    `  ${row.label}: ${row.seconds.toFixed(1)} s = ${ratio.toFixed(2)}x the no-op baseline ` +
    `(goal <= 1.5x), PUTs per scope ${row.figures.puts.G} global, ${row.figures.puts.g} guild ` +
    `(goal <= 2): ${met ? "met" : "NOT met"}; ${describeFigures(row.figures)}` +
    `; others kept ${row.kept}/5${row.note ? `; ${row.note}` : ""}`
  );
}

/** `up` of 100 no-op dynamic resources with the given slots: the singles' baseline. */
async function noopUp(parallel: number | undefined): Promise<FleetRun> {
  const prog = benchProgram(`bench-fleet-noop-singles-${parallel ?? "default"}`, {
    "index.ts": noopProgram.replace(/i < \d+/, "i < 100"),
  });
  const emu = await fleetEmulator([], false);
  try {
    await prog.stack("bench");
    const label = `100 no-op dynamic resources, ${slotsLabel(parallel)}: up`;
    return await timedRun(emu, prog, label, upWithSlots(parallel), undefined);
  } finally {
    prog.cleanup();
    await emu.close();
  }
}

/**
 * Single resources (100 `GuildCommand`s in 2 scopes) in bulk mode, from TypeScript's
 * dynamic resources, YAML and Python (the plugin), with the engine's default slots and with
 * `--parallel=<n>` (100 unless given), each beside 100 no-op resources' `up` with the same
 * slots; per-command mode too with --per-command. The chart shows TypeScript's rows.
 */
async function singlesRows(points: BenchPoint[]): Promise<string[]> {
  const raised = Number(flag("parallel") ?? 100);
  const lines: string[] = [];
  for (const parallel of [undefined, raised]) {
    const slots = slotsLabel(parallel);
    const baseline = await noopUp(parallel);
    // The default slots' baseline is the `noop` series' point at 100.
    if (parallel !== undefined) points.push(point(`no-op resources, ${slots}`, baseline, 100, 1));
    const rows: [string, Row][] = [
      ["TypeScript", await bulkScenario(200, parallel)],
      ["YAML", (await pluginBulkScenario("resources", parallel)).row],
      ["Python", (await pluginBulkScenario("python", parallel)).row],
    ];
    const seconds = baseline.figures.seconds;
    for (const [door, row] of rows) {
      const { ratio, puts } = singlesVerdict(row, seconds);
      points.push({
        ...singlesPoint(`bulk singles (${door}), ${slots}`, row),
        goal: `<= 1.5x no-op (${ratio.toFixed(2)}x), <= 2 PUTs per scope (${puts})`,
        ...(door === "TypeScript" ? {} : { tableOnly: true }),
      });
    }
    lines.push(
      `Bulk singles, 100 GuildCommands in 2 scopes, ${slots}; 100 no-op dynamic resources: up ${seconds.toFixed(1)} s:`,
      ...rows.map(([, row]) => singlesLine(row, seconds)),
      ...(parallel === undefined ? [DEFAULT_SLOTS_BOUND] : []),
    );
  }
  if (process.argv.includes("--per-command")) {
    const res = await perCommandScenario();
    res.prog.cleanup();
    await res.emu.close();
    points.push(singlesPoint("per-command singles", res.row));
    lines.push(
      `per-command singles: 100 GuildCommands in 2 scopes: ${res.row.seconds.toFixed(1)} s, ${describeFigures(res.row.figures)}`,
    );
  }
  return lines;
}

function singlesPoint(series: string, row: Row): BenchPoint {
  return {
    series,
    run: "up",
    commands: 100,
    scopes: 2,
    seconds: row.seconds,
    requests: row.figures.requests,
    limited: row.figures.limited,
    providerRssMb: 0,
  };
}

/**
 * A program of no-op dynamic resources (no request): `up` from empty and a no-op
 * `preview --refresh`, and the state's size after the `up`.
 */
async function noopRuns(
  name: string,
  program: string,
): Promise<{ up: FleetRun; preview: FleetRun; stateBytes: number }> {
  const prog = benchProgram(name, { "index.ts": program });
  const emu = await fleetEmulator([], false);
  try {
    await prog.stack("bench");
    const up = await timedRun(emu, prog, "up from empty", UP, undefined);
    const stateBytes = fs.statSync(prog.stateFile("bench")).size;
    const preview = await timedRun(
      emu,
      prog,
      "no-op preview --refresh",
      PREVIEW_REFRESH,
      undefined,
    );
    return { up, preview, stateBytes };
  } finally {
    prog.cleanup();
    await emu.close();
  }
}

/** `count` no-op dynamic resources: `up` from empty and a no-op `preview --refresh`. */
async function noopRows(count: number, points: BenchPoint[]): Promise<string[]> {
  const program = noopProgram.replace(/i < \d+/, `i < ${count}`);
  const { up, preview } = await noopRuns(`bench-fleet-noop-${count}`, program);
  points.push(point("no-op resources", up, count, 1), point("no-op resources", preview, count, 1));
  return [
    `${count} no-op dynamic resources: up ${up.figures.seconds.toFixed(1)} s, ` +
      `no-op preview --refresh ${preview.figures.seconds.toFixed(1)} s (the engine's own cost)`,
  ];
}

/**
 * The engine's cost of the set's state shape at `guilds` guilds, with no-op providers (no
 * request, none of this package's code): one resource per scope, or the data once.
 */
async function shapeRows(guilds: number, points: BenchPoint[]): Promise<string[]> {
  const lines: string[] = [];
  const commands = 100 * (guilds + 1);
  for (const shape of ["per scope", "once"] as const) {
    const name = `bench-fleet-shape-${shape.replace(" ", "-")}-${guilds}`;
    const { up, preview, stateBytes } = await noopRuns(name, shapeProgram(shape, guilds));
    const series = `no-op, the set's data ${shape}`;
    points.push(
      point(series, up, commands, guilds + 1),
      point(series, preview, commands, guilds + 1),
    );
    lines.push(
      `${series} (${commands} commands, ${shape === "once" ? 1 : 2 * guilds + 1} resources): ` +
        `up ${up.figures.seconds.toFixed(1)} s, no-op preview --refresh ${preview.figures.seconds.toFixed(1)} s, ` +
        `state ${stateBytes} bytes (the engine's cost of the shape, no request)`,
    );
  }
  return lines;
}

export async function fleetMain(): Promise<void> {
  const only = flag("only")?.split(",") ?? [
    "set",
    "packed",
    "thousand",
    "thousand-packed",
    "singles",
    "noop",
    "shape",
  ];
  const profile = flag("profile");
  const sizes = flag("guilds")?.split(",").map(Number) ?? [10, 100];
  const at = (key: string): string | undefined => profile && path.join(profile, key);
  const points: BenchPoint[] = [];
  const lines: string[] = [`load average at the start: ${loadAverage()}`];
  for (const guilds of sizes) {
    if (only.includes("set"))
      lines.push(...(await setRows("typescript", guilds, at(`set-${guilds}`), points)));
    if (only.includes("set-yaml"))
      lines.push(...(await setRows("yaml", guilds, at(`yaml-${guilds}`), points)));
    if (only.includes("packed"))
      lines.push(...(await setRows("typescript", guilds, at(`packed-${guilds}`), points, true)));
    if (only.includes("packed-yaml"))
      lines.push(...(await setRows("yaml", guilds, at(`packed-yaml-${guilds}`), points, true)));
  }
  if (only.includes("thousand")) lines.push(...(await thousandRows(at("thousand"), points)));
  if (only.includes("thousand-packed"))
    lines.push(...(await thousandRows(at("thousand-packed"), points, true)));
  if (only.includes("singles")) lines.push(...(await singlesRows(points)));
  if (only.includes("noop")) {
    for (const count of [100, 1100]) lines.push(...(await noopRows(count, points)));
  }
  if (only.includes("shape")) {
    for (const guilds of sizes) lines.push(...(await shapeRows(guilds, points)));
  }
  lines.push(`load average at the end: ${loadAverage()}`);
  process.stdout.write(`\n${lines.join("\n")}\n`);
  if (process.argv.includes("--write-docs")) {
    const date = new Date().toISOString().slice(0, 10);
    writePerformanceDocs({
      points,
      conditions: `${date}, ${os.cpus().length} cores, load average ${loadAverage()} at the end of the run.`,
    });
  }
}
