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
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { findGo, goBuild, goModVersion } from "./goModules";
import type { OtherLanguage } from "./languageHosts";
import {
  buildHosts,
  cachedHostCurrent,
  findHost,
  HOSTS,
  installCompanions,
  OTHER_LANGUAGES,
} from "./languageHosts";
import type { HostGrade, HostName } from "./languageHosts";
import {
  createPythonVenv,
  findPython,
  findPythonVenv,
  MIN_PYTHON,
  PYTHON_VENV,
  requiredPythonSdk,
} from "./pythonVenv";
import {
  cacheBinDir,
  cacheRoot,
  installFile,
  pinnedPulumiVersion,
  PROJECT_ROOT,
  SetupError,
  toolchainDir,
  which,
  withLock,
} from "./setupCommon";

// What the scripts and tests that run the engine take from the toolchain.
export { PROJECT_ROOT, SetupError, pinnedPulumiVersion } from "./setupCommon";
export { PYTHON_VENV } from "./pythonVenv";
export { OTHER_LANGUAGES } from "./languageHosts";
export type { OtherLanguage } from "./languageHosts";
export { GO_BUILD_FLAGS } from "./goModules";
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
  if (!onPath && !cachedHostCurrent(binDir, HOSTS.nodejs, "run")) return undefined;
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
 * The compiled package (dist/), which programs import and the plugin runs: missing, a test
 * would fail with "Cannot find module .../dist/..."; this says what to run instead.
 */
export function requireBuiltPackage(): void {
  for (const file of ["index.js", path.join("provider", "plugin", "main.js")]) {
    if (!fs.existsSync(path.join(PROJECT_ROOT, "dist", file))) {
      throw new SetupError(
        `dist/${file} is not built yet: run \`npm run setup\` (it compiles dist/).`,
      );
    }
  }
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
 * What the cache lacks for this version: the CLI itself, and which language hosts (of
 * Node.js and `others`); with `others`, a Node.js host only fit to run is rebuilt too
 * (the full setup's hosts generate SDKs; see HostGrade).
 */
function missingParts(
  version: string,
  others: readonly OtherLanguage[],
): { cli: boolean; hosts: HostName[] } {
  const binDir = cacheBinDir(version);
  const onPath = findCliOnPath(version);
  const hosts: HostName[] = [];
  const nodejsNeed = hostGrade(others);
  if (!onPath && !cachedHostCurrent(binDir, HOSTS.nodejs, nodejsNeed)) hosts.push("nodejs");
  for (const lang of others) {
    if (!findHost(lang, onPath ?? binDir, onPath ? "path" : "cache", version)) hosts.push(lang);
  }
  return { cli: !onPath && !findCliInCache(version), hosts };
}

/** What the hosts must be fit for: running programs only when no other language is wanted. */
function hostGrade(others: readonly OtherLanguage[]): HostGrade {
  return others.length === 0 ? "run" : "generate";
}

/** Builds the CLI and the missing language hosts into the cache, under the cache's lock. */
async function buildIntoCache(
  go: string,
  version: string,
  others: readonly OtherLanguage[],
  log: (line: string) => void,
) {
  const binDir = cacheBinDir(version);
  const lock = path.join(path.dirname(binDir), ".lock");
  await withLock(lock, "building the Pulumi toolchain", log, async () => {
    const missing = missingParts(version, others); // another process may have built some meanwhile
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
    if (missing.hosts.length > 0) {
      await buildHosts(go, binDir, missing.hosts, version, log, hostGrade(others));
    }
  });
}

/** Forgets what `findToolchain` remembered, after setup changed what is there. */
function lookAgain(): Toolchain | undefined {
  remembered = undefined;
  return findToolchain();
}

/** What a run needs of the toolchain. */
export interface ToolchainNeeds {
  /**
   * The CLI and its Node.js host only (`npm start`: the demo runs one Node.js program):
   * no Python, Go or YAML host and no Python venv, which a later full setup adds.
   */
  readonly nodejsOnly?: boolean;
}

/**
 * Finds the toolchain, building from Go modules whatever is missing: the CLI and its
 * Node.js host (unless a matching CLI is on PATH), the Python, Go and YAML hosts (into the
 * cache, also beside a CLI on PATH that lacks them), and the Python virtual environment.
 * Without Go or Python, the parts that need them are left out with a warning: Node
 * programs still run, and `findToolchain()` reports which hosts exist. `nodejsOnly` leaves
 * out the other hosts and the venv (they are added by the next setup without it).
 */
export async function ensureToolchain(
  log: (line: string) => void,
  needs: ToolchainNeeds = {},
): Promise<Toolchain> {
  const others = needs.nodejsOnly ? [] : OTHER_LANGUAGES;
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
  const complete =
    found &&
    others.every((l) => found.languageHosts[l]) &&
    (found.source === "path" ||
      cachedHostCurrent(found.pulumiBinDir, HOSTS.nodejs, hostGrade(others)));
  const missing: ReturnType<typeof missingParts> = complete
    ? { cli: false, hosts: [] }
    : missingParts(version, others);
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
      await buildIntoCache(go, version, others, log);
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
  if (!tc.pythonVenv && !needs.nodejsOnly) {
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
