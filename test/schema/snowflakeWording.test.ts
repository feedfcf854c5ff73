/**
 * One wording of the snowflake rule: `notSnowflake` (provider/schema/snowflake.ts) words
 * every refusal of an id that is not a snowflake, in both doors, the SDK and the CLI; no
 * other source file words it by hand.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { notSnowflake, validateWireCommand } from "../../provider/schema";
import { idFailures } from "../../provider/resources/lifecycle";
import { Secrecy } from "../../provider/schema";

const ROOT = path.join(__dirname, "..", "..");
const HOME = path.join("provider", "schema", "snowflake.ts");

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return sources(rel);
    return e.name.endsWith(".ts") ? [rel] : [];
  });
}

test("no source file but snowflake.ts words the rule by hand", () => {
  const byHand = ["provider", "sdk", "cli", "emulator"]
    .flatMap(sources)
    .filter((f) => f !== HOME)
    .filter((f) =>
      /(is not|must be) a snowflake/.test(fs.readFileSync(path.join(ROOT, f), "utf8")),
    );
  expect(byHand.map((f) => `${f}: word it with notSnowflake (${HOME})`)).toEqual([]);
});

test("a body's id and a resource's id are refused in the same words", () => {
  const body = validateWireCommand(
    { id: "12x", name: "a", description: "d" },
    { scope: "global", mode: "bulk" },
  );
  expect(body.ok ? [] : body.issues.map((i) => i.message)).toEqual([
    `${notSnowflake('Value "12x"')}.`,
  ]);
  expect(idFailures({ guildId: "12x" }, Secrecy.NONE, ["guildId"], true)).toEqual([
    { property: "guildId", reason: notSnowflake("guildId") },
  ]);
});
