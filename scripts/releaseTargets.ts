/**
 * Where a release publishes, one target per kind of registry, each able to say what it
 * holds of this build (before anything is published anywhere: each artifact there with
 * this build's digest, missing, or there with other bytes) and to publish what is missing:
 * - npm: the npm package and the TypeScript SDK, by `npm publish` (token: NPM_TOKEN);
 * - Python: the wheel and the sdist, by the package index's upload API (the one PyPI and
 *   twine speak, multipart `file_upload`; token: PYPI_TOKEN, as user `__token__`);
 * and, in releaseSite.ts, the Go module proxy's folder, the plugin's folder and the push of
 * the checkout that holds both.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { SDK_NAMES } from "../provider/package/schema";
import { sha256 } from "./archives";
import type { Artifacts } from "./package";
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

/**
 * What a destination holds of this build, artifact by artifact (each named for the log):
 * the same bytes, nothing, or other bytes under this version (which stops the release).
 */
export interface Holding {
  readonly same: readonly string[];
  readonly missing: readonly string[];
  readonly different: readonly string[];
}

export interface Target {
  /** What is published where, for the log. */
  readonly describe: string;
  /** What must be set before publishing (a missing token), or undefined. */
  missingCredentials(): string | undefined;
  /** What the destination holds of `artifacts` (their version, in its own form). */
  holding(artifacts: Artifacts): Promise<Holding>;
  /** Publishes what `holding` found missing, nothing else. */
  publish(artifacts: Artifacts, holding: Holding, log: (line: string) => void): Promise<void>;
}

type Found = "same" | "missing" | "different";

/** A Holding from each artifact's name and what was found of it. */
export function holdingOf(found: ReadonlyArray<readonly [string, Found]>): Holding {
  const of = (kind: Found) => found.filter(([, f]) => f === kind).map(([name]) => name);
  return { same: of("same"), missing: of("missing"), different: of("different") };
}

/** What is found where a destination holds `held` (a digest; undefined: nothing) for `ours`. */
export function found(held: string | undefined, ours: string): Found {
  if (held === undefined) return "missing";
  return held === ours ? "same" : "different";
}

/** What is found where a destination holds the file `actual` (undefined: none) for `expected`. */
export function compared(actual: Buffer | undefined, expected: Buffer): Found {
  return found(actual === undefined ? undefined : sha256(actual), sha256(expected));
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

/** The npm packages of a build, in publishing order: the TypeScript SDK, the package. */
function npmPackages(a: Artifacts): [string, string][] {
  return [
    [SDK_NAMES.nodejs, a.nodeTarball],
    ["pulumi-discord-commands", a.npmTarball],
  ];
}

/** The integrity npm records for a tarball (ssri's sha512, as `npm publish` sends it). */
function npmIntegrity(content: Buffer): string {
  return `sha512-${crypto.createHash("sha512").update(content).digest("base64")}`;
}

/** The `.npmrc` key of a registry's token: the URL without its scheme (npm's "nerf dart"). */
function npmTokenKey(registry: string): string {
  return `${withSlash(registry).replace(/^https?:/, "")}:_authToken`;
}

/** What the registry holds of `name@version`: its tarball's integrity, or undefined. */
async function npmIntegrityOf(
  url: string,
  name: string,
  version: string,
  token: string | undefined,
): Promise<string | undefined> {
  const res = await get(`${url}${name.replace("/", "%2f")}`, {
    accept: "application/json",
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  });
  if (res.status === 404) return undefined;
  if (!res.ok) throw new ReleaseError(`the npm registry ${url} answered ${res.status} for ${name}`);
  const doc = (await res.json()) as {
    versions?: Record<string, { dist?: { integrity?: string; shasum?: string } }>;
  };
  const dist = doc.versions?.[version]?.dist;
  if (dist === undefined) return undefined;
  // A registry that records only the sha1 shasum: compared in that form.
  return dist.integrity ?? `sha1:${dist.shasum ?? ""}`;
}

function npmTarget(registry: string): Target {
  const url = withSlash(registry);
  const token = process.env["NPM_TOKEN"];
  const label = (name: string, a: Artifacts) => `${name}@${a.version}`;
  return {
    describe: `${SDK_NAMES.nodejs} and pulumi-discord-commands to the npm registry ${url}`,
    missingCredentials: () => (token ? undefined : "NPM_TOKEN (the npm registry's token)"),
    async holding(a) {
      const pieces: [string, Found][] = [];
      for (const [name, tarball] of npmPackages(a)) {
        const held = await npmIntegrityOf(url, name, a.version, token);
        const content = fs.readFileSync(tarball);
        const sha1 = `sha1:${crypto.createHash("sha1").update(content).digest("hex")}`;
        const ours = held?.startsWith("sha1:") ? sha1 : npmIntegrity(content);
        pieces.push([label(name, a), found(held, ours)]);
      }
      return holdingOf(pieces);
    },
    async publish(a, holding, log) {
      // The token stays in the environment: the config names it (npm expands ${...}).
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "release-npm-"));
      const userconfig = path.join(dir, ".npmrc");
      const settings = ["update-notifier=false", "fund=false", "audit=false"];
      fs.writeFileSync(userconfig, `${npmTokenKey(url)}=\${NPM_TOKEN}\n${settings.join("\n")}\n`);
      try {
        for (const [name, tarball] of npmPackages(a)) {
          if (!holding.missing.includes(label(name, a))) continue;
          const args = ["publish", tarball, "--registry", url, "--userconfig", userconfig];
          // npm publishes a pre-release (1.0.0-rc.1) only under a tag other than `latest`.
          const tag = a.version.includes("-") ? ["--tag", "next"] : [];
          run(npmCommand(), [...args, ...tag, "--access", "public", "--ignore-scripts"], dir);
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

/**
 * The files the index lists for `project` (its simple page, PEP 503): each file's name and
 * sha256, from the link's `#sha256=` or, where the index gives none, from the file itself.
 */
async function indexFiles(index: string, project: string): Promise<Map<string, string>> {
  const page = `${withSlash(index)}${project}/`;
  const res = await get(page, { accept: "text/html" });
  // Not there: 404, or (pypiserver with its fallback on) a redirect to the public index.
  if (res.status === 404 || (res.status >= 300 && res.status < 400)) return new Map();
  if (!res.ok) throw new ReleaseError(`the package index ${index} answered ${res.status}`);
  const files = new Map<string, string>();
  for (const [, href] of (await res.text()).matchAll(/<a\s[^>]*href="([^"]+)"/g)) {
    const link = new URL((href ?? "").replace(/&amp;/g, "&"), page);
    const name = decodeURIComponent(link.pathname.split("/").pop() ?? "");
    const listed = /sha256=([0-9a-f]{64})/.exec(link.hash)?.[1];
    if (listed !== undefined) {
      files.set(name, listed);
      continue;
    }
    link.hash = "";
    const file = await get(link.href);
    if (!file.ok)
      throw new ReleaseError(`the package index answered ${file.status} for ${link.href}`);
    files.set(name, sha256(Buffer.from(await file.arrayBuffer())));
  }
  return files;
}

function pythonTarget(index: string, upload: string): Target {
  const token = process.env["PYPI_TOKEN"];
  const dists = (a: Artifacts) => [a.pythonWheel, a.pythonSdist];
  return {
    describe: `the wheel and sdist to the Python package index ${upload}`,
    missingCredentials: () => (token ? undefined : "PYPI_TOKEN (the package index's token)"),
    async holding(a) {
      // The files' names carry the version in the index's own form (PEP 440: 1.0.0rc1).
      const listed = await indexFiles(index, normalizedName(a.pythonMetadata.name));
      return holdingOf(
        dists(a).map((file) => {
          const name = path.basename(file);
          return [name, found(listed.get(name), sha256(fs.readFileSync(file)))];
        }),
      );
    },
    async publish(a, holding, log) {
      const auth = Buffer.from(`__token__:${token ?? ""}`).toString("base64");
      for (const file of dists(a).filter((f) => holding.missing.includes(path.basename(f)))) {
        const res = await fetch(upload, {
          method: "POST",
          headers: { authorization: `Basic ${auth}` },
          body: uploadForm(file, a.pythonMetadata),
        }).catch((err: unknown) => {
          // An index that refuses before it has read the upload may close the connection.
          const cause = (err as Error).cause ?? err;
          throw new ReleaseError(`uploading ${path.basename(file)} to ${upload}: ${String(cause)}`);
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

export function registryTargets(settings: ReleaseSettings): Target[] {
  return [
    pythonTarget(settings.pythonIndex, settings.pythonUpload),
    npmTarget(settings.npmRegistry),
  ];
}
