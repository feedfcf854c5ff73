/**
 * How the bench measures and reports: a timed CLI run, the emulator's request counts, the
 * batches a bulk-mode run logged, and the table of rows it prints.
 */
import * as fs from "node:fs";
import type { RunningEmulator } from "../emulator";
import type { PulumiProgram } from "./pulumiProgram";

/** Every CLI run is bounded; the whole bench is a few of them. */
const RUN_LIMIT_MS = 15 * 60_000;

export const UP = ["up", "--yes", "--non-interactive", "--skip-preview"];

/** The engine's parallel slots of a run, as its label says them. */
export function slotsLabel(parallel: number | undefined): string {
  return parallel === undefined ? "default slots" : `--parallel ${parallel}`;
}

/** `up`'s arguments with the engine's slots set (none: its default). */
export function upWithSlots(parallel: number | undefined): string[] {
  return parallel === undefined ? UP : [...UP, "--parallel", String(parallel)];
}

export function log(line: string): void {
  process.stdout.write(`[bench] ${line}\n`);
}

export async function timed(
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
  /** Bulk overwrite PUTs per scope kind: G the global scope, g the guild. */
  puts: { G: number; g: number };
}

export function figures(emu: RunningEmulator): Figures {
  const c = emu.counters();
  return {
    requests: c.total,
    writes: c.writes,
    limited: c.byStatus["429"] ?? 0,
    byRoute: Object.entries(c.byRoute)
      .map(([r, n]) => `${r} ${n}`)
      .join(", "),
    puts: {
      G: c.byRoute["bulkOverwriteGlobalCommands"] ?? 0,
      g: c.byRoute["bulkOverwriteGuildCommands"] ?? 0,
    },
  };
}

export function describeFigures(f: Figures): string {
  return `requests ${f.requests}, writes ${f.writes}, 429s ${f.limited} (${f.byRoute || "none"})`;
}

export interface Row {
  label: string;
  seconds: number;
  figures: Figures;
  kept: number;
  live: number;
  note?: string;
}

/**
 * The batches a bulk-mode run logged (DISCORD_BULK_LOG): how many, their sizes, and when
 * each left, from the start of `up`: seconds, scope (G global, g guild), operations (P: as
 * POSTs, not a PUT), and the time it was held for the rate limit.
 */
export function batchesNote(logFile: string, startedAt: number): { count: number; note: string } {
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

export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? NaN)
    : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
}

export function printTable(rows: readonly Row[]): void {
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
