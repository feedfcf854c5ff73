/**
 * The OAuth2 consent page in a real browser (Debian's Chromium under playwright-core),
 * with `oauthConsent: "page"`: a person sees the application, the scopes and the guild the
 * permissions scope applies to, and approves (the code then buys a token that edits
 * command permissions) or denies; an answered page cannot be answered again. Automatic
 * consent, the default that headless runs and the other suites rely on, stays as it was.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import { parseArgs } from "../../emulator/cli";
import { createAuthorizationCodeVerifier } from "../../sdk/authorization";
import { launchBrowser } from "./browser";
import { clientAuthorization } from "../emulator/helpers";

/** The client's redirect URI: a loopback server (any port matches, RFC 8252 section 7.3). */
let REDIRECT = "";
let callback: http.Server;
const PERMS = "applications.commands.permissions.update";

let emu: RunningEmulator;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  emu = await startEmulator({ rateLimits: false, oauthConsent: "page" });
  browser = await launchBrowser();
  page = await browser.newPage();
  callback = http.createServer((_req, res) => res.end("callback reached"));
  await new Promise<void>((resolve) => callback.listen(0, "127.0.0.1", resolve));
  REDIRECT = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await emu?.close();
  callback?.close();
});

function authorizeUrl(challenge: string, extra: Record<string, string> = {}): string {
  const url = new URL(`${emu.url}/oauth2/authorize`);
  const params = {
    response_type: "code",
    client_id: emu.clientId,
    scope: `${PERMS} identify`,
    state: "st-<b>1</b>",
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...extra,
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

async function exchange(code: string, verifier: string) {
  const res = await fetch(`${emu.apiUrl}/oauth2/token`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Authorization: clientAuthorization(emu),
    },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

test("approve: the page names the application, the scopes and the guild; the code buys a working token", async () => {
  const pair = createAuthorizationCodeVerifier();
  await page.goto(authorizeUrl(pair.challenge.challenge));
  await expect(page.locator("#consent-app").innerText()).resolves.toBe(
    "Emulated App wants to access your account",
  );
  const scopes = await page.locator("#consent-scopes").innerText();
  expect(scopes).toContain(PERMS);
  expect(scopes).toContain("identify");
  await expect(page.locator("#consent-guild").innerText()).resolves.toBe(
    `Emulated Guild (${emu.guildId})`,
  );
  const consentId = await page.locator('input[name="consent"]').getAttribute("value");

  await Promise.all([page.waitForURL(`${REDIRECT}**`), page.click("#approve")]);
  const back = new URL(page.url());
  expect(back.searchParams.get("state")).toBe("st-<b>1</b>");
  const code = back.searchParams.get("code") ?? "";
  const token = await exchange(code, pair.verifier);
  expect(token.status).toBe(200);
  expect(token.body["scope"]).toBe(`${PERMS} identify`);

  // With the token, the user edits a command's overwrites: the consent really granted it.
  const created = await fetch(
    `${emu.apiUrl}/applications/${emu.applicationId}/guilds/${emu.guildId}/commands`,
    {
      method: "POST",
      headers: { Authorization: `Bot ${emu.botToken}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "ping", description: "Ping" }),
    },
  );
  const commandId = String(((await created.json()) as Record<string, unknown>)["id"]);
  const put = await fetch(
    `${emu.apiUrl}/applications/${emu.applicationId}/guilds/${emu.guildId}/commands/${commandId}/permissions`,
    {
      method: "PUT",
      headers: {
        Authorization: `Bearer ${String(token.body["access_token"])}`,
        "Content-Type": "application/json",
      },
      body: JSON.stringify({ permissions: [{ id: emu.guildId, type: 1, permission: false }] }),
    },
  );
  expect(put.status).toBe(200);

  // The answered request cannot be answered again (a replayed form is refused).
  const replay = await fetch(`${emu.url}/oauth2/authorize`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ consent: String(consentId), decision: "approve" }),
    redirect: "manual",
  });
  expect(replay.status).toBe(400);
  expect(await replay.text()).toContain("expired or was already answered");
});

test("deny: the client gets access_denied and its state; no code", async () => {
  const pair = createAuthorizationCodeVerifier();
  await page.goto(authorizeUrl(pair.challenge.challenge, { guild_id: "999999999999999999" }));
  await expect(page.locator("#consent-guild").innerText()).resolves.toBe(
    "unknown guild 999999999999999999",
  );
  await Promise.all([page.waitForURL(`${REDIRECT}**`), page.click("#deny")]);
  const back = new URL(page.url());
  expect(back.searchParams.get("error")).toBe("access_denied");
  expect(back.searchParams.get("state")).toBe("st-<b>1</b>");
  expect(back.searchParams.has("code")).toBe(false);
  const posts = emu
    .requestLog()
    .filter((e) => e.method === "POST" && e.path === "/oauth2/authorize");
  // Approve, the refused replay, deny: each answer in the request log.
  expect(posts.map((e) => e.status)).toEqual([302, 400, 302]);
});

test("automatic consent stays the default (headless runs), and the CLI switches it", async () => {
  const headless = await startEmulator({ rateLimits: false });
  try {
    const pair = createAuthorizationCodeVerifier();
    const url = authorizeUrl(pair.challenge.challenge).replace(emu.url, headless.url);
    const res = await fetch(url, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(new URL(String(res.headers.get("location"))).searchParams.get("code")).toBeTruthy();
  } finally {
    await headless.close();
  }
  expect(parseArgs(["--consent-page"]).options.oauthConsent).toBe("page");
  expect(parseArgs(["--consent-page", "--auto-consent"]).options.oauthConsent).toBe("automatic");
  expect(parseArgs([]).options.oauthConsent).toBeUndefined();
});
