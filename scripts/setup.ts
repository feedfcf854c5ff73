/**
 * `npm run setup` (also run before `npm start` and `npm test`): makes sure Node >= 22,
 * the Pulumi CLI matching `@pulumi/pulumi`, its Node.js language host and the
 * dynamic-provider plugin script are available, building the CLI offline if needed, and
 * builds the package into `dist/`.
 * Idempotent; seconds when everything is already there. A step that cannot be done
 * stops with one message that says what to install.
 */
import { buildPackage, ensureToolchain, SetupError } from "./toolchain";

async function main(): Promise<void> {
  const started = Date.now();
  const log = (line: string): void => console.log(line);
  try {
    const tc = await ensureToolchain(log);
    buildPackage(log);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    log(
      `setup: pulumi v${tc.pulumiVersion} (${tc.source === "path" ? "found on PATH" : "cached"} in ${tc.pulumiBinDir}), ` +
        `node from ${tc.nodeBinDir}, ready in ${seconds}s`,
    );
  } catch (err) {
    const message = err instanceof SetupError ? err.message : String(err);
    console.error(`setup failed: ${message}`);
    process.exit(1);
  }
}

void main();
