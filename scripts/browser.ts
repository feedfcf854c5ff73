/**
 * The browser of the page's tests: Debian's Chromium (`/usr/bin/chromium`), driven by
 * playwright-core, which downloads no browser of its own (its own download cannot reach
 * its servers from these machines). `npm run setup` installs the package when it is
 * missing, as root; where it cannot, it says so and carries on, and the browser tests then
 * fail with the same message (they never skip).
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";

/** Where Debian's package puts it; `CHROMIUM_PATH` names another build. */
export const CHROMIUM_PATH = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";

/**
 * The flags the tests start it with: headless, no sandbox (tests run as root), and no
 * background connections, which this machine's closed network refuses.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export const MISSING_BROWSER =
  `Chromium is not installed at ${CHROMIUM_PATH}: the browser tests of the emulator's page ` +
  "need it. Install Debian's package as root (`apt-get install -y chromium`, or run " +
  "`npm run setup` as root), or set CHROMIUM_PATH to a Chromium build.";

export function browserInstalled(): boolean {
  return fs.existsSync(CHROMIUM_PATH);
}

function run(command: string, args: string[]): boolean {
  const result = spawnSync(command, args, {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    timeout: 15 * 60_000,
  });
  return result.status === 0;
}

/** Installs Chromium from Debian's packages when missing; never fails setup. */
export function ensureBrowser(log: (line: string) => void): void {
  if (browserInstalled()) {
    let version: string;
    try {
      version = execFileSync(CHROMIUM_PATH, ["--version"], {
        encoding: "utf8",
        timeout: 30_000,
        // Debian's wrapper script prints a shell warning on stderr: only the version counts.
        stdio: ["ignore", "pipe", "ignore"],
      });
    } catch {
      version = "(version unknown)";
    }
    log(`setup: browser ${version.trim()} at ${CHROMIUM_PATH}`);
    return;
  }
  const root = process.getuid?.() === 0;
  const hasApt = fs.existsSync("/usr/bin/apt-get");
  if (!root || !hasApt || process.env["CHROMIUM_PATH"] !== undefined) {
    log(
      `setup: skipped the browser install (${!hasApt ? "no apt-get here" : !root ? "not root" : "CHROMIUM_PATH names another build"}). ${MISSING_BROWSER}`,
    );
    return;
  }
  log("setup: installing Chromium from Debian's packages (apt-get install -y chromium)...");
  // A fresh machine may have no package lists yet: update once, only when the install fails.
  const installed =
    run("apt-get", ["install", "-y", "chromium"]) ||
    (run("apt-get", ["update"]) && run("apt-get", ["install", "-y", "chromium"]));
  if (installed && browserInstalled()) log(`setup: Chromium installed at ${CHROMIUM_PATH}`);
  else log(`setup: the Chromium install failed. ${MISSING_BROWSER}`);
}
