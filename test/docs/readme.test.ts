/**
 * The user's documentation (README.md, docs/*.md) and the contributor's guide
 * (CONTRIBUTING.md) checked against the code they describe:
 * - the configuration table (docs/configuration.md) against the provider's settings
 *   (`SETTINGS` and the write mode in provider/, the credential keys the program refuses
 *   as plain text in sdk/);
 * - every CLI flag they give to `discord-commands <subcommand>`, `discord-commands-emulator`
 *   or `npm run emulator --` against that command's `--help`;
 * - every repository path they name (in inline code or a link) exists, and every relative
 *   link resolves, its anchor included;
 * - every `npm run <script>` (and `npm test`/`npm start`) they name is a script of
 *   package.json;
 * - every config key (`discord:<key>`, `discord-commands:<key>`) and environment variable
 *   (`DISCORD_*`) they name is a setting of the provider;
 * - the README stays a short entry from which every page can be reached.
 * emulator/README.md is checked for flags and scripts too.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { SETTINGS } from "../../provider/resources/settings";
import { WRITE_MODE_SETTING } from "../../provider/writeMode";
import { CREDENTIAL_KEYS } from "../../sdk/credentials";

const ROOT = path.join(__dirname, "..", "..");
const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), "utf8");
const README = read("README.md");
const EMULATOR_README = read("emulator/README.md");

/** The files checked, by their path from the repository's root. */
const DOCS: readonly string[] = [
  "README.md",
  "CONTRIBUTING.md",
  ...fs
    .readdirSync(path.join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`),
];
const TEXT: ReadonlyMap<string, string> = new Map(DOCS.map((f) => [f, read(f)]));
const ALL = [...TEXT.entries()];
const text = (file: string): string => TEXT.get(file) ?? "";

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
  const configuration = text("docs/configuration.md");
  const section = configuration.slice(configuration.indexOf("## Configuration reference"));
  const rows = [...section.matchAll(/^\| `(discord:\w+)` +\| `(\w+)` +\| (yes|no) +\|/gm)].map(
    (m) => ({ key: m[1] ?? "", env: m[2] ?? "", secret: m[3] === "yes" }),
  );

  test("is in docs/configuration.md, under its heading", () => {
    expect(configuration).toMatch(/^## Configuration reference$/m);
    expect(rows.length).toBeGreaterThan(0);
  });

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

/**
 * Which of our commands a README line invokes: `discord-commands <subcommand>` (also as
 * `npm run [--silent] discord-commands -- <subcommand>`, or the plugin archive's
 * `.../dist/cli/main.js <subcommand>`); `npm run [--silent] emulator --` is the emulator CLI.
 */
type Cli = "emulator" | "import" | "authorize";
const INVOCATION =
  /(?:discord-commands-emulator|(?:discord-commands|cli\/main\.js"?)\s+(?:--\s+)?(emulator|import|authorize)|npm run (?:(?:--silent|-s)\s+)?emulator\s+--)/;
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

  test.each([...ALL, ["emulator/README.md", EMULATOR_README] as const])(
    "every flag %s gives our commands is in their --help",
    (_name, markdown) => {
      const given = flagsGiven(markdown);
      const unknown = given.filter((g) => !helps[g.cli].has(g.flag));
      expect(unknown).toEqual([]);
    },
  );

  test("the check covers each command (not vacuous)", () => {
    const given = ALL.flatMap(([, markdown]) => flagsGiven(markdown));
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
 * Paths the docs name that are not this repository's: the folder `pulumi package add`
 * writes in a user's project, Pulumi's Go module, and the Go SDK's release tag
 * (`sdks/go/v<version>`, read up to its placeholder).
 */
const NOT_OURS = new Set([
  "sdks/discord-commands",
  "./sdks/discord-commands",
  "sdk/v3",
  "sdks/go/v",
]);

/** The relative link targets of a file (`[text](target)`), URLs left out. */
function links(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] ?? "")
    .filter((t) => !/^[a-z]+:/.test(t));
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const l of lines(markdown)) {
    const m = /^#{1,6}\s+(.*)$/.exec(l.text);
    if (l.code || !m) continue;
    const base = slug(m[1] ?? "");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Whether a repository path exists; a `*` in its last part matches any characters. */
function exists(p: string): boolean {
  if (!p.includes("*")) return fs.existsSync(path.join(ROOT, p));
  const dir = path.join(ROOT, path.dirname(p));
  const pattern = new RegExp(
    `^${path
      .basename(p)
      .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*")}$`,
  );
  return fs.existsSync(dir) && fs.readdirSync(dir).some((f) => pattern.test(f));
}

describe("file paths and links", () => {
  const top = new Set(
    // Generated, git-ignored folders are not the repository's (dist-packages/ exists only
    // once `npm run package` or its test ran).
    fs
      .readdirSync(ROOT)
      .filter((d) => !["node_modules", "dist", "dist-packages", ".work", ".git"].includes(d)),
  );

  /** Repository paths a file names in inline code or as a link (links from its folder). */
  function named(file: string, markdown: string): Set<string> {
    const out = new Set<string>();
    const add = (candidate: string, from: string) => {
      for (const tok of candidate.match(/(?:\.\.?\/)*[\w.-]+(?:\/[\w.{},*-]+)+\/?/g) ?? []) {
        for (const p of expand(tok)) {
          if (NOT_OURS.has(p)) continue;
          const rel = path.relative(ROOT, path.join(ROOT, from, p)).replace(/\\/g, "/");
          if (top.has(rel.split("/")[0] ?? "")) out.add(rel.replace(/\/$/, ""));
        }
      }
    };
    for (const c of inlineCode(prose(markdown))) if (!/^[a-z]+:\/\//.test(c)) add(c, ".");
    for (const l of links(markdown)) add(l.split("#")[0] ?? "", path.dirname(file));
    return out;
  }

  test.each(DOCS)("every repository path %s names exists", (file) => {
    const missing = [...named(file, text(file))].filter((p) => !exists(p));
    expect(missing).toEqual([]);
  });

  test("the check covers many paths (not vacuous)", () => {
    const all = new Set(ALL.flatMap(([file, markdown]) => [...named(file, markdown)]));
    expect(all.size).toBeGreaterThan(60);
  });

  test.each(DOCS)("every relative link of %s resolves, its anchor included", (file) => {
    const broken: string[] = [];
    for (const target of links(text(file))) {
      const [where = "", anchor] = target.split("#");
      const resolved = where === "" ? file : path.join(path.dirname(file), where);
      const full = path.join(ROOT, resolved);
      if (!fs.existsSync(full)) {
        broken.push(`${target}: no such file`);
        continue;
      }
      if (anchor === undefined || !resolved.endsWith(".md")) continue;
      if (!anchors(fs.readFileSync(full, "utf8")).has(anchor))
        broken.push(`${target}: no such heading`);
    }
    expect(broken).toEqual([]);
  });
});

describe("npm scripts", () => {
  const scripts = (
    JSON.parse(read("package.json")) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  const scriptsNamed = (markdown: string) =>
    new Set(
      [...markdown.matchAll(/\bnpm (?:run (?:(?:--silent|-s)\s+)?([\w:-]+)|(test|start)\b)/g)].map(
        (m) => m[1] ?? m[2] ?? "",
      ),
    );

  test.each([...ALL, ["emulator/README.md", EMULATOR_README] as const])(
    "every npm script %s names exists",
    (_name, markdown) => {
      expect([...scriptsNamed(markdown)].filter((s) => scripts[s] === undefined)).toEqual([]);
    },
  );

  test("the check covers the scripts a user and a contributor run (not vacuous)", () => {
    expect([...scriptsNamed(README)]).toEqual(expect.arrayContaining(["start", "test"]));
    const all = new Set(ALL.flatMap(([, markdown]) => [...scriptsNamed(markdown)]));
    expect(all.size).toBeGreaterThanOrEqual(8);
  });
});

describe("config keys and environment variables", () => {
  const settings = [...SETTINGS, WRITE_MODE_SETTING];
  const keys = new Set(settings.map((s) => s.key.replace(/^discord:/, "")));
  /**
   * `DISCORD_*` names that are not settings: read by the provider outside its settings,
   * or an enum value's name. Each must appear in the code.
   */
  const OTHER_NAMES: Record<string, string> = {
    DISCORD_TIMING_LOG: "provider/resources/timingLog.ts",
    DISCORD_LAUNCH_ACTIVITY: "provider/schema/enums.ts",
    DISCORD_COMMANDS_PUBLIC_PATHS: "provider/publicPaths.ts",
    DISCORD_COMMANDS_SKIP_RANGE: "scripts/versionRange.ts",
  };

  test.each(DOCS)("every config key %s names is a setting of the provider", (file) => {
    const used = [
      ...text(file).matchAll(/(?<![\w/.:-])(discord(?:-commands)?):([a-z]\w*)\b(?!:)/g),
    ].map((m) => m[2] ?? "");
    expect(used.filter((k) => !keys.has(k))).toEqual([]);
  });

  test.each(DOCS)("every DISCORD_ variable %s names is a setting's", (file) => {
    const envs = new Set(settings.map((s) => s.env as string));
    const used = [...text(file).matchAll(/\bDISCORD_[A-Z_]+\b/g)].map((m) => m[0]);
    expect(used.filter((e) => !envs.has(e) && OTHER_NAMES[e] === undefined)).toEqual([]);
  });

  test("the names that are not settings are the code's", () => {
    for (const [name, file] of Object.entries(OTHER_NAMES)) expect(read(file)).toContain(name);
  });

  test("the check covers every setting (not vacuous)", () => {
    const all = ALL.map(([, markdown]) => markdown).join("\n");
    for (const k of keys) expect(all).toContain(`discord:${k}`);
  });
});

describe("the README", () => {
  test("is a short entry: at most about 300 lines", () => {
    expect(README.split("\n").length).toBeLessThanOrEqual(310);
  });

  test("gives the quick start a new user runs", () => {
    expect(README).toMatch(/^npm ci && npm start$/m);
    expect(README).toMatch(/^npm ci && npm test$/m);
  });

  test("has an install and a first program per language", () => {
    for (const lang of ["ts", "yaml", "python", "go"]) {
      expect(README).toMatch(new RegExp("^```" + lang + "$", "m"));
    }
    expect(README).toContain('from "pulumi-discord-commands"');
    expect(README).toContain('from "@pulumi-discord-commands/sdk"');
  });

  test("leads to every page of docs/ and to the contributor's guide", () => {
    const reached = new Set<string>(["README.md"]);
    const queue = ["README.md"];
    while (queue.length > 0) {
      const file = queue.shift() as string;
      for (const target of links(text(file))) {
        const where = target.split("#")[0] ?? "";
        if (where === "") continue;
        const to = path.join(path.dirname(file), where).replace(/\\/g, "/");
        if (TEXT.has(to) && !reached.has(to)) {
          reached.add(to);
          queue.push(to);
        }
      }
    }
    expect(DOCS.filter((f) => !reached.has(f))).toEqual([]);
  });
});
