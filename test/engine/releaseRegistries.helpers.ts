/**
 * Real registry servers on loopback for the release test, each installed by the project's
 * own files: Verdaccio (an npm registry; a devDependency) proxying the npm registry for
 * everything it does not hold, pypiserver (a Python package index; setup's
 * .work/venv-registries) without a fallback to the public index, and a plain HTTP server
 * of a folder (the Go module proxy's files and the plugin archives). Each server is a
 * process or a server of this test, stopped by `close()`.
 */
import type { ChildProcess } from "node:child_process";
import { spawn } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import * as net from "node:net";
import * as path from "node:path";
import * as zlib from "node:zlib";
import { PROJECT_ROOT } from "../../scripts/toolchain";

export interface RunningServer {
  readonly url: string;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Waits until `url` answers (any status), or fails with the server's output. */
async function waitFor(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited:\n${output()}`);
    try {
      await fetch(url, { redirect: "manual" });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`${url} did not answer within 60 s:\n${output()}`);
}

async function startProcess(
  cmd: string,
  args: readonly string[],
  cwd: string,
  url: string,
  readyPath: string,
): Promise<RunningServer> {
  const child = spawn(cmd, [...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  await waitFor(`${url}${readyPath}`, child, () => output);
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** Verdaccio in `dir`: our two packages are published to it, everything else it proxies. */
export async function startVerdaccio(dir: string, upstream: string): Promise<RunningServer> {
  const port = await freePort();
  const ours = ["pulumi-discord-commands", "'@pulumi-discord-commands/*'"];
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, "config.yaml"),
    [
      `storage: ${path.join(dir, "storage")}`,
      "auth:",
      "  htpasswd:",
      `    file: ${path.join(dir, "htpasswd")}`,
      "    max_users: 1",
      "uplinks:",
      "  upstream:",
      `    url: ${upstream}`,
      "packages:",
      ...ours.flatMap((p) => [`  ${p}:`, "    access: $all", "    publish: $authenticated"]),
      "  '**':",
      "    access: $all",
      "    proxy: upstream",
      "log: { type: stdout, format: pretty, level: warn }",
      "web: { enable: false }",
      "middlewares:",
      "  audit:",
      "    enabled: false",
      "",
    ].join("\n"),
  );
  const bin = path.join(PROJECT_ROOT, "node_modules", "verdaccio", "bin", "verdaccio");
  const args = [bin, "--config", path.join(dir, "config.yaml"), "--listen", `127.0.0.1:${port}`];
  return startProcess(process.execPath, args, dir, `http://127.0.0.1:${port}/`, "-/ping");
}

/** A publishing user's token, as `npm adduser` gets one. */
export async function verdaccioToken(registry: string): Promise<string> {
  const res = await fetch(`${registry}-/user/org.couchdb.user:release`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "release", password: crypto.randomBytes(12).toString("hex") }),
  });
  const body = (await res.json()) as { token?: string };
  if (!res.ok || !body.token)
    throw new Error(`verdaccio refused the user: ${JSON.stringify(body)}`);
  return body.token;
}

/**
 * pypiserver in `dir`, taking uploads from `__token__` with `token` (an htpasswd file in
 * the `{SHA}` form, which passlib reads), as PyPI takes a token. Its fallback (a redirect
 * to the public index for a project it does not hold) is off: an index of one's own
 * usually has none, and the README's pip line must work without it.
 */
export async function startPypiServer(
  pypiServer: string,
  dir: string,
  token: string,
): Promise<RunningServer> {
  const port = await freePort();
  const packages = path.join(dir, "packages");
  fs.mkdirSync(packages, { recursive: true });
  const sha = crypto.createHash("sha1").update(token).digest("base64");
  fs.writeFileSync(path.join(dir, "htpasswd"), `__token__:{SHA}${sha}\n`);
  const args = ["run", "-i", "127.0.0.1", "-p", String(port)];
  args.push("-P", path.join(dir, "htpasswd"), "-a", "update", "--disable-fallback", packages);
  return startProcess(pypiServer, args, dir, `http://127.0.0.1:${port}/`, "health");
}

/** A plain HTTP server of the files under `dir` (GET only, nothing outside it). */
export async function startFileServer(dir: string): Promise<RunningServer & { hits: string[] }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    const file = path.join(dir, path.normalize(rel));
    hits.push(rel);
    if (
      req.method !== "GET" ||
      !file.startsWith(dir) ||
      !fs.statSync(file, { throwIfNoEntry: false })?.isFile()
    ) {
      res.writeHead(404).end("not found\n");
      return;
    }
    res.writeHead(200, { "content-length": fs.statSync(file).size });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Where the release test builds and publishes: the servers above, and the site's checkout. */
export interface ReleaseDestinations {
  readonly npmRegistry: string;
  readonly pypiServer: string;
  readonly fileServer: string;
  readonly site: string;
  readonly version: string;
  /** The build's folder, which the publishing step takes. */
  readonly build: string;
}

/**
 * `npm run release`'s arguments in the release test, as the workflow's two jobs pass them
 * (test/package/releaseWorkflow.test.ts): the build, then the publishing of that build.
 */
export function releaseArguments(d: ReleaseDestinations): { build: string[]; publish: string[] } {
  const tag = ["--tag", `v${d.version}`];
  return {
    build: ["--build", "--out", d.build, ...tag, "--plugin-server", `${d.fileServer}/plugins`],
    publish: [
      ...["--from", d.build, ...tag, "--npm-registry", d.npmRegistry],
      ...["--python-index", `${d.pypiServer}simple/`, "--python-upload", d.pypiServer],
      ...["--go-proxy", path.join(d.site, "go"), "--plugin-dir", path.join(d.site, "plugins")],
      "--push",
    ],
  };
}

/** The flags of each step of `releaseArguments`. */
export const RELEASE_TEST_FLAGS = ((): { build: string[]; publish: string[] } => {
  const args = releaseArguments({
    npmRegistry: "",
    pypiServer: "",
    fileServer: "",
    site: "",
    version: "",
    build: "",
  });
  const flags = (step: string[]) => step.filter((arg) => arg.startsWith("--"));
  return { build: flags(args.build), publish: flags(args.publish) };
})();

/**
 * The archive with one byte of a file's content changed: it unpacks (gzip and tar are
 * whole), but its checksum is not the released one's, nor is that file.
 */
export function withChangedFile(archive: Buffer, name: string): Buffer {
  const tar = zlib.gunzipSync(archive);
  for (let at = 0; at + 512 <= tar.length;) {
    const entry = tar
      .subarray(at, at + 100)
      .toString("utf8")
      .replace(/\0.*$/s, "");
    const size =
      parseInt(
        tar
          .subarray(at + 124, at + 136)
          .toString("ascii")
          .trim(),
        8,
      ) || 0;
    if (entry === name) {
      tar[at + 512] = (tar[at + 512] ?? 0) ^ 0x01;
      return zlib.gzipSync(tar);
    }
    at += 512 + Math.ceil(size / 512) * 512;
  }
  throw new Error(`${name} is not in the archive`);
}
