/**
 * Go modules, built offline from the Go module proxy: finding `go`, the version a wrapper
 * module pins, `go build` with progress, and Pulumi's sdk module in Go's module cache.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { elapsed, pinnedPulumiVersion, PROJECT_ROOT, run, SetupError, which } from "./setupCommon";

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

interface GoBuild {
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

/** Where Pulumi keeps the companions of its hosts, in the sdk module of a release. */
const SDK_MODULE = "github.com/pulumi/pulumi/sdk/v3";

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
