/**
 * The tested range of Pulumi (issue 37): besides the pinned version that the whole suite
 * runs on, the oldest and the newest end of the range that package.json declares, each
 * with its CLI (built from `toolchain/pulumi-<end>` into the cache as the pinned one is),
 * its Node.js SDK (installed from npm into the cache) and its Python SDK (a venv of its
 * own), for the engine smoke (test/engine/version-range-*.test.ts). The language hosts are
 * the pinned ones (they are older than every CLI of the range, a supported pairing), hard
 * linked beside each CLI with the Python exec script of that CLI's release.
 *
 * `DISCORD_COMMANDS_SKIP_RANGE=1` leaves the range out of setup (the smoke then skips).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { TESTED_RANGE } from "../provider/testedRange";
import { findGo, goBuild, goModVersion, sdkModuleDir } from "./goModules";
import { findPython } from "./pythonVenv";
import {
  cacheBinDir,
  cacheRoot,
  elapsed,
  installFile,
  PROJECT_ROOT,
  run,
  SetupError,
  toolchainDir,
  withLock,
} from "./setupCommon";
import type { Toolchain } from "./toolchain";
import { cliVersion } from "./toolchain";

const RANGE_ENDS = ["oldest", "newest"] as const;
export type RangeEnd = (typeof RANGE_ENDS)[number];

/** The versions at one end of the range: the CLI's and each SDK's. */
interface RangeVersions {
  readonly cli: string;
  readonly nodejs: string;
  readonly python: string;
}

/** The range's ends, from provider/testedRange.ts (which the package reads too). */
function declaredRange(): Record<RangeEnd, RangeVersions> {
  return TESTED_RANGE;
}

/** What the engine needs to run a program at one end of the range. */
export interface RangeToolchain {
  readonly end: RangeEnd;
  readonly versions: RangeVersions;
  /** The CLI, the language hosts beside it, the exec script and the dynamic-provider script. */
  readonly binDir: string;
  /** `node_modules` holding `@pulumi/pulumi` at `versions.nodejs` and the package's dependencies. */
  readonly nodeModules: string;
  /** A venv holding `pulumi` at `versions.python`. */
  readonly venv: string;
}

const HOSTS = ["pulumi-language-nodejs", "pulumi-language-python", "pulumi-language-yaml"];
const EXEC = "pulumi-language-python-exec";
const DYNAMIC = "pulumi-resource-pulumi-nodejs";

function nodeSdkDir(version: string): string {
  return path.join(cacheRoot(), `nodejs-sdk-v${version}`);
}

function venvDir(version: string): string {
  return path.join(PROJECT_ROOT, ".work", `venv-pulumi-${version}`);
}

/** The package's own dependencies, which the copy of `dist/` in a program needs beside the SDK. */
function nodeDependencies(version: string): Record<string, string> {
  const pkg = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")) as {
    dependencies?: Record<string, string>;
  };
  return { ...pkg.dependencies, "@pulumi/pulumi": version };
}

const STAMP = ".range-stamp";

function stamped(dir: string, content: string): boolean {
  try {
    return fs.readFileSync(path.join(dir, STAMP), "utf8") === content;
  } catch {
    return false;
  }
}

/** One end's toolchain when every part of it is in place; undefined otherwise. */
export function findRangeToolchain(end: RangeEnd): RangeToolchain | undefined {
  const versions = declaredRange()[end];
  const binDir = cacheBinDir(versions.cli);
  const parts = [...HOSTS, EXEC, DYNAMIC].every((f) => fs.existsSync(path.join(binDir, f)));
  if (!parts || cliVersion(path.join(binDir, "pulumi")) !== versions.cli) return undefined;
  const sdk = nodeSdkDir(versions.nodejs);
  if (!stamped(sdk, JSON.stringify(nodeDependencies(versions.nodejs)))) return undefined;
  const venv = venvDir(versions.python);
  if (!stamped(venv, versions.python)) return undefined;
  return { end, versions, binDir, nodeModules: path.join(sdk, "node_modules"), venv };
}

/** PATH for an engine run at one end: Node >= 22, then that end's CLI and hosts. */
export function rangePath(tc: Toolchain, rt: RangeToolchain): string {
  const dirs = [tc.nodeBinDir, rt.binDir];
  if (tc.goBinDir) dirs.push(tc.goBinDir);
  return [...dirs, process.env["PATH"] ?? ""].join(path.delimiter);
}

/** Hard-links (or copies, across file systems) `from` to `to` unless `to` holds it already. */
function linkInto(from: string, to: string): void {
  if (fs.existsSync(to) && fs.statSync(to).ino === fs.statSync(from).ino) return;
  const tmp = `${to}.tmp-${process.pid}`;
  try {
    fs.linkSync(from, tmp);
  } catch {
    fs.copyFileSync(from, tmp);
  }
  fs.renameSync(tmp, to);
}

async function ensureCli(
  go: string,
  end: RangeEnd,
  versions: RangeVersions,
  pinned: Toolchain,
  log: (line: string) => void,
): Promise<void> {
  const binDir = cacheBinDir(versions.cli);
  const moduleDir = toolchainDir(`pulumi-${end}`);
  const pin = goModVersion(moduleDir, "github.com/pulumi/pulumi/pkg/v3");
  if (pin !== `v${versions.cli}`) {
    throw new SetupError(
      `toolchain/pulumi-${end}/go.mod pins pkg/v3 ${pin ?? "(nothing)"}, but provider/testedRange.ts says ` +
        `the ${end} CLI is ${versions.cli}: keep them equal (scripts/upgrade-pulumi.ts moves both).`,
    );
  }
  await withLock(
    path.join(path.dirname(binDir), ".lock"),
    "building a Pulumi CLI",
    log,
    async () => {
      fs.mkdirSync(binDir, { recursive: true });
      if (cliVersion(path.join(binDir, "pulumi")) !== versions.cli) {
        const started = Date.now();
        log(`Building the ${end} Pulumi CLI of the tested range, v${versions.cli}, into ${binDir}`);
        await goBuild(
          go,
          {
            moduleDir,
            pkgs: ["github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"],
            outDir: binDir,
            ldflags: `-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v${versions.cli}`,
            env: {},
          },
          log,
        );
        log(`  the ${end} CLI v${versions.cli} built in ${elapsed(started)}`);
      }
      // The pinned hosts serve every CLI of the range; the exec script is that CLI's own.
      const pinnedBin = path.dirname(pinned.languageHosts.python ?? "");
      for (const host of HOSTS) {
        const from =
          host === "pulumi-language-nodejs"
            ? path.join(pinned.pulumiBinDir, host)
            : path.join(pinnedBin, host);
        if (!fs.existsSync(from)) {
          throw new SetupError(
            `${host} of the pinned toolchain is missing: run \`npm run setup\`.`,
          );
        }
        linkInto(from, path.join(binDir, host));
      }
      const exec = path.join(sdkModuleDir(go, versions.cli), "python", "cmd", EXEC);
      installFile(path.join(binDir, EXEC), fs.readFileSync(exec));
    },
  );
}

async function ensureNodeSdk(
  versions: RangeVersions,
  binDir: string,
  log: (line: string) => void,
): Promise<void> {
  const dir = nodeSdkDir(versions.nodejs);
  const deps = nodeDependencies(versions.nodejs);
  await withLock(`${dir}.lock`, "installing a Node.js SDK", log, async () => {
    if (!stamped(dir, JSON.stringify(deps))) {
      const started = Date.now();
      log(`Installing @pulumi/pulumi ${versions.nodejs} from npm into ${dir}`);
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      const pkg = { name: "range-sdk", private: true, dependencies: deps };
      fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg, null, 2));
      const npm = await run(
        "npm",
        ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
        { cwd: dir, env: process.env },
        () => undefined,
      );
      if (npm.status !== 0) {
        throw new SetupError(
          `npm install @pulumi/pulumi@${versions.nodejs} failed:\n${npm.stderr.slice(-15).join("\n")}`,
        );
      }
      fs.writeFileSync(path.join(dir, STAMP), JSON.stringify(deps));
      log(`  installed in ${elapsed(started)}`);
    }
    // The dynamic-provider script of that SDK, beside the CLI (as Pulumi's releases ship it).
    const script = path.join(dir, "node_modules", "@pulumi", "pulumi", DYNAMIC);
    installFile(path.join(binDir, DYNAMIC), fs.readFileSync(script));
  });
}

async function ensureVenv(versions: RangeVersions, log: (line: string) => void): Promise<void> {
  const venv = venvDir(versions.python);
  await withLock(`${venv}.lock`, "creating a Python venv", log, async () => {
    if (stamped(venv, versions.python)) return;
    const python = findPython();
    if (!python) throw new SetupError("no python3 >= 3.10 on PATH for the range's Python venv");
    const started = Date.now();
    log(`Creating ${path.relative(PROJECT_ROOT, venv)} with pulumi==${versions.python}`);
    fs.rmSync(venv, { recursive: true, force: true });
    const mk = spawnSync(python.bin, ["-m", "venv", venv], { encoding: "utf8" });
    if (mk.status !== 0) throw new SetupError(`python -m venv ${venv} failed:\n${mk.stderr}`);
    // The generated SDK's own dependencies besides pulumi (parver, semver), resolved by pip.
    const pip = await run(
      path.join(venv, "bin", "python"),
      ["-m", "pip", "install", "--disable-pip-version-check", "--no-input", "--quiet"].concat([
        `pulumi==${versions.python}`,
        "parver",
        "semver",
      ]),
      { cwd: PROJECT_ROOT, env: process.env },
      () => undefined,
    );
    if (pip.status !== 0) {
      throw new SetupError(
        `pip install pulumi==${versions.python} failed:\n${pip.stderr.slice(-15).join("\n")}`,
      );
    }
    fs.writeFileSync(path.join(venv, STAMP), versions.python);
    log(`  created in ${elapsed(started)}`);
  });
}

/**
 * Builds or installs whatever of the range's ends is missing (setup's last step). Each
 * end costs a CLI build (about 5 minutes of 2 cores cold, seconds warm), an npm install
 * and a venv, all cached.
 */
export async function ensureRangeToolchains(
  pinned: Toolchain,
  log: (line: string) => void,
): Promise<void> {
  if (process.env["DISCORD_COMMANDS_SKIP_RANGE"] === "1") return;
  const go = findGo();
  if (!go) {
    log("setup: warning: no Go to build the range's CLIs: the version-range smoke will skip.");
    return;
  }
  for (const end of RANGE_ENDS) await ensureRangeEnd(go, end, pinned, log);
}

/** One end of the range: its CLI, Node.js SDK and venv, each when missing. */
async function ensureRangeEnd(
  go: string,
  end: RangeEnd,
  pinned: Toolchain,
  log: (line: string) => void,
): Promise<void> {
  if (findRangeToolchain(end)) return;
  const versions = declaredRange()[end];
  const started = Date.now();
  await ensureCli(go, end, versions, pinned, log);
  await ensureNodeSdk(versions, cacheBinDir(versions.cli), log);
  await ensureVenv(versions, log);
  log(`setup: the ${end} end of the range ready in ${elapsed(started)}`);
}
