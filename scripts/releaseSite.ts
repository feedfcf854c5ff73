/**
 * The release's destinations that are folders a web server serves: the Go module proxy's
 * files (`<module>/@v/...`) and the plugin's archives with their checksums (the folder
 * `pluginDownloadURL` names). With `--push` both are in one checkout of the branch that
 * server serves (CI: GitHub Pages), and the last step commits what the release wrote there
 * and pushes it: once pushed, the plugin is public, so everything else goes first.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { PACKAGE_NAME, SDK_NAMES } from "../provider/package/schema";
import { checksumLines } from "./archives";
import type { Artifacts } from "./package";
import { goVersionDir, writeGoModule } from "./packageGo";
import { pluginArchiveName, PLUGIN_PLATFORMS } from "./packagePlugin";
import { run } from "./packageUtil";
import type { Holding, ReleaseSettings, Target } from "./releaseTargets";
import { compared, holdingOf, ReleaseError } from "./releaseTargets";

/** The file at `file`, or undefined. */
function read(file: string): Buffer | undefined {
  return fs.existsSync(file) ? fs.readFileSync(file) : undefined;
}

function goTarget(proxyDir: string): Target {
  const listed = (a: Artifacts): boolean => {
    const list = read(path.join(goVersionDir(proxyDir, a.goModule), "list"));
    return (list?.toString("utf8").split("\n") ?? []).includes(a.goVersion);
  };
  return {
    describe: `the Go module ${SDK_NAMES.goModule} to the module proxy folder ${proxyDir}`,
    missingCredentials: () => undefined,
    holding: (a) =>
      Promise.resolve(
        holdingOf([
          ...a.goFiles.map(
            ([rel, content]) => [rel, compared(read(path.join(proxyDir, rel)), content)] as const,
          ),
          [`${a.goVersion} in the module's list`, listed(a) ? "same" : "missing"],
        ]),
      ),
    publish(a, _holding, log) {
      // Only missing files are written: those present are this build's (or it was refused).
      writeGoModule(proxyDir, { module: a.goModule, goVersion: a.goVersion, files: a.goFiles });
      log(`release: wrote ${a.goModule} ${a.goVersion} into ${proxyDir}`);
      return Promise.resolve();
    },
  };
}

/** The checksums published beside a version's plugin archives (`sha256sum -c` reads it). */
export function pluginChecksumsName(version: string): string {
  return `pulumi-resource-${PACKAGE_NAME}-v${version}-SHA256SUMS`;
}

/** The plugin folder's files of a build: each platform's archive, then their checksums. */
function pluginFiles(a: Artifacts): [string, Buffer][] {
  const archives = PLUGIN_PLATFORMS.map((platform): [string, Buffer] => [
    pluginArchiveName(a.version, platform),
    fs.readFileSync(a.pluginArchives[platform] ?? ""),
  ]);
  return [...archives, [pluginChecksumsName(a.version), Buffer.from(checksumLines(archives))]];
}

function pluginTarget(pluginDir: string, pluginServer: string): Target {
  return {
    describe: `the plugin archives to ${pluginDir} (served as ${pluginServer})`,
    missingCredentials: () => undefined,
    holding: (a) =>
      Promise.resolve(
        holdingOf(
          pluginFiles(a).map(([name, content]) => [
            name,
            compared(read(path.join(pluginDir, name)), content),
          ]),
        ),
      ),
    publish(a, holding, log) {
      fs.mkdirSync(pluginDir, { recursive: true });
      const missing = pluginFiles(a).filter(([name]) => holding.missing.includes(name));
      for (const [name, content] of missing) fs.writeFileSync(path.join(pluginDir, name), content);
      log(`release: wrote ${missing.length} plugin files (archives, checksums) into ${pluginDir}`);
      return Promise.resolve();
    },
  };
}

function git(dir: string, args: readonly string[]): string {
  return run("git", ["-C", dir, ...args], dir).trim();
}

/** Whether git has an author for a commit in `top` (CI sets one; a bare machine may not). */
function hasIdentity(top: string): boolean {
  try {
    return git(top, ["config", "--get", "user.email"]) !== "";
  } catch {
    return false;
  }
}

/** The work tree holding both folders, or a clear error. */
function siteTree(folders: readonly string[]): string {
  const tops = folders.map((dir) => {
    // The folder may not exist before the first release: ask from its nearest parent.
    let existing = dir;
    while (!fs.existsSync(existing) && path.dirname(existing) !== existing) {
      existing = path.dirname(existing);
    }
    try {
      return git(existing, ["rev-parse", "--show-toplevel"]);
    } catch {
      throw new ReleaseError(`--push: ${dir} is not in a git checkout`);
    }
  });
  const [top] = tops;
  if (top === undefined || tops.some((t) => t !== top)) {
    throw new ReleaseError(`--push: ${folders.join(" and ")} must be in the same git checkout`);
  }
  return top;
}

/** Whether the checkout has commits its upstream lacks (no upstream yet: any commit). */
function unpushed(top: string): boolean {
  try {
    git(top, ["rev-parse", "--verify", "-q", "HEAD"]);
  } catch {
    return false; // no commit at all
  }
  try {
    return git(top, ["rev-list", "--count", "@{u}..HEAD"]) !== "0";
  } catch {
    return true; // the branch is not on the remote yet
  }
}

/**
 * The site's commit and push (`--push`): missing while the folders have changes (what an
 * interrupted release wrote, or what this one will write: `folderTargets` not complete) or
 * commits are not pushed. A change outside the two folders stops the release: the commit
 * must hold the release and nothing else.
 */
function siteTarget(folders: readonly string[], folderTargets: readonly Target[]): Target {
  const changes = (top: string) => git(top, ["status", "--porcelain", "--untracked-files=all"]);
  const inFolders = (top: string, line: string) =>
    folders.some((f) => !path.relative(f, path.join(top, line.slice(3))).startsWith(".."));
  return {
    describe: `the commit of ${folders.join(" and ")}, pushed from their checkout`,
    missingCredentials: () => undefined,
    async holding(a) {
      const top = siteTree(folders);
      const outside = changes(top)
        .split("\n")
        .filter((line) => line !== "" && !inFolders(top, line));
      if (outside.length > 0) {
        throw new ReleaseError(`--push: the checkout ${top} has changes:\n${outside.join("\n")}`);
      }
      const folderHoldings = await Promise.all(folderTargets.map((t) => t.holding(a)));
      const toCommit =
        changes(top) !== "" || folderHoldings.some((h: Holding) => h.missing.length > 0);
      return holdingOf([
        [`the commit "Release v${a.version}"`, toCommit ? "missing" : "same"],
        ["its push", toCommit || unpushed(top) ? "missing" : "same"],
      ]);
    },
    publish(a, _holding, log) {
      const top = siteTree(folders);
      if (changes(top) !== "") {
        git(top, ["add", "-A", "--", ...folders]);
        const identity = hasIdentity(top)
          ? []
          : ["-c", "user.name=release", "-c", "user.email=release@localhost"];
        run("git", ["-C", top, ...identity, "commit", "-q", "-m", `Release v${a.version}`], top);
      }
      git(top, ["push", "-q"]);
      log(`release: committed and pushed ${folders.join(" and ")} from ${top}`);
      return Promise.resolve();
    },
  };
}

/** The folder destinations, the site's push last (after the registries: `between`). */
export function siteTargets(
  settings: ReleaseSettings,
  push: boolean,
  between: readonly Target[],
): Target[] {
  const folders = [
    pluginTarget(settings.pluginDir, settings.pluginServer),
    goTarget(settings.goProxy),
  ];
  const site = push ? [siteTarget([settings.pluginDir, settings.goProxy], folders)] : [];
  return [...folders, ...between, ...site];
}
