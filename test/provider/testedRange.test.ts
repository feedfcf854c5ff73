/**
 * The tested range of Pulumi (provider/testedRange.ts): what the package says outside it,
 * and every place that states it saying the same (package.json's peerDependencies, the
 * generated Python SDK's requirement and TypeScript SDK's dependency, the wrapper modules
 * of the range's CLIs).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { compareVersions, outsideTestedRange, TESTED_RANGE } from "../../provider/testedRange";

const ROOT = path.resolve(__dirname, "../..");
const NEWEST = TESTED_RANGE.newest.nodejs;

test("one line naming the range, outside it only", () => {
  expect(outsideTestedRange("@pulumi/pulumi", "3.259.0", NEWEST)).toBeUndefined();
  expect(outsideTestedRange("@pulumi/pulumi", TESTED_RANGE.oldest.nodejs, NEWEST)).toBeUndefined();
  expect(outsideTestedRange("@pulumi/pulumi", NEWEST, NEWEST)).toBeUndefined();
  expect(outsideTestedRange("@pulumi/pulumi", "3.200.0", NEWEST)).toEqual({
    older: true,
    line: `pulumi-discord-commands is tested with @pulumi/pulumi 3.216.0 to ${NEWEST}; this program runs 3.200.0: upgrade to 3.216.0 or later.`,
  });
  const newer = outsideTestedRange("@pulumi/pulumi", "3.300.0", NEWEST);
  expect(newer?.older).toBe(false);
  expect(newer?.line).not.toContain("\n");
  expect(compareVersions("3.274.1", "3.274.0")).toBeGreaterThan(0);
  expect(compareVersions("3.9.0", "3.10.0")).toBeLessThan(0);
});

test("package.json's peerDependencies state the tested range and nothing wider", () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    peerDependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  expect(pkg.peerDependencies["@pulumi/pulumi"]).toBe(
    `>=${TESTED_RANGE.oldest.nodejs} <=${TESTED_RANGE.newest.nodejs}`,
  );
  const pinned = pkg.devDependencies["@pulumi/pulumi"] ?? "";
  expect(outsideTestedRange("@pulumi/pulumi", pinned, NEWEST)).toBeUndefined();
});

test("the generated Python SDK requires the tested range of pulumi and nothing wider", () => {
  const pyproject = fs.readFileSync(path.join(ROOT, "sdks", "python", "pyproject.toml"), "utf8");
  const { oldest, newest } = TESTED_RANGE;
  expect(pyproject).toContain(`"pulumi>=${oldest.python},<=${newest.python}"`);
});

test("the generated TypeScript SDK depends on the tested range of @pulumi/pulumi and nothing wider", () => {
  const pkg = JSON.parse(
    fs.readFileSync(path.join(ROOT, "sdks", "nodejs", "package.json"), "utf8"),
  ) as { dependencies: Record<string, string> };
  // npm's hyphen range: `a - b` is `>=a <=b` (the generator's JSON would escape `<` and `>`).
  const { oldest, newest } = TESTED_RANGE;
  expect(pkg.dependencies["@pulumi/pulumi"]).toBe(`${oldest.nodejs} - ${newest.nodejs}`);
});

test.each(["oldest", "newest"] as const)(
  "the %s CLI's wrapper module pins the range's version",
  (end) => {
    const goMod = fs.readFileSync(path.join(ROOT, "toolchain", `pulumi-${end}`, "go.mod"), "utf8");
    const cli = TESTED_RANGE[end].cli;
    expect(goMod).toContain(`github.com/pulumi/pulumi/pkg/v3 v${cli}`);
    expect(goMod).toContain(`github.com/pulumi/pulumi/sdk/v3 v${cli}`);
  },
);
