/**
 * The emulator's page in a real browser (Debian's Chromium under playwright-core), after
 * the demo's kind of deployment: what a user does (find a command, switch the locale,
 * evaluate a member, watch requests arrive during a deployment, page through the log)
 * and the bad input of the issue (unknown ids, a huge description, markup in a command,
 * a log of 100,000 entries). Every token stays off the page.
 */
import type { Browser, Page } from "playwright-core";
import type { RequestLogEntry, RunningEmulator } from "../../emulator";
import { globalInputs, globalProvider, setup, teardown } from "../provider/helpers";
import { startHandler } from "../emulator/interactionHandler";
import type { TestHandler } from "../emulator/interactionHandler";
import { launchBrowser } from "./browser";
import type { DemoIds } from "./demoDeployment";
import { deployDemo } from "./demoDeployment";

let emu: RunningEmulator;
let browser: Browser;
let page: Page;
let ids: DemoIds;
let handler: TestHandler;

beforeAll(async () => {
  emu = await setup();
  ids = await deployDemo(emu);
  browser = await launchBrowser();
  page = await browser.newPage();
  handler = await startHandler(emu.publicKey);
  await emu.setInteractionsEndpoint(handler.url);
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await handler?.close();
  await teardown(emu);
});

const pageUrl = (query = ""): string => `${emu.url}/${query}`;
const names = (selector: string) =>
  page.locator(selector).evaluateAll((els) => els.map((e) => e.getAttribute("data-command")));

test("after the demo's deployment: the global scope as the picker lists it, a command found, a guild's overwrites", async () => {
  await page.goto(pageUrl());
  expect(await names("#scope details.cmd")).toEqual([
    "ping",
    "roll",
    "settings",
    "Show Profile",
    "Report Message",
  ]);
  const settings = page.locator('details[data-command="settings"]');
  await settings.locator("summary").click();
  await expect(settings.innerText()).resolves.toContain("/settings notifications channel");
  await expect(settings.innerText()).resolves.toContain("MANAGE_GUILD");
  await expect(settings.locator("ul.tree").first().innerText()).resolves.toMatch(
    /CHANNEL\s*target.*channels: GUILD_TEXT, GUILD_ANNOUNCEMENT/,
  );

  await page.fill("#find", "dice");
  await page.press("#find", "Enter");
  await page.waitForURL(/q=dice/);
  expect(await names("#scope details.cmd")).toEqual(["roll"]);
  await expect(page.locator("#scope-count").innerText()).resolves.toBe("1 of 5 commands match");

  await page.click(`nav.scopes a[data-scope="${emu.guildId}"]`);
  expect(await names("#scope details.cmd")).toEqual(["announce", "ban", "meme"]);
  const ban = page.locator(`#cmd-${ids.ban}`);
  await ban.locator("summary").click();
  const overwrites = await ban.locator("table.overwrites").innerText();
  expect(overwrites).toMatch(/ROLE\s+@everyone.*deny/);
  expect(overwrites).toMatch(/ROLE\s+@Manager.*allow/);
  expect(overwrites).toMatch(/CHANNEL\s+#general.*deny/);
  await expect(page.locator(`#cmd-${ids.meme} summary`).innerText()).resolves.toContain("NSFW");
});

test("the page keeps to its own Content Security Policy: nothing refused, the live toggle laid out in a row", async () => {
  const refused: string[] = [];
  const listen = (message: { type(): string; text(): string }) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
  };
  page.on("console", listen);
  try {
    await page.goto(pageUrl());
    const toggle = page.locator("label:has(#live)");
    await expect(
      toggle.evaluate(
        (label) => label.ownerDocument.defaultView?.getComputedStyle(label).flexDirection,
      ),
    ).resolves.toBe("row");
  } finally {
    page.off("console", listen);
  }
  expect(refused).toEqual([]);
});

test("the locale switch follows the service's fallbacks", async () => {
  await globalProvider.create(
    globalInputs(emu, {
      name: "color",
      nameLocalizations: { "en-US": "color-us" },
      description: "Pick a color",
    }),
  );
  await page.goto(pageUrl());
  await page.selectOption("#locale", "fr");
  await page.click("#find-form button[type=submit]");
  await page.waitForURL(/locale=fr/);
  const settings = page.locator('details[data-command="settings"] summary');
  await expect(settings.innerText()).resolves.toContain("/réglages");
  await expect(page.locator('details[data-command="ping"] summary').innerText()).resolves.toContain(
    "Vérifier que le bot répond",
  );
  // Without a French name the default shows, marked as such.
  await expect(
    page.locator('details[data-command="roll"] summary .loc').first().innerText(),
  ).resolves.toBe("default");

  await page.goto(pageUrl("?locale=es-419"));
  await expect(settings.innerText()).resolves.toMatch(/\/ajustes\s*es-ES fallback/);
  await page.goto(pageUrl("?locale=en-GB"));
  await expect(page.locator('details[data-command="color"] summary').innerText()).resolves.toMatch(
    /\/color-us\s*en-US fallback/,
  );
  // The picker's order is the shown names' order.
  await page.goto(pageUrl("?locale=fr"));
  const slash = await names("#scope details.cmd");
  expect(slash.slice(0, 4)).toEqual(["color", "ping", "settings", "roll"]);
});

test("as a member: which commands the picker shows and who may use them, and why; unknown ids are said, not thrown", async () => {
  const channelId = emu.config.guilds[0]?.channels[0]?.id ?? "";
  await page.goto(pageUrl());
  await page.fill('#member-form input[name="mguild"]', emu.guildId);
  await page.fill('#member-form input[name="member"]', emu.userId);
  await page.fill('#member-form input[name="channel"]', channelId);
  await page.click("#evaluate");
  await page.waitForSelector("#member-table");
  const row = (name: string) =>
    page.locator(`#member-table tr[data-command="${name}"]`).innerText();
  await expect(row("ban")).resolves.toMatch(
    /hidden\s+no\s+the command's overwrites deny the channel/,
  );
  await expect(row("announce")).resolves.toMatch(/shown\s+yes/);
  await expect(row("meme")).resolves.toContain("not age-verified");
  await expect(row("settings")).resolves.toMatch(
    /shown\s+yes\s+the member has the default_member_permissions 32/,
  );
  await expect(page.locator("#member-summary").innerText()).resolves.toMatch(
    /emulated-admin .*roles @Manager/,
  );

  await page.fill('#member-form input[name="mguild"]', "999999999999999999");
  await page.click("#evaluate");
  await expect(page.locator("#member-error").innerText()).resolves.toBe(
    "No guild 999999999999999999 in the emulator's configuration.",
  );
  await page.fill('#member-form input[name="mguild"]', emu.guildId);
  await page.fill('#member-form input[name="member"]', '<img src=x onerror="window.__pwned=1">');
  await page.click("#evaluate");
  await expect(page.locator("#member-error").innerText()).resolves.toContain(
    '<img src=x onerror="window.__pwned=1">',
  );
  expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
});

test("requests arrive live while a deployment runs, and the scope filter keeps to its scope", async () => {
  await page.goto(pageUrl("#log"));
  const newestSeq = Number(await page.locator("#log-rows tr").first().getAttribute("data-seq"));
  const created = await globalProvider.create(
    globalInputs(emu, { name: "deploy-live", description: "Live" }),
  );
  // No reload: the row comes in through the page's live updates.
  const arrived = page.locator("#log-rows tr", { hasText: "createGlobalCommand" }).first();
  const newestShown = async () =>
    Number(await page.locator("#log-rows tr").first().getAttribute("data-seq"));
  for (const deadline = Date.now() + 5000; (await newestShown()) <= newestSeq;) {
    if (Date.now() > deadline) throw new Error("no new row in the request log within 5 s");
    await page.waitForTimeout(100);
  }
  expect(Number(await arrived.getAttribute("data-seq"))).toBeGreaterThan(newestSeq);
  await expect(arrived.innerText()).resolves.toMatch(
    /POST\s+\/api\/v10\/applications\/\d+\/commands/,
  );
  // The scope shows the new command too, still without a reload.
  await page.locator('#scope details[data-command="deploy-live"]').waitFor({ timeout: 5000 });
  await page.locator("#changed").waitFor({ state: "visible" });
  expect(created.id).toMatch(/^\d+$/);

  await page.selectOption("#logscope", emu.guildId);
  await page.click("#log button[type=submit]");
  await page.waitForURL(/logscope=/);
  const scopes = await page
    .locator("#log-rows tr")
    .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-scope")));
  expect(scopes.length).toBeGreaterThan(0);
  expect(new Set(scopes)).toEqual(new Set([emu.guildId]));
});

test("markup in a command's name and description is shown as text, never run; a huge description is cut", async () => {
  const { id } = await globalProvider.create(
    globalInputs(emu, { name: "markup", description: "<script>window.__pwned=3</script>" }),
  );
  // Drift through the control API skips validation: a name and a description no client could send.
  emu.control.patchCommand(id, {
    name: "<script>window.__pwned=4</script>",
    name_localizations: { fr: '<img src=x onerror="window.__pwned=5">' },
  });
  const huge = await globalProvider.create(
    globalInputs(emu, { name: "huge", description: "Huge" }),
  );
  emu.control.patchCommand(huge.id, { description: "x".repeat(200_000) });
  for (const query of ["", "?locale=fr"]) {
    await page.goto(pageUrl(query));
    const summary = await page.locator(`#cmd-${id} summary`).innerText();
    expect(summary).toContain("<script>window.__pwned=3</script>");
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
  }
  await expect(page.locator(`#cmd-${id} summary`).innerText()).resolves.toContain(
    '<img src=x onerror="window.__pwned=5">',
  );
  await expect(page.locator(`#cmd-${huge.id} summary`).innerText()).resolves.toContain(
    "(200,000 characters)",
  );
});

test("interactions delivered, with every token redacted", async () => {
  const result = await emu.invoke({
    guildId: emu.guildId,
    channelId: emu.config.guilds[0]?.channels[0]?.id ?? "",
    userId: emu.userId,
    name: "ping",
  });
  expect(result.outcome).toBe("delivered");
  const token = String(result.interaction?.["token"]);
  const res = await fetch(pageUrl());
  const html = await res.text();
  expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
  for (const secret of [emu.botToken, emu.clientSecret, emu.userBearerToken, token]) {
    expect(html).not.toContain(secret);
  }
  await page.goto(pageUrl("#interactions"));
  const row = page.locator("#interactions-table tbody tr").first();
  await expect(row.innerText()).resolves.toMatch(/ping.*delivered/s);
  await row.locator("details summary").first().click();
  await expect(row.locator("pre").first().innerText()).resolves.toContain('"token": "[redacted]"');
});

test("a log of 100,000 entries: paged, each page quick", async () => {
  emu.control.resetLog();
  const base: RequestLogEntry = {
    method: "GET",
    route: "listGuildCommands",
    path: `/api/v10/applications/${emu.applicationId}/guilds/${emu.guildId}/commands`,
    status: 200,
    time: new Date().toISOString(),
    durationMs: 0.1,
  };
  for (let i = 0; i < 100_000; i++) {
    emu.log.record(
      i % 10 === 0
        ? {
            ...base,
            method: "POST",
            path: `/api/v10/applications/${emu.applicationId}/commands`,
            status: 400,
            error: `{"code":50035,"message":"Invalid Form Body ${i}"}`,
          }
        : base,
    );
  }
  const timed = async (go: () => Promise<unknown>): Promise<number> => {
    const started = performance.now();
    await go();
    return performance.now() - started;
  };
  const first = await timed(() => page.goto(pageUrl("?logpage=1#log")));
  await expect(page.locator("#log-total").innerText()).resolves.toMatch(/^100,000 requests/);
  expect(await page.locator("#log-rows tr").count()).toBe(50);
  const oldest = await timed(() =>
    Promise.all([page.waitForURL(/logpage=2000/), page.click("#pager-top a:text('oldest')")]),
  );
  await expect(page.locator("#log-rows tr").last().getAttribute("data-seq")).resolves.toBe("1");
  const filtered = await timed(() => page.goto(pageUrl("?logscope=global&logpage=7#log")));
  await expect(page.locator("#log-total").innerText()).resolves.toMatch(/^10,000 requests/);
  await expect(page.locator("#pager-top").innerText()).resolves.toContain("page 7 of 200");
  await expect(page.locator("#log-rows tr").first().innerText()).resolves.toContain(
    "Invalid Form Body",
  );
  // Generous bounds for a shared machine; scripts/bench-page.ts measures the real figures.
  for (const ms of [first, oldest, filtered]) expect(ms).toBeLessThan(3000);
});
