/**
 * `npm run upgrade-pulumi -- <version> [--oldest <v>] [--newest <cli>,<nodejs>,<python>] [--no-test] [--check]`:
 * a Pulumi upgrade in one command (issue 37). It moves every pin of the version the whole
 * suite runs on, then regenerates and tests:
 * - `@pulumi/pulumi` in package.json's devDependencies and the lock file (npm install);
 * - the CLI's wrapper module, `toolchain/pulumi/go.mod` (pkg/v3 and sdk/v3, go mod tidy);
 * - `pulumi==` in `toolchain/python/requirements.txt`;
 * - the Python language host's exec script follows by itself (setup copies the one of the
 *   CLI's release from the sdk module); the Node.js, Python and Go hosts stay at the one
 *   pseudo-version the module proxy serves, which serves every CLI of the range;
 * - with `--oldest` / `--newest`, the ends of the tested range (provider/testedRange.ts,
 *   `toolchain/pulumi-<end>/go.mod`, package.json's peerDependencies);
 * then `npm run setup` (builds the CLIs), `npm run generate` (schema, reference, SDKs with
 * the new CLI) and, unless `--no-test`, `npm test`.
 *
 * Each version is checked against the registry that must serve it before anything moves:
 * the module proxy's zip of pkg/v3 (its `go list -m` also answers versions whose zip it
 * refuses), npm, the Python index; `--check` stops there. Nothing is committed: review
 * `git diff`.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { TESTED_RANGE } from "../provider/testedRange";
import { PYTHON_VENV } from "./pythonVenv";
import { PROJECT_ROOT, SetupError, toolchainDir } from "./setupCommon";

interface Versions {
  cli: string;
  nodejs: string;
  python: string;
}

const VERSION = /^\d+\.\d+\.\d+$/;

function sh(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  console.log(
    `$ ${cmd} ${args.join(" ")}${opts.cwd ? `   (in ${path.relative(PROJECT_ROOT, opts.cwd) || "."})` : ""}`,
  );
  const res = spawnSync(cmd, args, {
    cwd: opts.cwd ?? PROJECT_ROOT,
    env: { ...process.env, ...opts.env },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { ok: res.status === 0, out: `${res.stdout ?? ""}${res.stderr ?? ""}` };
}

function must(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  const res = sh(cmd, args, opts);
  if (!res.ok) throw new SetupError(`\`${cmd} ${args.join(" ")}\` failed:\n${res.out.trim()}`);
  return res.out;
}

/** Refuses a version some registry does not serve, naming which. */
function checkServed(v: Versions): void {
  const zip = sh("go", ["mod", "download", "-json", `github.com/pulumi/pulumi/pkg/v3@v${v.cli}`], {
    cwd: os.tmpdir(),
    env: { GOFLAGS: "-mod=mod" },
  });
  if (!zip.ok) {
    const reason = /"Error": "([^"]*)/.exec(zip.out)?.[1] ?? zip.out.trim();
    throw new SetupError(
      `the Go module proxy does not serve github.com/pulumi/pulumi/pkg/v3 v${v.cli} (the CLI): ${reason}`,
    );
  }
  const npm = sh("npm", ["view", `@pulumi/pulumi@${v.nodejs}`, "version"]);
  if (!npm.ok || npm.out.trim() !== v.nodejs) {
    throw new SetupError(`npm does not serve @pulumi/pulumi ${v.nodejs}`);
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-pip-"));
  const pip = sh(path.join(PYTHON_VENV, "bin", "python"), [
    ...["-m", "pip", "download", "--no-deps", "--quiet", "--disable-pip-version-check"],
    ...["-d", tmp, `pulumi==${v.python}`],
  ]);
  fs.rmSync(tmp, { recursive: true, force: true });
  if (!pip.ok)
    throw new SetupError(`the Python index does not serve pulumi ${v.python}:\n${pip.out}`);
}

/** Points a CLI wrapper module at `version` (pkg/v3 and sdk/v3 together) and tidies it. */
function moveGoModule(dir: string, version: string): void {
  const env = { GOFLAGS: "-mod=mod" };
  must("go", ["get", "-tool", `github.com/pulumi/pulumi/pkg/v3/cmd/pulumi@v${version}`], {
    cwd: dir,
    env,
  });
  must("go", ["get", `github.com/pulumi/pulumi/sdk/v3@v${version}`], { cwd: dir, env });
  must("go", ["mod", "tidy"], { cwd: dir, env });
}

function editFile(file: string, edit: (text: string) => string): void {
  const before = fs.readFileSync(file, "utf8");
  const after = edit(before);
  if (after !== before) fs.writeFileSync(file, after);
}

function writeRange(oldest: Versions, newest: Versions): void {
  const file = path.join(PROJECT_ROOT, "provider", "testedRange.ts");
  const line = (v: Versions) => `{ cli: "${v.cli}", nodejs: "${v.nodejs}", python: "${v.python}" }`;
  editFile(file, (text) =>
    text
      .replace(/oldest: \{[^}]*\}/, `oldest: ${line(oldest)}`)
      .replace(/newest: \{[^}]*\}/, `newest: ${line(newest)}`),
  );
  editFile(path.join(PROJECT_ROOT, "package.json"), (text) =>
    text.replace(
      /("@pulumi\/pulumi": )">=[^"]*"(\s*\n\s*\},\s*\n\s*"devDependencies")/,
      `$1">=${oldest.nodejs} <=${newest.nodejs}"$2`,
    ),
  );
}

function parseArgs(argv: string[]): {
  pinned: string;
  oldest: Versions;
  newest: Versions;
  test: boolean;
  check: boolean;
} {
  const [pinned, ...rest] = argv;
  if (!pinned || !VERSION.test(pinned)) {
    throw new SetupError(
      "usage: npm run upgrade-pulumi -- <version> [--oldest <v>] [--newest <cli>,<nodejs>,<python>] [--no-test] [--check]",
    );
  }
  let oldest: Versions = { ...TESTED_RANGE.oldest };
  let newest: Versions = { ...TESTED_RANGE.newest };
  for (let i = 0; i < rest.length; i++) {
    const flag = rest[i];
    const value = rest[i + 1] ?? "";
    if (flag === "--oldest") {
      if (!VERSION.test(value)) throw new SetupError(`--oldest needs a version, not "${value}"`);
      oldest = { cli: value, nodejs: value, python: value };
      i++;
    } else if (flag === "--newest") {
      const [cli = "", nodejs = cli, python = cli] = value.split(",");
      if (![cli, nodejs, python].every((v) => VERSION.test(v))) {
        throw new SetupError(`--newest needs <cli>[,<nodejs>[,<python>]], not "${value}"`);
      }
      newest = { cli, nodejs, python };
      i++;
    } else if (flag !== "--no-test" && flag !== "--check") {
      throw new SetupError(`unknown flag ${flag}`);
    }
  }
  return {
    pinned,
    oldest,
    newest,
    test: !rest.includes("--no-test"),
    check: rest.includes("--check"),
  };
}

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  const pinned: Versions = { cli: args.pinned, nodejs: args.pinned, python: args.pinned };
  console.log(`Checking that the registries serve Pulumi ${args.pinned} and the range's ends`);
  for (const v of [pinned, args.oldest, args.newest]) checkServed(v);
  if (args.check) {
    console.log("Every registry serves them (--check: nothing moved).");
    return;
  }

  console.log(`\nMoving the pinned version to ${args.pinned}`);
  must("npm", ["install", "--save-dev", "--save-exact", `@pulumi/pulumi@${args.pinned}`]);
  moveGoModule(toolchainDir("pulumi"), args.pinned);
  editFile(toolchainDir("python", "requirements.txt"), (text) =>
    text
      .replace(/^pulumi==\S+$/m, `pulumi==${args.pinned}`)
      .replace(/pip install pulumi==\S+`/, `pip install pulumi==${args.pinned}\``),
  );

  const ranges = { oldest: args.oldest, newest: args.newest } as const;
  for (const end of ["oldest", "newest"] as const) {
    if (ranges[end].cli !== TESTED_RANGE[end].cli)
      moveGoModule(toolchainDir(`pulumi-${end}`), ranges[end].cli);
  }
  writeRange(args.oldest, args.newest);

  console.log("\nBuilding the toolchain, regenerating the schema and SDKs");
  for (const script of ["setup", "generate", ...(args.test ? ["test"] : [])]) {
    const res = spawnSync("npm", ["run", script], { cwd: PROJECT_ROOT, stdio: "inherit" });
    if (res.status !== 0) throw new SetupError(`npm run ${script} failed (see above)`);
  }
  console.log(`\nPulumi ${args.pinned} in every pin; review \`git diff\` and commit.`);
}

try {
  main();
} catch (err) {
  console.error(`upgrade-pulumi: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
