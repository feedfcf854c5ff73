/**
 * The README checked against the code it describes:
 * - the configuration table against the provider's settings (`SETTINGS` and the write
 *   mode in provider/, the credential keys the program refuses as plain text in sdk/);
 * - every CLI flag it gives to `discord-commands <subcommand>`, `discord-commands-emulator`
 *   or `npm run emulator --` against that command's `--help`;
 * - every repository path it names (in inline code or a link) exists;
 * - every `npm run <script>` (and `npm test`/`npm start`) it names is a script of
 *   package.json.
 * emulator/README.md is checked for flags and scripts too.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { SETTINGS } from "../../provider/resources/settings";
import { WRITE_MODE_SETTING } from "../../provider/writeMode";
import { CREDENTIAL_KEYS } from "../../sdk/credentials";

const ROOT = path.join(__dirname, "..", "..");
const README = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
const EMULATOR_README = fs.readFileSync(path.join(ROOT, "emulator", "README.md"), "utf8");

/** A line of a README with whether it is inside a fenced code block. */
interface Line {
  readonly text: string;
  readonly code: boolean;
  readonly number: number;
}

function lines(markdown: string): Line[] {
  const out: Line[] = [];
  let code = false;
  markdown.split("\n").forEach((text, i) => {
    if (text.trim().startsWith("```")) {
      code = !code;
      return;
    }
    out.push({ text, code, number: i + 1 });
  });
  return out;
}

/** Prose without its fenced code blocks (inline code kept). */
function prose(markdown: string): string {
  return lines(markdown)
    .filter((l) => !l.code)
    .map((l) => l.text)
    .join("\n");
}

function inlineCode(text: string): string[] {
  return [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] ?? "");
}

describe("the configuration table", () => {
  const section = README.slice(README.indexOf("## Configuration reference"));
  const rows = [...section.matchAll(/^\| `(discord:\w+)` +\| `(\w+)` +\| (yes|no) +\|/gm)].map(
    (m) => ({ key: m[1] ?? "", env: m[2] ?? "", secret: m[3] === "yes" }),
  );

  test("names every setting of the provider, with its environment variable, and no other", () => {
    const settings = [...SETTINGS, WRITE_MODE_SETTING].map((s) => `${s.key} ${s.env}`);
    expect(rows.map((r) => `${r.key} ${r.env}`).sort()).toEqual(settings.sort());
  });

  test("marks as secret exactly the credentials the program refuses in plain text", () => {
    expect(rows.filter((r) => r.secret).map((r) => r.key)).toEqual(
      expect.arrayContaining([...CREDENTIAL_KEYS]),
    );
    expect(rows.filter((r) => r.secret)).toHaveLength(CREDENTIAL_KEYS.length);
  });
});

/** Which of our commands a README line invokes; `npm run emulator --` is the emulator CLI. */
type Cli = "emulator" | "import" | "authorize";
const INVOCATION =
  /(?:discord-commands-emulator|discord-commands\s+(emulator|import|authorize)|npm run emulator\s+--)/;
const FLAG = /(?<![\w-])--[a-z][a-z-]*/g;

/**
 * The flags a README gives to our commands: those after an invocation on its (logical)
 * line, and those of an "Options:" paragraph, which lists the options of the command
 * invoked last before it.
 */
function flagsGiven(markdown: string): { cli: Cli; flag: string; line: number }[] {
  const found: { cli: Cli; flag: string; line: number }[] = [];
  const all = lines(markdown);
  let last: Cli | undefined;
  let options = false;
  for (let i = 0; i < all.length; i++) {
    const line = all[i] as Line;
    let text = line.text;
    // A shell line continued with `\` goes on on the next line.
    while (line.code && text.trimEnd().endsWith("\\") && i + 1 < all.length) {
      text = `${text.trimEnd().slice(0, -1)} ${(all[++i] as Line).text}`;
    }
    if (!line.code && text.trim() === "") options = false;
    if (!line.code && text.startsWith("Options:")) options = true;
    const pieces = line.code ? [text.replace(/\s#\s.*$/, "")] : inlineCode(text);
    for (const piece of pieces) {
      const m = INVOCATION.exec(piece);
      if (m) {
        last = (m[1] as Cli | undefined) ?? "emulator";
        for (const f of piece.slice(m.index + m[0].length).match(FLAG) ?? []) {
          found.push({ cli: last, flag: f, line: line.number });
        }
      } else if (options && last !== undefined && !line.code && piece.startsWith("--")) {
        for (const f of piece.match(FLAG) ?? [])
          found.push({ cli: last, flag: f, line: line.number });
      }
    }
  }
  return found;
}

/** Runs one of our CLIs from source, as its bin would, and returns what it printed. */
function help(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [require.resolve("ts-node/dist/bin.js"), "--transpile-only", ...args, "--help"],
      { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("error", reject);
    child.on("close", () => resolve(out));
  });
}

describe("CLI flags", () => {
  let helps: Record<Cli | "emulatorBin", Set<string>>;
  beforeAll(async () => {
    const flags = (text: string) => new Set(text.match(FLAG) ?? []);
    const [emulator, emulatorBin, importHelp, authorize] = await Promise.all([
      help(["cli/main.ts", "emulator"]),
      help(["emulator/cli.ts"]), // the `discord-commands-emulator` bin
      help(["cli/main.ts", "import"]),
      help(["cli/main.ts", "authorize"]),
    ]);
    helps = {
      emulator: flags(emulator),
      emulatorBin: flags(emulatorBin),
      import: flags(importHelp),
      authorize: flags(authorize),
    };
  }, 60_000);

  test("the two emulator entries have the same options", () => {
    expect([...helps.emulatorBin].sort()).toEqual([...helps.emulator].sort());
  });

  test.each([
    ["README.md", README],
    ["emulator/README.md", EMULATOR_README],
  ])("every flag %s gives our commands is in their --help", (_name, markdown) => {
    const given = flagsGiven(markdown);
    const unknown = given.filter((g) => !helps[g.cli].has(g.flag));
    expect(unknown).toEqual([]);
  });

  test("the check covers each command (not vacuous)", () => {
    const given = flagsGiven(README);
    const per = (cli: Cli) => new Set(given.filter((g) => g.cli === cli).map((g) => g.flag)).size;
    expect(per("emulator")).toBeGreaterThanOrEqual(8);
    expect(per("import")).toBeGreaterThanOrEqual(5);
    expect(per("authorize")).toBeGreaterThanOrEqual(3);
  });
});

/** Brace expansion, as a shell does: `a/{b,c}.ts` -> `a/b.ts`, `a/c.ts`. */
function expand(p: string): string[] {
  const m = /\{([^{}]*)\}/.exec(p);
  if (!m) return [p];
  const before = p.slice(0, m.index);
  const after = p.slice(m.index + m[0].length);
  return (m[1] ?? "").split(",").flatMap((alt) => expand(`${before}${alt}${after}`));
}

/**
 * Paths the README names that are not this repository's: the folder `pulumi package add`
 * writes in a user's project, and Pulumi's Go module.
 */
const NOT_OURS = new Set(["sdks/discord-commands", "./sdks/discord-commands", "sdk/v3"]);

describe("file paths", () => {
  test("every repository path the README names exists", () => {
    const top = new Set(
      fs.readdirSync(ROOT).filter((d) => !["node_modules", "dist", ".work", ".git"].includes(d)),
    );
    const text = prose(README);
    const candidates = [
      ...inlineCode(text),
      ...[...text.matchAll(/\]\(([^)#\s]+)/g)].map((m) => m[1] ?? ""),
    ];
    const named = new Set<string>();
    for (const c of candidates) {
      if (/^[a-z]+:\/\//.test(c)) continue; // a URL
      for (const tok of c.match(/(?:\.\/)?[\w.-]+(?:\/[\w.{},*-]+)+\/?/g) ?? []) {
        if (!top.has(tok.replace(/^\.\//, "").split("/")[0] ?? "")) continue;
        for (const p of expand(tok)) if (!NOT_OURS.has(p)) named.add(p.replace(/\/$/, ""));
      }
    }
    expect(named.size).toBeGreaterThan(30);
    const missing = [...named].filter((p) => !fs.existsSync(path.join(ROOT, p)));
    expect(missing).toEqual([]);
  });
});

describe("npm scripts", () => {
  const scripts = (
    JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    }
  ).scripts;

  test.each([
    ["README.md", README],
    ["emulator/README.md", EMULATOR_README],
  ])("every npm script %s names exists", (_name, markdown) => {
    const named = new Set(
      [...markdown.matchAll(/\bnpm (?:run ([\w:-]+)|(test|start)\b)/g)].map(
        (m) => m[1] ?? m[2] ?? "",
      ),
    );
    expect(named.size).toBeGreaterThan(0);
    expect([...named].filter((s) => scripts[s] === undefined)).toEqual([]);
  });
});
