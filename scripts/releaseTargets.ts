/**
 * Where a release publishes, one target per kind of registry, each able to say whether the
 * version is already there (before anything is published anywhere) and to publish it:
 * - npm: the npm package and the TypeScript SDK, by `npm publish` (token: NPM_TOKEN);
 * - Python: the wheel and the sdist, by the package index's upload API (the one PyPI and
 *   twine speak, multipart `file_upload`; token: PYPI_TOKEN, as user `__token__`);
 * - Go: the module's files in a module proxy's folder (`<module>/@v/...`), served over HTTP;
 * - the plugin: its archives and their checksums in the folder `pluginDownloadURL` serves.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PACKAGE_NAME, SDK_NAMES } from "../provider/package/schema";
import { checksumLines, sha256 } from "./archives";
import type { Artifacts } from "./package";
import { escapeModulePath, writeGoModule } from "./packageGo";
import { pluginArchiveName, PLUGIN_PLATFORMS } from "./packagePlugin";
import type { PythonMetadata } from "./packagePython";
import { npmCommand, run } from "./packageUtil";

/** A release's settings: every destination, and the URL the engine downloads the plugin from. */
export interface ReleaseSettings {
  readonly npmRegistry: string;
  /** The package index's simple API (what `pip install --index-url` takes). */
  readonly pythonIndex: string;
  /** Its upload API (PyPI: https://upload.pypi.org/legacy/); by default the index's root. */
  readonly pythonUpload: string;
  readonly goProxy: string;
  readonly pluginDir: string;
  readonly pluginServer: string;
}

export interface Target {
  /** What is published where, for the log. */
  readonly describe: string;
  /** Whatever of `version` the destination already holds (empty: nothing). */
  existing(version: string): Promise<string[]>;
  /** What must be set before publishing (a missing token), or undefined. */
  missingCredentials(): string | undefined;
  publish(artifacts: Artifacts, log: (line: string) => void): Promise<void>;
}

export class ReleaseError extends Error {
  override readonly name = "ReleaseError";
}

function withSlash(url: string): string {
  return url.endsWith("/") ? url : `${url}/`;
}

async function get(url: string, headers: Record<string, string> = {}) {
  try {
    return await fetch(url, { headers, redirect: "manual" });
  } catch (err) {
    throw new ReleaseError(`could not reach ${url}: ${(err as Error).cause ?? String(err)}`);
  }
}

// ---- npm -----------------------------------------------------------------------------

const NPM_PACKAGES = ["pulumi-discord-commands", SDK_NAMES.nodejs] as const;

/** The `.npmrc` key of a registry's token: the URL without its scheme (npm's "nerf dart"). */
function npmTokenKey(registry: string): string {
  return `${withSlash(registry).replace(/^https?:/, "")}:_authToken`;
}

function npmTarget(registry: string): Target {
  const url = withSlash(registry);
  const token = process.env["NPM_TOKEN"];
  return {
    describe: `${NPM_PACKAGES.join(" and ")} to the npm registry ${url}`,
    missingCredentials: () => (token ? undefined : "NPM_TOKEN (the npm registry's token)"),
    async existing(version) {
      const found: string[] = [];
      for (const name of NPM_PACKAGES) {
        const res = await get(`${url}${name.replace("/", "%2f")}`, {
          accept: "application/json",
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        });
        if (res.status === 404) continue;
        if (!res.ok)
          throw new ReleaseError(`the npm registry ${url} answered ${res.status} for ${name}`);
        const doc = (await res.json()) as { versions?: Record<string, unknown> };
        if (doc.versions?.[version] !== undefined) found.push(`${name}@${version} on ${url}`);
      }
      return found;
    },
    async publish(artifacts, log) {
      // The token stays in the environment: the config names it (npm expands ${...}).
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "release-npm-"));
      const userconfig = path.join(dir, ".npmrc");
      const settings = ["update-notifier=false", "fund=false", "audit=false"];
      fs.writeFileSync(userconfig, `${npmTokenKey(url)}=\${NPM_TOKEN}\n${settings.join("\n")}\n`);
      try {
        for (const tarball of [artifacts.nodeTarball, artifacts.npmTarball]) {
          const args = ["publish", tarball, "--registry", url, "--userconfig", userconfig];
          run(npmCommand(), [...args, "--access", "public", "--ignore-scripts"], dir);
          log(`release: published ${path.basename(tarball)} to ${url}`);
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

// ---- Python --------------------------------------------------------------------------

/** PEP 503's normalized project name. */
function normalizedName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "-");
}

/** The upload form's fields for one distribution (the index takes core metadata with it). */
function uploadForm(file: string, m: PythonMetadata): FormData {
  const content = fs.readFileSync(file);
  const wheel = file.endsWith(".whl");
  const form = new FormData();
  const fields: [string, string][] = [
    [":action", "file_upload"],
    ["protocol_version", "1"],
    ["metadata_version", "2.1"],
    ["name", m.name],
    ["version", m.version],
    ["filetype", wheel ? "bdist_wheel" : "sdist"],
    ["pyversion", wheel ? "py3" : "source"],
    ["summary", m.summary],
    ["license", m.license],
    ["keywords", m.keywords.join(",")],
    ["requires_python", m.requiresPython],
    ["description", m.readme],
    ["description_content_type", "text/markdown"],
    ["sha256_digest", sha256(content)],
    ...m.requiresDist.map((req): [string, string] => ["requires_dist", req]),
  ];
  for (const [key, value] of fields) form.append(key, value);
  form.append("content", new Blob([content]), path.basename(file));
  return form;
}

function pythonTarget(index: string, upload: string): Target {
  const token = process.env["PYPI_TOKEN"];
  return {
    describe: `the wheel and sdist to the Python package index ${upload}`,
    missingCredentials: () => (token ? undefined : "PYPI_TOKEN (the package index's token)"),
    async existing(version) {
      const name = normalizedName(SDK_NAMES.python);
      const res = await get(`${withSlash(index)}${name}/`, { accept: "text/html" });
      // Not there: 404, or (pypiserver) a redirect to the index it falls back to.
      if (res.status === 404 || (res.status >= 300 && res.status < 400)) return [];
      if (!res.ok) throw new ReleaseError(`the package index ${index} answered ${res.status}`);
      const files = new RegExp(
        `${name.replace(/-/g, "[-_.]")}-${version.replace(/\./g, "\\.")}(-|\\.tar)`,
        "i",
      );
      return files.test(await res.text()) ? [`${SDK_NAMES.python} ${version} on ${index}`] : [];
    },
    async publish(artifacts, log) {
      const auth = Buffer.from(`__token__:${token ?? ""}`).toString("base64");
      for (const file of [artifacts.pythonWheel, artifacts.pythonSdist]) {
        const res = await fetch(upload, {
          method: "POST",
          headers: { authorization: `Basic ${auth}` },
          body: uploadForm(file, artifacts.pythonMetadata),
        });
        if (!res.ok) {
          const body = (await res.text())
            .replace(/<[^>]*>/g, " ")
            .replace(/\s+/g, " ")
            .trim();
          throw new ReleaseError(
            `uploading ${path.basename(file)} to ${upload}: ${res.status} ${body.slice(0, 300)}`,
          );
        }
        log(`release: uploaded ${path.basename(file)} to ${upload}`);
      }
    },
  };
}

// ---- Go and the plugin: folders that a web server serves -----------------------------

/** The files of `names` that exist in `dir`. */
function present(dir: string, names: readonly string[]): string[] {
  return names.filter((name) => fs.existsSync(path.join(dir, name))).map((n) => path.join(dir, n));
}

function goTarget(proxyDir: string): Target {
  const versionFiles = (version: string): string[] =>
    ["zip", "mod", "info"].map(
      (ext) => `${escapeModulePath(SDK_NAMES.goModule)}/@v/v${version}.${ext}`,
    );
  return {
    describe: `the Go module ${SDK_NAMES.goModule} to the module proxy folder ${proxyDir}`,
    missingCredentials: () => undefined,
    existing: (version) => Promise.resolve(present(proxyDir, versionFiles(version))),
    publish(artifacts, log) {
      writeGoModule(proxyDir, {
        module: artifacts.goModule,
        goVersion: artifacts.goVersion,
        files: artifacts.goFiles,
      });
      log(`release: wrote ${artifacts.goModule} ${artifacts.goVersion} into ${proxyDir}`);
      return Promise.resolve();
    },
  };
}

/** The checksums published beside a version's plugin archives (`sha256sum -c` reads it). */
export function pluginChecksumsName(version: string): string {
  return `pulumi-resource-${PACKAGE_NAME}-v${version}-SHA256SUMS`;
}

function pluginTarget(pluginDir: string, pluginServer: string): Target {
  const names = (version: string): string[] => [
    ...PLUGIN_PLATFORMS.map((p) => pluginArchiveName(version, p)),
    pluginChecksumsName(version),
  ];
  return {
    describe: `the plugin archives to ${pluginDir} (served as ${pluginServer})`,
    missingCredentials: () => undefined,
    existing: (version) => Promise.resolve(present(pluginDir, names(version))),
    publish(artifacts, log) {
      fs.mkdirSync(pluginDir, { recursive: true });
      const written: [string, Buffer][] = [];
      for (const platform of PLUGIN_PLATFORMS) {
        const content = fs.readFileSync(artifacts.pluginArchives[platform] ?? "");
        const name = pluginArchiveName(artifacts.version, platform);
        fs.writeFileSync(path.join(pluginDir, name), content);
        written.push([name, content]);
      }
      fs.writeFileSync(
        path.join(pluginDir, pluginChecksumsName(artifacts.version)),
        checksumLines(written),
      );
      log(`release: wrote ${written.length} plugin archives and their checksums into ${pluginDir}`);
      return Promise.resolve();
    },
  };
}

// ---- the site: the folders above, in a checkout of the branch a web server serves ------

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

/**
 * With `--push`: the Go proxy's and the plugin's folders are in one checkout of the branch
 * the plugin server serves (CI: GitHub Pages); what the release wrote there is committed
 * and pushed. Checked first: the checkout must be clean, so the commit holds the release.
 */
function siteTarget(folders: readonly string[], version: string): Target {
  return {
    describe: `the folders' commit "Release v${version}", pushed from their checkout`,
    missingCredentials: () => undefined,
    existing: () => {
      const top = siteTree(folders);
      const dirty = git(top, ["status", "--porcelain"]);
      if (dirty !== "")
        throw new ReleaseError(`--push: the checkout ${top} has changes:\n${dirty}`);
      return Promise.resolve([]);
    },
    publish(_artifacts, log) {
      const top = siteTree(folders);
      git(top, ["add", "-A", "--", ...folders]);
      const identity = hasIdentity(top)
        ? []
        : ["-c", "user.name=release", "-c", "user.email=release@localhost"];
      run("git", ["-C", top, ...identity, "commit", "-q", "-m", `Release v${version}`], top);
      git(top, ["push", "-q"]);
      log(`release: committed and pushed ${folders.join(" and ")} from ${top}`);
      return Promise.resolve();
    },
  };
}

export function releaseTargets(
  settings: ReleaseSettings,
  version: string,
  push: boolean,
): Target[] {
  return [
    pluginTarget(settings.pluginDir, settings.pluginServer),
    goTarget(settings.goProxy),
    ...(push ? [siteTarget([settings.pluginDir, settings.goProxy], version)] : []),
    pythonTarget(settings.pythonIndex, settings.pythonUpload),
    npmTarget(settings.npmRegistry),
  ];
}
