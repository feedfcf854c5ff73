/**
 * Reads the CPU profiles a fleet bench run wrote (`npm run bench -- --fleet --profile=<dir>`)
 * and prints where each process's time went (not a test; prints figures):
 *  - Node processes (`*.cpuprofile`, V8's format): self time by function, and by part
 *    (this package's code by folder, @pulumi/pulumi, gRPC and protobuf, the rest of
 *    node_modules, Node's own, garbage collection, idle);
 *  - the engine (`engine-*.cpu`, Go's pprof): `go tool pprof -top`.
 *
 *   npx ts-node --transpile-only scripts/benchProfile.ts <dir> [--top=25]
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { functionName: string; url: string; lineNumber: number };
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
  readonly startTime: number;
  readonly endTime: number;
}

/** The part of the system a frame belongs to. */
function partOf(url: string, fn: string): string {
  if (fn === "(garbage collector)") return "garbage collection";
  if (fn === "(idle)" || fn === "(program)") return fn;
  const at = url.replace(/^file:\/\//, "");
  const ours = /\/dist\/(provider|sdk|emulator|cli)\/([^/]+)/.exec(at);
  if (ours && !at.includes("node_modules/@pulumi")) return `ours: ${ours[1]}/${ours[2]}`;
  if (at.includes("@pulumi/pulumi")) {
    const inner = /@pulumi\/pulumi\/(.+?)\/[^/]+$/.exec(at);
    return `@pulumi/pulumi/${inner?.[1] ?? ""}`;
  }
  if (at.includes("@grpc") || at.includes("google-protobuf")) return "gRPC and protobuf";
  if (at.includes("node_modules/zod")) return "zod";
  if (at.includes("node_modules/typescript") || at.includes("ts-node")) return "TypeScript";
  if (at.includes("node_modules")) return "node_modules (other)";
  if (at.startsWith("node:") || at === "") return "Node itself";
  return at;
}

function summarize(file: string, top: number): string[] {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const byFunction = new Map<string, number>();
  const byPart = new Map<string, number>();
  let total = 0;
  for (const [id, us] of selfUs) {
    const frame = (byId.get(id) as ProfileNode).callFrame;
    const where = `${frame.functionName || "(anonymous)"} ${path.basename(frame.url)}:${frame.lineNumber + 1}`;
    byFunction.set(where, (byFunction.get(where) ?? 0) + us);
    const part = partOf(frame.url, frame.functionName);
    byPart.set(part, (byPart.get(part) ?? 0) + us);
    if (frame.functionName !== "(idle)") total += us;
  }
  const ms = (us: number): string => `${(us / 1000).toFixed(0).padStart(7)} ms`;
  const sorted = (m: Map<string, number>): [string, number][] =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, top);
  return [
    `${path.basename(file)}: ${ms(total)} busy of ${ms(profile.endTime - profile.startTime)} wall`,
    "  by part:",
    ...sorted(byPart).map(([k, v]) => `  ${ms(v)}  ${k}`),
    "  by function (self):",
    ...sorted(byFunction).map(([k, v]) => `  ${ms(v)}  ${k}`),
  ];
}

function goProfile(file: string, top: number): string[] {
  try {
    const out = execFileSync("go", ["tool", "pprof", "-top", `-nodecount=${top}`, file], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    return [`${path.basename(file)} (the engine):`, ...out.split("\n").map((l) => `  ${l}`)];
  } catch (err) {
    return [`${path.basename(file)}: go tool pprof failed: ${(err as Error).message}`];
  }
}

function main(): void {
  const dir = process.argv[2];
  if (dir === undefined) throw new Error("usage: benchProfile.ts <dir> [--top=25]");
  const top = Number(process.argv.find((a) => a.startsWith("--top="))?.slice(6) ?? "25");
  const files = fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();
  for (const f of files) {
    const full = path.join(dir, f);
    if (f.endsWith(".cpuprofile")) process.stdout.write(`${summarize(full, top).join("\n")}\n\n`);
    else if (/engine-.*\.cpu$/.test(f))
      process.stdout.write(`${goProfile(full, top).join("\n")}\n\n`);
  }
}

main();
