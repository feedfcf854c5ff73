/**
 * `npm run release`: publishes every artifact of the package, at one version, to real
 * registries, so that users install it with their registry's ordinary command and the
 * engine fetches the plugin by itself. In one go, or in two steps (CI's two jobs):
 *
 *   npm run release -- <destinations> --plugin-server <url> [--tag v<version>] [--dry-run] [--out <dir>]
 *   npm run release -- --build --out <dir> --plugin-server <url> [--tag v<version>]
 *   npm run release -- --from <dir> <destinations> [--tag v<version>] [--dry-run]
 *
 * <destinations>: --npm-registry <url> --python-index <simple url> [--python-upload <url>]
 *   --go-proxy <dir> --plugin-dir <dir> [--push]
 *
 * `--build` builds the artifacts (at package.json's version, naming `--plugin-server` as
 * the plugin's download URL) into `--out` and publishes nothing: it needs no token.
 * `--from` publishes such a build, file for file (releaseArtifacts.ts checks them against
 * the build's digests). Tokens come from the environment: NPM_TOKEN (npm), PYPI_TOKEN (the
 * package index). Before anything is published anywhere, every destination is asked what
 * it holds of this version, artifact by artifact, in its own version form, and compared
 * by digest: one that holds other bytes under the version stops the release, naming which
 * destinations are complete and which are not, and nothing changes. Otherwise what is
 * missing is published, in order: the plugin archives and their checksums, the Go module,
 * the wheel and sdist, the npm packages, and last (`--push`) the commit of the two folders
 * (one git checkout of the branch the plugin server serves), pushed. A destination that
 * holds exactly this build is skipped, so a release that stopped halfway is finished by
 * running the same command again (with `--from` the same build). `--tag` (CI passes the
 * pushed tag) must name the version.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { packageVersion } from "./generate-package";
import type { Artifacts } from "./package";
import { buildArtifacts, flagValue } from "./package";
import { loadArtifacts, saveArtifacts } from "./releaseArtifacts";
import { siteTargets } from "./releaseSite";
import type { Holding, ReleaseSettings, Target } from "./releaseTargets";
import { registryTargets, ReleaseError } from "./releaseTargets";
import { SetupError } from "./toolchain";

const USAGE =
  "usage: npm run release -- [--build --out <dir> | --from <dir>] --npm-registry <url> " +
  "--python-index <simple url> [--python-upload <url>] --go-proxy <dir> --plugin-dir <dir> " +
  "--plugin-server <url> [--push] [--tag v<version>] [--dry-run] [--out <dir>]";

function required(argv: readonly string[], flag: string): string {
  const value = flagValue(argv, flag);
  if (value === undefined || value.startsWith("--")) {
    throw new ReleaseError(`${flag} is missing.\n${USAGE}`);
  }
  return value;
}

function httpUrl(flag: string, value: string): string {
  if (!/^https?:\/\/[^/]+/.test(value))
    throw new ReleaseError(`${flag} must be an http(s) URL, not ${value}`);
  return value;
}

function parseSettings(argv: readonly string[], pluginServer: string): ReleaseSettings {
  const pythonIndex = httpUrl("--python-index", required(argv, "--python-index"));
  const upload = flagValue(argv, "--python-upload");
  return {
    npmRegistry: httpUrl("--npm-registry", required(argv, "--npm-registry")),
    pythonIndex,
    // pypiserver takes uploads at its root, beside /simple/.
    pythonUpload: httpUrl("--python-upload", upload ?? pythonIndex.replace(/simple\/?$/, "")),
    goProxy: path.resolve(required(argv, "--go-proxy")),
    pluginDir: path.resolve(required(argv, "--plugin-dir")),
    pluginServer,
  };
}

function checkTag(argv: readonly string[], version: string): void {
  const tag = flagValue(argv, "--tag");
  if (tag !== undefined && tag !== `v${version}`) {
    throw new ReleaseError(
      `the tag ${tag} is not the package's version (package.json: ${version}, tag v${version})`,
    );
  }
}

/** One line per destination: complete, not complete (what is missing), or holding other files. */
function holdingLines(targets: readonly Target[], holdings: readonly Holding[]): string[] {
  return targets.map((t, i) => {
    const h = holdings[i] ?? { same: [], missing: [], different: [] };
    if (h.different.length > 0) {
      return `other files: ${t.describe}: ${h.different.join(", ")} (not this build's)`;
    }
    if (h.missing.length > 0) return `not complete: ${t.describe}: missing ${h.missing.join(", ")}`;
    return `complete: ${t.describe}`;
  });
}

/** Publishes what is missing, destination by destination; where it stops, what is done. */
async function publishMissing(
  artifacts: Artifacts,
  targets: readonly Target[],
  holdings: readonly Holding[],
  log: (line: string) => void,
): Promise<void> {
  for (const [i, target] of targets.entries()) {
    const holding = holdings[i];
    if (holding === undefined || holding.missing.length === 0) {
      log(`release: skipped ${target.describe}: it holds this build already`);
      continue;
    }
    try {
      await target.publish(artifacts, holding, log);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      // Where each destination stands now (unknown if they cannot be asked either).
      const now = await Promise.all(targets.map((t) => t.holding(artifacts))).then(
        (current) => holdingLines(targets, current),
        () => [],
      );
      throw new ReleaseError(
        `release of ${artifacts.version} stopped: ${message}\n  ` +
          `${now.join("\n  ")}\n` +
          `Run the same command again to publish what is missing` +
          ` (--from ${artifacts.dir}: the same build).`,
      );
    }
  }
}

/** Asks every destination, then publishes what is missing (or says what it would do). */
async function publish(
  artifacts: Artifacts,
  targets: readonly Target[],
  dryRun: boolean,
  log: (line: string) => void,
): Promise<void> {
  const { version } = artifacts;
  const holdings = await Promise.all(targets.map((t) => t.holding(artifacts)));
  const lines = holdingLines(targets, holdings);
  if (holdings.some((h) => h.different.length > 0)) {
    throw new ReleaseError(
      `release of ${version} refused, nothing was published: a destination holds other files ` +
        `as ${version} than this build\n  ${lines.join("\n  ")}`,
    );
  }
  if (dryRun) {
    for (const line of lines) log(`release: --dry-run: ${line}`);
    return;
  }
  if (holdings.every((h) => h.missing.length === 0)) {
    log(`release: ${version}: every destination holds this build already; nothing to publish`);
    return;
  }
  await publishMissing(artifacts, targets, holdings, log);
  log(
    `release: ${version} published; the engine downloads the plugin from ${artifacts.pluginServer}`,
  );
}

async function release(argv: readonly string[], log: (line: string) => void): Promise<void> {
  const from = flagValue(argv, "--from");
  const build = argv.includes("--build");
  const keep = flagValue(argv, "--out");
  if (build && !keep) throw new ReleaseError(`--build needs --out <dir>.\n${USAGE}`);
  // A build's own version and plugin server, or package.json's and the flag's.
  const built = from === undefined ? undefined : loadArtifacts(path.resolve(from));
  const version = built?.version ?? packageVersion();
  checkTag(argv, version);
  const pluginServer =
    built?.pluginServer ?? httpUrl("--plugin-server", required(argv, "--plugin-server"));
  const targets = build
    ? []
    : releaseTargets(parseSettings(argv, pluginServer), argv.includes("--push"));
  const missing = targets.map((t) => t.missingCredentials()).filter((m) => m !== undefined);
  if (missing.length > 0 && !argv.includes("--dry-run")) {
    throw new ReleaseError(
      `release of ${version} refused, nothing was published:\n  ` +
        missing.map((what) => `${what} is not set`).join("\n  "),
    );
  }
  if (built !== undefined) return publish(built, targets, argv.includes("--dry-run"), log);
  const out = keep ? path.resolve(keep) : fs.mkdtempSync(path.join(os.tmpdir(), "release-"));
  let finished = false;
  try {
    const artifacts = buildArtifacts(out, { pluginServer, log });
    saveArtifacts(artifacts);
    if (build) log(`release: built ${version} into ${out}; publish it with --from ${out}`);
    else await publish(artifacts, targets, argv.includes("--dry-run"), log);
    finished = true;
  } finally {
    // A scratch build whose publishing stopped is kept, for --from.
    if (!keep && finished) fs.rmSync(out, { recursive: true, force: true });
  }
}

/** Every destination, in publishing order: the folders, the registries, the site's push. */
function releaseTargets(settings: ReleaseSettings, push: boolean): Target[] {
  return siteTargets(settings, push, registryTargets(settings));
}

if (require.main === module) {
  release(process.argv.slice(2), (line) => console.log(line)).catch((err: unknown) => {
    const known = err instanceof ReleaseError || err instanceof SetupError;
    console.error(`release failed: ${known ? err.message : String(err)}`);
    process.exit(1);
  });
}
