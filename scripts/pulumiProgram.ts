/**
 * Runs Pulumi programs through the real CLI, offline: a local file backend and
 * `PULUMI_HOME` in a scratch folder, passphrase secrets, no update checks and no plugin
 * downloads. `PulumiProgram` is a program folder (`Pulumi.yaml` + `index.ts`, or another
 * language's), run by the CLI and its language host exactly as users run theirs.
 *
 * Scratch folders live under `<repo>/.work/` (git-ignored) so that a program's
 * `require("@pulumi/pulumi")` resolves to the repository's `node_modules`.
 */
import type * as TypeScript from "typescript";
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import {
  GO_BUILD_FLAGS,
  PROJECT_ROOT,
  PYTHON_VENV,
  requireBuiltPackage,
  requireToolchain,
  toolchainPath,
} from "./toolchain";

const WORK_ROOT = path.join(PROJECT_ROOT, ".work", "tests");
const PASSPHRASE = "test-passphrase-not-a-secret";

/** A fresh scratch folder under `.work/tests`, removed by `cleanup()`. */
export function scratchDir(prefix: string): string {
  fs.mkdirSync(WORK_ROOT, { recursive: true });
  return fs.mkdtempSync(path.join(WORK_ROOT, `${prefix}-`));
}

interface EngineOptions {
  /**
   * Keep the CLI's automatic log (`$PULUMI_HOME/logs`, on unconditionally in the CLI
   * this project builds, 3.259; pulumi/pulumi#23731): every run writes the engine's verbose log, each property
   * marshaled over gRPC included, gzipped and encrypted. It costs the engine about 1 s of
   * CPU per `up` of a 1,100-command set (measured with `pulumi up --profiling`), so test
   * runs leave it off; the bench measures what users run and keeps it on.
   */
  readonly automaticLogs?: boolean;
  /**
   * Run a TypeScript program (`index.ts`, with the default Pulumi.yaml) as JavaScript
   * transpiled here once per `write`, with the Node.js runtime's `typescript: false`,
   * instead of through ts-node in every run: loading ts-node and the TypeScript compiler
   * cost each `pulumi preview` or `up` about 0.4 s of CPU (2.15 s against 1.77 s for a
   * preview of a 2-command program, measured). Default: DISCORD_TRANSPILED_PROGRAMS=1,
   * which jest.config.js sets for the tests; the bench leaves it off and measures what
   * users run. The examples and the templates give their own Pulumi.yaml and still run
   * through ts-node, as does the engine lifecycle test (the state's source positions).
   */
  readonly transpiled?: boolean;
}

/** The `tsconfig.json` every program gets, and the transpiler's options. */
const PROGRAM_COMPILER_OPTIONS = {
  strict: true,
  target: "ES2022",
  module: "commonjs",
  moduleResolution: "node",
} as const;

/** The JavaScript of a TypeScript program file, as ts-node's transpile-only mode makes it. */
function transpiled(source: string, fileName: string): string {
  // Loaded only when a program is transpiled: the bench and the CLI never need it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ts = require("typescript") as typeof TypeScript;
  const { options } = ts.convertCompilerOptionsFromJson(PROGRAM_COMPILER_OPTIONS, ".");
  return ts.transpileModule(source, { compilerOptions: options, fileName }).outputText;
}

/** The `PULUMI_HOME` of the engine runs whose scratch root is `root`. */
function pulumiHome(root: string): string {
  return path.join(root, "pulumi-home");
}

/**
 * Turns the CLI's automatic log of one `PULUMI_HOME` on or off. The CLI has no switch for
 * it (read in pkg/cmd/pulumi/pulumi.go, 3.259): it skips the log, silently, when it cannot
 * create `$PULUMI_HOME/logs`, so a file of that name is the switch.
 */
export function setAutomaticLogs(home: string, on: boolean): void {
  const logs = path.join(home, "logs");
  const isFile = fs.existsSync(logs) && fs.statSync(logs).isFile();
  if (on && isFile) fs.rmSync(logs);
  if (!on && !isFile) {
    fs.rmSync(logs, { recursive: true, force: true });
    fs.writeFileSync(logs, "automatic logs off for this PULUMI_HOME\n");
  }
}

/** A project file's last lines: the plugin as the program's package (this repository's). */
const PLUGIN_PACKAGE = [
  "packages:",
  `  discord-commands: ${path.join(PROJECT_ROOT, "plugin")}`,
  "",
];

/** The project file of a Python program on setup's venv that uses the plugin. */
export function pythonPluginProject(name: string): string {
  return [
    `name: ${name}`,
    "runtime:",
    "  name: python",
    "  options:",
    `    virtualenv: ${PYTHON_VENV}`,
    ...PLUGIN_PACKAGE,
  ].join("\n");
}

/** The project file of a TypeScript program on the generated Node.js SDK (the plugin). */
export function typescriptPluginProject(name: string): string {
  return [`name: ${name}`, "runtime: nodejs", "main: index.ts", ...PLUGIN_PACKAGE].join("\n");
}

/** Makes the Node.js SDK built by `buildNodeSdk` a program's `@pulumi-discord-commands/sdk`. */
export function linkNodeSdk(programDir: string, sdkBin: string): void {
  const scope = path.join(programDir, "node_modules", "@pulumi-discord-commands");
  fs.mkdirSync(scope, { recursive: true });
  fs.symlinkSync(sdkBin, path.join(scope, "sdk"), "dir");
}

/**
 * The generated Python SDK into a venv (setup's by default), as a user installs it; its
 * dependencies are in the venv already (toolchain/python/requirements.txt), so no index is
 * needed. pip builds a local folder in place (setuptools' `build/` inside it), so two test
 * workers installing at once would collide there ("File exists"): each installs from its
 * own copy of the source.
 */
export function installPythonSdk(venv: string = PYTHON_VENV): void {
  const copy = path.join(scratchDir("sdk-python"), "python");
  fs.cpSync(path.join(PROJECT_ROOT, "sdks", "python"), copy, {
    recursive: true,
    filter: (source) => !/[\\/](build|[^\\/]*\.egg-info|__pycache__)$/.test(source),
  });
  try {
    execFileSync(path.join(venv, "bin", "pip"), ["install", "--no-deps", "--quiet", copy], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (err) {
    const stderr = (err as { stderr?: unknown }).stderr;
    throw new Error(`pip install sdks/python failed:\n${String(stderr ?? err)}`, { cause: err });
  } finally {
    fs.rmSync(path.dirname(copy), { recursive: true, force: true });
  }
}

/**
 * The generated Node.js SDK built as its package.json says (`tsc` into bin/, its
 * package.json beside, which the SDK reads its version from), in a scratch folder.
 * Returns the bin folder; remove its parent when done.
 */
export function buildNodeSdk(): string {
  const bin = path.join(scratchDir("sdk-nodejs"), "bin");
  const sdk = path.join(PROJECT_ROOT, "sdks", "nodejs");
  try {
    execFileSync(
      path.join(PROJECT_ROOT, "node_modules", ".bin", "tsc"),
      ["-p", path.join(sdk, "tsconfig.json"), "--outDir", bin],
      { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    );
  } catch (err) {
    const out = err as { stdout?: unknown; stderr?: unknown };
    throw new Error(
      `tsc of sdks/nodejs failed:\n${String(out.stdout ?? "")}${String(out.stderr ?? err)}`,
      { cause: err },
    );
  }
  fs.copyFileSync(path.join(sdk, "package.json"), path.join(bin, "package.json"));
  return bin;
}

/** The environment of an offline engine run whose backend and home live in `root`. */
export function engineEnv(
  root: string,
  extra: Record<string, string> = {},
  options: EngineOptions = {},
): NodeJS.ProcessEnv {
  const tc = requireToolchain();
  requireBuiltPackage(); // the programs import the package, the engine starts the plugin
  const backend = path.join(root, "backend");
  const home = pulumiHome(root);
  fs.mkdirSync(backend, { recursive: true });
  fs.mkdirSync(home, { recursive: true });
  if (options.automaticLogs !== true) setAutomaticLogs(home, false);
  return {
    ...process.env,
    PATH: toolchainPath(tc),
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_HOME: home,
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "false",
    // Tests type-check with `tsc` once; the engine's ts-node need not do it per run.
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
    // A Go program built with the CLI's flags reuses the CLI's compiled packages.
    GOFLAGS: [process.env["GOFLAGS"], ...GO_BUILD_FLAGS].filter(Boolean).join(" "),
    NO_COLOR: "1",
    ...extra,
  };
}

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface ProgramFiles {
  /** File name -> content; `Pulumi.yaml`, `package.json` and `tsconfig.json` have defaults. */
  readonly [file: string]: string;
}

/**
 * A Pulumi project folder run through the CLI. `run()` echoes the engine's output to
 * the test log, so a CI log shows what `pulumi up` printed.
 */
export class PulumiProgram {
  readonly dir: string;
  readonly root: string;
  readonly env: NodeJS.ProcessEnv;
  /** Whether the program's TypeScript files are run as JavaScript transpiled by `write`. */
  private readonly transpiles: boolean;

  constructor(
    readonly name: string,
    files: ProgramFiles,
    options: { env?: Record<string, string>; root?: string } & EngineOptions = {},
  ) {
    this.root = options.root ?? scratchDir(name);
    this.dir = path.join(this.root, "program");
    this.env = engineEnv(this.root, options.env, options);
    fs.mkdirSync(this.dir, { recursive: true });
    this.transpiles =
      (options.transpiled ?? process.env["DISCORD_TRANSPILED_PROGRAMS"] === "1") &&
      files["Pulumi.yaml"] === undefined &&
      files["index.ts"] !== undefined;
    const project = this.transpiles
      ? `name: ${name}\nruntime:\n  name: nodejs\n  options:\n    typescript: false\nmain: index.js\n`
      : `name: ${name}\nruntime: nodejs\nmain: index.ts\n`;
    const defaults: ProgramFiles = {
      "Pulumi.yaml": project,
      // Its own package.json keeps the engine from taking the repository's `main`.
      "package.json": JSON.stringify({ name, private: true }, null, 2),
      "tsconfig.json": JSON.stringify({ compilerOptions: PROGRAM_COMPILER_OPTIONS }, null, 2),
    };
    this.write({ ...defaults, ...files });
  }

  /**
   * The files a program source `file` is run from: itself, and its transpiled JavaScript
   * when the program runs as such (`transpiled`). Both hold whatever the source holds.
   */
  sourceFiles(file: string): string[] {
    const source = path.join(this.dir, file);
    const transpiles = this.transpiles && file.endsWith(".ts") && !file.endsWith(".d.ts");
    return transpiles ? [source, source.replace(/\.ts$/, ".js")] : [source];
  }

  write(files: ProgramFiles): void {
    for (const [file, content] of Object.entries(files)) {
      const target = path.join(this.dir, file);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, content);
      if (this.transpiles && file.endsWith(".ts") && !file.endsWith(".d.ts")) {
        fs.writeFileSync(target.replace(/\.ts$/, ".js"), transpiled(content, file));
      }
    }
  }

  /** Runs `pulumi <args>` in the program folder; never throws on a non-zero exit. */
  run(
    args: readonly string[],
    options: { echo?: boolean; timeoutMs?: number } = {},
  ): Promise<CliResult> {
    const echo = options.echo ?? true;
    return new Promise((resolve, reject) => {
      const child = spawn("pulumi", [...args], {
        cwd: this.dir,
        env: this.env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      const header = `\n$ pulumi ${args.join(" ")}   [${this.name}]\n`;
      if (echo) process.stdout.write(header);
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        if (echo) process.stdout.write(chunk);
      });
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        if (echo) process.stderr.write(chunk);
      });
      const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 240_000);
      child.on("error", (err) => {
        clearTimeout(timer);
        reject(err);
      });
      child.on("close", (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
  }

  /** Like `run`, but a non-zero exit fails with the CLI's output in the message. */
  async ok(args: readonly string[]): Promise<CliResult> {
    const res = await this.run(args);
    if (res.code !== 0) {
      throw new Error(`pulumi ${args.join(" ")} exited ${res.code}\n${res.stdout}\n${res.stderr}`);
    }
    return res;
  }

  /**
   * Sets the stack's config in one `config set-all` (one CLI run, not one per key):
   * `plain` keys as plaintext, `secret` keys as secrets.
   */
  async setConfig(
    plain: Readonly<Record<string, string>>,
    secret: Readonly<Record<string, string>> = {},
  ): Promise<void> {
    await this.ok([
      "config",
      "set-all",
      ...Object.entries(plain).flatMap(([k, v]) => ["--plaintext", `${k}=${v}`]),
      ...Object.entries(secret).flatMap(([k, v]) => ["--secret", `${k}=${v}`]),
    ]);
  }

  /** Creates (or selects) a stack. */
  async stack(name: string): Promise<void> {
    const sel = await this.run(["stack", "select", name, "--create", "--non-interactive"]);
    if (sel.code !== 0) throw new Error(`stack select ${name} failed: ${sel.stderr}`);
  }

  async up(extra: readonly string[] = []): Promise<CliResult> {
    return this.ok(["up", "--yes", "--non-interactive", "--skip-preview", ...extra]);
  }

  async destroy(extra: readonly string[] = []): Promise<CliResult> {
    return this.ok(["destroy", "--yes", "--non-interactive", ...extra]);
  }

  /** `pulumi preview --json`'s change summary, e.g. `{ same: 1 }` or `{ update: 1 }`. */
  async previewSummary(extra: readonly string[] = []): Promise<Record<string, number>> {
    const res = await this.ok(["preview", "--json", "--non-interactive", ...extra]);
    const parsed: unknown = JSON.parse(res.stdout);
    if (typeof parsed === "object" && parsed !== null && "changeSummary" in parsed) {
      return parsed.changeSummary as Record<string, number>;
    }
    throw new Error(`preview --json printed no changeSummary: ${res.stdout}`);
  }

  async outputs(): Promise<Record<string, unknown>> {
    const res = await this.ok(["stack", "output", "--json", "--show-secrets"]);
    return JSON.parse(res.stdout) as Record<string, unknown>;
  }

  /** The `PULUMI_HOME` of this program's runs. */
  get home(): string {
    return pulumiHome(this.root);
  }

  /** The stack's state file, as the local backend keeps it. */
  stateFile(stack: string): string {
    return path.join(this.root, "backend", ".pulumi", "stacks", this.name, `${stack}.json`);
  }

  cleanup(): void {
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}
