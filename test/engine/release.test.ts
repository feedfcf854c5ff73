/**
 * A release as users meet it: `npm run release` builds every artifact, then publishes the
 * build (the release workflow's two jobs, with its flags) to real registry servers on
 * loopback (Verdaccio, pypiserver without a fallback to the public index, a plain HTTP
 * server of the Go module proxy's files and the plugin archives), then programs in clean
 * folders outside this checkout,
 * with no checkout on any path, install the package with their registry's ordinary
 * command (`npm install`, `pip install`, `go get`; YAML installs nothing) and deploy to the
 * emulator and destroy, each with its own empty PULUMI_HOME: the engine downloads the
 * plugin by itself from the URL the release set; pip installs with the README's line. A
 * second release of the build has nothing to do and changes nothing; a bad archive on the server, a damaged installation, an
 * archive installed under another version each give one clear line.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import { PLUGIN_PLATFORMS, pluginArchiveName } from "../../scripts/packagePlugin";
import { PulumiProgram } from "../../scripts/pulumiProgram";
import { requireRegistryTools } from "../../scripts/registryTools";
import { pluginChecksumsName } from "../../scripts/releaseSite";
import { findPython } from "../../scripts/pythonVenv";
import { PROJECT_ROOT, requireToolchain } from "../../scripts/toolchain";
import type { Run } from "../helpers/commandRuns";
import {
  exec,
  ok,
  PACKAGE_VERSION as VERSION,
  projectScriptArgs,
  scratchRoot,
} from "../helpers/commandRuns";
import { configurePluginStack } from "./lifecycle.helpers";
import type { RunningServer } from "./releaseRegistries.helpers";
import {
  releaseArguments,
  startFileServer,
  startPypiServer,
  startVerdaccio,
  verdaccioToken,
  withChangedFile,
} from "./releaseRegistries.helpers";

jest.setTimeout(600_000);

const GO_MODULE = "github.com/pulumi-discord-commands/pulumi-discord-commands/sdks/go";

/** Everything of this test lives here: outside the checkout, removed at the end. */
let root: string;
let site: string;
let npm: RunningServer;
let pypi: RunningServer;
let files: RunningServer & { hits: string[] };
let emu: RunningEmulator;
let releaseArgs: { build: string[]; publish: string[] };
let releaseEnv: NodeJS.ProcessEnv;

/**
 * A user's environment: Node.js (a folder holding only a `node` link), the Pulumi CLI
 * and Go on PATH, the system's own folders, and nothing of this checkout (no path inside
 * it, no npm_* variables of the npm run that started the test).
 */
function userEnv(): NodeJS.ProcessEnv {
  const tc = requireToolchain();
  const nodeDir = path.join(root, "node-bin");
  if (!fs.existsSync(nodeDir)) {
    fs.mkdirSync(nodeDir);
    fs.symlinkSync(process.execPath, path.join(nodeDir, "node"));
  }
  const system = (process.env["PATH"] ?? "")
    .split(path.delimiter)
    .filter((dir) => dir !== "" && path.relative(PROJECT_ROOT, dir).startsWith(".."));
  const dirs = [nodeDir, tc.pulumiBinDir, ...(tc.goBinDir ? [tc.goBinDir] : []), ...system];
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)),
  );
  return { ...env, PATH: [...new Set(dirs)].join(path.delimiter) };
}

/**
 * A program in its own folder under `root`, with its own backend and an empty PULUMI_HOME,
 * run with automatic plugin acquisition on (as users have it).
 */
async function program(name: string, programFiles: Record<string, string>) {
  const env = userEnv();
  const prog = new PulumiProgram(name, programFiles, {
    root: fs.mkdtempSync(path.join(root, `${name}-`)),
    env: { PATH: env.PATH ?? "", PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false" },
  });
  for (const key of Object.keys(prog.env)) if (/^npm_/i.test(key)) delete prog.env[key];
  await prog.stack("dev");
  await configurePluginStack(prog, emu);
  return prog;
}

function installedPlugin(prog: PulumiProgram, version = VERSION): string {
  return path.join(prog.home, "plugins", `resource-discord-commands-v${version}`);
}

/**
 * `up` creates the command `name` (the stack's `id` output) through the downloaded plugin,
 * and the commands `others` (another door's); `destroy` removes them all.
 */
async function deploysAndDestroys(
  prog: PulumiProgram,
  name: string,
  others: readonly string[] = [],
): Promise<void> {
  const live = (n: string) => emu.control.commands().find((c) => c["name"] === n);
  expect(fs.existsSync(installedPlugin(prog))).toBe(false);
  await prog.up();
  expect(live(name)).toMatchObject({ name, description: `From ${prog.name}` });
  for (const other of others) expect(live(other)).toMatchObject({ name: other });
  expect((await prog.outputs())["id"]).toBe(live(name)?.["id"]);
  const launcher = path.join(installedPlugin(prog), "pulumi-resource-discord-commands");
  expect(fs.existsSync(launcher)).toBe(true);
  await prog.destroy();
  for (const n of [name, ...others]) expect(live(n)).toBeUndefined();
}

function release(args: readonly string[]): Promise<Run> {
  return exec(process.execPath, projectScriptArgs("release.ts", args), PROJECT_ROOT, releaseEnv);
}

beforeAll(async () => {
  const tools = requireRegistryTools();
  root = scratchRoot("discord-release-");
  // The site: a checkout of the branch a web server serves (CI: GitHub Pages), whose
  // remote is a bare repository here; `--push` commits the release's files and pushes.
  site = path.join(root, "site");
  const remote = path.join(root, "site.git");
  await ok("git", ["init", "-q", "--bare", "-b", "release-site", remote], root, process.env);
  await ok("git", ["clone", "-q", remote, site], root, process.env);
  const upstream = (await ok("npm", ["config", "get", "registry"], root, userEnv())).stdout.trim();
  const pypiToken = crypto.randomBytes(16).toString("hex");
  [npm, pypi, files] = await Promise.all([
    startVerdaccio(path.join(root, "verdaccio"), upstream),
    startPypiServer(tools.pypiServer, path.join(root, "pypiserver"), pypiToken),
    startFileServer(site),
  ]);
  releaseEnv = { ...process.env, NPM_TOKEN: await verdaccioToken(npm.url), PYPI_TOKEN: pypiToken };
  releaseArgs = releaseArguments({
    npmRegistry: npm.url,
    pypiServer: pypi.url,
    fileServer: files.url,
    site,
    version: VERSION,
    build: path.join(root, "build"),
  });
  // As the workflow's two jobs: the build (no token), then the publishing of that build.
  for (const step of [releaseArgs.build, releaseArgs.publish]) {
    const started = Date.now();
    const run = await release(step);
    console.log(`${step[0]} took ${((Date.now() - started) / 1000).toFixed(1)} s\n${run.stdout}`);
    expect(run).toMatchObject({ code: 0, stderr: "" });
  }
  emu = await startEmulator({ port: 0, rateLimits: false });
}, 600_000);

afterAll(async () => {
  await Promise.all([emu?.close(), npm?.close(), pypi?.close(), files?.close()]);
  // rm, not fs.rmSync: the folder holds a few hundred thousand files (venvs, node_modules,
  // the plugin installed once per program), which Node's removal takes minutes over.
  if (root) await exec("rm", ["-rf", root], os.tmpdir(), process.env);
});

/** Every file under `dir` with its digest: what a refused release must leave as it was. */
function snapshot(dir: string): Record<string, string> {
  const entries = fs.readdirSync(dir, { withFileTypes: true, recursive: true });
  return Object.fromEntries(
    entries
      .filter((e) => e.isFile())
      .map((e) => {
        const file = path.join(e.parentPath, e.name);
        const digest = crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
        return [path.relative(dir, file), digest];
      }),
  );
}

test("the release published every artifact; a second release of the build has nothing to do and changes nothing", async () => {
  const plugins = path.join(site, "plugins");
  const archives = PLUGIN_PLATFORMS.map((p) => pluginArchiveName(VERSION, p));
  expect(fs.readdirSync(plugins).sort()).toEqual(
    [...archives, pluginChecksumsName(VERSION)].sort(),
  );
  await ok("sha256sum", ["-c", pluginChecksumsName(VERSION)], plugins, process.env);
  const pushed = await ok(
    "git",
    ["log", "--format=%s", "--name-only", "release-site"],
    path.join(root, "site.git"),
    process.env,
  );
  expect(pushed.stdout).toContain(`Release v${VERSION}\n`);
  expect(pushed.stdout).toContain(`plugins/${pluginChecksumsName(VERSION)}`);
  expect(pushed.stdout).toContain(`go/${GO_MODULE}/@v/v${VERSION}.zip`);
  const goList = path.join(site, "go", GO_MODULE, "@v", "list");
  expect(fs.readFileSync(goList, "utf8")).toBe(`v${VERSION}\n`);
  const simple = await (await fetch(`${pypi.url}simple/pulumi-discord-commands/`)).text();
  expect(simple).toContain(`pulumi_discord_commands-${VERSION}-py3-none-any.whl`);
  expect(simple).toContain(`pulumi_discord_commands-${VERSION}.tar.gz`);
  for (const name of ["pulumi-discord-commands", "@pulumi-discord-commands%2fsdk"]) {
    const doc = (await (await fetch(`${npm.url}${name}`)).json()) as { versions: object };
    expect(Object.keys(doc.versions)).toEqual([VERSION]);
  }

  // A second release of the same build has nothing to do and changes nothing
  // (test/engine/release-resume.test.ts: one that stopped halfway, another build).
  const before = snapshot(root);
  const second = await release(releaseArgs.publish);
  expect(second).toMatchObject({ code: 0, stderr: "" });
  expect(second.stdout.trim()).toBe(
    `release: ${VERSION}: every destination holds this build already; nothing to publish`,
  );
  expect(snapshot(root)).toEqual(before);
  // A tag that is not the package's version is refused before anything is asked.
  const tagged = await release(
    releaseArgs.publish.map((arg) => (arg === `v${VERSION}` ? "v9.9.9" : arg)),
  );
  expect(tagged.stderr.trim()).toBe(
    `release failed: the tag v9.9.9 is not the package's version (package.json: ${VERSION}, tag v${VERSION})`,
  );
});

test("YAML: nothing to install; the engine downloads the plugin from the URL the program names", async () => {
  const prog = await program("release-yaml", {
    "Pulumi.yaml": [
      "name: release-yaml",
      "runtime: yaml",
      "resources:",
      "  cmd:",
      "    type: discord-commands:GlobalCommand",
      "    properties:",
      "      name: from-yaml",
      "      description: From release-yaml",
      "    options:",
      `      version: ${VERSION}`,
      `      pluginDownloadURL: ${files.url}/plugins`,
      "outputs:",
      "  id: ${cmd.id}",
      "",
    ].join("\n"),
  });
  await deploysAndDestroys(prog, "from-yaml");
  expect(files.hits).toContain(`/plugins/${pluginArchiveName(VERSION, "linux-amd64")}`);
});

test("Python: pip install from the package index; the engine fetches the plugin the SDK names", async () => {
  const python = findPython();
  if (!python) throw new Error("no python3 >= 3.10 on PATH (see CONTRIBUTING.md, Prerequisites)");
  const env = userEnv();
  const venv = path.join(fs.mkdtempSync(path.join(root, "venv-")), "venv");
  await ok(python.bin, ["-m", "venv", venv], root, env);
  // The SDK's dependencies at the versions setup's venv has (constraints, not packages):
  // pip's cache holds them, so the index is asked but nothing big is downloaded.
  const constraints = path.join(root, "constraints.txt");
  fs.copyFileSync(path.join(PROJECT_ROOT, "toolchain", "python", "requirements.txt"), constraints);
  // The README's line for an index of one's own, which has no fallback to the public one.
  const readme = fs.readFileSync(path.join(PROJECT_ROOT, "README.md"), "utf8");
  const line = /`pip install (--index-url <index>\/simple\/ [^`]+)`/.exec(readme)?.[1] ?? "";
  const args = line
    .replace("<index>/", pypi.url)
    .replace("<version>", VERSION)
    .split(" ")
    .filter(Boolean);
  expect(args).toContain("--extra-index-url");
  const pip = path.join(venv, "bin", "pip");
  await ok(pip, ["install", "--quiet", "-c", constraints, ...args], root, env);
  const prog = await program("release-python", {
    "Pulumi.yaml": `name: release-python\nruntime:\n  name: python\n  options:\n    virtualenv: ${venv}\n`,
    "__main__.py": [
      "import pulumi",
      "import pulumi_discord_commands as discord",
      "",
      'cmd = discord.GlobalCommand("cmd", name="from-python", description="From release-python")',
      'pulumi.export("id", cmd.id)',
      "",
    ].join("\n"),
  });
  await deploysAndDestroys(prog, "from-python");
});

test("Go: go get from the module proxy; the engine fetches the plugin the SDK names", async () => {
  // The example's go.mod (its other modules at the CLI's versions, for Go's build cache)
  // without the SDK's placeholder and its `replace` into node_modules: `go get` adds it.
  const example = (file: string) =>
    fs.readFileSync(path.join(PROJECT_ROOT, "examples", "go", file), "utf8");
  const goMod = example("go.mod")
    .split("\n")
    .filter((line) => !line.includes(GO_MODULE))
    .join("\n");
  const prog = await program("release-go", {
    "Pulumi.yaml": "name: release-go\nruntime: go\n",
    "go.mod": goMod,
    "go.sum": example("go.sum"),
    "main.go": [
      "package main",
      "",
      "import (",
      '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
      "",
      `\tdiscord "${GO_MODULE}/discordcommands"`,
      ")",
      "",
      "func main() {",
      "\tpulumi.Run(func(ctx *pulumi.Context) error {",
      '\t\tcmd, err := discord.NewGlobalCommand(ctx, "cmd", &discord.GlobalCommandArgs{',
      '\t\t\tName:        pulumi.String("from-go"),',
      '\t\t\tDescription: pulumi.String("From release-go"),',
      "\t\t})",
      "\t\tif err != nil {",
      "\t\t\treturn err",
      "\t\t}",
      '\t\tctx.Export("id", cmd.ID())',
      "\t\treturn nil",
      "\t})",
      "}",
      "",
    ].join("\n"),
  });
  // The project's module proxy first, the usual one for everything else; the module is not
  // in the public checksum database (it is served by this proxy alone). Go's module cache
  // is this program's own: the machine's keeps a module version once fetched, and every
  // release of this test names another plugin server. The machine's cache serves the
  // other modules, as a proxy does (its download folder is a module proxy's layout).
  const machineCache = (await ok("go", ["env", "GOMODCACHE"], root, prog.env)).stdout.trim();
  const fallback = process.env["GOPROXY"] ?? "https://proxy.golang.org,direct";
  prog.env["GOPROXY"] = `${files.url}/go,file://${machineCache}/cache/download,${fallback}`;
  prog.env["GONOSUMDB"] = GO_MODULE;
  prog.env["GOMODCACHE"] = path.join(prog.root, "go-mod-cache");
  prog.env["GOFLAGS"] = `${prog.env["GOFLAGS"] ?? ""} -modcacherw`.trim();
  await ok("go", ["get", `${GO_MODULE}@v${VERSION}`], prog.dir, prog.env);
  expect(fs.readFileSync(path.join(prog.dir, "go.mod"), "utf8")).toContain(
    `${GO_MODULE} v${VERSION}`,
  );
  await deploysAndDestroys(prog, "from-go");
});

test("npm install from the registry: the SDK (the engine fetches the plugin) and the dynamic resources", async () => {
  const prog = await program("release-nodejs", {
    // JavaScript as the packages ship it: no TypeScript compiler in the program.
    "Pulumi.yaml": [
      "name: release-nodejs",
      "runtime:",
      "  name: nodejs",
      "  options:",
      "    typescript: false",
      "main: index.js",
      "",
    ].join("\n"),
    "index.js": [
      '"use strict";',
      'const sdk = require("@pulumi-discord-commands/sdk");',
      'const dynamic = require("pulumi-discord-commands");',
      'const cmd = new sdk.GlobalCommand("cmd", { name: "from-nodejs", description: "From release-nodejs" });',
      'new dynamic.GlobalCommand("dyn", { name: "from-dynamic", description: "From release-nodejs" });',
      "exports.id = cmd.id;",
      "",
    ].join("\n"),
  });
  await prog.setConfig(
    { "discord:apiUrl": emu.url, "discord:applicationId": emu.applicationId },
    { "discord:botToken": emu.botToken },
  );
  // @pulumi/pulumi from the usual registry first (npm's cache holds its tree), then the
  // package and the SDK from the release's registry, which proxies their few other modules.
  const pulumiVersion = requireToolchain().pulumiVersion;
  const install = ["install", "--prefer-offline", "--no-audit", "--no-fund"];
  await ok("npm", [...install, `@pulumi/pulumi@${pulumiVersion}`], prog.dir, prog.env);
  const packages = ["pulumi-discord-commands", "@pulumi-discord-commands/sdk"];
  await ok("npm", [...install, "--registry", npm.url, ...packages], prog.dir, prog.env);
  await deploysAndDestroys(prog, "from-nodejs", ["from-dynamic"]);
});

/** A YAML project whose command names `version` and `server` for the plugin. */
function yamlNaming(name: string, version: string, server: string): Record<string, string> {
  return {
    "Pulumi.yaml": [
      `name: ${name}`,
      "runtime: yaml",
      "resources:",
      "  cmd:",
      "    type: discord-commands:GlobalCommand",
      "    properties:",
      "      name: bad-input",
      "      description: Never deployed",
      "    options:",
      `      version: ${version}`,
      `      pluginDownloadURL: ${server}`,
      "",
    ].join("\n"),
  };
}

/**
 * The preview fails with `expected` in one error, and nothing of a crash: no "exited
 * prematurely", no stack trace, no command written.
 */
async function failsWithOneLine(prog: PulumiProgram, expected: RegExp): Promise<void> {
  const res = await prog.run(["preview", "--non-interactive"]);
  const out = `${res.stdout}\n${res.stderr}`;
  expect(res.code).not.toBe(0);
  expect(out).toMatch(expected);
  expect(out).not.toMatch(/prematurely|always\* a bug|^\s+at .+:\d+:\d+\)?$|MODULE_NOT_FOUND/m);
  expect(emu.control.commands().find((c) => c["name"] === "bad-input")).toBeUndefined();
}

test("a bad archive on the server (truncated, a wrong checksum) fails the preview with one clear error", async () => {
  const name = pluginArchiveName(VERSION, "linux-amd64");
  const good = fs.readFileSync(path.join(site, "plugins", name));
  const changed = withChangedFile(good, "plugin/schema.json");
  expect(crypto.createHash("sha256").update(changed).digest("hex")).not.toBe(
    crypto.createHash("sha256").update(good).digest("hex"),
  );
  const cases = [
    // The engine's own words for an archive it cannot unpack.
    [
      "truncated",
      good.subarray(0, good.length >> 1),
      `Could not automatically download and install resource plugin 'pulumi-resource-discord-commands' at version v${VERSION}.*: error installing provider discord-commands: .*unexpected EOF`,
    ],
    // One that unpacks: the plugin's first start checks its files against the release's.
    [
      "changed",
      changed,
      "discord-commands: the plugin in .+ is damaged \\(plugin/schema\\.json is not the file it was released with; a corrupted archive\\): remove it \\(pulumi plugin rm resource discord-commands",
    ],
  ] as const;
  for (const [kind, bytes, expected] of cases) {
    fs.mkdirSync(path.join(site, kind));
    fs.writeFileSync(path.join(site, kind, name), bytes);
    const prog = await program(
      `release-${kind}`,
      yamlNaming(`release-${kind}`, VERSION, `${files.url}/${kind}`),
    );
    await failsWithOneLine(prog, new RegExp(expected));
  }
});

test("a damaged installation (a module missing, the archive of another version) gets one clear line", async () => {
  const archive = path.join(site, "plugins", pluginArchiveName(VERSION, "linux-amd64"));
  const other = "9.8.7";
  const prog = await program(
    "release-damaged",
    yamlNaming("release-damaged", other, `${files.url}/plugins`),
  );
  // The archive of VERSION installed as another version, as a mislabelled upload would be.
  await prog.ok(["plugin", "install", "resource", "discord-commands", other, "--file", archive]);
  await failsWithOneLine(
    prog,
    new RegExp(
      `discord-commands: the plugin installed as version ${other} is version ${VERSION} \\(its archive was published under the wrong version\\): remove it \\(pulumi plugin rm resource discord-commands ${other} --yes\\)`,
    ),
  );
  // The right version, with one of its modules gone.
  prog.write(yamlNaming("release-damaged", VERSION, `${files.url}/plugins`));
  await prog.ok(["plugin", "install", "resource", "discord-commands", VERSION, "--file", archive]);
  fs.rmSync(path.join(installedPlugin(prog), "node_modules", "undici"), { recursive: true });
  await failsWithOneLine(
    prog,
    /discord-commands: the plugin in .+ is incomplete \(node_modules\/undici\/.+ is missing; a damaged or partial archive\)/,
  );
});
