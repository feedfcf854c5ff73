/**
 * CONTRIBUTING.md's map (its `## Map` section), which a newcomer reads before a first
 * change: each entry names paths and their one job; every path it names exists; and it
 * names every top-level folder (but git-ignored and dot folders) and top-level `.ts` file,
 * and every folder of the source (SOURCE_ROOTS of the structure check).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ROOT, SOURCE_ROOTS } from "../architecture/structure";

const CONTRIBUTING = fs.readFileSync(path.join(ROOT, "CONTRIBUTING.md"), "utf8");

/** The text of a `## ` section, up to the next one. */
export function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) return "";
  const end = markdown.indexOf("\n## ", start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

/** The map's entries: list items, each with its lines joined. */
export function entries(map: string): string[] {
  const out: string[] = [];
  for (const line of map.split("\n")) {
    if (/^\s*- /.test(line)) out.push(line.trim().slice(2));
    else if (out.length > 0 && /^\s+\S/.test(line)) out[out.length - 1] += ` ${line.trim()}`;
  }
  return out;
}

/** The repository paths an entry names: inline code that is a path (`a/b`, `x.ts`). */
export function namedPaths(entry: string): string[] {
  return [...entry.matchAll(/`([^`\s]+)`/g)]
    .map((m) => m[1] ?? "")
    .filter((p) => /^[\w.*-]+(\/[\w.*-]+)*\/?$/.test(p))
    .filter((p) => p.includes("/") || /\.(ts|md|json|ya?ml|js)$/.test(p))
    .map((p) => p.replace(/\/$/, ""));
}

/** Whether a path exists; a `*` matches within one path segment. */
export function exists(root: string, named: string): boolean {
  if (!named.includes("*")) return fs.existsSync(path.join(root, named));
  const dir = path.posix.dirname(named);
  const pattern = new RegExp(
    `^${path.posix
      .basename(named)
      .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, "[^/]*")}$`,
  );
  const folder = path.join(root, dir);
  return fs.existsSync(folder) && fs.readdirSync(folder).some((f) => pattern.test(f));
}

/** What the map must name: the top-level folders and `.ts` files, the source's folders. */
export function requiredPaths(root: string): string[] {
  const ignored = new Set(
    fs
      .readFileSync(path.join(root, ".gitignore"), "utf8")
      .split("\n")
      .map((l) => /^\/?([\w.-]+)\/$/.exec(l.trim())?.[1])
      .filter((name): name is string => name !== undefined),
  );
  const top = fs
    .readdirSync(root, { withFileTypes: true })
    .filter((e) => !e.name.startsWith(".") && !ignored.has(e.name))
    .filter((e) => e.isDirectory() || e.name.endsWith(".ts"))
    .map((e) => e.name);
  const folders: string[] = [];
  const visit = (dir: string): void => {
    for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      if (!e.isDirectory()) continue;
      folders.push(`${dir}/${e.name}`);
      visit(`${dir}/${e.name}`);
    }
  };
  for (const source of SOURCE_ROOTS) {
    if (fs.statSync(path.join(root, source), { throwIfNoEntry: false })?.isDirectory()) {
      visit(source);
    }
  }
  return [...top, ...folders].sort();
}

describe("CONTRIBUTING.md's map", () => {
  const map = section(CONTRIBUTING, "Map");
  const items = entries(map);
  const named = new Set(items.flatMap(namedPaths));

  it("is there, and each entry names a path and its job", () => {
    expect(items.length).toBeGreaterThan(10);
    const without = items.filter((e) => !/^`[^`]+`(, `[^`]+`)*(:| and `[^`]+`:) \S/.test(e));
    expect(without).toEqual([]);
  });

  it("names only paths that exist", () => {
    expect([...named].filter((p) => !exists(ROOT, p))).toEqual([]);
  });

  it("names every top-level folder and .ts file, and every folder of the source", () => {
    expect(requiredPaths(ROOT).filter((p) => !named.has(p))).toEqual([]);
  });
});

describe("how the map is read", () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "map-"));
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it("takes an entry's continuation lines and the paths in its inline code", () => {
    const map = [
      "Intro `not/an/entry.ts`.",
      "",
      "- `a/`: the a.",
      "  - `a/b.ts`, `a/c-*.ts`: the b",
      "    and the cs (`npm run x`, `/__route/`, `name`).",
    ].join("\n");
    expect(entries(map)).toEqual([
      "`a/`: the a.",
      "`a/b.ts`, `a/c-*.ts`: the b and the cs (`npm run x`, `/__route/`, `name`).",
    ]);
    expect(entries(map).flatMap(namedPaths)).toEqual(["a", "a/b.ts", "a/c-*.ts"]);
  });

  it("finds a missing path, and matches a pattern within its folder", () => {
    const root = path.join(scratch, "exists");
    fs.mkdirSync(path.join(root, "a"), { recursive: true });
    fs.writeFileSync(path.join(root, "a", "c-one.ts"), "");
    expect(exists(root, "a")).toBe(true);
    expect(exists(root, "a/c-*.ts")).toBe(true);
    expect(exists(root, "a/d-*.ts")).toBe(false);
    expect(exists(root, "a/b.ts")).toBe(false);
  });

  it("requires the top-level folders and .ts files and the source's folders, not ignored ones", () => {
    const root = path.join(scratch, "required");
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, ".gitignore"), "built/\n");
    for (const dir of ["built", ".hidden", "provider/schema/deep", "docs"]) {
      fs.mkdirSync(path.join(root, dir), { recursive: true });
    }
    fs.writeFileSync(path.join(root, "index.ts"), "");
    fs.writeFileSync(path.join(root, "README.md"), "");
    expect(requiredPaths(root)).toEqual([
      "docs",
      "index.ts",
      "provider",
      "provider/schema",
      "provider/schema/deep",
    ]);
  });
});
