/**
 * The release artifacts of `npm run package` (scripts/package.ts): their names and
 * versions, the plugin's download URL each names, and the from-a-checkout route
 * (CONTRIBUTING.md): the plugin archive installed by `pulumi plugin install resource
 * discord-commands <version> --file` into this test's own PULUMI_HOME, a YAML program
 * deployed on it against the emulator with no `packages:` path, the sdist built into the
 * wheel, and `pulumi package add` of the installed plugin. Installing each SDK from its
 * registry, and the engine fetching the plugin by itself, is test/engine/release.test.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import { PLUGIN_PLATFORMS, pluginArchiveName } from "../../scripts/package";
import { engineEnv, PulumiProgram, setAutomaticLogs } from "../../scripts/pulumiProgram";
import { PROJECT_ROOT, PYTHON_VENV, requireToolchain } from "../../scripts/toolchain";
import { PLUGIN_DOWNLOAD_URL, SDK_NAMES } from "../../provider/package/schema";

const PYTHON = path.join(PYTHON_VENV, "bin", "python");
import { configurePluginStack } from "../engine/lifecycle.helpers";
import { exec, ok, PACKAGE_VERSION, projectScriptArgs, scratchRoot } from "../helpers/commandRuns";

jest.setTimeout(600_000);

/** A release's plugin server: every artifact must name it, and none the schema's own URL. */
const PLUGIN_SERVER = "http://127.0.0.1:9/discord-commands/plugins";

/** Everything of this test lives here: outside the checkout, removed at the end. */
let root: string;
let home: string;
let artifacts: Built;
let emu: RunningEmulator;

/**
 * A program folder in its own scratch root (its own file backend) under `root`, run with
 * the shared PULUMI_HOME where the plugin is installed.
 */
async function program(
  name: string,
  files: Record<string, string>,
  env: Record<string, string> = {},
): Promise<PulumiProgram> {
  const prog = new PulumiProgram(name, files, {
    root: fs.mkdtempSync(path.join(root, `${name}-`)),
    env: { ...env, PULUMI_HOME: home },
  });
  await prog.stack("dev");
  await configurePluginStack(prog, emu);
  return prog;
}

function liveNamed(name: string): Record<string, unknown> | undefined {
  return emu.control.commands().find((c) => c["name"] === name);
}

/**
 * `up` creates the command `name`, whose id is the stack's `id` output (`outputs` checks
 * the others); `destroy` removes it.
 */
async function deploysAndDestroys(
  prog: PulumiProgram,
  name: string,
  outputs: (values: Record<string, unknown>) => void = () => {},
): Promise<void> {
  await prog.up();
  const live = liveNamed(name);
  expect(live).toMatchObject({ name, description: `From ${prog.name}` });
  const values = await prog.outputs();
  expect(values["id"]).toBe(live?.["id"]);
  outputs(values);
  await prog.destroy();
  expect(liveNamed(name)).toBeUndefined();
}

/** The artifacts' paths, as `npm run package` names them. */
interface Built {
  readonly version: string;
  readonly dir: string;
  readonly pluginArchives: Readonly<Record<string, string>>;
  readonly pythonWheel: string;
  readonly pythonSdist: string;
  readonly nodeTarball: string;
  readonly npmTarball: string;
  readonly goModule: string;
  readonly goVersion: string;
  readonly goZip: string;
}

/**
 * `npm run package` as on a machine where only `npm ci` ran: PATH holds node and npm alone
 * (no Python, no Pulumi CLI, no Go, no tar), and nothing of setup is asked for.
 */
async function packageWithoutPythonOrPulumi(out: string): Promise<Built> {
  const bin = path.join(root, "bin-node-npm");
  fs.mkdirSync(bin);
  const which = (name: string) =>
    (process.env["PATH"] ?? "")
      .split(path.delimiter)
      .map((dir) => path.join(dir, name))
      .find((file) => fs.existsSync(file)) ?? name;
  fs.symlinkSync(process.execPath, path.join(bin, "node"));
  fs.symlinkSync(which("npm"), path.join(bin, "npm"));
  const args = projectScriptArgs("package.ts", ["--out", out, "--plugin-server", PLUGIN_SERVER]);
  const env = { HOME: process.env["HOME"] ?? root, PATH: bin };
  const res = await ok(process.execPath, args, PROJECT_ROOT, env);
  console.log(res.stdout);
  const version = PACKAGE_VERSION;
  const goModule = SDK_NAMES.goModule;
  return {
    version,
    dir: out,
    pluginArchives: Object.fromEntries(
      PLUGIN_PLATFORMS.map((p) => [p, path.join(out, pluginArchiveName(version, p))]),
    ),
    pythonWheel: path.join(out, `pulumi_discord_commands-${version}-py3-none-any.whl`),
    pythonSdist: path.join(out, `pulumi_discord_commands-${version}.tar.gz`),
    nodeTarball: path.join(out, `pulumi-discord-commands-sdk-${version}.tgz`),
    npmTarball: path.join(out, `pulumi-discord-commands-${version}.tgz`),
    goModule,
    goVersion: `v${version}`,
    goZip: path.join(out, "go", goModule, "@v", `v${version}.zip`),
  };
}

beforeAll(async () => {
  const tc = requireToolchain();
  root = scratchRoot("discord-artifacts-");
  home = path.join(root, "pulumi-home");
  fs.mkdirSync(home);
  setAutomaticLogs(home, false);
  artifacts = await packageWithoutPythonOrPulumi(path.join(root, "dist-packages"));
  emu = await startEmulator({ port: 0, rateLimits: false });
  // As a user installs it, into this test's PULUMI_HOME (never the user's).
  const archive = artifacts.pluginArchives["linux-amd64"] ?? "";
  const install = ["plugin", "install", "resource", "discord-commands", artifacts.version];
  const env = engineEnv(root, { PULUMI_HOME: home });
  await ok(path.join(tc.pulumiBinDir, "pulumi"), [...install, "--file", archive], root, env);
}, 300_000);

afterAll(async () => {
  await emu?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

test("every artifact carries the package's version; the schema names it and the download URL", () => {
  const version = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")) as {
    version: string;
  };
  expect(artifacts.version).toBe(version.version);
  const names = fs.readdirSync(artifacts.dir).sort();
  expect(names).toEqual(
    [
      ...PLUGIN_PLATFORMS.map(
        (p) => `pulumi-resource-discord-commands-v${version.version}-${p}.tar.gz`,
      ),
      `pulumi_discord_commands-${version.version}-py3-none-any.whl`,
      `pulumi_discord_commands-${version.version}.tar.gz`,
      `pulumi-discord-commands-sdk-${version.version}.tgz`,
      `pulumi-discord-commands-${version.version}.tgz`,
      "go",
      "SHA256SUMS",
    ].sort(),
  );
  expect([...PLUGIN_PLATFORMS].sort()).toEqual(
    ["darwin", "linux", "windows"].flatMap((os) => [`${os}-amd64`, `${os}-arm64`]).sort(),
  );
  expect(artifacts.goVersion).toBe(`v${version.version}`);
  const schema = JSON.parse(
    fs.readFileSync(path.join(PROJECT_ROOT, "plugin", "schema.json"), "utf8"),
  ) as { version: string; pluginDownloadURL: string; language: { go: { importBasePath: string } } };
  expect(schema.version).toBe(version.version);
  expect(schema.pluginDownloadURL).toBe(PLUGIN_DOWNLOAD_URL);
  expect(schema.language.go.importBasePath).toBe(`${artifacts.goModule}/discordcommands`);
});

/** The text of every file in an archive (tar or zip), listed by a tool of the machine. */
async function archiveTexts(file: string): Promise<Map<string, string>> {
  const dir = fs.mkdtempSync(path.join(root, "unpacked-"));
  if (/\.(whl|zip)$/.test(file))
    await ok(PYTHON, ["-m", "zipfile", "-e", file, dir], root, process.env);
  else await ok("tar", ["-xzf", file, "-C", dir], root, process.env);
  const texts = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || entry.parentPath.includes("node_modules")) continue;
    const full = path.join(entry.parentPath, entry.name);
    texts.set(path.relative(dir, full), fs.readFileSync(full, "utf8"));
  }
  return texts;
}

test("every artifact names the release's plugin server as the download URL, and nothing else", async () => {
  const { wheel, node, sdk, npm, plugin } = {
    wheel: await archiveTexts(artifacts.pythonWheel),
    node: await archiveTexts(artifacts.nodeTarball),
    sdk: await archiveTexts(artifacts.pythonSdist),
    npm: await archiveTexts(artifacts.npmTarball),
    plugin: await archiveTexts(artifacts.pluginArchives["linux-amd64"] ?? ""),
  };
  const go = await archiveTexts(artifacts.goZip);
  const server = (json: string | undefined) =>
    (JSON.parse(json ?? "{}") as { server?: string }).server;
  const one = (texts: Map<string, string>, suffix: string) =>
    [...texts].find(([name]) => name.endsWith(suffix))?.[1];
  expect(server(one(wheel, "pulumi_discord_commands/pulumi-plugin.json"))).toBe(PLUGIN_SERVER);
  expect(server(one(sdk, "pulumi_discord_commands/pulumi-plugin.json"))).toBe(PLUGIN_SERVER);
  expect(server(one(go, "discordcommands/pulumi-plugin.json"))).toBe(PLUGIN_SERVER);
  const nodePackage = JSON.parse(one(node, "package/package.json") ?? "{}") as {
    pulumi?: { server?: string };
  };
  expect(nodePackage.pulumi?.server).toBe(PLUGIN_SERVER);
  for (const [texts, schemaFile] of [
    [plugin, "plugin/schema.json"],
    [npm, "package/plugin/schema.json"],
  ] as const) {
    const schema = JSON.parse(one(texts, schemaFile) ?? "{}") as { pluginDownloadURL?: string };
    expect(schema.pluginDownloadURL).toBe(PLUGIN_SERVER);
  }
  for (const texts of [wheel, node, sdk, npm, plugin, go]) {
    const stale = [...texts].filter(([, text]) => text.includes(PLUGIN_DOWNLOAD_URL));
    expect(stale.map(([name]) => name)).toEqual([]);
  }
});

test("the sdist builds the wheel's package (pip, setup's venv's build backend, no index)", async () => {
  const built = path.join(root, "sdist-wheel");
  const pip = path.join(PYTHON_VENV, "bin", "pip");
  const wheelArgs = ["wheel", "--no-deps", "--no-build-isolation", "--no-index", "--quiet"];
  await ok(pip, [...wheelArgs, "-w", built, artifacts.pythonSdist], root, process.env);
  expect(fs.readdirSync(built)).toEqual([path.basename(artifacts.pythonWheel)]);
  const files = async (wheel: string) =>
    [...(await archiveTexts(wheel))]
      .filter(([name]) => !name.includes(".dist-info"))
      .sort(([a], [b]) => (a < b ? -1 : 1));
  expect(await files(path.join(built, path.basename(artifacts.pythonWheel)))).toEqual(
    await files(artifacts.pythonWheel),
  );
});

test("the plugin archive: a launcher for each platform, no install step, no symbolic links", async () => {
  const archive = artifacts.pluginArchives["linux-amd64"] ?? "";
  for (const other of Object.values(artifacts.pluginArchives)) {
    expect(fs.readFileSync(other).equals(fs.readFileSync(archive))).toBe(true);
  }
  const listing = (await ok("tar", ["-tvzf", archive], root, process.env)).stdout.split("\n");
  const entry = (name: string) => listing.find((line) => line.endsWith(` ${name}`));
  // Linux and macOS: a Node.js script the engine executes; Windows: `.cmd` (the engine
  // looks for `<name>.exe`, then `<name>.cmd`), which runs the same entry on Node.js.
  expect(entry("pulumi-resource-discord-commands")).toMatch(/^-rwxr-xr-x /);
  const texts = await archiveTexts(archive);
  expect(texts.get("pulumi-resource-discord-commands")).toMatch(/^#!\/usr\/bin\/env node\n/);
  expect(texts.get("pulumi-resource-discord-commands.cmd")).toContain(
    'node "%~dp0plugin\\index.js" %*',
  );
  // No PulumiPlugin.yaml at the root (installing would run npm install) and no links
  // (engines before 3.259 refuse them).
  expect(entry("PulumiPlugin.yaml")).toBeUndefined();
  expect(listing.filter((line) => line.startsWith("l"))).toEqual([]);
  expect(JSON.parse(texts.get("package.json") ?? "{}")).toMatchObject({
    version: artifacts.version,
  });
});

test("the plugin archive installs into PULUMI_HOME; YAML deploys on it with no packages: path", async () => {
  const prog = await program("artifact-yaml", {
    "Pulumi.yaml": [
      "name: artifact-yaml",
      "runtime: yaml",
      "resources:",
      "  cmd:",
      "    type: discord-commands:GlobalCommand",
      "    properties:",
      "      name: from-yaml",
      "      description: From artifact-yaml",
      "outputs:",
      "  id: ${cmd.id}",
      "",
    ].join("\n"),
  });
  const version = artifacts.version;
  const installed = path.join(home, "plugins", `resource-discord-commands-v${version}`);
  expect(fs.existsSync(path.join(installed, "pulumi-resource-discord-commands"))).toBe(true);
  const ls = await prog.ok(["plugin", "ls"]);
  expect(ls.stdout).toMatch(new RegExp(`discord-commands\\s+resource\\s+${version}`));
  await deploysAndDestroys(prog, "from-yaml");
});

/** What `pulumi package add` ends with where the language host predates the CLI's Link. */
const OLD_HOST_LINK_FAILURE: Readonly<Record<string, RegExp>> = {
  // pulumi-yaml v1.25.0
  yaml: /error: linking package: method Link not implemented/,
  // The Python and Go hosts of 2025-08 (the pseudo-version the module proxy serves)
  python:
    /error: linking package: grpc: error unmarshalling request: proto: cannot parse invalid wire-format data/,
  go: /error: linking package: grpc: error unmarshalling request: proto: cannot parse invalid wire-format data/,
};

test("pulumi package add of the installed plugin generates each language's SDK; old hosts stop at Link", async () => {
  for (const language of ["yaml", "python", "go"] as const) {
    // A bare project folder: @pulumi/pulumi's plugin runner (3.259) compiles the plugin
    // with a tsconfig.json found there and its vendored TypeScript 3.8, which refuses
    // targets after ES2020 (TS6046).
    const scratch = fs.mkdtempSync(path.join(root, `package-add-${language}-`));
    const dir = path.join(scratch, "program");
    fs.mkdirSync(dir);
    const runtime =
      language === "python"
        ? `runtime:\n  name: python\n  options:\n    virtualenv: ${PYTHON_VENV}`
        : `runtime: ${language}`;
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: package-add-${language}\n${runtime}\n`);
    const env = engineEnv(scratch, { PULUMI_HOME: home });
    // By name and version: the CLI takes no archive ("unable to install <file>: stat
    // <file>/pulumi-resource-: not a directory"); the installed plugin answers.
    const res = await exec(
      "pulumi",
      ["package", "add", `discord-commands@${artifacts.version}`],
      dir,
      env,
    );
    const out = res.stdout + res.stderr;
    expect(out).toMatch(/Successfully generated an SDK for the discord-commands package/);
    if (res.code === 0) {
      expect(fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8")).toMatch(
        /packages:\s+discord-commands:/,
      );
    } else {
      expect(out).toMatch(OLD_HOST_LINK_FAILURE[language] ?? /^$/);
    }
  }
});
