/**
 * What the release tests (test/engine/release.test.ts, test/package/artifacts.test.ts)
 * share: a scratch folder outside the checkout, commands run there to their end, this
 * project's scripts run as `npm run` runs them, and the package's version.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PROJECT_ROOT } from "../../scripts/toolchain";

/** The package's version (package.json), which every artifact carries. */
export const PACKAGE_VERSION = (
  JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")) as {
    version: string;
  }
).version;

export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to its end; never throws on a non-zero exit. */
export function exec(
  cmd: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<Run> {
  return new Promise<Run>((resolve) => {
    execFile(cmd, [...args], { cwd, env, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === "number" ? err.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs a command to its end; throws, with its output, unless it exits 0. */
export async function ok(
  cmd: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<Run> {
  const res = await exec(cmd, args, cwd, env);
  if (res.code !== 0) {
    throw new Error(`${cmd} ${args.join(" ")} exited ${res.code}\n${res.stdout}\n${res.stderr}`);
  }
  return res;
}

/** The arguments to `node` that run `scripts/<script>` with ts-node, as `npm run` does. */
export function projectScriptArgs(script: string, args: readonly string[] = []): string[] {
  const tsNode = path.join(PROJECT_ROOT, "node_modules", "ts-node", "dist", "bin.js");
  return [tsNode, "--transpile-only", path.join(PROJECT_ROOT, "scripts", script), ...args];
}

/**
 * A new folder in the system's temporary folder: nothing above a program or an installed
 * plugin there may hold this checkout's node_modules (a repository's .work/ would).
 */
export function scratchRoot(prefix: string): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  if (!path.relative(PROJECT_ROOT, root).startsWith("..")) {
    throw new Error(`${root} is inside the checkout ${PROJECT_ROOT}`);
  }
  return root;
}
