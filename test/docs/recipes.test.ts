/**
 * CONTRIBUTING.md's "Where to change what" stays true: every file it names exists, a new
 * command field costs at most six files, the consumers of each field table it lists
 * ("Derived from the row, nothing to edit" and its twin for options) are the source files
 * that read the table, and the control endpoint's recipe names the route table.
 */
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.join(__dirname, "..", "..");
const GUIDE = fs.readFileSync(path.join(ROOT, "CONTRIBUTING.md"), "utf8");
const SECTION = GUIDE.slice(
  GUIDE.indexOf("## Where to change what"),
  GUIDE.indexOf("\n## ", GUIDE.indexOf("## Where to change what") + 3),
);
/** The recipe that starts with `**title` (up to the next recipe). */
function recipe(title: string): string {
  const start = SECTION.indexOf(`**${title}`);
  expect(start).toBeGreaterThan(0);
  const next = SECTION.indexOf("\n**", start + 2);
  return SECTION.slice(start, next < 0 ? undefined : next);
}
const pathsIn = (text: string): string[] =>
  [...text.matchAll(/`((?:provider|emulator|sdk|cli|scripts|test|docs|plugin)\/[^`\s]+)`/g)].map(
    (m) => m[1] as string,
  );

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) return sources(rel);
    return e.name.endsWith(".ts") ? [rel] : [];
  });
}

/** The source files that read `table` (its definition and the re-exports aside). */
function readersOf(table: string, own: readonly string[]): string[] {
  const word = new RegExp(`\\b${table}\\b`);
  return ["provider", "emulator", "sdk", "cli", "scripts"]
    .flatMap(sources)
    .filter((f) => !own.includes(f))
    .filter((f) => word.test(fs.readFileSync(path.join(ROOT, f), "utf8")))
    .sort();
}

/** The files a recipe's "Derived, nothing to edit" sentence names. */
function derivedIn(text: string): string[] {
  const start = text.indexOf("nothing to edit:");
  expect(start).toBeGreaterThan(0);
  return pathsIn(text.slice(start, text.indexOf(". ", start))).sort();
}

const RE_EXPORTS = ["provider/schema/fields.ts", "provider/schema/index.ts", "emulator/schema.ts"];

test("every file the section names exists", () => {
  const missing = pathsIn(SECTION).filter((p) => !fs.existsSync(path.join(ROOT, p)));
  expect(missing.map((p) => `CONTRIBUTING.md names ${p}, which does not exist`)).toEqual([]);
});

test("a new command field: at most six numbered steps, each naming its file", () => {
  const text = recipe("A new optional command field");
  const steps = [...text.matchAll(/^(\d+)\. /gm)];
  expect(steps.length).toBeLessThanOrEqual(6);
  for (const step of text.split(/^\d+\. /m).slice(1))
    expect(pathsIn(step).length).toBeGreaterThan(0);
});

test.each([
  [
    "A new optional command field",
    "COMMAND_FIELDS",
    ["provider/schema/command.ts", "emulator/rules/command.ts"],
  ],
  ["A new option field", "OPTION_FIELDS", []],
] as const)("%s: the table's consumers are the ones the recipe lists", (title, table, edited) => {
  const text = recipe(title);
  const listed = new Set([...derivedIn(text), ...edited]);
  const readers = readersOf(table, RE_EXPORTS);
  expect([
    ...readers
      .filter((f) => !listed.has(f))
      .map((f) => `CONTRIBUTING.md (${title}): ${f} reads ${table}: list it`),
    ...[...listed]
      .filter((f) => !readers.includes(f))
      .map((f) => `CONTRIBUTING.md (${title}): ${f} does not read ${table}: take it out`),
  ]).toEqual([]);
});

test("a control endpoint: the recipe names the one route table and its test", () => {
  const text = recipe("A control endpoint of the emulator");
  expect(pathsIn(text)).toEqual(
    expect.arrayContaining(["emulator/controlRoutes.ts", "test/emulator/controlRoutes.test.ts"]),
  );
});
