/**
 * The Go SDK's module as a Go module proxy serves it (GOPROXY protocol):
 * `<escaped module>/@v/{list,<v>.info,<v>.mod,<v>.zip}`, from `sdks/go`.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { ArchiveEntry } from "./archives";
import { treeEntries, zip } from "./archives";
import { pinnedPulumiVersion, PROJECT_ROOT } from "./toolchain";

export interface GoModuleFiles {
  readonly module: string;
  /** `v<version>`, as Go names it. */
  readonly goVersion: string;
  /** Each file's path under the proxy's root, and its content. */
  readonly files: ReadonlyArray<readonly [string, Buffer]>;
}

/** A module path as the module proxy protocol spells it (capitals as `!` + lower case). */
export function escapeModulePath(modulePath: string): string {
  return modulePath.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
}

/** Where a module's version files live under a proxy's root. */
export function goVersionDir(proxyRoot: string, modulePath: string): string {
  return path.join(proxyRoot, escapeModulePath(modulePath), "@v");
}

/**
 * The Go SDK's go.mod as released: the generated one requires the Pulumi SDK the code
 * generator was written for (v3.30.0); the release requires the one it is tested with,
 * @pulumi/pulumi's version (the CLI's), so a program on it needs no older go.mod.
 */
function releasedGoMod(generated: string): string {
  return generated.replace(
    /^(require\s+github\.com\/pulumi\/pulumi\/sdk\/v3\s+)v\S+/m,
    `$1v${pinnedPulumiVersion()}`,
  );
}

/**
 * The version's time in its `.info`: the commit's (a rebuild of the same commit is then
 * byte for byte the same, so a release can be finished by building again), or now.
 */
function versionTime(): string {
  try {
    const committed = execFileSync("git", ["-C", PROJECT_ROOT, "log", "-1", "--format=%cI"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    return new Date(committed).toISOString();
  } catch {
    return new Date().toISOString();
  }
}

/** The module proxy's files for `sdkDir` (a prepared copy of sdks/go) at `version`. */
export function goModuleFiles(sdkDir: string, modulePath: string, version: string): GoModuleFiles {
  const goVersion = `v${version}`;
  const goMod = Buffer.from(releasedGoMod(fs.readFileSync(path.join(sdkDir, "go.mod"), "utf8")));
  const sources: ArchiveEntry[] = treeEntries(sdkDir).map((e) => ({
    name: `${modulePath}@${goVersion}/${e.name}`,
    content: e.name === "go.mod" ? goMod : e.content,
  }));
  const at = (file: string): string => `${escapeModulePath(modulePath)}/@v/${file}`;
  const info = `${JSON.stringify({ Version: goVersion, Time: versionTime() })}\n`;
  return {
    module: modulePath,
    goVersion,
    files: [
      [at(`${goVersion}.zip`), zip(sources)],
      [at(`${goVersion}.mod`), goMod],
      [at(`${goVersion}.info`), Buffer.from(info)],
    ],
  };
}

/**
 * Writes the module's files under `proxyRoot` and adds the version to its `list` (a
 * proxy's list names every version it serves).
 */
export function writeGoModule(proxyRoot: string, mod: GoModuleFiles): void {
  for (const [rel, content] of mod.files) {
    fs.mkdirSync(path.dirname(path.join(proxyRoot, rel)), { recursive: true });
    fs.writeFileSync(path.join(proxyRoot, rel), content);
  }
  const list = path.join(goVersionDir(proxyRoot, mod.module), "list");
  const known = fs.existsSync(list) ? fs.readFileSync(list, "utf8").split("\n") : [];
  const versions = [...new Set([...known.filter(Boolean), mod.goVersion])];
  fs.writeFileSync(list, `${versions.join("\n")}\n`);
}
