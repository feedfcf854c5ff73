/**
 * `npm run generate`: everything generated from the one field description (provider/schema):
 * - `plugin/schema.json`, the package schema the resource plugin serves;
 * - `docs/reference.md`, the package reference, from the schema's descriptions;
 * - the configuration table of `docs/installation-configuration.md` (the Pulumi Registry's
 *   installation page; the rest of the page is written by hand);
 * - `sdks/<language>` for nodejs, python and go, with the real CLI's
 *   `pulumi package gen-sdk` (which hands the work to each language's host,
 *   `pulumi-language-<language>`, found beside the CLI or on PATH).
 * Tests call the same functions and fail when a committed file is stale.
 * `--schema-only` skips the SDKs (no CLI needed).
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Worker } from "node:worker_threads";
import { buildPackageSchema, SDK_NAMES } from "../provider/package/schema";
import { withConfigurationTable } from "../provider/package/configurationTable";
import { renderReference } from "../provider/package/reference";
import type { PackageSchema } from "../provider/package/types";
import type { Toolchain } from "./toolchain";
import { cachedHostCurrent, HOSTS } from "./languageHosts";
import { PROJECT_ROOT, requireToolchain, SetupError, toolchainPath } from "./toolchain";

export const SCHEMA_FILE = path.join(PROJECT_ROOT, "plugin", "schema.json");
export const REFERENCE_FILE = path.join(PROJECT_ROOT, "docs", "reference.md");
export const INSTALLATION_FILE = path.join(PROJECT_ROOT, "docs", "installation-configuration.md");
export const SDKS_DIR = path.join(PROJECT_ROOT, "sdks");
export const SDK_LANGUAGES = ["nodejs", "python", "go"] as const;
type SdkLanguage = (typeof SDK_LANGUAGES)[number];

const GENERATED_BY =
  "Generated from provider/schema by `npm run generate` (scripts/generate-package.ts): do not edit.";

export function packageVersion(): string {
  const pkg: unknown = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8"));
  const version = (pkg as { version?: unknown }).version;
  if (typeof version !== "string") throw new Error("package.json has no version");
  return version;
}

export function packageSchema(): PackageSchema {
  return buildPackageSchema(packageVersion());
}

/**
 * Formatted as the project's prettier config formats it, so `format:check` passes.
 * Prettier 3 loads its code with a dynamic `import()`, which Jest's module sandbox
 * refuses; a worker thread runs it in plain Node, for the tests and the script alike.
 */
async function formatted(text: string, file: string): Promise<string> {
  const worker = new Worker(
    `const { parentPort, workerData: d } = require("node:worker_threads");
     const prettier = require(d.prettier);
     prettier
       .resolveConfig(d.file)
       .then((options) => prettier.format(d.text, { ...options, filepath: d.file }))
       .then((out) => parentPort.postMessage(out));`,
    { eval: true, workerData: { text, file, prettier: require.resolve("prettier") } },
  );
  try {
    return await new Promise<string>((resolve, reject) => {
      worker.once("message", (out: string) => resolve(out));
      worker.once("error", reject);
      worker.once("exit", (code) => reject(new Error(`prettier worker exited (${code})`)));
    });
  } finally {
    await worker.terminate();
  }
}

/** docs/installation-configuration.md with its configuration table from the schema. */
export async function renderInstallationFile(): Promise<string> {
  const page = fs.readFileSync(INSTALLATION_FILE, "utf8");
  return formatted(withConfigurationTable(page, packageSchema()), INSTALLATION_FILE);
}

/** The text of plugin/schema.json. */
export async function renderSchemaFile(): Promise<string> {
  return formatted(JSON.stringify(packageSchema()), SCHEMA_FILE);
}

/** The text of docs/reference.md. */
export async function renderReferenceFile(): Promise<string> {
  return formatted(renderReference(packageSchema(), GENERATED_BY), REFERENCE_FILE);
}

interface GenSdkResult {
  readonly language: SdkLanguage;
  readonly seconds: number;
  /** What the CLI printed besides its closing line (diagnostics, warnings). */
  readonly messages: string;
}

/**
 * Runs `pulumi package gen-sdk <schema> --language <language> --out <outRoot>`: writes
 * `<outRoot>/<language>` (the CLI empties it first).
 */
export async function genSdk(
  tc: Toolchain,
  schemaFile: string,
  language: SdkLanguage,
  outRoot: string,
): Promise<GenSdkResult> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "gen-sdk-home-"));
  const started = Date.now();
  try {
    const { code, output } = await new Promise<{ code: number | null; output: string }>(
      (resolve, reject) => {
        const child = spawn(
          path.join(tc.pulumiBinDir, "pulumi"),
          ["package", "gen-sdk", schemaFile, "--language", language, "--out", outRoot],
          {
            cwd: PROJECT_ROOT,
            env: {
              ...process.env,
              PATH: toolchainPath(tc),
              PULUMI_HOME: home,
              PULUMI_SKIP_UPDATE_CHECK: "true",
              PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
            },
            stdio: ["ignore", "pipe", "pipe"],
          },
        );
        let output = "";
        child.stdout.on("data", (d: Buffer) => (output += d.toString()));
        child.stderr.on("data", (d: Buffer) => (output += d.toString()));
        child.on("error", reject);
        child.on("close", (c) => resolve({ code: c, output }));
      },
    );
    if (code !== 0) {
      throw new Error(
        `pulumi package gen-sdk --language ${language} failed (${code}); it runs the language host ` +
          `pulumi-language-${language}, which \`npm run setup\` puts beside the CLI:\n${output}`,
      );
    }
    const messages = output
      .split("\n")
      .filter((l) => l.trim() !== "" && !/^SDK has been written to /.test(l))
      .join("\n");
    return { language, seconds: (Date.now() - started) / 1000, messages };
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

/**
 * What installing or building an SDK from its folder leaves there (`pip install
 * sdks/python` builds in the folder; `tsc` writes `bin/`): not the generator's, git-ignored.
 */
const BUILD_OUTPUTS = /(^|\/)(build|bin|node_modules|__pycache__|[^/]+\.egg-info)$/;

/** Every file under `dir`, relative, sorted (`/` separators), build outputs left out. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!BUILD_OUTPUTS.test(child)) walk(child);
      } else out.push(child);
    }
  };
  if (fs.existsSync(dir)) walk("");
  return out.sort();
}

function exists(file: string): boolean {
  return fs.existsSync(file);
}

/**
 * The relative imports of a generated SDK that point at nothing. The language hosts built
 * with Go 1.26 generate them (pkg/codegen v3.200 computes a sub-folder's way up with
 * `path.Dir(filepath.Rel(dir, ""))`, which Go 1.26's cleaner `Rel` turns into "."): Node's
 * `config/vars.ts` imports "./types/input", Python's `config/vars.py` does
 * `from . import _utilities`.
 */
export function brokenImports(language: SdkLanguage, dir: string): string[] {
  const broken: string[] = [];
  for (const file of listFiles(dir)) {
    const text = fs.readFileSync(path.join(dir, file), "utf8");
    const here = path.dirname(path.join(dir, file));
    if (language === "nodejs" && file.endsWith(".ts")) {
      for (const m of text.matchAll(/(?:from|require\()\s*["'](\.{1,2}\/[^"']*)["']/g)) {
        const target = path.resolve(here, m[1] ?? "");
        const found = [target, `${target}.ts`, path.join(target, "index.ts")].some(
          (f) => exists(f) && fs.statSync(f).isFile(),
        );
        if (!found) broken.push(`${file}: ${m[1]}`);
      }
    } else if (language === "python" && /\.pyi?$/.test(file)) {
      for (const m of text.matchAll(/^\s*from\s+(\.+)([\w.]*)\s+import\s+([\w, ]+)/gm)) {
        const base = path.resolve(here, ...Array<string>((m[1] ?? ".").length - 1).fill(".."));
        const modules = m[2] ? [m[2]] : (m[3] ?? "").split(",").map((n) => n.trim().split(" ")[0]);
        for (const mod of modules) {
          const target = path.join(base, ...(mod ?? "").split("."));
          if (!exists(`${target}.py`) && !exists(path.join(target, "__init__.py"))) {
            broken.push(`${file}: from ${m[1]}${m[2]} import ${mod}`);
          }
        }
      }
    } else if (language === "go" && file.endsWith(".go")) {
      for (const m of text.matchAll(new RegExp(`"${SDK_NAMES.goModule}/([^"]+)"`, "g"))) {
        if (!exists(path.join(dir, m[1] ?? ""))) broken.push(`${file}: ${m[0]}`);
      }
    }
  }
  return broken;
}

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  console.log(`generate: ${path.relative(PROJECT_ROOT, file)}`);
}

async function main(): Promise<void> {
  const schemaOnly = process.argv.includes("--schema-only");
  write(SCHEMA_FILE, await renderSchemaFile());
  write(REFERENCE_FILE, await renderReferenceFile());
  write(INSTALLATION_FILE, await renderInstallationFile());
  if (schemaOnly) return;
  const tc = requireToolchain();
  if (tc.source === "cache" && !cachedHostCurrent(tc.pulumiBinDir, HOSTS.nodejs, "generate")) {
    throw new SetupError(
      "the cached Node.js language host was built by `npm start`'s setup with this machine's Go, " +
        "whose SDK generator differs from Pulumi's releases: run `npm run setup` (it builds the hosts with Go 1.25), then generate again.",
    );
  }
  // Generated beside, then swapped in: a failed run leaves the committed SDKs as they were.
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "gen-sdk-out-"));
  try {
    for (const language of SDK_LANGUAGES) {
      const result = await genSdk(tc, SCHEMA_FILE, language, scratch);
      if (result.messages !== "") console.log(result.messages);
      const broken = brokenImports(language, path.join(scratch, language));
      if (broken.length > 0) {
        throw new Error(
          `the ${language} SDK that pulumi-language-${language} generated imports what does not exist ` +
            `(a language host built with Go 1.26 does that; build the hosts with GOTOOLCHAIN=go1.25.0):\n  ` +
            broken.join("\n  "),
        );
      }
      const target = path.join(SDKS_DIR, language);
      fs.rmSync(target, { recursive: true, force: true });
      fs.mkdirSync(SDKS_DIR, { recursive: true });
      fs.cpSync(path.join(scratch, language), target, { recursive: true });
      console.log(
        `generate: sdks/${language} (${listFiles(target).length} files, gen-sdk ${result.seconds.toFixed(1)}s)`,
      );
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(`generate failed: ${err instanceof SetupError ? err.message : String(err)}`);
    process.exit(1);
  });
}
