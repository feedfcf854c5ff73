/**
 * The docs' tables of arguments follow the field table (provider/schema/fields.ts): every
 * command field a program declares has a row in docs/typescript.md's table of
 * `GlobalCommand` and `GuildCommand` arguments, under its SDK name, and every option field
 * is in its paragraph on options ("An option: ..."). (docs/reference.md is
 * generated from the table itself, test/package/schema.test.ts keeps it current.)
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { camelCase, COMMAND_FIELDS, OPTION_FIELDS } from "../../provider/schema";

const DOC = fs.readFileSync(path.join(__dirname, "..", "..", "docs", "typescript.md"), "utf8");

test("docs/typescript.md has a row for every command argument", () => {
  const start = DOC.indexOf("### `GlobalCommand` and `GuildCommand`");
  expect(start).toBeGreaterThan(0);
  const table = DOC.slice(start, DOC.indexOf("\n\n", DOC.indexOf("| Argument", start)));
  const missing = Object.keys(COMMAND_FIELDS)
    .filter((f) => f !== "id")
    .map(camelCase)
    .filter((k) => !table.includes(`| \`${k}\` `));
  expect(
    missing.map(
      (k) =>
        `docs/typescript.md: add a row for \`${k}\` to the GlobalCommand and GuildCommand arguments (type and notes)`,
    ),
  ).toEqual([]);
});

test("docs/typescript.md names every option field", () => {
  const start = DOC.indexOf("An option: ");
  expect(start).toBeGreaterThan(0);
  const paragraph = DOC.slice(start, DOC.indexOf("\n\n", start));
  const missing = Object.keys(OPTION_FIELDS)
    .map(camelCase)
    .filter((k) => !paragraph.includes(`\`${k}\``));
  expect(
    missing.map(
      (k) => `docs/typescript.md: name \`${k}\` in the paragraph on options ("An option: ...")`,
    ),
  ).toEqual([]);
});
