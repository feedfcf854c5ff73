/** What the packaging steps share: running a tool, copying a tree, npm's command name. */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { SetupError } from "./toolchain";

/** Runs `cmd` to its end and returns its stdout; a failure is a SetupError with its output. */
export function run(
  cmd: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  try {
    return execFileSync(cmd, [...args], {
      cwd,
      env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (err) {
    const out = err as { stdout?: unknown; stderr?: unknown };
    throw new SetupError(
      `${path.basename(cmd)} ${args.join(" ")} failed (in ${cwd}):\n` +
        `${String(out.stdout ?? "")}${String(out.stderr ?? err)}`,
    );
  }
}

/** Copies a folder, leaving out what `skip` (given the path relative to `from`) refuses. */
export function copyTree(
  from: string,
  to: string,
  skip: (rel: string) => boolean = () => false,
): void {
  fs.cpSync(from, to, {
    recursive: true,
    dereference: true,
    filter: (src) => {
      const rel = path.relative(from, src);
      return rel === "" || !skip(rel.split(path.sep).join("/"));
    },
  });
}

export function npmCommand(): string {
  return process.platform === "win32" ? "npm.cmd" : "npm";
}

/** Replaces every occurrence of `from` by `to` in the text files under `dir`. */
export function replaceInTree(dir: string, from: string, to: string): void {
  if (from === to) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const content = fs.readFileSync(file);
    if (content.includes(from)) {
      fs.writeFileSync(file, content.toString("utf8").split(from).join(to));
    }
  }
}
