/**
 * `npm run release`: publishes every artifact of the package, at the one version in
 * package.json, to real registries, so that users install it with their registry's
 * ordinary command and the engine fetches the plugin by itself:
 *
 *   npm run release -- --npm-registry <url> --python-index <simple url> [--python-upload <url>]
 *     --go-proxy <dir> --plugin-dir <dir> --plugin-server <url> [--push] [--tag v<version>] [--dry-run]
 *
 * Tokens come from the environment: NPM_TOKEN (npm), PYPI_TOKEN (the package index).
 * Before anything is published anywhere, every destination is asked whether it holds the
 * version already: if one does, the release stops, naming each, and changes nothing. Then
 * the artifacts are built with `pluginDownloadURL` set to `--plugin-server` (the URL that
 * serves `--plugin-dir`), and published: the plugin archives and their checksums, the Go
 * module, the wheel and sdist, the npm packages. `--dry-run` builds and checks, and
 * publishes nothing. `--tag` (CI passes the pushed tag) must name the package's version.
 * `--push`: the two folders are in one git checkout (of the branch the plugin server
 * serves); the release commits what it wrote there and pushes it.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { packageVersion } from "./generate-package";
import { buildArtifacts, flagValue } from "./package";
import type { ReleaseSettings, Target } from "./releaseTargets";
import { ReleaseError, releaseTargets } from "./releaseTargets";
import { SetupError } from "./toolchain";

const USAGE =
  "usage: npm run release -- --npm-registry <url> --python-index <simple url> [--python-upload <url>] " +
  "--go-proxy <dir> --plugin-dir <dir> --plugin-server <url> [--push] [--tag v<version>] [--dry-run] [--out <dir>]";

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

function parseSettings(argv: readonly string[]): ReleaseSettings {
  const pythonIndex = httpUrl("--python-index", required(argv, "--python-index"));
  const upload = flagValue(argv, "--python-upload");
  return {
    npmRegistry: httpUrl("--npm-registry", required(argv, "--npm-registry")),
    pythonIndex,
    // pypiserver takes uploads at its root, beside /simple/.
    pythonUpload: httpUrl("--python-upload", upload ?? pythonIndex.replace(/simple\/?$/, "")),
    goProxy: path.resolve(required(argv, "--go-proxy")),
    pluginDir: path.resolve(required(argv, "--plugin-dir")),
    pluginServer: httpUrl("--plugin-server", required(argv, "--plugin-server")),
  };
}

/** Every destination that holds the version already, and every token that is missing. */
async function refusals(targets: readonly Target[], version: string): Promise<string[]> {
  const found = (await Promise.all(targets.map((t) => t.existing(version)))).flat();
  const missing = targets.map((t) => t.missingCredentials()).filter((m) => m !== undefined);
  return [
    ...found.map((where) => `${version} is already published: ${where}`),
    ...missing.map((what) => `${what} is not set`),
  ];
}

async function release(argv: readonly string[], log: (line: string) => void): Promise<void> {
  const settings = parseSettings(argv);
  const dryRun = argv.includes("--dry-run");
  const version = packageVersion();
  const tag = flagValue(argv, "--tag");
  if (tag !== undefined && tag !== `v${version}`) {
    throw new ReleaseError(
      `the tag ${tag} is not the package's version (package.json: ${version}, tag v${version})`,
    );
  }
  const targets = releaseTargets(settings, version, argv.includes("--push"));
  const refused = await refusals(targets, version);
  if (refused.length > 0 && !dryRun) {
    throw new ReleaseError(
      `release of ${version} refused, nothing was published:\n  ${refused.join("\n  ")}`,
    );
  }
  const keep = flagValue(argv, "--out");
  const out = keep ? path.resolve(keep) : fs.mkdtempSync(path.join(os.tmpdir(), "release-"));
  try {
    const artifacts = buildArtifacts(out, { pluginServer: settings.pluginServer, log });
    if (dryRun) {
      for (const target of targets) log(`release: --dry-run: would publish ${target.describe}`);
      for (const line of refused) log(`release: --dry-run: would be refused: ${line}`);
      if (refused.length > 0) throw new ReleaseError(`the release of ${version} would be refused`);
      return;
    }
    for (const target of targets) await target.publish(artifacts, log);
    log(
      `release: ${version} published; the engine downloads the plugin from ${settings.pluginServer}`,
    );
  } finally {
    if (!keep) fs.rmSync(out, { recursive: true, force: true });
  }
}

if (require.main === module) {
  release(process.argv.slice(2), (line) => console.log(line)).catch((err: unknown) => {
    const known = err instanceof ReleaseError || err instanceof SetupError;
    console.error(`release failed: ${known ? err.message : String(err)}`);
    process.exit(1);
  });
}
