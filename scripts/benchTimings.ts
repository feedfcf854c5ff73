/**
 * Where the time of one CLI run goes, for the benches (not a test): the engine, the
 * language host, the program and the provider, from three sources that do not disturb
 * the run much:
 *  - /proc, sampled every 200 ms: each process of the run, its role (by command line),
 *    when it started, its CPU time and its peak RSS;
 *  - the program's own log (`BENCH_PROGRAM_LOG`): when its code began (its language
 *    runtime loaded) and when it exited;
 *  - the provider's timing log (`DISCORD_TIMING_LOG`, provider/resources/timingLog.ts):
 *    each provider call and each rate-limit wait.
 * Linux only (/proc), as these machines are.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import type { TimingLine } from "../provider/resources/timingLog";

type Role = "engine" | "language host" | "program" | "provider";

const ROLES: readonly [Role, RegExp][] = [
  [
    "provider",
    /dynamic-provider\/index\.js|pulumi-resource-|run-plugin|provider\/plugin|\/plugin\/index\.js/,
  ],
  ["program", /cmd\/run\/index\.js|pulumi-language-python-exec|__main__\.py/],
  ["language host", /pulumi-language-/],
  ["engine", /^(\S*\/)?pulumi\s/],
];

interface RoleFigures {
  /** CPU seconds of every process of the role (as last sampled). */
  cpuS: number;
  peakRssMb: number;
  /** When the role's first process started (epoch ms), or undefined if none was seen. */
  firstStartMs: number | undefined;
}

interface Seen {
  role: Role;
  readonly startMs: number;
  cpuS: number;
  rssMb: number;
}

function roleOf(cmdline: string): Role | undefined {
  for (const [role, pattern] of ROLES) if (pattern.test(cmdline)) return role;
  return undefined;
}

/** How long after its start a process's command line may still change (its exec). */
const YOUNG_MS = 2000;
const TICKS = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
const BOOT_MS =
  Number(/^btime (\d+)$/m.exec(fs.readFileSync("/proc/stat", "utf8"))?.[1] ?? "0") * 1000;

/** Whether a process's environment holds `marker` (`NAME=value`). */
function hasEnv(pid: string, marker: string): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(marker);
  } catch {
    return false;
  }
}

/**
 * Samples the processes of a run until `stop()`, which returns the figures by role. With
 * `marker` (`PULUMI_HOME=<the run's>`), only the processes whose environment holds it: the
 * run's own, not another run's on the same machine.
 */
export function processSampler(marker?: string): { stop: () => Record<Role, RoleFigures> } {
  const seen = new Map<string, Seen>();
  /** Processes (pid@start) judged to have no role once past their first moments. */
  const ignored = new Set<string>();
  const sample = (): void => {
    for (const pid of fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      let stat: string;
      try {
        stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      } catch {
        continue; // exited meanwhile
      }
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const startMs = BOOT_MS + (Number(fields[19]) / TICKS) * 1000;
      const key = `${pid}@${fields[19]}`;
      if (ignored.has(key)) continue;
      let entry = seen.get(key);
      // A process is judged by its command line again while it is young: between its fork
      // and its exec it shows its parent's (a plugin the engine starts looks like the
      // engine for that moment; counted as the engine once, seen).
      const young = Date.now() - startMs < YOUNG_MS;
      if (entry === undefined || young) {
        let cmdline: string;
        try {
          cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
        } catch {
          continue;
        }
        const role = marker === undefined || hasEnv(pid, marker) ? roleOf(cmdline) : undefined;
        if (role === undefined) {
          if (!young) ignored.add(key);
          if (entry === undefined) continue;
        } else if (entry === undefined) {
          entry = { role, startMs, cpuS: 0, rssMb: 0 };
          seen.set(key, entry);
        } else {
          entry.role = role;
        }
      }
      entry.cpuS = (Number(fields[11]) + Number(fields[12])) / TICKS;
      entry.rssMb = Math.max(entry.rssMb, (Number(fields[21]) * 4096) / 2 ** 20);
    }
  };
  const since = Date.now();
  const timer = setInterval(sample, 200);
  sample();
  return {
    stop: () => {
      clearInterval(timer);
      const out = {} as Record<Role, RoleFigures>;
      for (const [role] of ROLES) out[role] = { cpuS: 0, peakRssMb: 0, firstStartMs: undefined };
      for (const e of seen.values()) {
        if (e.startMs < since - 1000) continue; // a process from before the run
        const r = out[e.role];
        r.cpuS += e.cpuS;
        r.peakRssMb = Math.max(r.peakRssMb, e.rssMb);
        r.firstStartMs = Math.min(r.firstStartMs ?? e.startMs, e.startMs);
      }
      return out;
    },
  };
}

interface ProgramTimes {
  ranAt: number | undefined;
  exitedAt: number | undefined;
}

export function readProgramLog(file: string): ProgramTimes {
  const times: ProgramTimes = { ranAt: undefined, exitedAt: undefined };
  if (!fs.existsSync(file)) return times;
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const rec = JSON.parse(line) as { ranAt?: number; exitedAt?: number };
    times.ranAt ??= rec.ranAt;
    times.exitedAt = rec.exitedAt ?? times.exitedAt;
  }
  return times;
}

interface ProviderTimes {
  firstCallAt: number | undefined;
  lastCallEnd: number | undefined;
  /** The time at least one provider call ran (overlapping calls counted once). */
  busyMs: number;
  calls: number;
  /** The client's rate-limit waits, summed. */
  waitedMs: number;
  waits: number;
}

export function readTimingLog(file: string): ProviderTimes {
  const spans: [number, number][] = [];
  let waitedMs = 0;
  let waits = 0;
  if (fs.existsSync(file)) {
    for (const line of fs.readFileSync(file, "utf8").split("\n")) {
      if (line.trim() === "") continue;
      const rec = JSON.parse(line) as TimingLine;
      if (rec.type === "call") spans.push([rec.at, rec.at + rec.ms]);
      else if (rec.type === "rateLimited") {
        waitedMs += rec.waitMs;
        waits++;
      }
    }
  }
  spans.sort((a, b) => a[0] - b[0]);
  let busyMs = 0;
  let end = Number.NEGATIVE_INFINITY;
  for (const [a, b] of spans) {
    if (b <= end) continue;
    busyMs += b - Math.max(a, end);
    end = b;
  }
  return {
    firstCallAt: spans[0]?.[0],
    lastCallEnd: spans.length > 0 ? end : undefined,
    busyMs,
    calls: spans.length,
    waitedMs,
    waits,
  };
}

const s = (ms: number | undefined): string => (ms === undefined ? "?" : (ms / 1000).toFixed(1));

/**
 * The lines that say where a run's wall time went, from its start (epoch ms) and length.
 * The phases overlap (the engine works while the program runs), so they are given as a
 * timeline, each from the run's start, plus each role's CPU time.
 */
export function whereTheTimeWent(
  startedAt: number,
  seconds: number,
  roles: Record<Role, RoleFigures>,
  program: ProgramTimes,
  provider: ProviderTimes,
): string[] {
  const at = (epoch: number | undefined): string =>
    epoch === undefined ? "?" : s(epoch - startedAt);
  const cpu = (Object.keys(roles) as Role[])
    .map((r) => `${r} ${roles[r].cpuS.toFixed(1)} s`)
    .join(", ");
  return [
    `where the ${seconds.toFixed(1)} s went (from the CLI's start, s): program process ${at(roles.program.firstStartMs)}, ` +
      `its code ran ${at(program.ranAt)} (runtime loaded), exited ${at(program.exitedAt)}; ` +
      `provider process ${at(roles.provider.firstStartMs)}, first call ${at(provider.firstCallAt)}, last call ended ${at(provider.lastCallEnd)}`,
    `  provider calls busy ${s(provider.busyMs)} s (${provider.calls} calls), of it waiting on rate limits ${s(provider.waitedMs)} s ` +
      `(${provider.waits} waits); engine alone after the last call ${s(startedAt + seconds * 1000 - (provider.lastCallEnd ?? startedAt))} s`,
    `  CPU time: ${cpu} (2 cores: the processes compete)`,
  ];
}
