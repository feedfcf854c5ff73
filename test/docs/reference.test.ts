/**
 * The examples of the package reference (docs/reference.md, from
 * provider/package/referenceExamples.ts) are programs that work with the generated SDKs:
 * - every resource of the schema has one in TypeScript, Python, Go and YAML, in the file;
 * - the TypeScript type-checks against the generated SDK (sdks/nodejs);
 * - the Python runs against the generated SDK (sdks/python) with Pulumi's mocks, so every
 *   class, argument and enum member it names exists;
 * - the Go is as gofmt writes it (it parses);
 * - the YAML declares resources of the package, with properties its schema has.
 * (Each language's whole flow, deploying against the emulator, is the engine tests'.)
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as ts from "typescript";
import { sdkImports } from "../../provider/package/reference";
import type { ResourceExample } from "../../provider/package/referenceExamples";
import { referenceExamples } from "../../provider/package/referenceExamples";
import { packageSchema, REFERENCE_FILE } from "../../scripts/generate-package";
import { findToolchain } from "../../scripts/toolchain";

const ROOT = path.join(__dirname, "..", "..");
const schema = packageSchema();
const examples = referenceExamples(sdkImports(schema));
const names = Object.keys(schema.resources).map((tok) => tok.slice(tok.lastIndexOf(":") + 1));
const each = (language: keyof ResourceExample): [string, string][] =>
  Object.entries(examples).map(([name, example]) => [name, example[language]]);

describe("the reference's examples", () => {
  test("cover every resource of the schema, and no other", () => {
    expect(Object.keys(examples).sort()).toEqual([...names].sort());
  });

  test.each(names)("docs/reference.md shows %s in TypeScript, Python, Go and YAML", (name) => {
    const reference = fs.readFileSync(REFERENCE_FILE, "utf8");
    const start = reference.indexOf(`\n### ${name}\n`);
    expect(start).toBeGreaterThan(0);
    const section = reference.slice(start, reference.indexOf("\n### ", start + 1));
    for (const fence of ["typescript", "python", "go", "yaml"]) {
      expect(section).toContain("```" + fence + "\n");
    }
  });

  test("type-check in TypeScript against the generated SDK", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reference-ts-"));
    try {
      const files = each("typescript").map(([name, text]) => {
        const file = path.join(dir, `${name}.ts`);
        fs.writeFileSync(file, text);
        return file;
      });
      const program = ts.createProgram(files, {
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.CommonJS,
        moduleResolution: ts.ModuleResolutionKind.Node10,
        esModuleInterop: true,
        types: ["node"],
        typeRoots: [path.join(ROOT, "node_modules", "@types")],
        baseUrl: ROOT,
        paths: { [sdkImports(schema).nodejs]: [path.join(ROOT, "sdks", "nodejs", "index.ts")] },
      });
      const problems = ts
        .getPreEmitDiagnostics(program)
        .filter((d) => d.file === undefined || files.includes(path.resolve(d.file.fileName)))
        .map(
          (d) =>
            `${d.file ? path.basename(d.file.fileName) : ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`,
        );
      expect(problems).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  test("run in Python against the generated SDK, with Pulumi's mocks", () => {
    const python = path.join(ROOT, ".work", "venv", "bin", "python");
    if (!fs.existsSync(python)) throw new Error(`${python} is missing: run \`npm run setup\``);
    const harness = [
      "import json, sys, traceback",
      "import pulumi",
      "class Mocks(pulumi.runtime.Mocks):",
      "    def new_resource(self, args): return [args.name + '_id', args.inputs]",
      "    def call(self, args): return {}",
      "pulumi.runtime.set_mocks(Mocks(), preview=False)",
      "failed = {}",
      "for name, code in json.load(sys.stdin).items():",
      "    try:",
      "        exec(compile(code, name, 'exec'), {'__name__': '__main__'})",
      "    except Exception:",
      "        failed[name] = traceback.format_exc(limit=1)",
      "print(json.dumps(failed))",
    ].join("\n");
    // The SDK reads its version from its installed metadata (importlib.metadata): beside
    // the source on PYTHONPATH, a dist-info naming it, so the test needs no install into
    // the venv (which a fresh venv lacks until a test installs the SDK).
    const meta = fs.mkdtempSync(path.join(os.tmpdir(), "reference-python-"));
    const version = packageSchema().version;
    const distInfo = path.join(meta, `pulumi_discord_commands-${version}.dist-info`);
    fs.mkdirSync(distInfo);
    fs.writeFileSync(
      path.join(distInfo, "METADATA"),
      `Metadata-Version: 2.1\nName: pulumi_discord_commands\nVersion: ${version}\n`,
    );
    const pythonPath = [path.join(ROOT, "sdks", "python"), meta].join(path.delimiter);
    const run = spawnSync(python, ["-c", harness], {
      input: JSON.stringify(Object.fromEntries(each("python"))),
      env: { ...process.env, PYTHONPATH: pythonPath },
      encoding: "utf8",
    });
    fs.rmSync(meta, { recursive: true, force: true });
    expect(run.stderr).not.toMatch(/Traceback/);
    const failed = JSON.parse(run.stdout.trim().split("\n").pop() ?? "{}") as Record<
      string,
      string
    >;
    expect(failed).toEqual({});
  }, 60_000);

  test.each(each("go"))("%s in Go is as gofmt writes it", (_name, text) => {
    const goBin = findToolchain()?.goBinDir;
    const gofmt = goBin ? path.join(goBin, "gofmt") : "gofmt";
    const run = spawnSync(gofmt, [], { input: text, encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(text);
  });

  test.each(each("yaml"))("%s in YAML names the package's resources and properties", (_n, text) => {
    const problems: string[] = [];
    let type: string | undefined;
    let inProperties = false;
    for (const line of text.split("\n")) {
      const t = /^ {4}type: discord-commands:(\w+)/.exec(line);
      if (t) {
        type = t[1];
        if (!names.includes(type ?? "")) problems.push(`no resource ${type}`);
        continue;
      }
      if (/^ {4}\w+:/.test(line)) inProperties = /^ {4}properties:/.test(line);
      else if (/^ {0,2}\S/.test(line)) inProperties = false;
      const p = /^ {6}(\w+):/.exec(line);
      if (inProperties && p && type !== undefined) {
        const inputs = schema.resources[`discord-commands:index:${type}`]?.inputProperties ?? {};
        if (!((p[1] ?? "") in inputs)) problems.push(`${type} has no input ${p[1]}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
