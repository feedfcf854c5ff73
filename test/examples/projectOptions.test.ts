/**
 * Every example and the demo's project (`Pulumi.yaml` at the root) set Pulumi's
 * `options: refresh: always`, so a plain `pulumi preview` reads the live commands and
 * shows drift made outside the stack (the engine behaviour is tested in
 * quickstart.test.ts and test/engine/drift-check.test.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import { EXAMPLES_DIR, exampleFiles } from "./helpers";

/** The value of `options.refresh` in a project file (comments between keys allowed). */
function refreshOption(projectYaml: string): string | undefined {
  return /^options:\n(?:[ \t]+#.*\n|[ \t]+\w+:.*\n)*?[ \t]+refresh:[ \t]*(\S+)/m.exec(
    projectYaml,
  )?.[1];
}

const EXAMPLES = fs
  .readdirSync(EXAMPLES_DIR, { withFileTypes: true })
  .filter((e) => e.isDirectory() && fs.existsSync(path.join(EXAMPLES_DIR, e.name, "Pulumi.yaml")))
  .map((e) => e.name);

describe("project option refresh: always", () => {
  test("the parser reads the option and nothing else", () => {
    expect(refreshOption("name: x\noptions:\n  # why\n  refresh: always\n")).toBe("always");
    expect(refreshOption("name: x\nruntime: nodejs\n")).toBeUndefined();
    expect(refreshOption("name: x\ndescription: refresh: always\n")).toBeUndefined();
  });

  test("every example sets it", () => {
    expect(EXAMPLES.length).toBeGreaterThanOrEqual(4);
    for (const example of EXAMPLES) {
      expect([example, refreshOption(exampleFiles(example).files["Pulumi.yaml"] ?? "")]).toEqual([
        example,
        "always",
      ]);
    }
  });

  test("the demo's project sets it", () => {
    const demo = fs.readFileSync(path.join(PROJECT_ROOT, "Pulumi.yaml"), "utf8");
    expect(demo).toMatch(/^main: examples\/demo\/index.ts$/m);
    expect(refreshOption(demo)).toBe("always");
  });
});
