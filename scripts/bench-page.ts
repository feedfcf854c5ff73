/**
 * `npm run bench:page`: the emulator's page at scale (not a test; prints figures).
 *
 * The scale bench's deployment (scripts/benchScale.ts): 100 slash commands with one
 * STRING option in the global scope and in 10 guilds, plus one command of another tool in
 * each scope, 1,111 in all, seeded through the service API's bulk overwrites. Then:
 *  - the first scope (global, the page's default) and a guild scope: the server's render
 *    time (over HTTP), and in Debian's Chromium the time from navigation to the scope's
 *    commands on screen; the goal is under a second;
 *  - a request log of 100,000 entries: the newest page, the oldest page and a filtered page
 *    (one scope of ten), server and browser.
 * Exits 1 when the first scope takes a second or more in the browser.
 *
 *   npm run bench:page [-- --runs 7]
 */
import util from "node:util";
import type { Browser, Page } from "playwright-core";
import { chromium } from "playwright-core";
import { startEmulator } from "../emulator";
import type { RequestLogEntry, RunningEmulator } from "../emulator";
import { CommandsApi } from "../provider/client";
import { browserInstalled, CHROMIUM_ARGS, CHROMIUM_PATH, MISSING_BROWSER } from "./browser";

const { values: flags } = util.parseArgs({ options: { runs: { type: "string", default: "7" } } });
const RUNS = Math.max(1, Number(flags.runs) || 7);
const APP = "1300000000000000001";
/** The scale bench's guild ids; its deployment uses the first 10. */
const GUILDS = Array.from({ length: 12 }, (_, i) => `14000000000000000${String(i + 10)}`);
const DEPLOYED_GUILDS = GUILDS.slice(0, 10);
const DEFINITIONS = 100;
const LOG_ENTRIES = 100_000;
const GOAL_MS = 1000;
/** Server runs not counted: the first renders of a path run cold code (the JIT warms up). */
const WARM_UP = 3;

const commands = Array.from({ length: DEFINITIONS }, (_, i) => ({
  name: `cmd${i}`,
  description: `Command ${i}`,
  options: [{ type: 3 as const, name: "text", description: "Some text" }],
}));
const notOurs = { type: 2 as const, name: "not-ours" };

function stats(values: number[]): { median: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)] ?? NaN, max: sorted.at(-1) ?? NaN };
}

function line(name: string, values: number[], extra = ""): string {
  const { median, max } = stats(values);
  return `${name.padEnd(44)} median ${median.toFixed(1).padStart(7)} ms  max ${max.toFixed(1).padStart(7)} ms${extra}`;
}

async function seed(emu: RunningEmulator): Promise<number> {
  const api = new CommandsApi({ apiUrl: emu.apiUrl, botToken: emu.botToken });
  try {
    await api.bulkOverwriteGlobalCommands(APP, [...commands, notOurs]);
    for (const g of DEPLOYED_GUILDS)
      await api.bulkOverwriteGuildCommands(APP, g, [...commands, notOurs]);
  } finally {
    await api.close();
  }
  return emu.store.allCommands().length;
}

/** Server side: the whole answer of `path`, over HTTP on loopback. */
async function serverTimes(
  emu: RunningEmulator,
  path: string,
): Promise<{ ms: number[]; bytes: number }> {
  const ms: number[] = [];
  let bytes = 0;
  for (let i = 0; i < RUNS + WARM_UP; i++) {
    const started = performance.now();
    const res = await fetch(`${emu.url}${path}`);
    bytes = (await res.text()).length;
    if (i >= WARM_UP) ms.push(performance.now() - started);
  }
  return { ms, bytes };
}

/** Browser side: navigation start to `ready` visible (the scope's commands on screen). */
async function browserTimes(page: Page, url: string, ready: string): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < RUNS + 1; i++) {
    const started = performance.now();
    await page.goto(url, { waitUntil: "commit" });
    await page.locator(ready).last().waitFor({ state: "visible" });
    if (i > 0) ms.push(performance.now() - started);
  }
  return ms;
}

async function main(): Promise<void> {
  if (!browserInstalled()) throw new Error(MISSING_BROWSER);
  const emu = await startEmulator({
    port: 0,
    rateLimits: false,
    config: {
      guilds: GUILDS.map((id) => ({
        id,
        name: `Guild ${id.slice(-2)}`,
        authorizedApplications: [APP],
      })),
    },
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS],
  });
  try {
    process.exitCode = (await measure(emu, browser)) ? 0 : 1;
  } finally {
    await browser.close();
    await emu.close();
  }
}

/** Prints the figures; true when the first scope is on screen in time. */
async function measure(emu: RunningEmulator, browser: Browser): Promise<boolean> {
  const count = await seed(emu);
  console.log(
    `[page] ${count} commands in ${DEPLOYED_GUILDS.length + 1} scopes; ${RUNS} runs each`,
  );
  const page = await browser.newPage();

  const first = await serverTimes(emu, "/");
  console.log(
    line(
      "first scope (global, 101): server render",
      first.ms,
      `  ${(first.bytes / 1024).toFixed(0)} KiB`,
    ),
  );
  const firstInBrowser = await browserTimes(page, `${emu.url}/`, "#scope details.cmd");
  console.log(line("first scope (global, 101): browser, on screen", firstInBrowser));
  const shown = await page.locator("#scope details.cmd").count();
  const guildPath = `/?scope=${DEPLOYED_GUILDS[0] ?? ""}`;
  const guild = await serverTimes(emu, guildPath);
  console.log(line("a guild scope (101): server render", guild.ms));
  console.log(
    line(
      "a guild scope (101): browser, on screen",
      await browserTimes(page, `${emu.url}${guildPath}`, "#scope details.cmd"),
    ),
  );
  const found = await serverTimes(emu, "/?q=cmd9");
  console.log(line("find 'cmd9' in the global scope: server", found.ms));

  emu.control.resetLog();
  const template: RequestLogEntry = {
    method: "GET",
    route: "listGuildCommands",
    path: "",
    status: 200,
    time: new Date().toISOString(),
    durationMs: 0.2,
  };
  const paths = [
    `/api/v10/applications/${APP}/commands`,
    ...DEPLOYED_GUILDS.slice(0, 9).map((g) => `/api/v10/applications/${APP}/guilds/${g}/commands`),
  ];
  for (let i = 0; i < LOG_ENTRIES; i++)
    emu.log.record({ ...template, path: paths[i % paths.length] ?? "" });
  const pages = Math.ceil(LOG_ENTRIES / 50);
  console.log(
    `[page] request log: ${emu.log.view().length.toLocaleString("en-US")} entries, ${pages.toLocaleString("en-US")} pages of 50`,
  );
  const newest = await serverTimes(emu, "/?logpage=1");
  console.log(line("log, newest page: server render (whole page)", newest.ms));
  console.log(
    line(
      "log, oldest page: server render (whole page)",
      (await serverTimes(emu, `/?logpage=${pages}`)).ms,
    ),
  );
  const filtered = `/?logscope=global&logpage=100`;
  console.log(
    line("log, one scope of ten, page 100: server", (await serverTimes(emu, filtered)).ms),
  );
  console.log(
    line(
      "log, oldest page: browser, on screen",
      await browserTimes(page, `${emu.url}/?logpage=${pages}#log`, "#log-rows tr"),
    ),
  );
  console.log(
    line(
      "log, filtered page 100: browser, on screen",
      await browserTimes(page, `${emu.url}${filtered}#log`, "#log-rows tr"),
    ),
  );

  const { median, max } = stats(firstInBrowser);
  const ok = shown === DEFINITIONS + 1 && max < GOAL_MS;
  console.log(
    `[page] first scope on screen: median ${median.toFixed(0)} ms, max ${max.toFixed(0)} ms, ${shown} commands (goal: under ${GOAL_MS} ms): ${ok ? "ok" : "FAILED"}`,
  );
  return ok;
}

main().catch((err: unknown) => {
  console.error(`bench:page failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
