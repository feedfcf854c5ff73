/**
 * A release that stops halfway is finished by running it again, against real registry
 * servers on loopback (Verdaccio, pypiserver without a fallback, a git remote of the site):
 * `npm run release -- --from <build>` publishes a small build of a pre-release, 1.0.0-rc.1
 * (PyPI's form: 1.0.0rc1), whose artifacts stand in for the real ones (the registries take
 * them as they take the real ones: test/engine/release.test.ts publishes those). The
 * package index refuses the first attempt (a wrong token): the plugin archives and the Go
 * module are written, nothing is pushed, and the error says which destinations are
 * complete. The same command with the right token publishes what is missing and skips what
 * holds this build; a third run has nothing to do; another build of the same version is
 * refused, naming which destinations are complete and which hold other files, and changes
 * nothing; a build folder changed after the build is refused before anything is asked.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { SDK_NAMES } from "../../provider/package/schema";
import { checksumLines, tarGz } from "../../scripts/archives";
import type { Artifacts } from "../../scripts/package";
import { escapeModulePath } from "../../scripts/packageGo";
import { pluginArchiveName, PLUGIN_PLATFORMS } from "../../scripts/packagePlugin";
import { requireRegistryTools } from "../../scripts/registryTools";
import { saveArtifacts } from "../../scripts/releaseArtifacts";
import { pluginChecksumsName } from "../../scripts/releaseSite";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import type { Run } from "../helpers/commandRuns";
import { exec, ok, projectScriptArgs, scratchRoot } from "../helpers/commandRuns";
import type { RunningServer } from "./releaseRegistries.helpers";
import { startPypiServer, startVerdaccio, verdaccioToken } from "./releaseRegistries.helpers";

jest.setTimeout(300_000);

const VERSION = "1.0.0-rc.1";
const PEP440 = "1.0.0rc1";
const WHEEL = `pulumi_discord_commands-${PEP440}-py3-none-any.whl`;
const SDIST = `pulumi_discord_commands-${PEP440}.tar.gz`;

let root: string;
let site: string;
let remote: string;
let npm: RunningServer;
let pypi: RunningServer;
let env: NodeJS.ProcessEnv;

/** An npm package's tarball as `npm pack` lays it out (the registry reads its package.json). */
function npmTarball(name: string, marker: string): Buffer {
  const manifest = { name, version: VERSION, description: `Stands in for ${name}`, license: "MIT" };
  return tarGz([
    { name: "package/package.json", content: Buffer.from(JSON.stringify(manifest)) },
    { name: "package/index.js", content: Buffer.from(`// ${marker}\n`) },
  ]);
}

/**
 * A build folder as `npm run release -- --build` leaves it: the artifacts, SHA256SUMS and
 * release.json. `marker` changes every file's bytes (another build of the same version).
 */
function fakeBuild(dir: string, marker: string): string {
  const goRoot = `${escapeModulePath(SDK_NAMES.goModule)}/@v`;
  const files: Record<string, Buffer> = {
    [`plugin/${pluginArchiveName(VERSION, "any")}`]: Buffer.from(`plugin ${marker}`),
    [WHEEL]: Buffer.from(`wheel ${marker}`),
    [SDIST]: Buffer.from(`sdist ${marker}`),
    "sdk.tgz": npmTarball(SDK_NAMES.nodejs, marker),
    "package.tgz": npmTarball("pulumi-discord-commands", marker),
    [`go/${goRoot}/v${VERSION}.zip`]: Buffer.from(`zip ${marker}`),
    [`go/${goRoot}/v${VERSION}.mod`]: Buffer.from(`module ${SDK_NAMES.goModule}\n`),
    [`go/${goRoot}/v${VERSION}.info`]: Buffer.from(`{"Version":"v${VERSION}"}\n`),
  };
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
  fs.writeFileSync(path.join(dir, "SHA256SUMS"), checksumLines(Object.entries(files)));
  const at = (rel: string) => path.join(dir, rel);
  const artifacts: Artifacts = {
    version: VERSION,
    dir,
    pluginServer: "http://127.0.0.1:9/plugins",
    pluginArchives: Object.fromEntries(
      PLUGIN_PLATFORMS.map((p) => [p, at(`plugin/${pluginArchiveName(VERSION, "any")}`)]),
    ),
    pythonWheel: at(WHEEL),
    pythonSdist: at(SDIST),
    pythonMetadata: {
      name: "pulumi_discord_commands",
      version: PEP440,
      summary: "Stands in for the SDK",
      license: "MIT",
      keywords: [],
      requiresPython: ">=3.10",
      requiresDist: [],
      readme: "A stand-in.",
    },
    nodeTarball: at("sdk.tgz"),
    npmTarball: at("package.tgz"),
    goProxy: at("go"),
    goModule: SDK_NAMES.goModule,
    goVersion: `v${VERSION}`,
    goFiles: ["zip", "mod", "info"].map((e) => {
      const rel = `${goRoot}/v${VERSION}.${e}`;
      return [rel, files[`go/${rel}`] ?? Buffer.alloc(0)] as const;
    }),
  };
  saveArtifacts(artifacts);
  return dir;
}

function release(build: string, pypiToken: string): Promise<Run> {
  const args = [
    ...["--from", build, "--npm-registry", npm.url, "--python-index", `${pypi.url}simple/`],
    ...["--python-upload", pypi.url, "--go-proxy", path.join(site, "go")],
    ...["--plugin-dir", path.join(site, "plugins"), "--push", "--tag", `v${VERSION}`],
  ];
  const runEnv = { ...env, PYPI_TOKEN: pypiToken };
  return exec(process.execPath, projectScriptArgs("release.ts", args), PROJECT_ROOT, runEnv);
}

/** Every file under `dir` with its digest. */
function snapshot(dir: string): Record<string, string> {
  const entries = fs.readdirSync(dir, { withFileTypes: true, recursive: true });
  return Object.fromEntries(
    entries
      .filter((e) => e.isFile() && !e.parentPath.includes(`${path.sep}.git`))
      .map((e) => {
        const file = path.join(e.parentPath, e.name);
        const digest = crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
        return [path.relative(dir, file), digest];
      }),
  );
}

async function remoteLog(): Promise<string> {
  const res = await exec(
    "git",
    ["log", "--format=%s", "--name-only", "release-site"],
    remote,
    process.env,
  );
  return res.code === 0 ? res.stdout : "";
}

let pypiToken: string;

beforeAll(async () => {
  const tools = requireRegistryTools();
  root = scratchRoot("discord-release-resume-");
  site = path.join(root, "site");
  remote = path.join(root, "site.git");
  await ok("git", ["init", "-q", "--bare", "-b", "release-site", remote], root, process.env);
  await ok("git", ["clone", "-q", remote, site], root, process.env);
  const upstream = (
    await ok("npm", ["config", "get", "registry"], root, process.env)
  ).stdout.trim();
  pypiToken = crypto.randomBytes(16).toString("hex");
  [npm, pypi] = await Promise.all([
    startVerdaccio(path.join(root, "verdaccio"), upstream),
    startPypiServer(tools.pypiServer, path.join(root, "pypiserver"), pypiToken),
  ]);
  const npmEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  env = { ...npmEnv, NPM_TOKEN: await verdaccioToken(npm.url) };
});

afterAll(async () => {
  await Promise.all([npm?.close(), pypi?.close()]);
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

test("stopped at the package index, the same command again finishes the release; again, it has nothing to do", async () => {
  const build = fakeBuild(path.join(root, "build"), "first");
  const plugins = path.join(site, "plugins");
  const goDir = path.join(site, "go", escapeModulePath(SDK_NAMES.goModule), "@v");

  const stopped = await release(build, "not-the-token");
  expect(stopped.code).toBe(1);
  const lines = stopped.stderr.trim().split("\n");
  expect(lines[0]).toMatch(
    new RegExp(
      // pypiserver refuses (401, 403), or closes the connection before it has read the upload.
      `^release failed: release of ${VERSION} stopped: uploading ${WHEEL} to ${pypi.url}: (40[13] |Error: (write EPIPE|read ECONNRESET|other side closed))`,
    ),
  );
  expect(lines.slice(1, -1).map((l) => l.trim())).toEqual([
    `complete: the plugin archives to ${plugins} (served as http://127.0.0.1:9/plugins)`,
    `complete: the Go module ${SDK_NAMES.goModule} to the module proxy folder ${path.join(site, "go")}`,
    `not complete: the wheel and sdist to the Python package index ${pypi.url}: missing ${WHEEL}, ${SDIST}`,
    `not complete: ${SDK_NAMES.nodejs} and pulumi-discord-commands to the npm registry ${npm.url}: missing ${SDK_NAMES.nodejs}@${VERSION}, pulumi-discord-commands@${VERSION}`,
    `not complete: the commit of ${plugins} and ${path.join(site, "go")}, pushed from their checkout: missing the commit "Release v${VERSION}", its push`,
  ]);
  expect(lines.at(-1)).toBe(
    `Run the same command again to publish what is missing (--from ${build}: the same build).`,
  );
  // The plugin is not public yet: the push comes last.
  expect(await remoteLog()).toBe("");
  expect(fs.readdirSync(plugins)).toContain(pluginChecksumsName(VERSION));

  const finished = await release(build, pypiToken);
  expect(finished).toMatchObject({ code: 0, stderr: "" });
  expect(finished.stdout).toContain(`release: skipped the plugin archives to ${plugins}`);
  expect(finished.stdout).toContain(`release: skipped the Go module ${SDK_NAMES.goModule}`);
  for (const line of [
    `uploaded ${WHEEL}`,
    `uploaded ${SDIST}`,
    "published sdk.tgz",
    "published package.tgz",
    "committed and pushed",
  ]) {
    expect(finished.stdout).toContain(`release: ${line}`);
  }
  const pushed = await remoteLog();
  expect(pushed).toContain(`Release v${VERSION}\n`);
  expect(pushed).toContain(`plugins/${pluginChecksumsName(VERSION)}`);
  expect(fs.readFileSync(path.join(goDir, "list"), "utf8")).toBe(`v${VERSION}\n`);
  // PyPI's version form in the index, npm's in the registry.
  const simple = await (await fetch(`${pypi.url}simple/pulumi-discord-commands/`)).text();
  expect(simple).toContain(WHEEL);
  expect(simple).toContain(SDIST);
  for (const name of ["pulumi-discord-commands", SDK_NAMES.nodejs.replace("/", "%2f")]) {
    const doc = (await (await fetch(`${npm.url}${name}`)).json()) as { versions: object };
    expect(Object.keys(doc.versions)).toEqual([VERSION]);
  }

  const before = snapshot(root);
  const again = await release(build, pypiToken);
  expect(again).toMatchObject({ code: 0, stderr: "" });
  expect(again.stdout.trim()).toBe(
    `release: ${VERSION}: every destination holds this build already; nothing to publish`,
  );
  expect(snapshot(root)).toEqual(before);
  expect(await remoteLog()).toBe(pushed);
});

test("another build of the same version is refused, naming what is complete and what holds other files; nothing changes", async () => {
  const other = fakeBuild(path.join(root, "other"), "second");
  const before = snapshot(root);
  const pushed = await remoteLog();
  const refused = await release(other, pypiToken);
  expect(refused.code).toBe(1);
  const lines = refused.stderr
    .trim()
    .split("\n")
    .map((l) => l.trim());
  expect(lines[0]).toBe(
    `release failed: release of ${VERSION} refused, nothing was published: a destination holds other files as ${VERSION} than this build`,
  );
  const plugins = PLUGIN_PLATFORMS.map((p) => pluginArchiveName(VERSION, p));
  expect(lines.slice(1)).toEqual([
    `other files: the plugin archives to ${path.join(site, "plugins")} (served as http://127.0.0.1:9/plugins): ${[...plugins, pluginChecksumsName(VERSION)].join(", ")} (not this build's)`,
    expect.stringMatching(/^other files: the Go module .*: .*\.zip \(not this build's\)$/),
    `other files: the wheel and sdist to the Python package index ${pypi.url}: ${WHEEL}, ${SDIST} (not this build's)`,
    `other files: ${SDK_NAMES.nodejs} and pulumi-discord-commands to the npm registry ${npm.url}: ${SDK_NAMES.nodejs}@${VERSION}, pulumi-discord-commands@${VERSION} (not this build's)`,
    `complete: the commit of ${path.join(site, "plugins")} and ${path.join(site, "go")}, pushed from their checkout`,
  ]);
  expect(snapshot(root)).toEqual(before);
  expect(await remoteLog()).toBe(pushed);

  // A file of a build changed after it was built: refused before any destination is asked.
  fs.appendFileSync(path.join(other, WHEEL), "x");
  const changed = await release(other, pypiToken);
  expect(changed.stderr.trim()).toBe(
    `release failed: --from: ${WHEEL} is not the file the build made (its digest differs)`,
  );
});

test("a build that differs at one destination only: the refusal names it, and the others as complete", async () => {
  // The first build again, but its npm tarball of the package replaced: only npm differs.
  const mixed = fakeBuild(path.join(root, "mixed"), "first");
  fs.writeFileSync(path.join(mixed, "package.tgz"), npmTarball("pulumi-discord-commands", "third"));
  const sums = fs
    .readFileSync(path.join(mixed, "SHA256SUMS"), "utf8")
    .split("\n")
    .filter((l) => l !== "" && !l.endsWith("  package.tgz"));
  const digest = crypto
    .createHash("sha256")
    .update(fs.readFileSync(path.join(mixed, "package.tgz")));
  sums.push(`${digest.digest("hex")}  package.tgz`);
  fs.writeFileSync(path.join(mixed, "SHA256SUMS"), `${sums.join("\n")}\n`);
  const refused = await release(mixed, pypiToken);
  expect(refused.code).toBe(1);
  const lines = refused.stderr
    .trim()
    .split("\n")
    .map((l) => l.trim());
  expect(lines.slice(1).map((l) => l.split(":")[0])).toEqual([
    "complete",
    "complete",
    "complete",
    "other files",
    "complete",
  ]);
  expect(lines[4]).toMatch(
    new RegExp(
      `: pulumi-discord-commands@${VERSION.replace(/\./g, "\\.")} \\(not this build's\\)$`,
    ),
  );
});
