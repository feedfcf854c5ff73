/**
 * The project's Python virtual environment (`.work/venv`, from
 * toolchain/python/requirements.txt), where Python programs run: a Python new enough to
 * make it, and its making.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import {
  elapsed,
  PROJECT_ROOT,
  readIfExists,
  run,
  SetupError,
  toolchainDir,
  which,
} from "./setupCommon";
import { withLock } from "./setupCommon";

/** Where the project's Python virtual environment lives (git-ignored, one per clone). */
export const PYTHON_VENV = path.join(PROJECT_ROOT, ".work", "venv");

const REQUIREMENTS = toolchainDir("python", "requirements.txt");

/** The venv's stamp holds the requirements it was made from: an edit re-installs them. */
function venvStamp(): string {
  return path.join(PYTHON_VENV, ".requirements.txt");
}

export function findPythonVenv(): string | undefined {
  if (!fs.existsSync(path.join(PYTHON_VENV, "bin", "python"))) return undefined;
  return readIfExists(venvStamp()) === fs.readFileSync(REQUIREMENTS, "utf8")
    ? PYTHON_VENV
    : undefined;
}

/** A `python3` on PATH new enough for the `pulumi` SDK, and its version. */
export const MIN_PYTHON: readonly [number, number] = [3, 10];

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
export function requiredPythonSdk(): string | undefined {
  return /^pulumi==(\S+)/m.exec(fs.readFileSync(REQUIREMENTS, "utf8"))?.[1];
}

/**
 * Creates the project's Python virtual environment and installs the pinned requirements
 * (the `pulumi` SDK and its dependencies, from the Python package index) into it. Made
 * anew when the requirements change; the stamp is written last, so a half-made one is
 * never found.
 */
export async function createPythonVenv(
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
