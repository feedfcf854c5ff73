/**
 * Where the project's engine toolchain lives and how to get it, offline.
 *
 * The Pulumi CLI and its language hosts (Node.js, Python, Go, YAML) cannot be downloaded
 * on machines that reach only package registries and the Go module proxy, so they are
 * built from Go modules (wrapper modules in `toolchain/`; CONTRIBUTING.md, "How the Pulumi CLI is
 * obtained offline") into a cache outside the work tree, keyed by version, so every
 * clone on a machine shares one build. A matching `pulumi` already on PATH is used as it
 * is, with whichever hosts it has beside it; the others are built into the cache. Python
 * programs run in the project's virtual environment (`.work/venv`, from
 * `toolchain/python/requirements.txt`).
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

/** The languages whose programs the engine runs beside Node.js (their hosts are optional). */
export const OTHER_LANGUAGES = ["python", "go", "yaml"] as const;
export type OtherLanguage = (typeof OTHER_LANGUAGES)[number];

export interface Toolchain {
  /** The `pulumi` CLI version, e.g. "3.259.0". */
  readonly pulumiVersion: string;
  /** Folder holding `pulumi` and `pulumi-language-nodejs`. */
  readonly pulumiBinDir: string;
  /**
   * `pulumi-language-<lang>` of each other language whose host was found (beside the CLI,
   * or in the cache, which `toolchainPath` puts on PATH); a missing one was not built.
   */
  readonly languageHosts: Readonly<Partial<Record<OtherLanguage, string>>>;
  /** The project's Python virtual environment holding the `pulumi` SDK, once created. */
  readonly pythonVenv: string | undefined;
  /** Folder holding the `go` that the Go host builds programs with, if Go is installed. */
  readonly goBinDir: string | undefined;
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

export function cacheBinDir(version: string): string {
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

export function cliVersion(bin: string): string | undefined {
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

/** The cached CLI, when it reports the version (its Node.js host is looked for apart). */
function findCliInCache(version: string): string | undefined {
  const dir = cacheBinDir(version);
  const cli = path.join(dir, "pulumi");
  if (!fs.existsSync(cli)) return undefined;
  return cliVersion(cli) === version ? dir : undefined;
}

/**
 * How each language host is built: its wrapper module in `toolchain/`, the Go package,
 * and the module whose version (in that go.mod) identifies a build. The Node.js, Python
 * and Go hosts share one module (one download and one compile of pkg/sdk v3.200.0).
 */
interface HostSpec {
  readonly binary: string;
  readonly moduleDir: string;
  readonly pkg: string;
  readonly modulePath: string;
  /**
   * Files that must sit beside the binary, each Pulumi's own: its path inside the Go module
   * github.com/pulumi/pulumi/sdk/v3 at the CLI's version (copied from the module cache).
   */
  readonly companions: readonly string[];
}

/** Where Pulumi keeps the companions of its hosts, in the sdk module of a release. */
const SDK_MODULE = "github.com/pulumi/pulumi/sdk/v3";

const HOSTS_MODULE = "language-hosts";
/**
 * The Go toolchain the hosts of HOSTS_MODULE are built with (fetched from the module proxy
 * by `GOTOOLCHAIN`). Their SDK generators (pkg v3.200) compute a sub-folder's way up with
 * `path.Dir(filepath.Rel(dir, ""))`; Go 1.26's `Rel` answers `..` where earlier Go
 * answered `../.`, so built with Go 1.26 they write SDKs whose `config/` and `types/`
 * import files that do not exist (Node.js `./types/input`, Python `from . import
 * _utilities`). Built with Go 1.25 they write the SDKs Pulumi's own releases did.
 */
const HOSTS_GO_TOOLCHAIN = "go1.25.0";
/** The one pseudo-version the proxy serves of these hosts is absent from the checksum database. */
const HOSTS_GONOSUMDB = [
  "github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs",
  "github.com/pulumi/pulumi/sdk/python/cmd/pulumi-language-python",
  "github.com/pulumi/pulumi/sdk/go/pulumi-language-go",
].join(",");

const HOSTS: Readonly<Record<"nodejs" | OtherLanguage, HostSpec>> = {
  nodejs: {
    binary: "pulumi-language-nodejs",
    moduleDir: HOSTS_MODULE,
    pkg: "github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3",
    modulePath: "github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3",
    companions: [],
  },
  python: {
    binary: "pulumi-language-python",
    moduleDir: HOSTS_MODULE,
    pkg: "github.com/pulumi/pulumi/sdk/python/cmd/pulumi-language-python/v3",
    modulePath: "github.com/pulumi/pulumi/sdk/python/cmd/pulumi-language-python/v3",
    // The host runs every program through this script, which its own Go module lacks;
    // Pulumi keeps it in the sdk module (its releases ship it beside the host).
    companions: ["python/cmd/pulumi-language-python-exec"],
  },
  go: {
    binary: "pulumi-language-go",
    moduleDir: HOSTS_MODULE,
    pkg: "github.com/pulumi/pulumi/sdk/go/pulumi-language-go/v3",
    modulePath: "github.com/pulumi/pulumi/sdk/go/pulumi-language-go/v3",
    companions: [],
  },
  yaml: {
    binary: "pulumi-language-yaml",
    moduleDir: "language-yaml",
    pkg: "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml",
    modulePath: "github.com/pulumi/pulumi-yaml",
    companions: [],
  },
};

function readIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

export function toolchainDir(...parts: string[]): string {
  return path.join(PROJECT_ROOT, "toolchain", ...parts);
}

/** What a cached host was built from, e.g. "github.com/pulumi/pulumi-yaml v1.25.0". */
function hostSource(spec: HostSpec): string {
  const version = goModVersion(toolchainDir(spec.moduleDir), spec.modulePath);
  const go = spec.moduleDir === HOSTS_MODULE ? ` built with ${HOSTS_GO_TOOLCHAIN}` : "";
  return `${spec.modulePath} ${version ?? "(unpinned)"}${go}`;
}

/** A cached host whose stamp says it was built from the wrapper module's pin, as we build. */
function cachedHostCurrent(binDir: string, spec: HostSpec): boolean {
  if (!fs.existsSync(path.join(binDir, spec.binary)) || !companionsPresent(binDir, spec)) {
    return false;
  }
  return readIfExists(stampFile(binDir, spec))?.trim() === hostSource(spec);
}

/** A stamp beside a cached host names what it was built from, so a bumped pin rebuilds it. */
function stampFile(binDir: string, spec: HostSpec): string {
  return path.join(binDir, `.${spec.binary}.source`);
}

function companionsPresent(dir: string, spec: HostSpec): boolean {
  return spec.companions.every((file) => fs.existsSync(path.join(dir, path.posix.basename(file))));
}

/**
 * A host of another language: beside a CLI found on PATH (Pulumi's own distribution
 * ships them there), else in the cache when its stamp matches the wrapper module's pin.
 */
function findHost(lang: OtherLanguage, cliDir: string, source: "path" | "cache", version: string) {
  const spec = HOSTS[lang];
  if (source === "path") {
    const beside = path.join(cliDir, spec.binary);
    if (fs.existsSync(beside) && companionsPresent(cliDir, spec)) return beside;
  }
  const dir = cacheBinDir(version);
  return cachedHostCurrent(dir, spec) ? path.join(dir, spec.binary) : undefined;
}

/** Where the project's Python virtual environment lives (git-ignored, one per clone). */
export const PYTHON_VENV = path.join(PROJECT_ROOT, ".work", "venv");
const REQUIREMENTS = toolchainDir("python", "requirements.txt");

/** The venv's stamp holds the requirements it was made from: an edit re-installs them. */
function venvStamp(): string {
  return path.join(PYTHON_VENV, ".requirements.txt");
}

function findPythonVenv(): string | undefined {
  if (!fs.existsSync(path.join(PYTHON_VENV, "bin", "python"))) return undefined;
  return readIfExists(venvStamp()) === fs.readFileSync(REQUIREMENTS, "utf8")
    ? PYTHON_VENV
    : undefined;
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
  // The Node.js host belongs with the CLI (findCliOnPath checked it for a CLI on PATH).
  if (!onPath && !cachedHostCurrent(binDir, HOSTS.nodejs)) return undefined;
  const source = onPath ? "path" : "cache";
  const languageHosts: Partial<Record<OtherLanguage, string>> = {};
  for (const lang of OTHER_LANGUAGES) {
    const host = findHost(lang, binDir, source, version);
    if (host) languageHosts[lang] = host;
  }
  const go = findGo();
  return {
    pulumiVersion: version,
    pulumiBinDir: binDir,
    languageHosts,
    pythonVenv: findPythonVenv(),
    goBinDir: go ? path.dirname(go) : undefined,
    source,
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
 * CLI, then the plugin script's own folder as a fallback for a CLI that lacks it, then
 * the cache's language hosts when the CLI came from PATH without them (the engine looks
 * for a host beside itself, then on PATH), then `go`, which the Go host builds with.
 */
export function toolchainPath(tc: Toolchain, basePath = process.env["PATH"] ?? ""): string {
  const hostDirs = Object.values(tc.languageHosts).map((host) => path.dirname(host));
  const dirs = [tc.nodeBinDir, tc.pulumiBinDir, tc.dynamicPluginDir, ...hostDirs];
  if (tc.goBinDir) dirs.push(tc.goBinDir);
  return [...new Set(dirs), basePath].join(path.delimiter);
}

export function findGo(): string | undefined {
  return (
    which("go") ?? (fs.existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : undefined)
  );
}

/** Reads the version a wrapper module pins for a module path, from its go.mod. */
export function goModVersion(moduleDir: string, modulePath: string): string | undefined {
  const goMod = fs.readFileSync(path.join(moduleDir, "go.mod"), "utf8");
  const escaped = modulePath.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const m = new RegExp(`\\n\\s*${escaped} (v[^\\s]+)`).exec(goMod);
  return m?.[1];
}

export interface GoBuild {
  readonly moduleDir: string;
  /** Main packages, each built into `outDir` under its command's name. */
  readonly pkgs: readonly string[];
  readonly outDir: string;
  readonly ldflags: string;
  readonly env: NodeJS.ProcessEnv;
}

/** The name `go build` gives a main package's binary: its last path element, less a /vN. */
function commandName(pkg: string): string {
  return path.posix.basename(pkg.replace(/\/v\d+$/, ""));
}

/**
 * The flags every Go build of ours uses. Engine runs pass them to Go programs too
 * (GOFLAGS): a program whose modules are at the CLI's versions then reuses the CLI's
 * compiled packages from Go's build cache, since package builds are cached by flags.
 */
export const GO_BUILD_FLAGS: readonly string[] = ["-trimpath", "-tags=osusergo,grpcnotrace"];

/** How often a long build reports how far it got. */
const PROGRESS_EVERY_MS = 15_000;

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

/**
 * `go build`, with progress: first `go list -deps` (which downloads the modules) counts
 * the packages, then `go build -v` names each package it compiles, and every 15 s one
 * line says how many of them are done. A cold build is minutes of silence otherwise.
 * Several commands of one module build in one go (shared packages compile once); each
 * binary is renamed into place when all are built, so a half-built one is never found.
 */
export async function goBuild(
  go: string,
  build: GoBuild,
  log: (line: string) => void,
): Promise<void> {
  const tmpDir = path.join(build.outDir, `.build-${process.pid}`);
  const what = build.pkgs.map(commandName).join(", ");
  const opts = {
    cwd: build.moduleDir,
    env: { ...process.env, GOFLAGS: "-mod=readonly", ...build.env },
  };
  const started = Date.now();
  const fail = (stderr: string[]): SetupError => {
    fs.rmSync(tmpDir, { recursive: true, force: true });
    const tail = stderr.join("\n").trim().split("\n").slice(-15).join("\n");
    const offline = /dial tcp|proxy\.golang|403|lookup|connection refused|timeout/i.test(tail);
    return new SetupError(
      `building ${what} (${build.pkgs.join(" ")}) failed${offline ? " (the Go module proxy could not be reached or refused a module)" : ""}.\n` +
        `${tail}\n` +
        "Check that the Go module proxy is reachable (GOPROXY), or install the Pulumi CLI " +
        `v${pinnedPulumiVersion()} with its language hosts on PATH.`,
    );
  };

  log(`  ${what}: downloading modules and listing packages (go list -deps)...`);
  const listed = await run(go, ["list", "-deps", ...build.pkgs], opts, () => undefined);
  if (listed.status !== 0) throw fail(listed.stderr);
  const total = listed.stdout.split("\n").filter(Boolean).length;
  log(`  ${what}: ${total} packages, modules ready after ${elapsed(started)}; compiling`);

  fs.mkdirSync(tmpDir, { recursive: true });
  const args = ["build", "-v", ...GO_BUILD_FLAGS];
  args.push("-ldflags", build.ldflags, "-o", `${tmpDir}${path.sep}`, ...build.pkgs);
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
  for (const pkg of build.pkgs) {
    const name = commandName(pkg);
    fs.renameSync(path.join(tmpDir, name), path.join(build.outDir, name)); // atomic
  }
  fs.rmSync(tmpDir, { recursive: true, force: true });
  const cached =
    total - compiled > 0 ? `; the other ${total - compiled} came from Go's build cache` : "";
  log(`  built ${what} in ${elapsed(started)} (${compiled} packages compiled${cached})`);
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

/**
 * Puts the dynamic-provider plugin script beside a CLI we built, as the CLI's own
 * distribution bundles it: found there, it is used without the engine's warning
 * "using pulumi-resource-pulumi-nodejs from $PATH" on every run.
 */
function bundleDynamicPlugin(tc: Toolchain): void {
  if (tc.source !== "cache") return;
  const name = "pulumi-resource-pulumi-nodejs";
  installFile(
    path.join(tc.pulumiBinDir, name),
    fs.readFileSync(path.join(tc.dynamicPluginDir, name)),
  );
}

/**
 * The folder of `github.com/pulumi/pulumi/sdk/v3` at `version` in Go's module cache,
 * downloaded from the module proxy when absent (the CLI's build downloads it anyway).
 */
export function sdkModuleDir(go: string, version: string): string {
  const mod = `${SDK_MODULE}@v${version}`;
  const gomodcache = spawnSync(go, ["env", "GOMODCACHE"], { encoding: "utf8" }).stdout.trim();
  const dir = path.join(gomodcache, ...SDK_MODULE.split("/")) + `@v${version}`;
  if (fs.existsSync(dir)) return dir;
  const res = spawnSync(go, ["mod", "download", "-json", mod], {
    cwd: os.tmpdir(),
    encoding: "utf8",
    env: { ...process.env, GOFLAGS: "-mod=mod" },
  });
  const downloaded: unknown = res.status === 0 ? JSON.parse(res.stdout).Dir : undefined;
  if (typeof downloaded !== "string") {
    throw new SetupError(
      `could not download ${mod} from the Go module proxy (it holds Pulumi's own ` +
        `pulumi-language-python-exec):\n${res.stderr.trim()}`,
    );
  }
  return downloaded;
}

/**
 * Keeps a cached host's companion files (the Python exec script) equal to Pulumi's own of
 * the CLI's release: the project once carried its own exec (3 stack frames fewer per
 * resource, 4 threads per engine slot), and issue 37 made it Pulumi's, which has the same
 * 4 threads per slot; a cache that holds ours gets Pulumi's on the next setup.
 */
function installCompanions(go: string, binDir: string, spec: HostSpec, version: string): void {
  if (spec.companions.length === 0) return;
  const sdkDir = sdkModuleDir(go, version);
  for (const file of spec.companions) {
    installFile(
      path.join(binDir, path.posix.basename(file)),
      fs.readFileSync(path.join(sdkDir, ...file.split("/"))),
    );
  }
}

type HostName = keyof typeof HOSTS;

/** What the cache lacks for this version: the CLI itself, and which language hosts. */
function missingParts(version: string): { cli: boolean; hosts: HostName[] } {
  const binDir = cacheBinDir(version);
  const onPath = findCliOnPath(version);
  const hosts: HostName[] = [];
  if (!onPath && !cachedHostCurrent(binDir, HOSTS.nodejs)) hosts.push("nodejs");
  for (const lang of OTHER_LANGUAGES) {
    if (!findHost(lang, onPath ?? binDir, onPath ? "path" : "cache", version)) hosts.push(lang);
  }
  return { cli: !onPath && !findCliInCache(version), hosts };
}

/** Builds the CLI and the missing language hosts into the cache, under the cache's lock. */
async function buildIntoCache(go: string, version: string, log: (line: string) => void) {
  const binDir = cacheBinDir(version);
  const lock = path.join(path.dirname(binDir), ".lock");
  await withLock(lock, "building the Pulumi toolchain", log, async () => {
    const missing = missingParts(version); // another process may have built some meanwhile
    fs.mkdirSync(binDir, { recursive: true });
    // Left by a build that died (we hold the lock: nobody else is building).
    for (const entry of fs.readdirSync(binDir)) {
      if (/^\.build-\d+$|\.tmp-\d+$/.test(entry))
        fs.rmSync(path.join(binDir, entry), { recursive: true, force: true });
    }
    if (missing.cli) {
      log(`Building the Pulumi CLI v${version} from Go modules into ${binDir}`);
      log(
        "  (once per machine: about 5 minutes and 5 GB of Go caches when cold, seconds when warm)",
      );
      await goBuild(
        go,
        {
          moduleDir: toolchainDir("pulumi"),
          pkgs: ["github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"],
          outDir: binDir,
          // The version stamp matters: without it `pulumi version` is empty and the
          // Automation API refuses the CLI.
          ldflags: `-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v${version}`,
          env: {},
        },
        log,
      );
    }
    if (missing.hosts.length === 0) return;
    log(`Building the language hosts (${missing.hosts.join(", ")}) from Go modules into ${binDir}`);
    for (const moduleDir of [...new Set(missing.hosts.map((h) => HOSTS[h].moduleDir))]) {
      const specs = missing.hosts.map((h) => HOSTS[h]).filter((s) => s.moduleDir === moduleDir);
      await goBuild(
        go,
        {
          moduleDir: toolchainDir(moduleDir),
          pkgs: specs.map((s) => s.pkg),
          outDir: binDir,
          ldflags: "-s -w",
          // go.sum (committed) pins the hash of what the checksum database lacks.
          env:
            moduleDir === HOSTS_MODULE
              ? { GONOSUMDB: HOSTS_GONOSUMDB, GOTOOLCHAIN: HOSTS_GO_TOOLCHAIN }
              : {},
        },
        log,
      );
      for (const spec of specs) {
        installCompanions(go, binDir, spec, version);
        fs.writeFileSync(stampFile(binDir, spec), `${hostSource(spec)}\n`);
      }
    }
  });
}

/** A `python3` on PATH new enough for the `pulumi` SDK, and its version. */
const MIN_PYTHON: readonly [number, number] = [3, 10];

export function findPython(): { bin: string; version: string } | undefined {
  // The interpreter's own base executable: a pyenv shim or an activated venv (ours, even,
  // which setup may re-make) would not do to create a venv from.
  const script = "import sys; print('%d.%d' % sys.version_info[:2]); print(sys._base_executable)";
  for (const name of ["python3", "python"]) {
    const found = which(name);
    if (!found) continue;
    const out = spawnSync(found, ["-c", script], { encoding: "utf8" });
    const [version = "", bin = found] = (out.stdout ?? "").trim().split("\n");
    const [major = 0, minor = 0] = version.split(".").map(Number);
    if (
      out.status === 0 &&
      (major > MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor >= MIN_PYTHON[1]))
    ) {
      return { bin, version };
    }
  }
  return undefined;
}

/** The `pulumi` version the requirements pin; it must be the CLI's. */
function requiredPythonSdk(): string | undefined {
  return /^pulumi==(\S+)/m.exec(fs.readFileSync(REQUIREMENTS, "utf8"))?.[1];
}

/**
 * Creates the project's Python virtual environment and installs the pinned requirements
 * (the `pulumi` SDK and its dependencies, from the Python package index) into it. Made
 * anew when the requirements change; the stamp is written last, so a half-made one is
 * never found.
 */
async function createPythonVenv(
  python: { bin: string; version: string },
  log: (line: string) => void,
) {
  const rel = path.relative(PROJECT_ROOT, PYTHON_VENV);
  await withLock(
    `${PYTHON_VENV}.lock`,
    "creating the Python virtual environment",
    log,
    async () => {
      if (findPythonVenv()) return;
      const started = Date.now();
      log(
        `Creating the Python virtual environment ${rel} (Python ${python.version}, ` +
          `pulumi==${requiredPythonSdk() ?? "?"} and its dependencies from the Python package index)`,
      );
      fs.rmSync(PYTHON_VENV, { recursive: true, force: true });
      const opts = { cwd: PROJECT_ROOT, env: process.env };
      const venv = await run(python.bin, ["-m", "venv", PYTHON_VENV], opts, () => undefined);
      if (venv.status !== 0) {
        throw new SetupError(`\`${python.bin} -m venv ${rel}\` failed:\n${venv.stderr.join("\n")}`);
      }
      const pipArgs = ["-m", "pip", "install", "--disable-pip-version-check", "--no-input"];
      pipArgs.push("-r", REQUIREMENTS);
      const pip = await run(
        path.join(PYTHON_VENV, "bin", "python"),
        pipArgs,
        opts,
        () => undefined,
      );
      if (pip.status !== 0) {
        const tail = [...pip.stdout.trim().split("\n"), ...pip.stderr].slice(-15).join("\n");
        throw new SetupError(
          `installing ${path.relative(PROJECT_ROOT, REQUIREMENTS)} into ${rel} failed ` +
            `(is the Python package index reachable?):\n${tail}`,
        );
      }
      fs.copyFileSync(REQUIREMENTS, venvStamp());
      log(`  created ${rel} in ${elapsed(started)}`);
    },
  );
}

/** Forgets what `findToolchain` remembered, after setup changed what is there. */
function lookAgain(): Toolchain | undefined {
  remembered = undefined;
  return findToolchain();
}

/**
 * Finds the toolchain, building from Go modules whatever is missing: the CLI and its
 * Node.js host (unless a matching CLI is on PATH), the Python, Go and YAML hosts (into the
 * cache, also beside a CLI on PATH that lacks them), and the Python virtual environment.
 * Without Go or Python, the parts that need them are left out with a warning: Node
 * programs still run, and `findToolchain()` reports which hosts exist.
 */
export async function ensureToolchain(log: (line: string) => void): Promise<Toolchain> {
  const version = pinnedPulumiVersion();
  const sdk = requiredPythonSdk();
  if (sdk !== version) {
    throw new SetupError(
      `toolchain/python/requirements.txt pins pulumi==${sdk ?? "(nothing)"}, but @pulumi/pulumi is ` +
        `${version}: keep them equal (see CONTRIBUTING.md, "How the Pulumi CLI is obtained offline").`,
    );
  }
  const found = findToolchain();
  // Looking again costs two `pulumi version` runs: only when something is missing.
  const missing: ReturnType<typeof missingParts> =
    found && OTHER_LANGUAGES.every((l) => found.languageHosts[l])
      ? { cli: false, hosts: [] }
      : missingParts(version);
  if (missing.cli || missing.hosts.length > 0) {
    const go = findGo();
    if (go) {
      const pinnedInGoMod = goModVersion(toolchainDir("pulumi"), "github.com/pulumi/pulumi/pkg/v3");
      if (missing.cli && pinnedInGoMod !== `v${version}`) {
        throw new SetupError(
          `toolchain/pulumi/go.mod pins github.com/pulumi/pulumi/pkg/v3 ${pinnedInGoMod ?? "(nothing)"}, ` +
            `but @pulumi/pulumi is ${version}: keep them equal (see CONTRIBUTING.md, "How the Pulumi CLI is obtained offline").`,
        );
      }
      await buildIntoCache(go, version, log);
    } else if (missing.cli || missing.hosts.includes("nodejs")) {
      throw new SetupError(
        `the Pulumi CLI v${version} is neither on PATH nor in ${cacheRoot()}, and Go is not installed to build it.\n` +
          `Install Go >= 1.24 (it builds the CLI from the Go module proxy), or install the Pulumi CLI v${version} ` +
          "and pulumi-language-nodejs on PATH.",
      );
    } else {
      log(
        `setup: warning: no language host for ${missing.hosts.join(", ")} beside the CLI and no Go to ` +
          "build them: programs in those languages cannot run (install Go >= 1.24, or Pulumi's own hosts beside the CLI).",
      );
    }
  }

  let tc = missing.cli || missing.hosts.length > 0 ? lookAgain() : found;
  if (!tc)
    throw new SetupError(`the built CLI in ${cacheBinDir(version)} does not report v${version}`);
  bundleDynamicPlugin(tc);
  const goBin = findGo();
  if (
    goBin &&
    tc.languageHosts.python &&
    path.dirname(tc.languageHosts.python) === cacheBinDir(version)
  ) {
    installCompanions(goBin, cacheBinDir(version), HOSTS.python, version);
  }
  if (!tc.pythonVenv) {
    const python = findPython();
    if (python) {
      await createPythonVenv(python, log);
      tc = lookAgain() ?? tc;
    } else {
      log(
        `setup: warning: no python3 >= ${MIN_PYTHON.join(".")} on PATH: the Python virtual environment ` +
          `(${path.relative(PROJECT_ROOT, PYTHON_VENV)}) is not created and Python programs cannot run.`,
      );
    }
  }
  return tc;
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
