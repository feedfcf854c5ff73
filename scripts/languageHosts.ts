/**
 * The language hosts (`pulumi-language-<language>`): how each is built from its wrapper
 * module in toolchain/, where a built one is found (beside a CLI on PATH, or in the cache
 * when its stamp names the pinned source), and the companion files Pulumi ships beside one.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { goBuild, goModVersion, sdkModuleDir } from "./goModules";
import { cacheBinDir, installFile, readIfExists, toolchainDir } from "./setupCommon";

/** The languages whose programs the engine runs beside Node.js (their hosts are optional). */
export const OTHER_LANGUAGES = ["python", "go", "yaml"] as const;

export type OtherLanguage = (typeof OTHER_LANGUAGES)[number];

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

export const HOSTS: Readonly<Record<"nodejs" | OtherLanguage, HostSpec>> = {
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

export type HostName = keyof typeof HOSTS;

/**
 * What a cached host was built from, e.g. "github.com/pulumi/pulumi-yaml v1.25.0"; the
 * hosts of HOSTS_MODULE add the Go that built them ("... built with go1.25.0").
 */
function hostSource(spec: HostSpec, goVersion: string = HOSTS_GO_TOOLCHAIN): string {
  const version = goModVersion(toolchainDir(spec.moduleDir), spec.modulePath);
  const go = spec.moduleDir === HOSTS_MODULE ? ` built with ${goVersion}` : "";
  return `${spec.modulePath} ${version ?? "(unpinned)"}${go}`;
}

/**
 * What a cached host is good for. "generate": built from the wrapper module's pin as the
 * full setup builds it (Go 1.25 for HOSTS_MODULE), so its SDK generator writes what
 * Pulumi's releases did. "run": built from the pin by another Go (the demo's setup builds
 * the Node.js host with the machine's Go, sharing the CLI's compiled packages): it runs
 * programs just as well.
 */
export type HostGrade = "run" | "generate";

/** A cached host whose stamp says it was built from the wrapper module's pin, fit for `need`. */
export function cachedHostCurrent(
  binDir: string,
  spec: HostSpec,
  need: HostGrade = "generate",
): boolean {
  if (!fs.existsSync(path.join(binDir, spec.binary)) || !companionsPresent(binDir, spec)) {
    return false;
  }
  const stamp = readIfExists(stampFile(binDir, spec))?.trim();
  if (stamp === hostSource(spec)) return true;
  return need === "run" && stamp?.startsWith(hostSource(spec, "")) === true;
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
export function findHost(
  lang: OtherLanguage,
  cliDir: string,
  source: "path" | "cache",
  version: string,
) {
  const spec = HOSTS[lang];
  if (source === "path") {
    const beside = path.join(cliDir, spec.binary);
    if (fs.existsSync(beside) && companionsPresent(cliDir, spec)) return beside;
  }
  const dir = cacheBinDir(version);
  return cachedHostCurrent(dir, spec) ? path.join(dir, spec.binary) : undefined;
}

/**
 * Keeps a cached host's companion files (the Python exec script) equal to Pulumi's own of
 * the CLI's release: the project once carried its own exec (3 stack frames fewer per
 * resource, 4 threads per engine slot), and issue 37 made it Pulumi's, which has the same
 * 4 threads per slot; a cache that holds ours gets Pulumi's on the next setup.
 */
export function installCompanions(
  go: string,
  binDir: string,
  spec: HostSpec,
  version: string,
): void {
  if (spec.companions.length === 0) return;
  const sdkDir = sdkModuleDir(go, version);
  for (const file of spec.companions) {
    installFile(
      path.join(binDir, path.posix.basename(file)),
      fs.readFileSync(path.join(sdkDir, ...file.split("/"))),
    );
  }
}

/**
 * Builds language hosts into the cache's `binDir` (its lock held), one `go build` per
 * wrapper module, with their companions and the stamps that name what they were built from.
 * `grade` "run" builds HOSTS_MODULE's hosts with the machine's Go (see HostGrade).
 */
export async function buildHosts(
  go: string,
  binDir: string,
  hosts: readonly HostName[],
  version: string,
  log: (line: string) => void,
  grade: HostGrade = "generate",
): Promise<void> {
  log(`Building the language hosts (${hosts.join(", ")}) from Go modules into ${binDir}`);
  for (const moduleDir of [...new Set(hosts.map((h) => HOSTS[h].moduleDir))]) {
    const specs = hosts.map((h) => HOSTS[h]).filter((s) => s.moduleDir === moduleDir);
    const env = moduleDir === HOSTS_MODULE ? hostsModuleEnv(grade) : {};
    await goBuild(
      go,
      {
        moduleDir: toolchainDir(moduleDir),
        pkgs: specs.map((s) => s.pkg),
        outDir: binDir,
        ldflags: "-s -w",
        env,
      },
      log,
    );
    const goVersion = env["GOTOOLCHAIN"] ?? builtWith(go, toolchainDir(moduleDir));
    for (const spec of specs) {
      installCompanions(go, binDir, spec, version);
      fs.writeFileSync(stampFile(binDir, spec), `${hostSource(spec, goVersion)}\n`);
    }
  }
}

/**
 * HOSTS_MODULE's build environment: go.sum (committed) pins the hash of what the checksum
 * database lacks; Go 1.25 unless only running matters.
 */
function hostsModuleEnv(grade: HostGrade): NodeJS.ProcessEnv {
  return grade === "generate"
    ? { GONOSUMDB: HOSTS_GONOSUMDB, GOTOOLCHAIN: HOSTS_GO_TOOLCHAIN }
    : { GONOSUMDB: HOSTS_GONOSUMDB };
}

/** The Go release `go` builds a module with (its own, or the newer one the go.mod asks for). */
function builtWith(go: string, moduleDir: string): string {
  const answer = spawnSync(go, ["env", "GOVERSION"], { cwd: moduleDir, encoding: "utf8" });
  return answer.stdout.trim() || "an unknown Go";
}
