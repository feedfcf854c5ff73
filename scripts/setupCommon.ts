/**
 * What every setup step shares: where things are (the project, the machine's cache of
 * builds, the wrapper modules in toolchain/), the one error a step fails with, and the
 * primitives it works with (find a program on PATH, run one, serialize on a lock, install
 * a file atomically).
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

export const PROJECT_ROOT = path.resolve(__dirname, "..");

/** The failure of a setup step: one message that says what to do, never a stack trace. */
export class SetupError extends Error {
  override readonly name = "SetupError";
}

/** The version of `@pulumi/pulumi` installed for development, which the CLI must match. */
export function pinnedPulumiVersion(): string {
  const pkgFile = path.join(PROJECT_ROOT, "node_modules", "@pulumi", "pulumi", "package.json");
  if (!fs.existsSync(pkgFile)) {
    throw new SetupError("@pulumi/pulumi is not installed: run `npm ci` first.");
  }
  const version: unknown = JSON.parse(fs.readFileSync(pkgFile, "utf8")).version;
  if (typeof version !== "string") throw new SetupError(`no version in ${pkgFile}`);
  return version;
}

export function cacheRoot(): string {
  const base = process.env["XDG_CACHE_HOME"] || path.join(os.homedir(), ".cache");
  return path.join(base, "pulumi-discord-commands");
}

export function cacheBinDir(version: string): string {
  return path.join(cacheRoot(), `pulumi-v${version}`, "bin");
}

export function toolchainDir(...parts: string[]): string {
  return path.join(PROJECT_ROOT, "toolchain", ...parts);
}

export function which(name: string): string | undefined {
  for (const dir of (process.env["PATH"] ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

export function readIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

export function elapsed(since: number): string {
  const s = Math.round((Date.now() - since) / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s` : `${s}s`;
}

/** Runs a command, collecting its stderr lines; `onLine` sees each as it arrives. */
export function run(
  cmd: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv },
  onLine: (line: string) => void,
): Promise<{ status: number | null; stdout: string; stderr: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...opts, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    const stderr: string[] = [];
    let partial = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => {
      const lines = (partial + d.toString()).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) {
        stderr.push(line);
        onLine(line);
      }
    });
    child.on("error", reject);
    child.on("close", (status) => {
      if (partial) stderr.push(partial);
      resolve({ status, stdout, stderr });
    });
  });
}

/** Serializes work on shared files across clones and processes (`lock` is a directory). */
export async function withLock<T>(
  lock: string,
  what: string,
  log: (line: string) => void,
  fn: () => Promise<T>,
): Promise<T> {
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + 20 * 60_000;
  let nextNotice = 0;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      // A lock older than the deadline belongs to a build that died.
      const since = fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (Date.now() - since > 20 * 60_000) fs.rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new SetupError(`timed out waiting for the lock ${lock}`);
      if (Date.now() >= nextNotice) {
        log(`  another process is ${what} (lock ${lock}); waiting for it`);
        nextNotice = Date.now() + 60_000;
      }
      await sleep(2000);
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** Writes `content` to `target` (mode 755) unless it already holds it; atomic. */
export function installFile(target: string, content: Buffer): void {
  const current = fs.existsSync(target) ? fs.readFileSync(target) : undefined;
  if (current?.equals(content)) return;
  const tmp = `${target}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, content, { mode: 0o755 });
  fs.renameSync(tmp, target);
}
