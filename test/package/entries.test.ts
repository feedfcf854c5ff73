/**
 * The package's entries: a program that imports `pulumi-discord-commands` loads no
 * emulator code (the emulator is `pulumi-discord-commands/emulator`), and every entry,
 * bin and type file that package.json names is built from a source file that exists. The
 * exports map is the public surface: the entries the README, docs, examples and templates
 * import, and the provider modules the dynamic resources' state names; a deep import of
 * anything else is refused by Node (ERR_PACKAGE_PATH_NOT_EXPORTED).
 */
import { requireBuiltPackage } from "../../scripts/toolchain";
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type * as ProviderModule from "../../sdk/providerModule";
import type { ProviderKind } from "../../sdk/providerModule";

const ROOT = path.join(__dirname, "..", "..");
/** The Node.js that runs the engine's plugins (npm installs Node 22 as a devDependency). */
const NODE_22 = path.join(ROOT, "node_modules", ".bin", "node");

interface PackageJson {
  readonly main: string;
  readonly types: string;
  readonly bin: Record<string, string>;
  readonly exports: Record<string, string | Record<string, string>>;
}

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as PackageJson;

/**
 * Every module a fresh Node process has loaded after requiring `entry` (relative to the
 * repository): a source file through ts-node, or a built one without it (ts-node itself
 * loads TypeScript).
 */
function requireCacheAfter(entry: string): string[] {
  const script = `
    require(${JSON.stringify(path.join(ROOT, entry))});
    process.stdout.write(JSON.stringify(Object.keys(require.cache)));
  `;
  const register = entry.endsWith(".ts")
    ? ["-r", require.resolve("ts-node/register/transpile-only")]
    : [];
  const res = spawnSync(process.execPath, [...register, "-e", script], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 60_000,
  });
  if (res.status !== 0) throw new Error(`node failed: ${res.stderr}`);
  return JSON.parse(res.stdout) as string[];
}

/** The modules of this repository that requiring `entry` (a source file) loads. */
function loadedBy(entry: string): string[] {
  const root = ROOT + path.sep;
  return requireCacheAfter(entry)
    .filter((k) => k.startsWith(root) && !k.includes("node_modules"))
    .map((k) => k.slice(root.length));
}

/** The source file a built file comes from: dist/x/y.js or .d.ts -> x/y.ts. */
function sourceOf(built: string): string {
  return built
    .replace(/^\.\//, "")
    .replace(/^dist\//, "")
    .replace(/(\.d)?\.(ts|js)$/, ".ts");
}

test("importing the package loads no emulator module", () => {
  const loaded = loadedBy("index.ts");
  expect(loaded).toContain(path.join("sdk", "index.ts"));
  expect(loaded.filter((f) => f.startsWith(`emulator${path.sep}`))).toEqual([]);
});

test("importing the package loads neither @pulumi/pulumi's Automation API nor its closure serializer", () => {
  requireBuiltPackage();
  const loaded = requireCacheAfter(path.join("dist", "index.js"));
  const pulumiModule = (sub: string) =>
    loaded.some((k) => k.includes(path.join("@pulumi", "pulumi", sub)));
  expect(pulumiModule("resource.js")).toBe(true);
  expect(pulumiModule(path.join("automation", "index.js"))).toBe(false);
  expect(pulumiModule(path.join("runtime", "closure"))).toBe(false);
  expect(loaded.some((k) => k.includes(path.join("node_modules", "typescript")))).toBe(false);
});

test("the emulator entry loads the emulator", () => {
  const loaded = loadedBy(path.join("emulator", "index.ts"));
  expect(loaded).toContain(path.join("emulator", "server.ts"));
});

test("the exports map: the package, the emulator, and every file it names has a source", () => {
  const files: string[] = [];
  for (const [key, target] of Object.entries(pkg.exports)) {
    if (key.includes("*") || key === "./package.json") continue;
    files.push(...(typeof target === "string" ? [target] : Object.values(target)));
  }
  expect(Object.keys(pkg.exports)).toEqual(expect.arrayContaining([".", "./emulator"]));
  expect(pkg.exports["."]).toEqual({ types: `./${pkg.types}`, default: `./${pkg.main}` });
  files.push(pkg.main, pkg.types, ...Object.values(pkg.bin));
  for (const f of files)
    expect([f, fs.existsSync(path.join(ROOT, sourceOf(f)))]).toEqual([f, true]);
});

/**
 * Every `pulumi-discord-commands[/...]` a user's file imports: README, docs, examples, the
 * `pulumi new` templates.
 */
function documentedSpecifiers(): string[] {
  const files = [path.join(ROOT, "README.md")];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, e.name);
      if (e.isDirectory() && e.name !== "node_modules") walk(file);
      else if (/\.(md|ts|js)$/.test(e.name)) files.push(file);
    }
  };
  walk(path.join(ROOT, "docs"));
  walk(path.join(ROOT, "examples"));
  walk(path.join(ROOT, "templates"));
  const specifier = /(?:from |require\()["'](pulumi-discord-commands(?:\/[^"']*)?)["']/g;
  const found = files.flatMap((f) =>
    [...fs.readFileSync(f, "utf8").matchAll(specifier)].map((m) => m[1] ?? ""),
  );
  return [...new Set(found)].sort();
}

/** What Node's resolver makes of `specifier` from inside the package (self-reference). */
function resolution(specifier: string): string {
  const res = spawnSync(
    process.execPath,
    [
      "-e",
      `try { require.resolve(${JSON.stringify(specifier)}); console.log("resolves") }
      catch (err) { console.log(err.code) }`,
    ],
    { cwd: ROOT, encoding: "utf8", timeout: 30_000 },
  );
  return res.stdout.trim();
}

test("the exports map names only what users import: the documented entries and the state's provider modules", () => {
  const documented = documentedSpecifiers();
  expect(documented).toEqual(["pulumi-discord-commands", "pulumi-discord-commands/emulator"]);
  // The dynamic resources' state names each provider module by a package subpath, which the
  // engine's host requires when the relative path no longer leads to it (providerModule.ts).
  const kinds: ProviderKind[] = [
    "commandSetScopes",
    "globalCommand",
    "guildCommand",
    "guildCommandPermissions",
    "scopeCommands",
    "userAuthorization",
  ];
  // The built module's answer (the source's names provider/..., not dist/provider/...).
  const built = path.join(ROOT, "dist", "sdk", "providerModule.js");
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { providerPackagePath } = require(built) as typeof ProviderModule;
  const stateNamed = kinds.map((kind) => providerPackagePath(kind));
  const subpath = (s: string) => `.${s.slice("pulumi-discord-commands".length)}`;
  expect(Object.keys(pkg.exports).sort()).toEqual(
    [...documented, ...stateNamed].map(subpath).concat("./package.json").sort(),
  );
  for (const s of [...documented, ...stateNamed])
    expect([s, resolution(s)]).toEqual([s, "resolves"]);
  // A deep import of an internal module is refused by Node, not silently served.
  for (const internal of [
    "pulumi-discord-commands/dist/provider/cliVersion",
    "pulumi-discord-commands/dist/sdk/index.js",
    "pulumi-discord-commands/dist/provider/resources/claims",
    "pulumi-discord-commands/plugin/installCheck.js",
  ]) {
    expect([internal, resolution(internal)]).toEqual([internal, "ERR_PACKAGE_PATH_NOT_EXPORTED"]);
  }
}, 60_000);

function withoutCacheVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  delete copy["NODE_COMPILE_CACHE"];
  delete copy["NODE_DISABLE_COMPILE_CACHE"];
  return copy;
}

/** Starts the plugin's entry as the engine does, waits for its port, stops it; the cache's files. */
async function pluginCacheFiles(extraEnv: Record<string, string>): Promise<string[]> {
  const cache = fs.mkdtempSync(path.join(ROOT, ".work", "compile-cache-"));
  try {
    const child = spawn(NODE_22, [path.join(ROOT, "plugin", "index.js")], {
      cwd: ROOT,
      // The cache's default place (no NODE_COMPILE_CACHE, which would turn it on by itself).
      env: { ...withoutCacheVariables(process.env), TMPDIR: cache, ...extraEnv },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const port = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (c: Buffer) => {
        out += c.toString();
        if (out.includes("\n")) resolve(out.trim());
      });
      child.on("exit", (code) => reject(new Error(`plugin exited (${code}): ${stderr}`)));
    });
    expect(port).toMatch(/^\d+$/);
    // Killed as the engine kills its plugins: Node itself would write the cache only at a
    // normal exit, so what is there the plugin wrote.
    const exited = new Promise((resolve) => child.on("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory()) walk(path.join(dir, e.name));
        else files.push(e.name);
      }
    };
    walk(cache);
    return files;
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
  }
}

test("the plugin's entry turns on Node's compile cache, and NODE_DISABLE_COMPILE_CACHE turns it off", async () => {
  expect((await pluginCacheFiles({})).length).toBeGreaterThan(20);
  expect(await pluginCacheFiles({ NODE_DISABLE_COMPILE_CACHE: "1" })).toEqual([]);
}, 60_000);
