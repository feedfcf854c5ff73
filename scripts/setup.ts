/**
 * `npm run setup` (also run before `npm start` and `npm test`): makes sure Node >= 22,
 * the Pulumi CLI matching `@pulumi/pulumi`, its language hosts (Node.js, Python, Go,
 * YAML), the dynamic-provider plugin script and the Python virtual environment are
 * available, building them offline if needed, and builds the package into `dist/`. For
 * the tests also the CLIs at the ends of the tested Pulumi range, Chromium, pypiserver and
 * actionlint (scripts/registryTools.ts); `--demo` (before `npm start`) leaves those out,
 * and the Python, Go and YAML hosts and the Python venv: the demo runs one Node.js program.
 * Idempotent; seconds when everything is already there. A step that cannot be done
 * stops with one message that says what to install.
 */
import * as path from "node:path";
import {
  buildPackage,
  ensureToolchain,
  OTHER_LANGUAGES,
  PROJECT_ROOT,
  SetupError,
} from "./toolchain";
import { ensureBrowser } from "./browser";
import { ensureRegistryTools } from "./registryTools";
import { ensureRangeToolchains } from "./versionRange";

async function main(): Promise<void> {
  const started = Date.now();
  const log = (line: string): void => console.log(line);
  try {
    const forDemo = process.argv.includes("--demo");
    const tc = await ensureToolchain(log, { nodejsOnly: forDemo });
    // The oldest and newest Pulumi of the tested range, for the engine smoke at each end.
    if (!forDemo) await ensureRangeToolchains(tc, log);
    buildPackage(log);
    if (!forDemo) ensureBrowser(log);
    // The registries the release test publishes to (pypiserver) and actionlint.
    if (!forDemo) await ensureRegistryTools(log);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const hosts = OTHER_LANGUAGES.filter((lang) => tc.languageHosts[lang]);
    const venv = tc.pythonVenv ? path.relative(PROJECT_ROOT, tc.pythonVenv) : "none";
    log(
      `setup: pulumi v${tc.pulumiVersion} (${tc.source === "path" ? "found on PATH" : "cached"} in ${tc.pulumiBinDir}), ` +
        `hosts nodejs${hosts.map((h) => `, ${h}`).join("")}, Python venv ${venv}, ` +
        `node from ${tc.nodeBinDir}, ready in ${seconds}s`,
    );
  } catch (err) {
    const message = err instanceof SetupError ? err.message : String(err);
    console.error(`setup failed: ${message}`);
    process.exit(1);
  }
}

void main();
