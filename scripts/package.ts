/**
 * `npm run package`: the release artifacts, each at the package's version (package.json),
 * into `dist-packages/` (git-ignored). Needs nothing but `npm ci` (no Pulumi CLI, no Python):
 * - `pulumi-resource-discord-commands-v<version>-<os>-<arch>.tar.gz`: the resource plugin
 *   (scripts/packagePlugin.ts), under every platform's name the engine asks for;
 * - `pulumi_discord_commands-<version>-py3-none-any.whl` and `.tar.gz`: the Python SDK
 *   (scripts/packagePython.ts);
 * - `pulumi-discord-commands-sdk-<version>.tgz`: the TypeScript SDK compiled to JavaScript;
 * - `pulumi-discord-commands-<version>.tgz`: the npm package (the dynamic resources, the
 *   plugin folder and the SDKs' sources), as `npm publish` sends it;
 * - `go/`: the Go SDK's module as a module proxy serves it (`GOPROXY=file://.../go`);
 * - `SHA256SUMS`.
 * Every artifact names the plugin's download location: the schema's `pluginDownloadURL`, or
 * `--plugin-server <url>` (what a release to another server sets). `--out <dir>` writes
 * elsewhere.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PLUGIN_DOWNLOAD_URL, SDK_NAMES } from "../provider/package/schema";
import { checksumLines } from "./archives";
import { packageVersion } from "./generate-package";
import type { GoModuleFiles } from "./packageGo";
import { goModuleFiles, goVersionDir, writeGoModule } from "./packageGo";
import { packPlugin, PLUGIN_PLATFORMS } from "./packagePlugin";
import type { PythonMetadata } from "./packagePython";
import { writePythonDistributions } from "./packagePython";
import { copyTree, npmCommand, replaceInTree, run } from "./packageUtil";
import { buildPackage, PROJECT_ROOT, SetupError } from "./toolchain";

export { pluginArchiveName, PLUGIN_PLATFORMS } from "./packagePlugin";

const ARTIFACTS_DIR = path.join(PROJECT_ROOT, "dist-packages");

export interface Artifacts {
  readonly version: string;
  readonly dir: string;
  /** The `pluginDownloadURL` every artifact names. */
  readonly pluginServer: string;
  /** The plugin archive of each platform (the same bytes under each name). */
  readonly pluginArchives: Readonly<Record<string, string>>;
  readonly pythonWheel: string;
  readonly pythonSdist: string;
  readonly pythonMetadata: PythonMetadata;
  /** The TypeScript SDK (`@pulumi-discord-commands/sdk`). */
  readonly nodeTarball: string;
  /** The npm package (`pulumi-discord-commands`). */
  readonly npmTarball: string;
  /** A folder to use as `GOPROXY=file://<goProxy>`. */
  readonly goProxy: string;
  readonly goModule: string;
  /** `v<version>`, as Go names it. */
  readonly goVersion: string;
  /** The Go module's files under a proxy's root. */
  readonly goFiles: GoModuleFiles["files"];
}

/** A scratch copy of `sdks/<language>` naming `pluginServer` as the plugin's download URL. */
function stagedSdk(language: string, pluginServer: string): string {
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), `package-${language}-`));
  copyTree(path.join(PROJECT_ROOT, "sdks", language), stage, (rel) =>
    /(^|\/)(build|bin|node_modules|__pycache__|[^/]+\.egg-info)$/.test(rel),
  );
  replaceInTree(stage, PLUGIN_DOWNLOAD_URL, pluginServer);
  return stage;
}

function withStage<T>(stage: string, step: (stage: string) => T): T {
  try {
    return step(stage);
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

/** The TypeScript SDK compiled (`tsc` into bin/, its package.json beside) and packed by `npm pack`. */
function packNode(out: string, version: string, pluginServer: string): string {
  return withStage(stagedSdk("nodejs", pluginServer), (src) => {
    const bin = path.join(src, "bin");
    const tsc = path.join(PROJECT_ROOT, "node_modules", "typescript", "bin", "tsc");
    // skipLibCheck: the SDK is checked, not @pulumi/pulumi's declarations (seconds saved).
    // The copy finds @pulumi/pulumi and its types in this project's node_modules.
    const tscArgs = ["-p", path.join(src, "tsconfig.json"), "--outDir", bin, "--skipLibCheck"];
    fs.symlinkSync(path.join(PROJECT_ROOT, "node_modules"), path.join(src, "node_modules"));
    run(process.execPath, [tsc, ...tscArgs], src);
    const pkg = JSON.parse(fs.readFileSync(path.join(src, "package.json"), "utf8")) as Record<
      string,
      unknown
    >;
    // What a user installs needs neither the SDK's build script nor its compiler.
    delete pkg["scripts"];
    delete pkg["devDependencies"];
    fs.writeFileSync(
      path.join(bin, "package.json"),
      `${JSON.stringify({ ...pkg, main: "index.js", types: "index.d.ts" }, null, 2)}\n`,
    );
    fs.copyFileSync(path.join(src, "README.md"), path.join(bin, "README.md"));
    const expected = `${SDK_NAMES.nodejs.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;
    return npmPack(bin, out, expected);
  });
}

/** `npm pack` of `dir` into `out`, checking the file's name; scripts are not run. */
function npmPack(dir: string, out: string, expected: string): string {
  const args = ["pack", "--silent", "--ignore-scripts", "--pack-destination", out, dir];
  const printed = run(npmCommand(), args, dir).trim();
  const file = path.join(out, printed.split("\n").pop() ?? "");
  if (file !== path.join(out, expected) || !fs.existsSync(file)) {
    throw new SetupError(`npm pack wrote ${printed}, expected ${expected}`);
  }
  return file;
}

/**
 * The npm package as `npm publish` would send it from this checkout (the files `npm pack`
 * lists, dist/ built), with the plugin's download URL set: copied, edited, packed.
 */
function packNpmPackage(out: string, version: string, pluginServer: string): string {
  const name = `pulumi-discord-commands-${version}.tgz`;
  return withStage(fs.mkdtempSync(path.join(os.tmpdir(), "package-npm-")), (stage) => {
    const listing = run(
      npmCommand(),
      ["pack", "--dry-run", "--json", "--ignore-scripts", "--loglevel=error"],
      PROJECT_ROOT,
    );
    const [packed] = JSON.parse(listing) as [{ files: { path: string }[] }];
    for (const { path: file } of packed.files) {
      fs.mkdirSync(path.dirname(path.join(stage, file)), { recursive: true });
      fs.copyFileSync(path.join(PROJECT_ROOT, file), path.join(stage, file));
      fs.chmodSync(path.join(stage, file), fs.statSync(path.join(PROJECT_ROOT, file)).mode);
    }
    replaceInTree(stage, PLUGIN_DOWNLOAD_URL, pluginServer);
    return npmPack(stage, out, name);
  });
}

interface PackageSettings {
  /** Where the engine downloads the plugin from (the schema's `pluginDownloadURL` otherwise). */
  readonly pluginServer?: string;
  readonly log?: (line: string) => void;
}

/** Builds the package (dist/) and writes every artifact into `out` (emptied first). */
export function buildArtifacts(out: string = ARTIFACTS_DIR, settings: PackageSettings = {}) {
  const { pluginServer = PLUGIN_DOWNLOAD_URL, log = () => {} } = settings;
  const version = packageVersion();
  const timed = <T>(what: string, step: () => T): T => {
    const started = Date.now();
    const result = step();
    log(`package: ${what} in ${((Date.now() - started) / 1000).toFixed(1)}s`);
    return result;
  };
  timed("built dist/", () => buildPackage(log));
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const pluginArchives = timed("plugin archive", () =>
    packPlugin(out, version, (entries) =>
      entries.map((e) =>
        e.content.includes(PLUGIN_DOWNLOAD_URL)
          ? {
              ...e,
              content: Buffer.from(
                e.content.toString("utf8").split(PLUGIN_DOWNLOAD_URL).join(pluginServer),
              ),
            }
          : e,
      ),
    ),
  );
  const python = timed("Python wheel and sdist", () =>
    withStage(stagedSdk("python", pluginServer), (sdk) =>
      writePythonDistributions(sdk, SDK_NAMES.python, out),
    ),
  );
  const nodeTarball = timed("TypeScript SDK", () => packNode(out, version, pluginServer));
  const npmTarball = timed("npm package", () => packNpmPackage(out, version, pluginServer));
  const go = timed("Go module", () =>
    withStage(stagedSdk("go", pluginServer), (sdk) =>
      goModuleFiles(sdk, SDK_NAMES.goModule, version),
    ),
  );
  const goProxy = path.join(out, "go");
  writeGoModule(goProxy, go);
  writeChecksums(out);
  const artifacts: Artifacts = {
    version,
    dir: out,
    pluginServer,
    pluginArchives,
    pythonWheel: python.wheel,
    pythonSdist: python.sdist,
    pythonMetadata: python.metadata,
    nodeTarball,
    npmTarball,
    goProxy,
    goModule: go.module,
    goVersion: go.goVersion,
    goFiles: go.files,
  };
  return artifacts;
}

/** SHA256SUMS of every file in `out`, as a release publishes them. */
function writeChecksums(out: string): void {
  const files = fs
    .readdirSync(out, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => {
      const full = path.join(e.parentPath, e.name);
      const rel = path.relative(out, full).split(path.sep).join("/");
      return [rel, fs.readFileSync(full)] as const;
    });
  fs.writeFileSync(path.join(out, "SHA256SUMS"), checksumLines(files));
}

function describe(file: string): string {
  const size = fs.statSync(file).size;
  return `${path.relative(process.cwd(), file)} (${(size / 1024).toFixed(0)} KiB)`;
}

/** The value after `flag` on the command line, if given. */
export function flagValue(argv: readonly string[], flag: string): string | undefined {
  const at = argv.indexOf(flag);
  return at >= 0 ? argv[at + 1] : undefined;
}

if (require.main === module) {
  try {
    const argv = process.argv.slice(2);
    const out = path.resolve(flagValue(argv, "--out") ?? ARTIFACTS_DIR);
    const pluginServer = flagValue(argv, "--plugin-server");
    const started = Date.now();
    const log = (line: string): void => console.log(line);
    const a = buildArtifacts(out, { ...(pluginServer ? { pluginServer } : {}), log });
    const first = a.pluginArchives[PLUGIN_PLATFORMS[0]] ?? "";
    for (const file of [first, a.pythonWheel, a.pythonSdist, a.nodeTarball, a.npmTarball]) {
      console.log(`package: ${describe(file)}`);
    }
    console.log(`package: plugin archives for ${PLUGIN_PLATFORMS.join(", ")} (the same bytes)`);
    const zipFile = path.join(goVersionDir(a.goProxy, a.goModule), `${a.goVersion}.zip`);
    console.log(`package: ${describe(zipFile)} (Go module ${a.goModule} ${a.goVersion})`);
    console.log(`package: the plugin's download URL: ${a.pluginServer}`);
    console.log(`package: done in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  } catch (err) {
    console.error(`package failed: ${err instanceof SetupError ? err.message : String(err)}`);
    process.exit(1);
  }
}
