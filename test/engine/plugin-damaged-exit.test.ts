/**
 * A plugin that cannot work (plugin/installCheck.js: a damaged installation, whose every
 * call is answered with the problem) exits once the engine is done with it. Through the
 * real CLI: a mis-versioned, an incomplete and a tampered installation each fail the
 * preview with their one line, and no process of theirs is left afterwards (the engine
 * drops a provider that failed to load without stopping it: before, each such process
 * outlived the CLI, reparented to init). Then each way the engine can be done, with the
 * plugin started as the engine starts it: its Cancel answered, its connection closed, its
 * parent process gone, no call after an answer.
 */
import type { ChildProcess } from "node:child_process";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import type { RunningEmulator } from "../../emulator";
import { PulumiProgram } from "../../scripts/pulumiProgram";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import { scratchRoot } from "../helpers/commandRuns";
import { emulator } from "./edgeHelpers";
import { configurePluginStack } from "./lifecycle.helpers";

jest.setTimeout(300_000);

const LAUNCHER = "pulumi-resource-discord-commands";
/** The Node.js the engine's plugins run on (npm installs Node 22 as a devDependency). */
const NODE_22 = path.join(PROJECT_ROOT, "node_modules", ".bin", "node");

let root: string;
let emu: RunningEmulator;

beforeAll(async () => {
  root = scratchRoot("discord-damaged-");
  emu = await emulator();
});
afterAll(async () => {
  await emu.close();
  fs.rmSync(root, { recursive: true, force: true });
});

type Damage = "mis-versioned" | "incomplete" | "tampered";

/**
 * An installed plugin folder `resource-discord-commands-v<installedAs>` as an archive
 * lays it out (package.json, the launcher, plugin/), damaged as `damage` says: the package
 * of another version; a module it depends on missing; a file not the one released.
 */
function damagedPlugin(pluginsDir: string, installedAs: string, damage: Damage): string {
  const dir = path.join(pluginsDir, `resource-discord-commands-v${installedAs}`);
  fs.mkdirSync(path.join(dir, "plugin"), { recursive: true });
  const version = damage === "mis-versioned" ? "0.0.1" : installedAs;
  const pkg = { name: LAUNCHER, version, main: "index.js", dependencies: { undici: "*" } };
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg));
  fs.writeFileSync(path.join(dir, "index.js"), 'require("./plugin/index.js");\n');
  fs.copyFileSync(path.join(PROJECT_ROOT, "plugin", LAUNCHER), path.join(dir, LAUNCHER));
  fs.chmodSync(path.join(dir, LAUNCHER), 0o755);
  for (const file of ["index.js", "installCheck.js"]) {
    fs.copyFileSync(path.join(PROJECT_ROOT, "plugin", file), path.join(dir, "plugin", file));
  }
  if (damage === "tampered") {
    const manifest = `${"0".repeat(64)}  plugin/installCheck.js\n`;
    fs.writeFileSync(path.join(dir, "plugin", "files.sha256"), manifest);
  } else if (damage === "incomplete") {
    // Everything it checks is there but the module: nothing above the folder has it.
    expect(fs.existsSync(path.join(dir, "node_modules"))).toBe(false);
  }
  return dir;
}

/** The Node.js processes whose command line names something under `dir` (Linux's /proc). */
function processesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const pid of fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const argv = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      const cmdline = argv.join(" ");
      if (path.basename(argv[0] ?? "") === "node" && cmdline.includes(dir)) {
        found.push(`${pid}: ${cmdline}`);
      }
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** Waits up to `ms` for `check` to hold; its last value. */
async function eventually<T>(check: () => T, holds: (v: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  let value = check();
  while (!holds(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    value = check();
  }
  return value;
}

const EXPECTED: Record<Damage, RegExp> = {
  "mis-versioned":
    /discord-commands: the plugin installed as version 9\.8\.7 is version 0\.0\.1 \(its archive was published under the wrong version\)/,
  incomplete: /discord-commands: the plugin in .+ is incomplete \(Cannot find module 'undici'/,
  tampered:
    /discord-commands: the plugin in .+ is damaged \(plugin\/installCheck\.js is not the file it was released with/,
};

test("through the engine: each damaged installation fails the preview with its line, and leaves no process", async () => {
  const cases: [Damage, string][] = [
    ["mis-versioned", "9.8.7"],
    ["incomplete", "9.8.8"],
    ["tampered", "9.8.9"],
  ];
  for (const [damage, version] of cases) {
    const prog = new PulumiProgram(
      `damaged-${damage}`,
      {
        "Pulumi.yaml": [
          `name: damaged-${damage}`,
          "runtime: yaml",
          "resources:",
          "  cmd:",
          "    type: discord-commands:GlobalCommand",
          "    properties:",
          "      name: never-made",
          "      description: Never deployed",
          "    options:",
          `      version: ${version}`,
          "",
        ].join("\n"),
      },
      { root: fs.mkdtempSync(path.join(root, `${damage}-`)) },
    );
    const plugin = damagedPlugin(path.join(prog.home, "plugins"), version, damage);
    await prog.stack("dev");
    await configurePluginStack(prog, emu);
    const res = await prog.run(["preview", "--non-interactive"]);
    expect(res.code).not.toBe(0);
    const out = `${res.stdout}\n${res.stderr}`;
    expect(out).toMatch(EXPECTED[damage]);
    expect(out).not.toMatch(/prematurely|always\* a bug/);
    // The CLI has exited: within a few seconds nothing of the plugin runs.
    expect(
      await eventually(
        () => processesUnder(plugin),
        (p) => p.length === 0,
        5_000,
      ),
    ).toEqual([]);
  }
});

/** A damaged plugin started as the engine starts it: its process and its port. */
async function startDamaged(
  damage: Damage,
  via?: "shell",
): Promise<{ child: ChildProcess; port: number; plugin: string }> {
  const plugins = fs.mkdtempSync(path.join(root, "direct-"));
  const plugin = damagedPlugin(plugins, damage === "mis-versioned" ? "9.8.7" : "9.9.9", damage);
  const launcher = path.join(plugin, LAUNCHER);
  const env = { ...process.env, PATH: `${path.dirname(NODE_22)}:${process.env["PATH"] ?? ""}` };
  // `shell`: through a parent that can go away while the plugin runs (as the CLI can).
  const [cmd, args] =
    via === "shell" ? ["sh", ["-c", `"${launcher}" & wait`]] : [launcher, [] as string[]];
  const child = spawn(cmd, args, { cwd: plugin, env, stdio: ["pipe", "pipe", "pipe"] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
      if (out.includes("\n")) resolve(Number(out.trim()));
    });
    child.on("exit", (code) => reject(new Error(`the plugin exited (${code}) before its port`)));
  });
  return { child, port, plugin };
}

/** One unary call of the provider protocol, with an empty request; its status code. */
function call(client: grpc.Client, method: string): Promise<number> {
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      `/pulumirpc.ResourceProvider/${method}`,
      () => Buffer.alloc(0),
      (b: Buffer) => b,
      {},
      (err) => resolve(err ? (err.code ?? -1) : 0),
    );
  });
}

test("started as the engine starts it: it exits after Cancel, when the connection closes, when its parent goes away, after an answer", async () => {
  const gone = (plugin: string) =>
    eventually(
      () => processesUnder(plugin),
      (p) => p.length === 0,
      5_000,
    );

  // Cancel (what the engine sends before closing a plugin) is answered, then it exits.
  let p = await startDamaged("tampered");
  let client = new grpc.Client(`127.0.0.1:${p.port}`, grpc.credentials.createInsecure());
  expect(await call(client, "GetPluginInfo")).toBe(grpc.status.FAILED_PRECONDITION);
  expect(await call(client, "Cancel")).toBe(grpc.status.OK);
  expect(await gone(p.plugin)).toEqual([]);
  client.close();

  // The engine's connection closes after an answer.
  p = await startDamaged("incomplete");
  client = new grpc.Client(`127.0.0.1:${p.port}`, grpc.credentials.createInsecure());
  expect(await call(client, "CheckConfig")).toBe(grpc.status.FAILED_PRECONDITION);
  client.close();
  expect(await gone(p.plugin)).toEqual([]);

  // Its parent (the CLI) goes away without a word: it is reparented, and exits.
  p = await startDamaged("mis-versioned", "shell");
  expect(processesUnder(p.plugin)).toHaveLength(1);
  p.child.kill("SIGKILL");
  expect(await gone(p.plugin)).toEqual([]);
});

test("no call after an answer: it exits after its idle time, and a call in time keeps it", () => {
  // serveRefusal with a short idle time, in a process of its own; calls from a client that
  // keeps its connection open, so only the idle time can end it.
  const script = `
    const { serveRefusal } = require(${JSON.stringify(path.join(PROJECT_ROOT, "plugin", "installCheck.js"))});
    serveRefusal("broken", { idleMs: 1500 });
  `;
  return new Promise<void>((resolve, reject) => {
    const child = spawn(NODE_22, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      if (!out.includes("\n")) return;
      const client = new grpc.Client(`127.0.0.1:${out.trim()}`, grpc.credentials.createInsecure());
      const started = Date.now();
      void (async () => {
        expect(await call(client, "GetPluginInfo")).toBe(grpc.status.FAILED_PRECONDITION);
        await new Promise((r) => setTimeout(r, 1000));
        expect(await call(client, "Configure")).toBe(grpc.status.FAILED_PRECONDITION);
        const exited = await new Promise<number>((r) => child.on("exit", () => r(Date.now())));
        // Not before 1.5 s after the second answer, 2.5 s after the start in all.
        expect(exited - started).toBeGreaterThanOrEqual(2_400);
        client.close();
      })().then(resolve, reject);
    });
  });
}, 30_000);
