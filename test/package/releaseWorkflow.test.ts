/**
 * The release workflow (.github/workflows/release.yml): actionlint finds nothing in it; it
 * is split as hardened release workflows are (a build job that holds no publishing secret
 * and keeps no git credential while dependencies' scripts run, a publish job in a
 * protected environment that uploads only what the build made, Node 22, one release at a
 * time); and it runs nothing that the release test (test/engine/release.test.ts) does not
 * run: checkouts, `npm ci`, and `npm run release` with the flags the test passes to its
 * two steps, whose plugin server is the schema's `pluginDownloadURL` for the repository.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { parse as parseYaml } from "yaml";
import { PLUGIN_DOWNLOAD_URL, RELEASE_REPOSITORY } from "../../provider/package/schema";
import { requireRegistryTools } from "../../scripts/registryTools";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import { RELEASE_TEST_FLAGS } from "../engine/releaseRegistries.helpers";

const WORKFLOW = path.join(PROJECT_ROOT, ".github", "workflows", "release.yml");
const text = fs.readFileSync(WORKFLOW, "utf8");

interface Step {
  readonly uses?: string;
  readonly run?: string;
  readonly with?: Record<string, string | number | boolean>;
  readonly env?: Record<string, string>;
}
interface Job {
  readonly needs?: string;
  readonly environment?: string;
  readonly permissions?: Record<string, string>;
  readonly steps: Step[];
}
interface Workflow {
  readonly permissions?: Record<string, string>;
  readonly concurrency?: { group?: string; "cancel-in-progress"?: boolean };
  readonly jobs: Record<string, Job>;
}

const workflow = parseYaml(text) as Workflow;

test("actionlint finds nothing in the release workflow", async () => {
  const { actionlint } = requireRegistryTools();
  const res = await new Promise<{ code: number; out: string }>((resolve) => {
    execFile(actionlint, ["-no-color", WORKFLOW], { cwd: PROJECT_ROOT }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : Number(err.code ?? 1), out: stdout + stderr });
    });
  });
  expect(res).toEqual({ code: 0, out: "" });
});

/** Each step as `uses <action>` or `run <command>`. */
function steps(job: Job): string[] {
  return job.steps.map((s) => (s.uses ? `uses ${s.uses}` : `run ${s.run ?? ""}`));
}

/** The flags of a `npm run release -- ...` command. */
function flags(command: string): string[] {
  expect(command.startsWith("npm run release -- ")).toBe(true);
  return command
    .split(" ")
    .filter((word) => word.startsWith("--") && word !== "--")
    .sort();
}

test("two jobs: a build with no secret and no kept git credential, a publish of what it made, in a protected environment; one at a time", () => {
  expect(Object.keys(workflow.jobs)).toEqual(["build", "publish"]);
  const { build, publish } = workflow.jobs as { build: Job; publish: Job };
  expect(workflow.permissions).toEqual({});
  expect(workflow.concurrency).toEqual({ group: "release", "cancel-in-progress": false });

  expect(steps(build)).toEqual([
    "uses actions/checkout@v4",
    "uses actions/setup-node@v4",
    "run npm ci",
    expect.stringMatching(/^run npm run release -- --build /),
    "uses actions/upload-artifact@v4",
  ]);
  expect(build.permissions).toEqual({ contents: "read" });
  expect(build.steps[0]?.with?.["persist-credentials"]).toBe(false);
  expect(build.steps[1]?.with?.["node-version"]).toBe(22);
  // No secret anywhere in the build job.
  expect(JSON.stringify(build)).not.toMatch(/secrets\./);

  expect(publish.needs).toBe("build");
  expect(publish.environment).toBe("release");
  expect(publish.permissions).toEqual({ contents: "write" });
  expect(steps(publish)).toEqual([
    "uses actions/checkout@v4",
    "uses actions/setup-node@v4",
    // No dependency's script runs where the tokens are.
    "run npm ci --ignore-scripts",
    "uses actions/download-artifact@v4",
    // The site's checkout (its credential kept, to push) comes after npm ci.
    "uses actions/checkout@v4",
    expect.stringMatching(/^run npm run release -- --from /),
  ]);
  expect(publish.steps[0]?.with?.["persist-credentials"]).toBe(false);
  expect(publish.steps[1]?.with?.["node-version"]).toBe(22);
  expect(publish.steps[4]?.with).toEqual({ ref: "release-site", path: ".work/release-site" });
  // The tokens are in the environment of the one step that publishes, and nowhere else.
  const release = publish.steps[5] ?? {};
  expect(release.env).toEqual({
    NPM_TOKEN: "${{ secrets.NPM_TOKEN }}",
    PYPI_TOKEN: "${{ secrets.PYPI_TOKEN }}",
  });
  expect(text.match(/secrets\./g)).toHaveLength(2);
  // The publish job takes the folder the build job uploaded.
  const uploaded = build.steps[4]?.with ?? {};
  const downloaded = publish.steps[3]?.with ?? {};
  expect(downloaded).toEqual({ name: uploaded["name"], path: uploaded["path"] });
  expect(build.steps[3]?.run).toContain(`--out "$RUNNER_TEMP/release-build"`);
  expect(release.run).toContain(`--from "$RUNNER_TEMP/release-build"`);
  expect(uploaded["path"]).toBe("${{ runner.temp }}/release-build");
});

test("the workflow's two release commands take the flags the release test passes", () => {
  const { build, publish } = workflow.jobs as { build: Job; publish: Job };
  const buildCommand = build.steps[3]?.run ?? "";
  const publishCommand = publish.steps[5]?.run ?? "";
  expect(flags(buildCommand)).toEqual([...RELEASE_TEST_FLAGS.build].sort());
  expect(flags(publishCommand)).toEqual([...RELEASE_TEST_FLAGS.publish].sort());
  // The plugin server it names is the schema's pluginDownloadURL for the repository.
  const server = /--plugin-server "([^"]+)"/.exec(buildCommand)?.[1] ?? "";
  const evaluated = server
    .replace("${OWNER}", RELEASE_REPOSITORY.owner)
    .replace("${REPOSITORY}", RELEASE_REPOSITORY.name);
  expect(evaluated).toBe(PLUGIN_DOWNLOAD_URL);
  expect(build.steps[3]?.env).toEqual({
    OWNER: "${{ github.repository_owner }}",
    REPOSITORY: "${{ github.event.repository.name }}",
  });
});
