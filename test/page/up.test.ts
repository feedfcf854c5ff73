/**
 * The emulator's page while a real `pulumi up` runs (the CLI, the dynamic resources): the
 * request log shows the deployment's first write live, with no reload, while the `up` is
 * still running (its second create is answered 3 s late by the emulator), and the scope
 * shows the new command. What a user watching the page during a deployment sees.
 */
import type { Browser, Page } from "playwright-core";
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import type { PulumiProgram } from "../../scripts/pulumiProgram";
import { programAgainst } from "../engine/lifecycle.helpers";
import { launchBrowser } from "./browser";

jest.setTimeout(120_000);

let emu: RunningEmulator;
let browser: Browser;
let page: Page;
let prog: PulumiProgram;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, rateLimits: false });
  browser = await launchBrowser();
  page = await browser.newPage();
  prog = await programAgainst(
    emu,
    "page-up",
    `
import * as discord from "pulumi-discord-commands";
const first = new discord.GlobalCommand("first", { name: "first", description: "The first" });
new discord.GlobalCommand("second", { name: "second", description: "The second" }, { dependsOn: first });
`,
  );
});

afterAll(async () => {
  prog?.cleanup();
  await browser?.close();
  await emu?.close();
});

test("a request arrives on the page while pulumi up runs", async () => {
  await page.goto(`${emu.url}/#log`);
  // The first create is answered at once, the second 3 s late: the up is still running
  // when the first row must show.
  emu.control.setFaults({
    rules: [
      {
        route: "createGlobalCommand",
        sequence: [{ type: "pass" }, { type: "delay", ms: 3000 }],
      },
    ],
  });
  let upDone = false;
  const up = prog.up().finally(() => {
    upDone = true;
  });
  const row = page.locator("#log-rows tr", { hasText: "createGlobalCommand" }).first();
  await row.waitFor({ timeout: 60_000 });
  expect(upDone).toBe(false);
  await expect(row.innerText()).resolves.toMatch(/POST\s+\/api\/v10\/applications\/\d+\/commands/);
  await page.locator('#scope details[data-command="first"]').waitFor({ timeout: 5000 });
  await up;
  emu.control.clearFaults();
  expect(emu.control.commands().map((c) => c["name"])).toEqual(["first", "second"]);
});
