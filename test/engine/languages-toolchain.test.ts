/**
 * The toolchain that `npm run setup` provides has a language host for every language the
 * package targets, not only Node, and the Python venv: a fresh machine whose setup missed
 * a host or the venv fails here, naming what is missing. Programs in those languages run
 * through the real CLI in test/engine/plugin-python.test.ts, plugin-go.test.ts and
 * plugin-yaml.test.ts (and test/package/artifacts.test.ts, from the release's packages).
 * The demo's setup (`npm start`) asks for the CLI and the Node.js host alone.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as Toolchain from "../../scripts/toolchain";
import { cachedHostCurrent, HOSTS } from "../../scripts/languageHosts";
import { OTHER_LANGUAGES, requireToolchain } from "../../scripts/toolchain";

describe("setup's toolchain for Python, Go and YAML", () => {
  test("setup found every language host and the Python venv", () => {
    const tc = requireToolchain();
    const missing = OTHER_LANGUAGES.filter((lang) => !tc.languageHosts[lang]);
    expect({ missingHosts: missing, pythonVenv: tc.pythonVenv !== undefined }).toEqual({
      missingHosts: [],
      pythonVenv: true,
    });
  });
});

/** `setup --demo`'s toolchain, from a module of its own (the test's remembers the machine's). */
async function demoSetup(): Promise<{ lines: string[]; demo: Toolchain.Toolchain | undefined }> {
  let toolchain: typeof Toolchain | undefined;
  jest.isolateModules(() => {
    toolchain = jest.requireActual<typeof Toolchain>("../../scripts/toolchain");
  });
  const lines: string[] = [];
  const demo = await toolchain?.ensureToolchain((line) => lines.push(line), { nodejsOnly: true });
  return { lines, demo };
}

/**
 * `npm start`'s setup (`setup --demo`) needs the CLI and its Node.js host only: from a
 * cache holding just those (links to this machine's), it builds nothing and finds no other
 * host, where a full setup would build the Python, Go and YAML hosts.
 */
describe("setup for the demo", () => {
  const saved = process.env["XDG_CACHE_HOME"];
  let cache: string;

  beforeAll(() => {
    const tc = requireToolchain();
    cache = fs.mkdtempSync(path.join(os.tmpdir(), "discord-demo-cache-"));
    const bin = path.join(cache, "pulumi-discord-commands", `pulumi-v${tc.pulumiVersion}`, "bin");
    fs.mkdirSync(bin, { recursive: true });
    for (const file of ["pulumi", "pulumi-language-nodejs"]) {
      fs.symlinkSync(path.join(tc.pulumiBinDir, file), path.join(bin, file));
    }
    // The stamp that says what the cached host was built from (a CLI on PATH has none).
    const stamp = ".pulumi-language-nodejs.source";
    if (tc.source === "cache") {
      fs.copyFileSync(path.join(tc.pulumiBinDir, stamp), path.join(bin, stamp));
    }
    process.env["XDG_CACHE_HOME"] = cache;
  });

  afterAll(() => {
    if (saved === undefined) delete process.env["XDG_CACHE_HOME"];
    else process.env["XDG_CACHE_HOME"] = saved;
    fs.rmSync(cache, { recursive: true, force: true });
  });

  test("builds nothing more than the CLI and the Node.js host", async () => {
    const { lines, demo } = await demoSetup();
    expect(lines.filter((line) => /Building|waiting/.test(line))).toEqual([]);
    // From the cache, the other hosts are absent (a CLI on PATH brings its own beside it).
    if (demo?.source === "cache") {
      expect(demo.pulumiBinDir.startsWith(cache)).toBe(true);
      expect(demo.languageHosts).toEqual({});
    }
  });

  test("a Node.js host built with the machine's Go runs the demo, but generates no SDK", async () => {
    const tc = requireToolchain();
    if (tc.source !== "cache") return; // a CLI on PATH brings Pulumi's own host
    const bin = path.join(cache, "pulumi-discord-commands", `pulumi-v${tc.pulumiVersion}`, "bin");
    const stamp = path.join(bin, ".pulumi-language-nodejs.source");
    const built = fs.readFileSync(stamp, "utf8");
    expect(built).toMatch(/ built with go1\.25\.0\n$/);
    // What `setup --demo` writes when the machine's Go (here a newer one) built the host.
    fs.writeFileSync(stamp, built.replace(/go1\.25\.0/, "go1.26.8"));
    expect(cachedHostCurrent(bin, HOSTS.nodejs, "run")).toBe(true);
    expect(cachedHostCurrent(bin, HOSTS.nodejs, "generate")).toBe(false);
    const { lines, demo } = await demoSetup();
    expect(lines.filter((line) => /Building|waiting/.test(line))).toEqual([]);
    expect(demo?.pulumiBinDir).toBe(bin);
    // Another pin's stamp is no host at all, whatever Go built it.
    fs.writeFileSync(stamp, built.replace(/ v\S+ built/, " v3.0.0-0 built"));
    expect(cachedHostCurrent(bin, HOSTS.nodejs, "run")).toBe(false);
  });
});
