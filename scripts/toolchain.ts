/**
 * Where the project's engine toolchain lives and how to get it, offline.
 *
 * The Pulumi CLI and its Node.js language host cannot be downloaded on machines that
 * reach only the npm registry, Debian's packages and the Go module proxy, so they are
 * built from Go modules (wrapper modules in `toolchain/`; README, "How the Pulumi CLI is
 * obtained offline") into a cache outside the work tree, keyed by version, so every
 * clone on a machine shares one build. A matching `pulumi` already on PATH is used as it is.
 *
 * `findToolchain()` only looks; `ensureToolchain()` (the setup step) also builds.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

export const PROJECT_ROOT = path.resolve(__dirname, "..");

/** The failure of a setup step: one message that says what to do, never a stack trace. */
export class SetupError extends Error {
  override readonly name = "SetupError";
}

export interface Toolchain {
  /** The `pulumi` CLI version, e.g. "3.259.0". */
  readonly pulumiVersion: string;
  /** Folder holding `pulumi` and `pulumi-language-nodejs`. */
  readonly pulumiBinDir: string;
  /** "path" when a matching CLI was found on PATH, "cache" when built or reused from the cache. */
  readonly source: "path" | "cache";
  /** Folder holding the Node >= 22 binary that every process of ours must run on. */
  readonly nodeBinDir: string;
  /** Folder holding `pulumi-resource-pulumi-nodejs`, the dynamic-provider plugin script. */
  readonly dynamicPluginDir: string;
}

const MIN_NODE_MAJOR = 22;

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

function cacheBinDir(version: string): string {
  return path.join(cacheRoot(), `pulumi-v${version}`, "bin");
}

/** Node >= 22: the machine's `node` when new enough, else the `node` devDependency. */
function findNodeBinDir(): string {
  const own = path.join(PROJECT_ROOT, "node_modules", ".bin");
  // npm scripts put the project's own `node_modules/.bin` first on PATH: look past it, so
  // the machine's node is used when it is new enough, and the npm package otherwise.
  const machine = (process.env["PATH"] ?? "")
    .split(path.delimiter)
    .filter(
      (dir) => dir && path.resolve(dir) !== own && !dir.endsWith(`node_modules${path.sep}.bin`),
    );
  for (const dir of [...machine, own]) {
    const bin = path.join(dir, "node");
    if (!fs.existsSync(bin)) continue;
    const out = spawnSync(bin, ["-p", "process.versions.node"], { encoding: "utf8" });
    const major = Number((out.stdout ?? "").trim().split(".")[0]);
    if (out.status === 0 && major >= MIN_NODE_MAJOR) return dir;
  }
  throw new SetupError(
    `Node.js >= ${MIN_NODE_MAJOR} is needed (the engine's plugin processes run on it) and none was found: ` +
      "run `npm ci`, which installs it from the npm registry as the `node` devDependency, or install Node 22.",
  );
}

function dynamicPluginDir(): string {
  const dir = path.join(PROJECT_ROOT, "node_modules", "@pulumi", "pulumi");
  if (!fs.existsSync(path.join(dir, "pulumi-resource-pulumi-nodejs"))) {
    throw new SetupError(
      "pulumi-resource-pulumi-nodejs is missing from node_modules/@pulumi/pulumi: run `npm ci`.",
    );
  }
  return dir;
}

function cliVersion(bin: string): string | undefined {
  const out = spawnSync(bin, ["version"], {
    encoding: "utf8",
    env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
  });
  if (out.status !== 0) return undefined;
  return out.stdout.trim().replace(/^v/, "");
}

function which(name: string): string | undefined {
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

/** A `pulumi` on PATH whose version matches, with its language host beside it or on PATH. */
function findCliOnPath(version: string): string | undefined {
  const cli = which("pulumi");
  if (!cli || cliVersion(cli) !== version) return undefined;
  const dir = path.dirname(fs.realpathSync(cli));
  if (fs.existsSync(path.join(dir, "pulumi-language-nodejs"))) return dir;
  const host = which("pulumi-language-nodejs");
  return host && path.dirname(host) === path.dirname(cli) ? path.dirname(cli) : undefined;
}

function findCliInCache(version: string): string | undefined {
  const dir = cacheBinDir(version);
  const cli = path.join(dir, "pulumi");
  if (!fs.existsSync(cli) || !fs.existsSync(path.join(dir, "pulumi-language-nodejs"))) {
    return undefined;
  }
  return cliVersion(cli) === version ? dir : undefined;
}

let remembered: Toolchain | undefined;

/**
 * Looks for the toolchain without building anything. A found toolchain is remembered for
 * the process: every engine test asks, and each look runs `pulumi version` and `node`.
 */
export function findToolchain(): Toolchain | undefined {
  remembered ??= lookForToolchain();
  return remembered;
}

function lookForToolchain(): Toolchain | undefined {
  const version = pinnedPulumiVersion();
  const onPath = findCliOnPath(version);
  const cached = onPath ? undefined : findCliInCache(version);
  const binDir = onPath ?? cached;
  if (!binDir) return undefined;
  return {
    pulumiVersion: version,
    pulumiBinDir: binDir,
    source: onPath ? "path" : "cache",
    nodeBinDir: findNodeBinDir(),
    dynamicPluginDir: dynamicPluginDir(),
  };
}

/** Like `findToolchain`, but a missing toolchain is a clear error that names the fix. */
export function requireToolchain(): Toolchain {
  const found = findToolchain();
  if (!found) {
    throw new SetupError(
      `the Pulumi CLI v${pinnedPulumiVersion()} is not built yet: run \`npm run setup\`.`,
    );
  }
  return found;
}

/**
 * The environment every engine run of ours uses: Node >= 22 first on PATH (the engine
 * starts `pulumi-resource-pulumi-nodejs`, a shell script that runs `node`), then the
 * CLI, then the plugin script's own folder as a fallback for a CLI that lacks it.
 */
export function toolchainPath(tc: Toolchain, basePath = process.env["PATH"] ?? ""): string {
  return [tc.nodeBinDir, tc.pulumiBinDir, tc.dynamicPluginDir, basePath].join(path.delimiter);
}

function findGo(): string | undefined {
  return (
    which("go") ?? (fs.existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : undefined)
  );
}

/** Reads the version a wrapper module pins for a module path, from its go.mod. */
function goModVersion(moduleDir: string, modulePath: string): string | undefined {
  const goMod = fs.readFileSync(path.join(moduleDir, "go.mod"), "utf8");
  const escaped = modulePath.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const m = new RegExp(`\\n\\s*${escaped} (v[^\\s]+)`).exec(goMod);
  return m?.[1];
}

interface GoBuild {
  readonly moduleDir: string;
  readonly pkg: string;
  readonly output: string;
  readonly ldflags: string;
  readonly env: NodeJS.ProcessEnv;
}

/** How often a long build reports how far it got. */
const PROGRESS_EVERY_MS = 15_000;

function elapsed(since: number): string {
  const s = Math.round((Date.now() - since) / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s` : `${s}s`;
}

/** Runs a command, collecting its stderr lines; `onLine` sees each as it arrives. */
function run(
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

/**
 * `go build`, with progress: first `go list -deps` (which downloads the modules) counts
 * the packages, then `go build -v` names each package it compiles, and every 15 s one
 * line says how many of them are done. A cold build is minutes of silence otherwise.
 */
async function goBuild(go: string, build: GoBuild, log: (line: string) => void): Promise<void> {
  const tmp = `${build.output}.tmp-${process.pid}`;
  const opts = {
    cwd: build.moduleDir,
    env: { ...process.env, GOFLAGS: "-mod=readonly", ...build.env },
  };
  const started = Date.now();
  const fail = (stderr: string[]): SetupError => {
    fs.rmSync(tmp, { force: true });
    const tail = stderr.join("\n").trim().split("\n").slice(-15).join("\n");
    const offline = /dial tcp|proxy\.golang|403|lookup|connection refused|timeout/i.test(tail);
    return new SetupError(
      `building ${build.pkg} failed${offline ? " (the Go module proxy could not be reached or refused a module)" : ""}.\n` +
        `${tail}\n` +
        "Check that the Go module proxy is reachable (GOPROXY), or install the Pulumi CLI " +
        `v${pinnedPulumiVersion()} with pulumi-language-nodejs on PATH.`,
    );
  };

  log(`  ${build.pkg}: downloading modules and listing packages (go list -deps)...`);
  const listed = await run(go, ["list", "-deps", build.pkg], opts, () => undefined);
  if (listed.status !== 0) throw fail(listed.stderr);
  const total = listed.stdout.split("\n").filter(Boolean).length;
  log(`  ${build.pkg}: ${total} packages, modules ready after ${elapsed(started)}; compiling`);

  const args = ["build", "-v", "-trimpath", "-tags", "osusergo,grpcnotrace"];
  args.push("-ldflags", build.ldflags, "-o", tmp, build.pkg);
  log(`  go ${args.join(" ")}   (in ${path.relative(PROJECT_ROOT, build.moduleDir)})`);
  let compiled = 0;
  const progress = setInterval(() => {
    const pct = total > 0 ? ` (${Math.min(100, Math.round((100 * compiled) / total))}%)` : "";
    log(`  ... ${compiled} of ${total} packages compiled${pct}, ${elapsed(started)}`);
  }, PROGRESS_EVERY_MS);
  let built;
  try {
    // -v prints each package's import path as it compiles it; anything else is an error.
    built = await run(go, args, opts, (line) => /^[\w.\-/]+$/.test(line) && compiled++);
  } finally {
    clearInterval(progress);
  }
  if (built.status !== 0) throw fail(built.stderr);
  fs.renameSync(tmp, build.output); // atomic: a half-built binary is never found
  const cached =
    total - compiled > 0 ? `; the other ${total - compiled} came from Go's build cache` : "";
  log(
    `  built ${path.basename(build.output)} in ${elapsed(started)} (${compiled} packages compiled${cached})`,
  );
}

/** Serializes builds across clones and processes sharing the cache. */
async function withLock<T>(
  dir: string,
  log: (line: string) => void,
  fn: () => Promise<T>,
): Promise<T> {
  const lock = path.join(dir, ".lock");
  fs.mkdirSync(dir, { recursive: true });
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
        log(`  another process is building the CLI (lock ${lock}); waiting for it`);
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

/**
 * Puts the dynamic-provider plugin script beside a CLI we built, as the CLI's own
 * distribution bundles it: found there, it is used without the engine's warning
 * "using pulumi-resource-pulumi-nodejs from $PATH" on every run.
 */
function bundleDynamicPlugin(tc: Toolchain): void {
  if (tc.source !== "cache") return;
  const name = "pulumi-resource-pulumi-nodejs";
  const source = fs.readFileSync(path.join(tc.dynamicPluginDir, name));
  const target = path.join(tc.pulumiBinDir, name);
  const current = fs.existsSync(target) ? fs.readFileSync(target) : undefined;
  if (current?.equals(source)) return;
  const tmp = `${target}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, source, { mode: 0o755 });
  fs.renameSync(tmp, target);
}

/** Finds the toolchain, building the CLI and language host from Go modules if needed. */
export async function ensureToolchain(log: (line: string) => void): Promise<Toolchain> {
  const version = pinnedPulumiVersion();
  const found = findToolchain();
  if (found) {
    bundleDynamicPlugin(found);
    return found;
  }

  const go = findGo();
  if (!go) {
    throw new SetupError(
      `the Pulumi CLI v${version} is neither on PATH nor in ${cacheRoot()}, and Go is not installed to build it.\n` +
        `Install Go >= 1.24 (it builds the CLI from the Go module proxy), or install the Pulumi CLI v${version} ` +
        "and pulumi-language-nodejs on PATH.",
    );
  }
  const cliModule = path.join(PROJECT_ROOT, "toolchain", "pulumi");
  const hostModule = path.join(PROJECT_ROOT, "toolchain", "language-nodejs");
  const pinnedInGoMod = goModVersion(cliModule, "github.com/pulumi/pulumi/pkg/v3");
  if (pinnedInGoMod !== `v${version}`) {
    throw new SetupError(
      `toolchain/pulumi/go.mod pins github.com/pulumi/pulumi/pkg/v3 ${pinnedInGoMod ?? "(nothing)"}, ` +
        `but @pulumi/pulumi is ${version}: keep them equal (see README, "How the CLI is obtained").`,
    );
  }
  const binDir = cacheBinDir(version);
  await withLock(path.dirname(binDir), log, async () => {
    if (findCliInCache(version)) return; // another process built it while we waited
    fs.mkdirSync(binDir, { recursive: true });
    log(`Building the Pulumi CLI v${version} from Go modules into ${binDir}`);
    log("  (once per machine: about 5 minutes and 5 GB of Go caches when cold, seconds when warm)");
    await goBuild(
      go,
      {
        moduleDir: cliModule,
        pkg: "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi",
        output: path.join(binDir, "pulumi"),
        // The version stamp matters: without it `pulumi version` is empty and the
        // Automation API refuses the CLI.
        ldflags: `-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v${version}`,
        env: {},
      },
      log,
    );
    await goBuild(
      go,
      {
        moduleDir: hostModule,
        pkg: "github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3",
        output: path.join(binDir, "pulumi-language-nodejs"),
        ldflags: "-s -w",
        // The proxy's only version of the host is absent from the checksum database;
        // go.sum (committed) pins its hash instead.
        env: { GONOSUMDB: "github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs" },
      },
      log,
    );
  });
  const built = findToolchain();
  if (!built) throw new SetupError(`the built CLI in ${binDir} does not report v${version}`);
  bundleDynamicPlugin(built);
  return built;
}

/**
 * Builds the package (`dist/`, what users install and what the engine's provider host
 * loads) and links it as `node_modules/pulumi-discord-commands`, so the demo, the
 * examples and the engine tests import it by name, as users do. Incremental: seconds.
 */
export function buildPackage(log: (line: string) => void): void {
  const tsc = path.join(PROJECT_ROOT, "node_modules", "typescript", "bin", "tsc");
  const res = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], {
    cwd: PROJECT_ROOT,
    encoding: "utf8",
  });
  if (res.status !== 0) {
    throw new SetupError(`building the package failed:\n${res.stdout}${res.stderr}`);
  }
  const link = path.join(PROJECT_ROOT, "node_modules", "pulumi-discord-commands");
  const target = path.relative(path.dirname(link), PROJECT_ROOT);
  let current: string | undefined;
  try {
    current = fs.readlinkSync(link);
  } catch {
    current = undefined;
  }
  if (current !== target) {
    fs.rmSync(link, { recursive: true, force: true });
    fs.symlinkSync(target, link, "dir");
    log(`linked node_modules/pulumi-discord-commands -> ${target}`);
  }
}
