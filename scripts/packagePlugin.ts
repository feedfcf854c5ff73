/**
 * The resource plugin's archive, `pulumi-resource-discord-commands-v<version>-<os>-<arch>.tar.gz`:
 * self-contained (its JavaScript and production modules inside), for the engine's automatic
 * plugin installation from the schema's `pluginDownloadURL`, or for
 * `pulumi plugin install resource discord-commands <version> --file <archive>`. One archive
 * serves every platform (the plugin is JavaScript, run by the Node.js on the user's PATH):
 * it holds a launcher for each (`pulumi-resource-discord-commands`, a Node script for Linux
 * and macOS; `pulumi-resource-discord-commands.cmd` for Windows, where the engine looks for
 * `.exe` then `.cmd`: sdk/go/common/workspace/plugins.go, getCandidateExtensions, 3.259).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { PACKAGE_NAME } from "../provider/package/schema";
import type { ArchiveEntry } from "./archives";
import { checksumLines, tarGz } from "./archives";
import { PROJECT_ROOT, SetupError } from "./toolchain";

/** Every platform the engine may ask for (`<os>-<arch>`, as it names them). */
export const PLUGIN_PLATFORMS = [
  "linux-amd64",
  "linux-arm64",
  "darwin-amd64",
  "darwin-arm64",
  "windows-amd64",
  "windows-arm64",
] as const;

export function pluginArchiveName(version: string, platform: string): string {
  return `pulumi-resource-${PACKAGE_NAME}-v${version}-${platform}.tar.gz`;
}

/** The launcher Windows runs (the engine starts `<name>.cmd` directly; Node must be on PATH). */
const WINDOWS_LAUNCHER = [
  "@echo off",
  "rem The discord-commands resource plugin on Windows: its entry, run by the Node.js on PATH.",
  'node "%~dp0plugin\\index.js" %*',
  "",
].join("\r\n");

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

/** The plugin's package.json: its modules at the versions shipped (the entry checks each resolves). */
function pluginPackageJson(version: string): { json: string; roots: string[] } {
  const own = readPackageJson(PROJECT_ROOT) as PackageJson & Record<string, unknown>;
  const roots = [...Object.keys(own.dependencies ?? {}), "@pulumi/pulumi"].sort();
  const dependencies: Record<string, string> = {};
  for (const name of roots) {
    const dir = findModule(name, PROJECT_ROOT);
    const installed = dir === undefined ? undefined : readPackageJson(dir).version;
    if (installed === undefined) throw new SetupError(`${name} is not installed: run \`npm ci\`.`);
    dependencies[name] = installed;
  }
  // The provider reads its version here (provider/plugin/server.ts, PACKAGE_ROOT), and the
  // entry compares it with the version the engine installed the plugin as (plugin/index.js).
  const pkgJson = {
    name: `pulumi-resource-${PACKAGE_NAME}`,
    version,
    description: own["description"],
    license: own["license"],
    private: true,
    main: "index.js",
    dependencies,
  };
  return { json: `${JSON.stringify(pkgJson, null, 2)}\n`, roots };
}

/**
 * The files under `dir` as entries named `prefix` + their path, following links (the
 * archive holds none: extractors of the engine before 3.259, and of language hosts built
 * on them, refuse links, "unexpected plugin file type"), without what `skip` refuses.
 */
function filesOf(dir: string, prefix: string, skip: (rel: string) => boolean): ArchiveEntry[] {
  const entries: ArchiveEntry[] = [];
  const walk = (rel: string): void => {
    for (const name of fs.readdirSync(path.join(dir, rel))) {
      const child = rel === "" ? name : `${rel}/${name}`;
      if (skip(child)) continue;
      const full = path.join(dir, child);
      const stat = fs.statSync(full);
      if (stat.isDirectory()) walk(child);
      else {
        const executable = (stat.mode & 0o111) !== 0;
        entries.push({ name: `${prefix}${child}`, content: fs.readFileSync(full), executable });
      }
    }
  };
  walk("");
  return entries;
}

/**
 * The plugin folder as the engine runs it once installed, a Node.js package of its own:
 * the launchers (which the engine starts directly), the built JavaScript (dist/, plugin/),
 * and the production modules in node_modules, `@pulumi/pulumi` included (a peer dependency
 * of the npm package, which the provider loads), each at the place it has in this
 * project's tree, so nested versions resolve; without type declarations, source maps
 * (half the files, which nothing loads) and npm's bin links (the plugin runs no module's
 * command).
 *
 * No PulumiPlugin.yaml at its root: with one, installing the plugin runs the language
 * host's `npm install` in its folder (InstallPluginContent, pkg/workspace/plugin.go,
 * 3.259), which has nothing to do here, and the engine starts the launcher anyway (it
 * prefers an executable named for the plugin). Its package.json lists the modules at the
 * versions shipped, which the entry checks at every start (plugin/installCheck.js).
 */
function pluginEntries(version: string): ArchiveEntry[] {
  const { json, roots } = pluginPackageJson(version);
  const text = (name: string, content: string, executable = false): ArchiveEntry => ({
    name,
    content: Buffer.from(content),
    executable,
  });
  const launcher = fs.readFileSync(
    path.join(PROJECT_ROOT, "plugin", `pulumi-resource-${PACKAGE_NAME}`),
  );
  const entries: ArchiveEntry[] = [
    text("package.json", json),
    text(
      "index.js",
      '"use strict";\n// The plugin\'s entry (package.json main), as in the npm package.\nrequire("./plugin/index.js");\n',
    ),
    { name: `pulumi-resource-${PACKAGE_NAME}`, content: launcher, executable: true },
    text(`pulumi-resource-${PACKAGE_NAME}.cmd`, WINDOWS_LAUNCHER),
    ...["PulumiPlugin.yaml", "index.js", "installCheck.js", "schema.json"].map((file) => ({
      name: `plugin/${file}`,
      content: fs.readFileSync(path.join(PROJECT_ROOT, "plugin", file)),
    })),
    ...filesOf(path.join(PROJECT_ROOT, "dist"), "dist/", (rel) =>
      /\.d\.ts$|\.map$|^\.tsbuildinfo$/.test(rel),
    ),
  ];
  for (const rel of productionClosure(roots)) {
    const prefix = `${rel.split(path.sep).join("/")}/`;
    entries.push(
      ...filesOf(path.join(PROJECT_ROOT, rel), prefix, (r) =>
        /(^|\/)node_modules$|\.d\.[mc]?ts$|\.map$/.test(r),
      ),
    );
  }
  return entries;
}

/**
 * Writes the plugin archive under every platform's name into `out` (the same bytes, linked)
 * and returns each one's path. `prepare` edits the entries before they are archived.
 */
export function packPlugin(
  out: string,
  version: string,
  prepare: (entries: ArchiveEntry[]) => ArchiveEntry[] = (entries) => entries,
): Record<string, string> {
  const archives = Object.fromEntries(
    PLUGIN_PLATFORMS.map((p) => [p, path.join(out, pluginArchiveName(version, p))]),
  );
  const [first, ...others] = Object.values(archives);
  if (first === undefined) throw new Error("no plugin platforms");
  const entries = prepare(pluginEntries(version));
  // Every file's digest, which the entry checks at its first start (plugin/installCheck.js):
  // an archive that unpacks but is not the one released (a corrupted byte inside a file
  // passes the engine's extraction: its tar reader stops before gzip's own checksum).
  const manifest = checksumLines(entries.map((e) => [e.name, e.content] as const));
  entries.push({ name: "plugin/files.sha256", content: Buffer.from(manifest) });
  fs.writeFileSync(first, tarGz(entries));
  for (const other of others) fs.linkSync(first, other);
  return archives;
}
