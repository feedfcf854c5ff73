/**
 * The release artifacts of `npm run package` (scripts/package.ts), installed as a user
 * installs them, each into a clean folder outside this checkout (so no module of the
 * repository is found by walking up from the program or the plugin), and deployed
 * against the emulator through the real CLI:
 * - the plugin archive by `pulumi plugin install resource discord-commands <version>
 *   --file`, into this test's own PULUMI_HOME; every program below finds it there by
 *   name and version, with no `packages:` path;
 * - YAML on the installed plugin alone;
 * - Python on the wheel, pip-installed into a fresh virtual environment;
 * - Go on the module, fetched by `go get` from the artifacts' module-proxy folder;
 * - TypeScript (JavaScript) on the npm tarball, npm-installed.
 * One create and destroy per language, one emulator for all.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import type { Artifacts } from "../../scripts/package";
import { buildArtifacts, PLUGIN_PLATFORMS } from "../../scripts/package";
import { engineEnv, PulumiProgram, setAutomaticLogs } from "../../scripts/pulumiProgram";
import { PROJECT_ROOT, PYTHON_VENV, requireToolchain } from "../../scripts/toolchain";
import { configurePluginStack } from "../engine/lifecycle.helpers";

jest.setTimeout(600_000);

/** Everything of this test lives here: outside the checkout, removed at the end. */
let root: string;
let home: string;
let artifacts: Artifacts;
let emu: RunningEmulator;

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to its end; never throws on a non-zero exit. */
function exec(cmd: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv) {
  return new Promise<Run>((resolve) => {
    execFile(cmd, [...args], { cwd, env, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === "number" ? err.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

async function ok(cmd: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv) {
  const res = await exec(cmd, args, cwd, env);
  if (res.code !== 0) {
    throw new Error(`${cmd} ${args.join(" ")} exited ${res.code}\n${res.stdout}\n${res.stderr}`);
  }
  return res;
}

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

beforeAll(async () => {
  const tc = requireToolchain();
  // os.tmpdir(), not the repository's .work/: nothing above a program or the installed
  // plugin may hold this checkout's node_modules.
  root = fs.mkdtempSync(path.join(os.tmpdir(), "discord-artifacts-"));
  expect(path.relative(PROJECT_ROOT, root).startsWith("..")).toBe(true);
  home = path.join(root, "pulumi-home");
  fs.mkdirSync(home);
  setAutomaticLogs(home, false);
  artifacts = buildArtifacts(path.join(root, "dist-packages"));
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
      "go",
      "SHA256SUMS",
    ].sort(),
  );
  expect(artifacts.goVersion).toBe(`v${version.version}`);
  const schema = JSON.parse(
    fs.readFileSync(path.join(PROJECT_ROOT, "plugin", "schema.json"), "utf8"),
  ) as { version: string; pluginDownloadURL: string; language: { go: { importBasePath: string } } };
  expect(schema.version).toBe(version.version);
  expect(schema.pluginDownloadURL).toMatch(/^github:\/\/api\.github\.com\/[\w-]+\/[\w-]+$/);
  expect(schema.language.go.importBasePath).toBe(`${artifacts.goModule}/discordcommands`);
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

test("Python: the wheel, pip-installed into a fresh virtual environment", async () => {
  const base = (
    await ok(
      path.join(PYTHON_VENV, "bin", "python"),
      ["-c", "import sys; print(sys._base_executable)"],
      root,
      process.env,
    )
  ).stdout.trim();
  const venv = path.join(root, "python-venv");
  await ok(base, ["-m", "venv", venv], root, process.env);
  const python = path.join(venv, "bin", "python");
  // The SDK's dependencies (pulumi, parver, semver) from setup's venv, as if from the
  // index (which a test must not need): its site-packages is appended to the new venv's
  // path; the new venv's own site-packages comes first.
  const sitePackages = (cmd: string) =>
    ok(cmd, ["-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], root, process.env);
  const own = (await sitePackages(python)).stdout.trim();
  const deps = (await sitePackages(path.join(PYTHON_VENV, "bin", "python"))).stdout.trim();
  fs.writeFileSync(path.join(own, "zz-setup-venv-dependencies.pth"), `${deps}\n`);
  await ok(
    python,
    [
      "-m",
      "pip",
      "install",
      "--no-index",
      "--force-reinstall",
      "--no-deps",
      "--quiet",
      artifacts.pythonWheel,
    ],
    root,
    process.env,
  );
  const check = await ok(python, ["-m", "pip", "check"], root, process.env);
  expect(check.stdout).toMatch(/No broken requirements/);
  // The sdist builds the same package (with setup's venv's build backend, no index).
  const built = path.join(root, "sdist-wheel");
  const pip = path.join(PYTHON_VENV, "bin", "pip");
  const wheelArgs = ["wheel", "--no-deps", "--no-build-isolation", "--no-index", "--quiet"];
  await ok(pip, [...wheelArgs, "-w", built, artifacts.pythonSdist], root, process.env);
  expect(fs.readdirSync(built)).toEqual([path.basename(artifacts.pythonWheel)]);

  const prog = await program("artifact-python", {
    "Pulumi.yaml": [
      "name: artifact-python",
      "runtime:",
      "  name: python",
      "  options:",
      `    virtualenv: ${venv}`,
      "",
    ].join("\n"),
    "__main__.py": [
      "import pulumi",
      "import pulumi_discord_commands as discord",
      "",
      'cmd = discord.GlobalCommand("cmd", name="from-python", description="From artifact-python")',
      'pulumi.export("id", cmd.id)',
      'pulumi.export("sdk", discord.__file__)',
      "",
    ].join("\n"),
  });
  await deploysAndDestroys(prog, "from-python", (values) => {
    // The SDK the program imported is the wheel's, in the fresh venv.
    expect(String(values["sdk"])).toBe(path.join(own, "pulumi_discord_commands", "__init__.py"));
  });
});

test("Go: the module, fetched by `go get` from the artifacts' module-proxy folder", async () => {
  const example = (file: string) =>
    fs.readFileSync(path.join(PROJECT_ROOT, "examples", "go", file), "utf8");
  // The example's go.mod (its other modules at the CLI's versions) without the `replace`
  // into node_modules and the SDK's placeholder requirement: `go get` adds the module.
  const goMod = example("go.mod")
    .split("\n")
    .filter((line) => !line.includes(artifacts.goModule))
    .join("\n");
  // As from a module proxy (the artifacts' folder first, then the usual one for anything
  // else); the module is not in the checksum database, as an unreleased one is not.
  const goEnv = {
    GOPROXY: `file://${artifacts.goProxy},${process.env["GOPROXY"] ?? "https://proxy.golang.org,direct"}`,
    GONOSUMDB: artifacts.goModule,
  };
  const prog = await program(
    "artifact-go",
    {
      "Pulumi.yaml": "name: artifact-go\nruntime: go\n",
      "go.mod": goMod,
      "go.sum": example("go.sum"),
      "main.go": [
        "package main",
        "",
        "import (",
        '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
        "",
        `\tdiscord "${artifacts.goModule}/discordcommands"`,
        ")",
        "",
        "func main() {",
        "\tpulumi.Run(func(ctx *pulumi.Context) error {",
        '\t\tcmd, err := discord.NewGlobalCommand(ctx, "cmd", &discord.GlobalCommandArgs{',
        '\t\t\tName:        pulumi.String("from-go"),',
        '\t\t\tDescription: pulumi.String("From artifact-go"),',
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
    },
    goEnv,
  );
  const go = path.join(requireToolchain().goBinDir ?? "/usr/local/go/bin", "go");
  await ok(go, ["get", `${artifacts.goModule}@${artifacts.goVersion}`], prog.dir, prog.env);
  expect(fs.readFileSync(path.join(prog.dir, "go.mod"), "utf8")).toContain(
    `${artifacts.goModule} ${artifacts.goVersion}`,
  );
  await deploysAndDestroys(prog, "from-go");
});

test("TypeScript: the npm tarball, npm-installed beside @pulumi/pulumi", async () => {
  const prog = await program("artifact-nodejs", {
    // JavaScript as the package ships it: no TypeScript compiler in the program.
    "Pulumi.yaml": [
      "name: artifact-nodejs",
      "runtime:",
      "  name: nodejs",
      "  options:",
      "    typescript: false",
      "main: index.js",
      "",
    ].join("\n"),
    "package.json": JSON.stringify({ name: "artifact-nodejs", private: true }, null, 2),
    "index.js": [
      '"use strict";',
      'const discord = require("@pulumi-discord-commands/sdk");',
      'const cmd = new discord.GlobalCommand("cmd", { name: "from-nodejs", description: "From artifact-nodejs" });',
      "exports.id = cmd.id;",
      'exports.sdk = require.resolve("@pulumi-discord-commands/sdk");',
      "",
    ].join("\n"),
  });
  const pulumiVersion = requireToolchain().pulumiVersion;
  // From npm's cache when it holds them (the registry otherwise), as `npm install` does.
  await ok(
    "npm",
    [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      artifacts.nodeTarball,
      `@pulumi/pulumi@${pulumiVersion}`,
    ],
    prog.dir,
    prog.env,
  );
  await deploysAndDestroys(prog, "from-nodejs", (values) => {
    expect(String(values["sdk"])).toBe(
      path.join(prog.dir, "node_modules", "@pulumi-discord-commands", "sdk", "index.js"),
    );
  });
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
