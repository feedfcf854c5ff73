/**
 * `npm run package`: the release artifacts, each at the package's version (package.json),
 * into `dist-packages/` (git-ignored):
 * - `pulumi-resource-discord-commands-v<version>-<os>-<arch>.tar.gz`: the resource plugin,
 *   self-contained (its JavaScript and production modules inside), for
 *   `pulumi plugin install resource discord-commands <version> --file <archive>` or the
 *   schema's `pluginDownloadURL` (one archive: the plugin is JavaScript, the same on every
 *   platform; it is written under each platform's name the engine asks for);
 * - `pulumi_discord_commands-<version>-py3-none-any.whl` and `.tar.gz`: the Python SDK;
 * - `pulumi-discord-commands-sdk-<version>.tgz`: the TypeScript SDK compiled to JavaScript
 *   (`npm pack`);
 * - `go/`: the Go SDK's module as a module proxy serves it (`GOPROXY=file://.../go`), with
 *   its `.zip`, `.mod` and `.info`.
 * `--out <dir>` writes elsewhere (the tests use a scratch folder).
 */
import { execFileSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as zlib from "node:zlib";
import { PACKAGE_NAME, SDK_NAMES } from "../provider/package/schema";
import { packageVersion } from "./generate-package";
import {
  buildPackage,
  pinnedPulumiVersion,
  PROJECT_ROOT,
  PYTHON_VENV,
  SetupError,
} from "./toolchain";

export const ARTIFACTS_DIR = path.join(PROJECT_ROOT, "dist-packages");

/** The platforms a release names the plugin archive for (the engine asks for its own). */
export const PLUGIN_PLATFORMS = ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64"];

export interface Artifacts {
  readonly version: string;
  readonly dir: string;
  /** The plugin archive of each platform (the same bytes under each name). */
  readonly pluginArchives: Readonly<Record<string, string>>;
  readonly pythonWheel: string;
  readonly pythonSdist: string;
  readonly nodeTarball: string;
  /** A folder to use as `GOPROXY=file://<goProxy>`. */
  readonly goProxy: string;
  readonly goModule: string;
  /** `v<version>`, as Go names it. */
  readonly goVersion: string;
}

export function pluginArchiveName(version: string, platform: string): string {
  return `pulumi-resource-${PACKAGE_NAME}-v${version}-${platform}.tar.gz`;
}

function run(cmd: string, args: readonly string[], cwd: string, env = process.env): string {
  try {
    return execFileSync(cmd, [...args], {
      cwd,
      env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (err) {
    const out = err as { stdout?: unknown; stderr?: unknown };
    throw new SetupError(
      `${path.basename(cmd)} ${args.join(" ")} failed (in ${cwd}):\n` +
        `${String(out.stdout ?? "")}${String(out.stderr ?? err)}`,
    );
  }
}

/** Copies a folder, leaving out what `skip` (given the path relative to `from`) refuses. */
function copyTree(from: string, to: string, skip: (rel: string) => boolean = () => false): void {
  fs.cpSync(from, to, {
    recursive: true,
    dereference: true,
    filter: (src) => {
      const rel = path.relative(from, src);
      return rel === "" || !skip(rel.split(path.sep).join("/"));
    },
  });
}

// ---- the plugin ----------------------------------------------------------------------

/** The folder of an installed module as Node finds it from `fromDir` (walking up node_modules). */
function findModule(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", name);
    if (fs.existsSync(path.join(candidate, "package.json"))) return candidate;
    // Only the project's own modules: nothing above it belongs in the archive.
    if (dir === PROJECT_ROOT || path.dirname(dir) === dir) return undefined;
  }
}

interface PackageJson {
  name?: string;
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

function readPackageJson(dir: string): PackageJson {
  return JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as PackageJson;
}

/**
 * The installed folders (relative to the project) of `roots` and everything they depend
 * on, resolved as Node resolves them, so nested copies keep their place.
 */
function productionClosure(roots: readonly string[]): string[] {
  const found = new Set<string>();
  const visit = (name: string, fromDir: string, optional: boolean): void => {
    const dir = findModule(name, fromDir);
    if (dir === undefined) {
      if (optional) return;
      throw new SetupError(`${name} (needed by the plugin) is not installed: run \`npm ci\`.`);
    }
    const rel = path.relative(PROJECT_ROOT, dir);
    if (found.has(rel)) return;
    found.add(rel);
    const pkg = readPackageJson(dir);
    for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep, dir, false);
    for (const dep of Object.keys(pkg.optionalDependencies ?? {})) visit(dep, dir, true);
  };
  for (const root of roots) visit(root, PROJECT_ROOT, false);
  return [...found].sort();
}

/**
 * The plugin folder as the engine runs it once installed, a Node.js package of its own:
 * PulumiPlugin.yaml and the `pulumi-resource-discord-commands` executable (which the
 * engine starts directly), the built JavaScript (dist/, plugin/schema.json), and the
 * production modules in node_modules, `@pulumi/pulumi` included (a peer dependency of the
 * npm package: the Node.js host's plugin runner, which `pulumi package add` and
 * `get-schema` use, loads the plugin through it).
 *
 * Installing a nodejs plugin runs `npm install` in its folder (InstallPluginContent,
 * pkg/workspace/plugin.go, 3.259): package.json lists the modules at the versions shipped,
 * so npm finds the tree complete and changes nothing, and the folder's .npmrc keeps npm off
 * the network (a module missing fails the install instead of fetching it).
 */
function stagePlugin(stage: string, version: string): void {
  const own = readPackageJson(PROJECT_ROOT) as PackageJson & Record<string, unknown>;
  const roots = [...Object.keys(own.dependencies ?? {}), "@pulumi/pulumi"].sort();
  const dependencies: Record<string, string> = {};
  for (const name of roots) {
    const dir = findModule(name, PROJECT_ROOT);
    const installed = dir === undefined ? undefined : readPackageJson(dir).version;
    if (installed === undefined) throw new SetupError(`${name} is not installed: run \`npm ci\`.`);
    dependencies[name] = installed;
  }
  // The provider reads its version here (provider/plugin/server.ts, PACKAGE_ROOT).
  const pkgJson = {
    name: `pulumi-resource-${PACKAGE_NAME}`,
    version,
    description: own["description"],
    license: own["license"],
    private: true,
    main: "index.js",
    dependencies,
  };
  fs.writeFileSync(path.join(stage, "package.json"), `${JSON.stringify(pkgJson, null, 2)}\n`);
  fs.writeFileSync(
    path.join(stage, ".npmrc"),
    "# The plugin's modules ship in node_modules: npm install has nothing to fetch.\n" +
      "offline=true\naudit=false\nfund=false\nupdate-notifier=false\n",
  );
  // The built JavaScript only: declarations and source maps are of no use to the engine.
  copyTree(path.join(PROJECT_ROOT, "dist"), path.join(stage, "dist"), (rel) =>
    /\.d\.ts$|\.map$|^\.tsbuildinfo$/.test(rel),
  );
  fs.mkdirSync(path.join(stage, "plugin"));
  for (const file of ["PulumiPlugin.yaml", "index.js", "schema.json"]) {
    fs.copyFileSync(path.join(PROJECT_ROOT, "plugin", file), path.join(stage, "plugin", file));
  }
  // Each module at the place it has in this project's tree, so nested versions resolve;
  // without type declarations and source maps (half the files, which nothing loads).
  for (const rel of productionClosure(roots)) {
    copyTree(path.join(PROJECT_ROOT, rel), path.join(stage, rel), (r) =>
      /(^|\/)node_modules$|\.d\.[mc]?ts$|\.map$/.test(r),
    );
  }
  fs.copyFileSync(
    path.join(PROJECT_ROOT, "plugin", "PulumiPlugin.yaml"),
    path.join(stage, "PulumiPlugin.yaml"),
  );
  fs.writeFileSync(
    path.join(stage, "index.js"),
    '"use strict";\n// The plugin\'s entry (package.json main), as in the npm package.\nrequire("./plugin/index.js");\n',
  );
  const exe = path.join(stage, `pulumi-resource-${PACKAGE_NAME}`);
  fs.copyFileSync(path.join(PROJECT_ROOT, "plugin", `pulumi-resource-${PACKAGE_NAME}`), exe);
  fs.chmodSync(exe, 0o755);
  // The bin links npm makes (a module whose link is missing is one npm reinstalls, from
  // the registry), then the install the engine will run, with an empty cache: it must find
  // nothing to fetch. It writes package-lock.json, which ships.
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), "package-npm-cache-"));
  try {
    const npmArgs = ["--ignore-scripts", "--cache", cache, "--loglevel=error"];
    run(npmCommand(), ["rebuild", ...npmArgs], stage);
    const installed = run(npmCommand(), ["install", ...npmArgs], stage);
    if (!/up to date/.test(installed)) {
      throw new SetupError(`npm install in the staged plugin changed its modules:\n${installed}`);
    }
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
  }
}

function npmCommand(): string {
  return process.platform === "win32" ? "npm.cmd" : "npm";
}

function packPlugin(out: string, version: string): Record<string, string> {
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), "package-plugin-"));
  try {
    stagePlugin(stage, version);
    const [first, ...others] = PLUGIN_PLATFORMS.map((p) =>
      path.join(out, pluginArchiveName(version, p)),
    );
    if (first === undefined) throw new Error("no plugin platforms");
    const entries = fs.readdirSync(stage).sort();
    run(
      "tar",
      ["--sort=name", "--owner=0", "--group=0", "--numeric-owner", "-czf", first, ...entries],
      stage,
    );
    for (const other of others) fs.linkSync(first, other);
    return Object.fromEntries(
      PLUGIN_PLATFORMS.map((p) => [p, path.join(out, pluginArchiveName(version, p))]),
    );
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

// ---- Python --------------------------------------------------------------------------

/** The wheel and sdist, built by PyPA's `build` in the project's venv, from a copy of sdks/python. */
function packPython(out: string, version: string): { wheel: string; sdist: string } {
  const python = path.join(PYTHON_VENV, "bin", "python");
  if (!fs.existsSync(python)) {
    throw new SetupError(
      "the Python virtual environment .work/venv is missing: run `npm run setup`.",
    );
  }
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), "package-python-"));
  try {
    // A copy: building in sdks/python would leave build/ and *.egg-info there.
    copyTree(path.join(PROJECT_ROOT, "sdks", "python"), stage, (rel) =>
      /(^|\/)(build|__pycache__|[^/]+\.egg-info)$/.test(rel),
    );
    // pyproject.toml names a README.md beside it, which the generator writes in the package.
    const readme = path.join(stage, "README.md");
    if (!fs.existsSync(readme)) {
      fs.copyFileSync(path.join(stage, SDK_NAMES.python, "README.md"), readme);
    }
    // No isolation: the build backend (setuptools) comes from the venv, no index needed.
    run(python, ["-m", "build", "--no-isolation", "--outdir", out, stage], stage);
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
  const wheel = path.join(out, `${SDK_NAMES.python}-${version}-py3-none-any.whl`);
  const sdist = path.join(out, `${SDK_NAMES.python}-${version}.tar.gz`);
  for (const file of [wheel, sdist]) {
    if (!fs.existsSync(file)) throw new SetupError(`python -m build did not write ${file}`);
  }
  return { wheel, sdist };
}

// ---- TypeScript ----------------------------------------------------------------------

/** sdks/nodejs compiled (`tsc` into bin/, its package.json beside) and packed by `npm pack`. */
function packNode(out: string, version: string): string {
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), "package-nodejs-"));
  try {
    const src = path.join(PROJECT_ROOT, "sdks", "nodejs");
    const bin = path.join(stage, "bin");
    const tsc = path.join(PROJECT_ROOT, "node_modules", "typescript", "bin", "tsc");
    // skipLibCheck: the SDK is checked, not @pulumi/pulumi's declarations (seconds saved).
    const tscArgs = ["-p", path.join(src, "tsconfig.json"), "--outDir", bin, "--skipLibCheck"];
    run(process.execPath, [tsc, ...tscArgs], stage);
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
    const printed = run(
      npmCommand(),
      ["pack", "--silent", "--pack-destination", out, bin],
      stage,
    ).trim();
    const file = path.join(out, printed.split("\n").pop() ?? "");
    const expected = path.join(
      out,
      `${SDK_NAMES.nodejs.replace(/^@/, "").replace("/", "-")}-${version}.tgz`,
    );
    if (file !== expected || !fs.existsSync(file)) {
      throw new SetupError(`npm pack wrote ${printed}, expected ${path.basename(expected)}`);
    }
    return file;
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

// ---- Go ------------------------------------------------------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A zip archive of `files` (name -> content), deflated, with a fixed timestamp. */
function zip(files: ReadonlyArray<readonly [string, Buffer]>): Buffer {
  const local: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  const DOS_TIME = 0; // 00:00:00
  const DOS_DATE = ((2020 - 1980) << 9) | (1 << 5) | 1; // 2020-01-01
  for (const [name, content] of files) {
    const nameBuf = Buffer.from(name, "utf8");
    const data = zlib.deflateRawSync(content);
    const crc = crc32(content);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(0x0800, 6); // UTF-8 names
    header.writeUInt16LE(8, 8); // deflate
    header.writeUInt16LE(DOS_TIME, 10);
    header.writeUInt16LE(DOS_DATE, 12);
    header.writeUInt32LE(crc, 14);
    header.writeUInt32LE(data.length, 18);
    header.writeUInt32LE(content.length, 22);
    header.writeUInt16LE(nameBuf.length, 26);
    local.push(header, nameBuf, data);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x0800, 8);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt16LE(DOS_TIME, 12);
    entry.writeUInt16LE(DOS_DATE, 14);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(data.length, 20);
    entry.writeUInt32LE(content.length, 24);
    entry.writeUInt16LE(nameBuf.length, 28);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, nameBuf);
    offset += header.length + nameBuf.length + data.length;
  }
  const centralSize = central.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...local, ...central, end]);
}

/** A module path as the module proxy protocol spells it (capitals as `!` + lower case). */
function escapeModulePath(modulePath: string): string {
  return modulePath.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
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

/** sdks/go as the module proxy protocol serves a module: `<module>/@v/{list,<v>.info,.mod,.zip}`. */
function packGo(
  out: string,
  version: string,
): { proxy: string; module: string; goVersion: string } {
  const goVersion = `v${version}`;
  const modulePath = SDK_NAMES.goModule;
  const src = path.join(PROJECT_ROOT, "sdks", "go");
  const goMod = releasedGoMod(fs.readFileSync(path.join(src, "go.mod"), "utf8"));
  const files: [string, Buffer][] = [];
  const walk = (rel: string): void => {
    for (const entry of fs.readdirSync(path.join(src, rel), { withFileTypes: true })) {
      const child = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (child === "go.mod") files.push([child, Buffer.from(goMod)]);
      else files.push([child, fs.readFileSync(path.join(src, child))]);
    }
  };
  walk("");
  files.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const proxy = path.join(out, "go");
  const dir = path.join(proxy, escapeModulePath(modulePath), "@v");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, `${goVersion}.zip`),
    zip(files.map(([name, content]) => [`${modulePath}@${goVersion}/${name}`, content] as const)),
  );
  fs.writeFileSync(path.join(dir, `${goVersion}.mod`), goMod);
  fs.writeFileSync(
    path.join(dir, `${goVersion}.info`),
    `${JSON.stringify({ Version: goVersion, Time: new Date().toISOString() })}\n`,
  );
  fs.writeFileSync(path.join(dir, "list"), `${goVersion}\n`);
  return { proxy, module: modulePath, goVersion };
}

// ---- all of them ---------------------------------------------------------------------

/** Builds the package (dist/) and writes every artifact into `out` (emptied first). */
export function buildArtifacts(
  out: string = ARTIFACTS_DIR,
  log: (line: string) => void = () => {},
): Artifacts {
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
  const pluginArchives = timed("plugin archive", () => packPlugin(out, version));
  const python = timed("Python wheel and sdist", () => packPython(out, version));
  const nodeTarball = timed("TypeScript SDK", () => packNode(out, version));
  const go = timed("Go module", () => packGo(out, version));
  const artifacts: Artifacts = {
    version,
    dir: out,
    pluginArchives,
    pythonWheel: python.wheel,
    pythonSdist: python.sdist,
    nodeTarball,
    goProxy: go.proxy,
    goModule: go.module,
    goVersion: go.goVersion,
  };
  writeChecksums(out);
  return artifacts;
}

/** SHA256SUMS of every file in `out`, as a release publishes them. */
function writeChecksums(out: string): void {
  const lines: string[] = [];
  const walk = (rel: string): void => {
    for (const entry of fs.readdirSync(path.join(out, rel), { withFileTypes: true })) {
      const child = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else {
        const hash = crypto.createHash("sha256").update(fs.readFileSync(path.join(out, child)));
        lines.push(`${hash.digest("hex")}  ${child}`);
      }
    }
  };
  walk("");
  fs.writeFileSync(path.join(out, "SHA256SUMS"), `${lines.sort().join("\n")}\n`);
}

function describe(file: string): string {
  const size = fs.statSync(file).size;
  return `${path.relative(PROJECT_ROOT, file)} (${(size / 1024).toFixed(0)} KiB)`;
}

if (require.main === module) {
  try {
    const outArg = process.argv.indexOf("--out");
    const out = outArg >= 0 ? path.resolve(process.argv[outArg + 1] ?? "") : ARTIFACTS_DIR;
    const started = Date.now();
    const a = buildArtifacts(out, (line) => console.log(line));
    for (const file of [
      ...Object.values(a.pluginArchives),
      a.pythonWheel,
      a.pythonSdist,
      a.nodeTarball,
    ]) {
      console.log(`package: ${describe(file)}`);
    }
    const zipFile = path.join(a.goProxy, escapeModulePath(a.goModule), "@v", `${a.goVersion}.zip`);
    console.log(`package: ${describe(zipFile)} (Go module ${a.goModule} ${a.goVersion})`);
    console.log(`package: done in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  } catch (err) {
    console.error(`package failed: ${err instanceof SetupError ? err.message : String(err)}`);
    process.exit(1);
  }
}
