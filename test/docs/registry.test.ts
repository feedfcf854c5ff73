/**
 * The two pages the Pulumi Registry publishes from the repository, in its layout (front
 * matter `title`, `meta_desc`, `layout: package`):
 * - docs/_index.md, the overview: its example in each language is the program of that
 *   language's `pulumi new` template (which the release test deploys), word for word;
 * - docs/installation-configuration.md: its configuration table is generated from the
 *   package schema (stale: `npm run generate`) and names every setting of both doors with
 *   its environment variable and whether it is secret; its commands name this version and
 *   the schema's plugin URL.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { PLUGIN_DOWNLOAD_URL, SDK_NAMES } from "../../provider/package/schema";
import { CREDENTIAL_SETTINGS, SETTINGS } from "../../provider/resources/settings";
import { WRITE_MODE_SETTING } from "../../provider/writeMode";
import {
  INSTALLATION_FILE,
  packageVersion,
  renderInstallationFile,
} from "../../scripts/generate-package";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import { TEMPLATE_NAMES } from "../engine/templates.helpers";

const read = (file: string): string => fs.readFileSync(path.join(PROJECT_ROOT, file), "utf8");
const INDEX = read("docs/_index.md");
const INSTALLATION = read("docs/installation-configuration.md");

function frontMatter(page: string): Record<string, unknown> {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(page);
  return m ? (parse(m[1] ?? "") as Record<string, unknown>) : {};
}

test.each([
  ["docs/_index.md", INDEX],
  ["docs/installation-configuration.md", INSTALLATION],
])("%s has the Registry's front matter", (_file, page) => {
  const fm = frontMatter(page);
  expect(Object.keys(fm).sort()).toEqual(["layout", "meta_desc", "title"]);
  expect(fm["layout"]).toBe("package");
  expect(fm["title"]).toMatch(/^Discord Commands/);
  expect(String(fm["meta_desc"]).length).toBeGreaterThan(40);
});

describe("docs/_index.md", () => {
  /** The code of each `choosable language <lang>` block. */
  const chosen = new Map(
    [
      ...INDEX.matchAll(
        /\{\{% choosable language (\w+) %\}\}\s*```\w+\n([\s\S]*?)\n```\s*\{\{% \/choosable %\}\}/g,
      ),
    ].map((m) => [m[1] ?? "", m[2] ?? ""]),
  );
  const template = (file: string) => read(`templates/${file}`).replace(/\n$/, "");

  test("has an example in every language of the plugin, chosen by the Registry's chooser", () => {
    expect(INDEX).toContain('{{< chooser language "typescript,python,go,yaml" >}}');
    expect([...chosen.keys()]).toEqual(["typescript", "python", "go", "yaml"]);
  });

  test("each example is its language's template program, word for word", () => {
    expect(chosen.get("typescript")).toBe(template("typescript-sdk/index.ts"));
    expect(chosen.get("python")).toBe(template("python/__main__.py"));
    expect(chosen.get("go")).toBe(template("go/main.go"));
    const example = parse(chosen.get("yaml") ?? "") as Record<string, unknown>;
    const yaml = parse(read("templates/yaml/Pulumi.yaml")) as Record<string, unknown>;
    for (const key of ["runtime", "variables", "resources", "outputs"]) {
      expect(example[key]).toEqual(yaml[key]);
    }
  });

  test("shows the dynamic resources' program too (the TypeScript template on them)", () => {
    const blocks = [...INDEX.matchAll(/```typescript\n([\s\S]*?)\n```/g)].map((m) => m[1]);
    expect(blocks).toContain(template("typescript/index.ts"));
  });
});

describe("docs/installation-configuration.md", () => {
  test("its configuration table is the one generated from the package schema", async () => {
    // Stale: run `npm run generate` (or `npm run generate -- --schema-only`) and commit.
    expect(fs.readFileSync(INSTALLATION_FILE, "utf8")).toBe(await renderInstallationFile());
  });

  const rows = [
    ...INSTALLATION.matchAll(
      /^\| `(discord-commands:\w+)` +\| `(discord:\w+)` +\| `(\w+)` +\| (yes|no) +\|/gm,
    ),
  ].map((m) => ({ plugin: m[1], dynamic: m[2], env: m[3], secret: m[4] === "yes" }));

  test("names every setting of both doors with its environment variable, and no other", () => {
    const settings = [...SETTINGS, WRITE_MODE_SETTING].map((s) => `${s.key} ${s.env}`);
    expect(rows.map((r) => `${r.dynamic} ${r.env}`).sort()).toEqual(settings.sort());
    for (const r of rows)
      expect(r.plugin?.slice("discord-commands:".length)).toBe(r.dynamic?.slice("discord:".length));
  });

  test("marks as secret exactly the credentials", () => {
    expect(
      rows
        .filter((r) => r.secret)
        .map((r) => r.dynamic)
        .sort(),
    ).toEqual(CREDENTIAL_SETTINGS.map((name) => `discord:${name}`).sort());
  });

  test("its commands name this version, the schema's plugin URL and Go module, and every template", () => {
    const version = packageVersion();
    expect(INSTALLATION).toContain(
      `pulumi plugin install resource discord-commands ${version} --server ${PLUGIN_DOWNLOAD_URL}\n`,
    );
    expect(INSTALLATION).toContain(`go get ${SDK_NAMES.goModule}@v${version}\n`);
    for (const name of TEMPLATE_NAMES) expect(INSTALLATION).toContain(`\`templates/${name}\``);
  });
});
