/**
 * The release workflow (.github/workflows/release.yml): actionlint finds nothing in it,
 * and it runs nothing that the release test (test/engine/release.test.ts) does not run:
 * a checkout of the tagged commit and of the site branch, `npm ci`, and `npm run release`
 * with the flags the test passes (the same set), whose plugin server is the schema's
 * `pluginDownloadURL` for the release repository.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { PLUGIN_DOWNLOAD_URL, RELEASE_REPOSITORY } from "../../provider/package/schema";
import { requireRegistryTools } from "../../scripts/registryTools";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import { RELEASE_TEST_FLAGS } from "../engine/releaseRegistries.helpers";

const WORKFLOW = path.join(PROJECT_ROOT, ".github", "workflows", "release.yml");
const text = fs.readFileSync(WORKFLOW, "utf8");

test("actionlint finds nothing in the release workflow", async () => {
  const { actionlint } = requireRegistryTools();
  const res = await new Promise<{ code: number; out: string }>((resolve) => {
    execFile(actionlint, ["-no-color", WORKFLOW], { cwd: PROJECT_ROOT }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : Number(err.code ?? 1), out: stdout + stderr });
    });
  });
  expect(res).toEqual({ code: 0, out: "" });
});

/** The workflow's steps as written: each `uses:` and each `run:` (folded lines joined). */
function steps(): string[] {
  const found: string[] = [];
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    const uses = /^\s+- uses: (\S+)/.exec(line);
    if (uses?.[1]) found.push(`uses ${uses[1]}`);
    const run = /^\s+(?:- )?run: (.*)$/.exec(line);
    if (!run?.[1]) return;
    if (run[1] !== ">-") return void found.push(`run ${run[1]}`);
    const folded: string[] = [];
    for (let j = i + 1; j < lines.length && /^\s{10,}\S/.test(lines[j] ?? ""); j++) {
      folded.push((lines[j] ?? "").trim());
    }
    found.push(`run ${folded.join(" ")}`);
  });
  return found;
}

test("the workflow runs what the release test runs, with the same flags", () => {
  const all = steps();
  expect(all.slice(0, 3)).toEqual([
    "uses actions/checkout@v4",
    "uses actions/checkout@v4",
    "run npm ci",
  ]);
  expect(all).toHaveLength(4);
  const release = all[3] ?? "";
  expect(release.startsWith("run npm run release -- ")).toBe(true);
  const flags = release.split(" ").filter((word) => word.startsWith("--") && word !== "--");
  expect(flags.sort()).toEqual([...RELEASE_TEST_FLAGS].sort());
  // The plugin server it names is the schema's pluginDownloadURL for the repository.
  const server = /--plugin-server "([^"]+)"/.exec(release)?.[1] ?? "";
  const evaluated = server
    .replace("${OWNER}", RELEASE_REPOSITORY.owner)
    .replace("${REPOSITORY}", RELEASE_REPOSITORY.name);
  expect(evaluated).toBe(PLUGIN_DOWNLOAD_URL);
  expect(text).toMatch(/OWNER: \$\{\{ github\.repository_owner \}\}/);
  expect(text).toMatch(/REPOSITORY: \$\{\{ github\.event\.repository\.name \}\}/);
  expect(text).toMatch(/NPM_TOKEN: \$\{\{ secrets\.NPM_TOKEN \}\}/);
  expect(text).toMatch(/PYPI_TOKEN: \$\{\{ secrets\.PYPI_TOKEN \}\}/);
});
