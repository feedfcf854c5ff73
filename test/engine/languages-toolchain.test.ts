/**
 * The toolchain that `npm run setup` provides runs Pulumi programs in every language the
 * package targets, not only Node: a trivial Python, Go and YAML program (one stack output,
 * no resources; test/fixtures/languages/) each go through the real CLI, their language
 * host and SDK, offline. A fresh machine whose setup missed a host or the Python venv
 * fails here, naming what is missing.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { PulumiProgram } from "../../scripts/pulumiProgram";
import { OTHER_LANGUAGES, requireToolchain, type OtherLanguage } from "../../scripts/toolchain";

// A Go program's first build compiles what the CLI's build did not (about a minute on a
// loaded machine); later runs take seconds.
jest.setTimeout(300_000);

const FIXTURES = path.join(__dirname, "..", "fixtures", "languages");

function fixture(lang: OtherLanguage): Record<string, string> {
  const dir = path.join(FIXTURES, lang);
  return Object.fromEntries(
    fs.readdirSync(dir).map((file) => [file, fs.readFileSync(path.join(dir, file), "utf8")]),
  );
}

/** `Pulumi.yaml` of the Python and Go projects (the YAML one is its own fixture). */
function project(lang: "python" | "go"): string {
  const name = `languages-toolchain-${lang}`;
  if (lang === "go") return `name: ${name}\nruntime: go\n`;
  // The venv is named in the project, as users name theirs; an absolute path, because the
  // program runs from a scratch folder.
  const venv = requireToolchain().pythonVenv ?? "(no venv: run `npm run setup`)";
  return `name: ${name}\nruntime:\n  name: python\n  options:\n    virtualenv: ${JSON.stringify(venv)}\n`;
}

describe("setup's toolchain runs programs in Python, Go and YAML", () => {
  const programs: PulumiProgram[] = [];
  afterAll(() => programs.forEach((prog) => prog.cleanup()));

  test("setup found every language host and the Python venv", () => {
    const tc = requireToolchain();
    const missing = OTHER_LANGUAGES.filter((lang) => !tc.languageHosts[lang]);
    expect({ missingHosts: missing, pythonVenv: tc.pythonVenv !== undefined }).toEqual({
      missingHosts: [],
      pythonVenv: true,
    });
  });

  test.each([
    ["python", "hello from python 3.", /^hello from python 3\.\d+ on stack dev$/],
    ["go", "hello from go", /^hello from go on stack dev$/],
    ["yaml", "hello from yaml", /^hello from yaml on stack dev$/],
  ] as const)(
    "a %s program's stack output comes out of `pulumi up`",
    async (lang, shown, output) => {
      const files = fixture(lang);
      if (lang !== "yaml") files["Pulumi.yaml"] = project(lang);
      const prog = new PulumiProgram(`lang-${lang}`, files);
      programs.push(prog);
      await prog.stack("dev");
      const started = Date.now();
      const res = await prog.up();
      console.log(`${lang}: pulumi up took ${((Date.now() - started) / 1000).toFixed(1)} s`);
      expect(res.stdout).toContain(shown);
      const outputs = await prog.outputs();
      expect(Object.keys(outputs)).toEqual(["greeting"]);
      expect(outputs["greeting"]).toMatch(output);
    },
  );
});
