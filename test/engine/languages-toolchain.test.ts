/**
 * The toolchain that `npm run setup` provides has a language host for every language the
 * package targets, not only Node, and the Python venv: a fresh machine whose setup missed
 * a host or the venv fails here, naming what is missing. Programs in those languages run
 * through the real CLI in test/engine/plugin-python.test.ts, plugin-go.test.ts and
 * plugin-yaml.test.ts (and test/package/artifacts.test.ts, from the release's packages).
 */
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
