/**
 * docs/performance.md and its chart (docs/images/performance.svg), written by the fleet
 * bench (`npm run bench -- --fleet --write-docs`) from the points it measured: how an
 * `up` and a no-op `preview --refresh` grow with the number of commands and scopes, for a
 * `CommandSet`, single resources in bulk and per-command mode, and no-op resources (the
 * engine's own cost). Not a test; a plain SVG, so the page needs nothing to render.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { PROJECT_ROOT } from "./toolchain";

/** One measured run. */
export interface BenchPoint {
  /** The series: a set (per door and size), bulk or per-command singles, no-op resources. */
  readonly series: string;
  readonly run: "up" | "preview --refresh";
  readonly commands: number;
  readonly scopes: number;
  readonly seconds: number;
  readonly requests: number;
  readonly limited: number;
  readonly providerRssMb: number;
  /** The run's goal (issue 49), when it has one. */
  readonly goal?: string;
  /** In the table only: the chart shows one door's singles, to stay readable. */
  readonly tableOnly?: boolean;
}

const COLORS = [
  "#1f77b4",
  "#d62728",
  "#2ca02c",
  "#9467bd",
  "#ff7f0e",
  "#8c564b",
  "#e377c2",
  "#17becf",
  "#7f7f7f",
  "#bcbd22",
  "#393b79",
  "#637939",
];
const W = 720;
const H = 420;
const PAD = { left: 60, right: 120, top: 24, bottom: 90 };

/** A log-scale axis from `lo` to `hi` onto [a, b]. */
function logScale(lo: number, hi: number, a: number, b: number): (v: number) => number {
  const l = Math.log10(lo);
  const h = Math.log10(hi);
  return (v) => a + ((Math.log10(v) - l) / (h - l || 1)) * (b - a);
}

function ticks(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
    for (const m of [1, 3]) {
      const v = m * 10 ** e;
      if (v >= lo && v <= hi) out.push(v);
    }
  }
  return out;
}

/** The chart of one run kind: seconds against commands, one line per series, log-log. */
export function renderChart(points: readonly BenchPoint[], run: BenchPoint["run"]): string {
  const mine = points.filter((p) => p.run === run && p.seconds > 0 && p.tableOnly !== true);
  const xs = mine.map((p) => p.commands);
  const ys = mine.map((p) => p.seconds);
  const x = logScale(
    Math.min(...xs, 100) / 1.5,
    Math.max(...xs, 100) * 1.5,
    PAD.left,
    W - PAD.right,
  );
  const y = logScale(Math.min(...ys, 1) / 1.5, Math.max(...ys, 10) * 1.5, H - PAD.bottom, PAD.top);
  const series = [...new Set(mine.map((p) => p.series))];
  // The legend's two columns grow downwards: the picture grows with them.
  const height = H + Math.max(0, Math.ceil(series.length / 2) - 2) * 18;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${height}" fill="white"/>`,
    `<text x="${PAD.left}" y="14" font-weight="bold">${run}: seconds against commands (log-log)</text>`,
  ];
  for (const t of ticks(Math.min(...xs, 100) / 1.5, Math.max(...xs, 100) * 1.5)) {
    parts.push(
      `<line x1="${x(t)}" y1="${PAD.top}" x2="${x(t)}" y2="${H - PAD.bottom}" stroke="#eee"/>`,
      `<text x="${x(t)}" y="${H - PAD.bottom + 16}" text-anchor="middle">${t.toLocaleString("en")}</text>`,
    );
  }
  for (const t of ticks(Math.min(...ys, 1) / 1.5, Math.max(...ys, 10) * 1.5)) {
    parts.push(
      `<line x1="${PAD.left}" y1="${y(t)}" x2="${W - PAD.right}" y2="${y(t)}" stroke="#eee"/>`,
      `<text x="${PAD.left - 6}" y="${y(t) + 4}" text-anchor="end">${t} s</text>`,
    );
  }
  parts.push(
    `<text x="${(PAD.left + W - PAD.right) / 2}" y="${H - PAD.bottom + 34}" text-anchor="middle">commands (scopes in brackets)</text>`,
  );
  series.forEach((name, i) => {
    const color = COLORS[i % COLORS.length] ?? "black";
    const line = mine.filter((p) => p.series === name).sort((a, b) => a.commands - b.commands);
    const d = line.map((p, j) => `${j === 0 ? "M" : "L"}${x(p.commands)},${y(p.seconds)}`);
    parts.push(`<path d="${d.join(" ")}" fill="none" stroke="${color}" stroke-width="2"/>`);
    for (const p of line) {
      parts.push(
        `<circle cx="${x(p.commands)}" cy="${y(p.seconds)}" r="3.5" fill="${color}"/>`,
        `<text x="${x(p.commands) + 6}" y="${y(p.seconds) + 4 + (i % 2 === 0 ? -8 : 12)}" fill="${color}">${p.seconds.toFixed(1)} s (${p.scopes})</text>`,
      );
    }
    // The legend: two columns under the axis' title.
    const lx = PAD.left + (i % 2) * 300;
    const ly = H - 36 + Math.floor(i / 2) * 18;
    parts.push(
      `<rect x="${lx}" y="${ly - 9}" width="12" height="12" fill="${color}"/>`,
      `<text x="${lx + 18}" y="${ly + 1}">${name}</text>`,
    );
  });
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}

function table(points: readonly BenchPoint[]): string[] {
  const rows = [
    "| Series | Run | Commands | Scopes | Seconds | Requests (floor at 50/s) | 429s | Provider RSS | Goal |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
  ];
  for (const p of points) {
    rows.push(
      `| ${p.series} | ${p.run} | ${p.commands.toLocaleString("en")} | ${p.scopes.toLocaleString("en")} | ` +
        `${p.seconds.toFixed(1)} | ${p.requests} (${(p.requests / 50).toFixed(1)} s) | ${p.limited} | ` +
        `${p.providerRssMb > 0 ? `${p.providerRssMb.toFixed(0)} MB` : "-"} | ${p.goal ?? ""} |`,
    );
  }
  return rows;
}

/** A run's points and the conditions it ran in. */
export interface BenchRun {
  readonly points: readonly BenchPoint[];
  readonly conditions: string;
}

/** The run the docs were last written from (kept, so the page can be written again). */
const POINTS_FILE = path.join(PROJECT_ROOT, "docs", "performance.json");

/**
 * Writes docs/performance.md and its two charts from a run's points (and keeps them in
 * docs/performance.json); without a run, from the points kept there.
 */
export function writePerformanceDocs(run?: BenchRun): void {
  const { points, conditions } =
    run ?? (JSON.parse(fs.readFileSync(POINTS_FILE, "utf8")) as BenchRun);
  fs.writeFileSync(POINTS_FILE, `${JSON.stringify({ conditions, points }, null, 2)}\n`);
  const images = path.join(PROJECT_ROOT, "docs", "images");
  fs.mkdirSync(images, { recursive: true });
  fs.writeFileSync(path.join(images, "performance-up.svg"), renderChart(points, "up"));
  fs.writeFileSync(
    path.join(images, "performance-preview.svg"),
    renderChart(points, "preview --refresh"),
  );
  const text = [
    "<!-- Written by `npm run bench -- --fleet --write-docs` (scripts/benchChart.ts): do not edit. -->",
    "",
    "# Performance: how cost grows with size",
    "",
    "Measured through the real CLI against the emulator with the service's realistic rate",
    "limits (its global limit is 50 requests a second: the floor beside each run), the local",
    "file backend, and the CLI's automatic log on, as users have them. A `CommandSet` deploys",
    "100 rich definitions (options, choices, subcommands, localizations) to the global scope",
    "and N guilds with a permissions entry per guild, or 10 small definitions to 1,000",
    'guilds; as one resource per scope, or "packed" (`packed: true`: every scope in one',
    "resource that holds the definitions once); single resources are 100 `GuildCommand`s in",
    "2 scopes; no-op resources are",
    "Pulumi dynamic resources that do nothing, one per command (the engine's own cost);",
    '"the set\'s data per scope" and "once" carry the set\'s 100 definitions in no-op',
    "resources (no request, none of this package's code), one resource per scope and a",
    "permissions resource per guild as a `CommandSet` holds them, or the definitions once",
    "with each scope's command ids in one resource: the engine's cost of the state's shape.",
    "The goals are issue 49's. `npm run bench -- --fleet --write-docs` measures and writes",
    "this page; `npx ts-node --transpile-only scripts/benchChart.ts` writes it again from",
    "docs/performance.json.",
    "",
    `Conditions: ${conditions}`,
    "",
    "![up: seconds against commands](images/performance-up.svg)",
    "",
    "![no-op preview --refresh: seconds against commands](images/performance-preview.svg)",
    "",
    ...table(points),
    "",
    "Where the time goes, and what to do about it, is in the",
    "[FAQ](faq.md#where-does-the-time-of-an-up-go).",
    "",
  ];
  const file = path.join(PROJECT_ROOT, "docs", "performance.md");
  fs.writeFileSync(file, text.join("\n"));
  // As the repository's format check wants it (npm test runs `prettier --check .`).
  const prettier = path.join(PROJECT_ROOT, "node_modules", "prettier", "bin", "prettier.cjs");
  execFileSync(process.execPath, [prettier, "--write", file, POINTS_FILE], { stdio: "ignore" });
}

if (require.main === module) writePerformanceDocs();
