/**
 * A release's build as a folder that can travel: `npm run release -- --build --out <dir>`
 * writes the artifacts there with `release.json` (what each file is) beside the
 * `SHA256SUMS` the build writes, and `npm run release -- --from <dir>` publishes exactly
 * those files. CI builds in a job that holds no publishing token and passes the folder to
 * the job that publishes it (.github/workflows/release.yml); a publish that stopped halfway
 * is finished from the same folder, whose digests the destinations are compared with.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { sha256 } from "./archives";
import type { Artifacts } from "./package";
import { ReleaseError } from "./releaseTargets";

const MANIFEST = "release.json";
const SUMS = "SHA256SUMS";

/**
 * release.json: the build's artifacts (package.ts `Artifacts`) by their paths in the folder
 * (`/`-separated), without the folder itself and the proxy folder derived from it.
 */
type Manifest = Omit<Artifacts, "dir" | "goProxy" | "goFiles"> & {
  /** The Go module's files, by their path under the folder's `go/` (a proxy's root). */
  readonly goFiles: readonly string[];
};

/** Writes release.json into the build's folder (`artifacts.dir`). */
export function saveArtifacts(artifacts: Artifacts): void {
  const rel = (file: string) => path.relative(artifacts.dir, file).split(path.sep).join("/");
  const manifest: Manifest = {
    version: artifacts.version,
    pluginServer: artifacts.pluginServer,
    pluginArchives: Object.fromEntries(
      Object.entries(artifacts.pluginArchives).map(([platform, file]) => [platform, rel(file)]),
    ),
    pythonWheel: rel(artifacts.pythonWheel),
    pythonSdist: rel(artifacts.pythonSdist),
    pythonMetadata: artifacts.pythonMetadata,
    nodeTarball: rel(artifacts.nodeTarball),
    npmTarball: rel(artifacts.npmTarball),
    goModule: artifacts.goModule,
    goVersion: artifacts.goVersion,
    goFiles: artifacts.goFiles.map(([file]) => file),
  };
  fs.writeFileSync(path.join(artifacts.dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** The digest of each file SHA256SUMS lists (`sha256sum`'s format). */
function listedDigests(dir: string): Map<string, string> {
  const file = path.join(dir, SUMS);
  if (!fs.existsSync(file)) throw new ReleaseError(`--from: ${dir} has no ${SUMS} (not a build)`);
  const digests = new Map<string, string>();
  for (const line of fs.readFileSync(file, "utf8").split("\n").filter(Boolean)) {
    digests.set(line.slice(66), line.slice(0, 64));
  }
  return digests;
}

/**
 * The artifacts of the build in `dir`, each file checked against the build's SHA256SUMS:
 * a file missing or changed since the build stops the release before anything is asked.
 */
export function loadArtifacts(dir: string): Artifacts {
  const manifestFile = path.join(dir, MANIFEST);
  if (!fs.existsSync(manifestFile)) {
    throw new ReleaseError(
      `--from: ${dir} has no ${MANIFEST} (npm run release -- --build wrote none)`,
    );
  }
  const m = JSON.parse(fs.readFileSync(manifestFile, "utf8")) as Manifest;
  const digests = listedDigests(dir);
  const checked = (rel: string): string => {
    const file = path.join(dir, ...rel.split("/"));
    const listed = digests.get(rel);
    if (listed === undefined) throw new ReleaseError(`--from: ${rel} is not in ${SUMS}`);
    if (!fs.existsSync(file)) throw new ReleaseError(`--from: ${rel} is missing from ${dir}`);
    if (sha256(fs.readFileSync(file)) !== listed) {
      throw new ReleaseError(`--from: ${rel} is not the file the build made (its digest differs)`);
    }
    return file;
  };
  return {
    version: m.version,
    dir,
    pluginServer: m.pluginServer,
    pluginArchives: Object.fromEntries(
      Object.entries(m.pluginArchives).map(([platform, rel]) => [platform, checked(rel)]),
    ),
    pythonWheel: checked(m.pythonWheel),
    pythonSdist: checked(m.pythonSdist),
    pythonMetadata: m.pythonMetadata,
    nodeTarball: checked(m.nodeTarball),
    npmTarball: checked(m.npmTarball),
    goProxy: path.join(dir, "go"),
    goModule: m.goModule,
    goVersion: m.goVersion,
    goFiles: m.goFiles.map((rel) => [rel, fs.readFileSync(checked(`go/${rel}`))] as const),
  };
}
