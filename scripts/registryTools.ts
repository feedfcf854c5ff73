/**
 * What the release test needs beyond the Pulumi toolchain, installed by setup from the
 * registries (a fresh machine has only what the project installs):
 * - pypiserver, a Python package index, in the venv `.work/venv-registries`, from
 *   `toolchain/registries/requirements.txt` (the Python package index);
 * - actionlint, which lints the release workflow, built from the Go module proxy
 *   (`github.com/rhysd/actionlint/cmd/actionlint`) into the shared cache.
 * (Verdaccio, the npm registry, is a devDependency.) Both are remade when their pin moves.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { findGo } from "./goModules";
import { findPython } from "./pythonVenv";
import {
  cacheRoot,
  elapsed,
  PROJECT_ROOT,
  run,
  SetupError,
  toolchainDir,
  withLock,
} from "./setupCommon";

const REGISTRY_VENV = path.join(PROJECT_ROOT, ".work", "venv-registries");
const REQUIREMENTS = toolchainDir("registries", "requirements.txt");
const ACTIONLINT_VERSION = "v1.7.12";
const ACTIONLINT_MODULE = "github.com/rhysd/actionlint/cmd/actionlint";

interface RegistryTools {
  /** pypiserver's command. */
  readonly pypiServer: string;
  readonly actionlint: string;
}

function venvStamp(): string {
  return path.join(REGISTRY_VENV, ".requirements.txt");
}

function actionlintPath(): string {
  return path.join(cacheRoot(), `actionlint-${ACTIONLINT_VERSION}`, "actionlint");
}

function pypiServerPath(): string | undefined {
  const bin = path.join(REGISTRY_VENV, "bin", "pypi-server");
  const stamp = fs.existsSync(venvStamp()) ? fs.readFileSync(venvStamp(), "utf8") : undefined;
  return fs.existsSync(bin) && stamp === fs.readFileSync(REQUIREMENTS, "utf8") ? bin : undefined;
}

/** The tools if setup installed them; otherwise a clear error naming the fix. */
export function requireRegistryTools(): RegistryTools {
  const pypiServer = pypiServerPath();
  const actionlint = actionlintPath();
  if (!pypiServer || !fs.existsSync(actionlint)) {
    const missing = [
      pypiServer ? [] : ["pypiserver"],
      fs.existsSync(actionlint) ? [] : ["actionlint"],
    ];
    throw new SetupError(`${missing.flat().join(" and ")} not installed: run \`npm run setup\`.`);
  }
  return { pypiServer, actionlint };
}

async function createRegistryVenv(log: (line: string) => void): Promise<void> {
  const python = findPython();
  if (!python) {
    log(
      "setup: warning: no python3 on PATH: pypiserver is not installed and the release test cannot run.",
    );
    return;
  }
  const rel = path.relative(PROJECT_ROOT, REGISTRY_VENV);
  await withLock(`${REGISTRY_VENV}.lock`, "installing pypiserver", log, async () => {
    if (pypiServerPath()) return;
    const started = Date.now();
    log(`Creating ${rel} (pypiserver for the release test, from the Python package index)`);
    fs.rmSync(REGISTRY_VENV, { recursive: true, force: true });
    const opts = { cwd: PROJECT_ROOT, env: process.env };
    const steps: [string, string[]][] = [
      [python.bin, ["-m", "venv", REGISTRY_VENV]],
      [
        path.join(REGISTRY_VENV, "bin", "python"),
        ["-m", "pip", "install", "--disable-pip-version-check", "--no-input", "-r", REQUIREMENTS],
      ],
    ];
    for (const [cmd, args] of steps) {
      const res = await run(cmd, args, opts, () => undefined);
      if (res.status !== 0) {
        const tail = [...res.stdout.trim().split("\n"), ...res.stderr].slice(-15).join("\n");
        throw new SetupError(`${path.basename(cmd)} ${args.join(" ")} failed:\n${tail}`);
      }
    }
    fs.copyFileSync(REQUIREMENTS, venvStamp());
    log(`  created ${rel} in ${elapsed(started)}`);
  });
}

async function buildActionlint(log: (line: string) => void): Promise<void> {
  const go = findGo();
  if (!go) {
    log("setup: warning: no Go: actionlint is not built and the release workflow is not linted.");
    return;
  }
  const target = actionlintPath();
  await withLock(`${path.dirname(target)}.lock`, "building actionlint", log, async () => {
    if (fs.existsSync(target)) return;
    const started = Date.now();
    log(`Building actionlint ${ACTIONLINT_VERSION} from the Go module proxy`);
    const tmp = `${path.dirname(target)}.build-${process.pid}`;
    const env = { ...process.env, GOBIN: tmp, GOFLAGS: "-trimpath" };
    const res = await run(
      go,
      ["install", `${ACTIONLINT_MODULE}@${ACTIONLINT_VERSION}`],
      { cwd: PROJECT_ROOT, env },
      () => undefined,
    );
    if (res.status !== 0) {
      fs.rmSync(tmp, { recursive: true, force: true });
      throw new SetupError(
        `building actionlint failed (is the Go module proxy reachable?):\n${res.stderr.slice(-10).join("\n")}`,
      );
    }
    fs.rmSync(path.dirname(target), { recursive: true, force: true });
    fs.renameSync(tmp, path.dirname(target)); // atomic: a half-built one is never found
    log(`  built actionlint in ${elapsed(started)}`);
  });
}

/** Installs what is missing (seconds when both are there). */
export async function ensureRegistryTools(log: (line: string) => void): Promise<void> {
  if (!pypiServerPath()) await createRegistryVenv(log);
  if (!fs.existsSync(actionlintPath())) await buildActionlint(log);
}
