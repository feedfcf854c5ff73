/**
 * Where the page is served (no browser needed): loopback only by default, like the
 * control API, and on loopback only to loopback host names (a rebound DNS name gets 403);
 * the live log's JSON; the redaction of every token.
 */
import http from "node:http";
import { DEFAULTS, startEmulator } from "../../emulator";
import type { RunningEmulator } from "../../emulator";
import { parseArgs } from "../../emulator/cli";
import { resolveConfig } from "../../emulator/config";
import { esc } from "../../emulator/page/html";
import { REDACTED, Redactor } from "../../emulator/page/redact";
import { Store } from "../../emulator/store";
import { authorizeUser } from "../emulator/helpers";

function get(url: string, host?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, host === undefined ? {} : { headers: { host } }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
  });
}

describe("where the page is served", () => {
  let emu: RunningEmulator | undefined;
  afterEach(async () => {
    await emu?.close();
    emu = undefined;
  });

  test("on a loopback host: on, for loopback host names only", async () => {
    emu = await startEmulator({ rateLimits: false });
    expect(emu.pageUrl).toBe(`${emu.url}/`);
    const page = await get(`${emu.url}/`);
    expect(page.status).toBe(200);
    expect(page.body).toContain("<title>Emulator: Emulated App</title>");
    expect((await get(`${emu.url}/`, `localhost:${emu.port}`)).status).toBe(200);
    expect((await get(`${emu.url}/`, "attacker.example")).status).toBe(403);
    expect((await get(`${emu.url}/`, `127.0.0.1.attacker.example:${emu.port}`)).status).toBe(403);
  });

  test("on another host: off unless asked for (like the control API); --page and --no-page", async () => {
    emu = await startEmulator({ rateLimits: false, host: "0.0.0.0" });
    expect(emu.pageUrl).toBeUndefined();
    const off = await get(`http://127.0.0.1:${emu.port}/`);
    expect(off.status).toBe(404);
    expect(JSON.parse(off.body)).toEqual({ code: 0, message: "404: Not Found" });
    await emu.close();
    emu = await startEmulator({ rateLimits: false, host: "0.0.0.0", page: true });
    expect((await get(`http://127.0.0.1:${emu.port}/`)).status).toBe(200);
    expect(parseArgs(["--no-page"]).options.page).toBe(false);
    expect(parseArgs(["--page"]).options.page).toBe(true);
    expect(resolveConfig({ page: false }).page).toBe(false);
  });

  test("the live log: the rows after a sequence number, in a scope", async () => {
    emu = await startEmulator({ rateLimits: false });
    const api = `${emu.apiUrl}/applications/${emu.applicationId}`;
    const auth = { Authorization: `Bot ${emu.botToken}`, "Content-Type": "application/json" };
    await fetch(`${api}/commands`, { headers: auth });
    const first = JSON.parse((await get(`${emu.url}/__page/log.json?after=0`)).body) as {
      rows: string[];
      sequence: number;
    };
    expect(first.rows).toHaveLength(1);
    expect(first.sequence).toBe(1);
    await fetch(`${api}/guilds/${emu.guildId}/commands`, { headers: auth });
    await fetch(`${api}/commands`, { method: "POST", headers: auth, body: "{}" });
    const guildOnly = JSON.parse(
      (await get(`${emu.url}/__page/log.json?after=1&logscope=${emu.guildId}`)).body,
    ) as { rows: string[]; sequence: number };
    expect(guildOnly.sequence).toBe(3);
    expect(guildOnly.rows).toHaveLength(1);
    expect(guildOnly.rows[0]).toContain(`data-scope="${emu.guildId}"`);
    // A refusal's row carries its error body.
    const refused = JSON.parse((await get(`${emu.url}/__page/log.json?after=2`)).body) as {
      rows: string[];
    };
    expect(refused.rows[0]).toContain("Invalid Form Body");
  });

  test("with rate limits on, each row has the bucket and what it had left", async () => {
    emu = await startEmulator({});
    const auth = { Authorization: `Bot ${emu.botToken}` };
    await fetch(`${emu.apiUrl}/applications/${emu.applicationId}/commands`, { headers: auth });
    const [entry] = emu.requestLog();
    expect(entry?.bucket).toMatch(/^[0-9a-f]+$/);
    expect(entry?.remaining).toBe(4);
    const live = JSON.parse((await get(`${emu.url}/__page/log.json?after=0`)).body) as {
      rows: string[];
    };
    expect(live.rows[0]).toContain(`<td>${entry?.bucket ?? "?"}</td><td>4</td>`);
  });
});

test("the redactor: configured secrets anywhere, credential keys, tokens in paths", () => {
  const redactor = new Redactor(new Store(resolveConfig({})).secrets());
  expect(redactor.text(`Bot ${DEFAULTS.botToken} and ${DEFAULTS.clientSecret}`)).toBe(
    `Bot ${REDACTED} and ${REDACTED}`,
  );
  expect(redactor.text("/api/v10/webhooks/123/aW50ZXJhY3Rpb24/messages/@original")).toBe(
    `/api/v10/webhooks/123/${REDACTED}/messages/@original`,
  );
  expect(
    redactor.json({ token: "abc", data: { access_token: "x", name: DEFAULTS.userBearerToken } }),
  ).toEqual({ token: REDACTED, data: { access_token: REDACTED, name: REDACTED } });
  // Leftmost and longest first, every occurrence; under 4 characters is no secret.
  expect(new Redactor(["abcd", "abcdefgh", "xyz"]).text("-abcdefgh- abcdabcdab xyz")).toBe(
    `-${REDACTED}- ${REDACTED}${REDACTED}ab xyz`,
  );
});

test("tokens learned at run time are redacted on the page: a rotated bot token, issued access and refresh tokens", async () => {
  const emu = await startEmulator({ rateLimits: false });
  try {
    const rotated = "rotated-bot-token-5Qx7";
    emu.control.rotateBotToken(emu.applicationId, rotated);
    const { access, refresh } = await authorizeUser(emu, "http://127.0.0.1:1/callback");
    // A client that puts a token where it does not belong: the log keeps the path, and the
    // refusal's body.
    for (const token of [rotated, access, refresh]) {
      await fetch(`${emu.apiUrl}/applications/${token}/commands`, {
        headers: { Authorization: `Bot ${rotated}` },
      });
      await fetch(`${emu.apiUrl}/applications/${emu.applicationId}/commands`, {
        method: "POST",
        headers: { Authorization: `Bot ${rotated}`, "Content-Type": "application/json" },
        body: JSON.stringify({ name: token, description: "x" }),
      });
    }
    expect(emu.requestLog().filter((e) => e.path.includes(access))).toHaveLength(1);
    await expectRedactedOnPage(emu, [rotated, access, refresh]);
  } finally {
    await emu.close();
  }
});

/** The page and its live log show none of `tokens`, and say where they redacted. */
async function expectRedactedOnPage(
  emu: RunningEmulator,
  tokens: readonly string[],
): Promise<void> {
  const page = await get(`${emu.url}/`);
  const live = await get(`${emu.url}/__page/log.json?after=0`);
  for (const shown of [page.body, live.body]) {
    for (const token of tokens) expect(shown).not.toContain(token);
    expect(shown).toContain(REDACTED);
  }
}

/** PUT of a control route, as a same-site client sends it (JSON). */
async function control(emu: RunningEmulator, sub: string, body: unknown): Promise<number> {
  const res = await fetch(`${emu.url}/__emulator/${sub}`, {
    method: "PUT",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return res.status;
}

test("tokens the emulator held and let go stay redacted: a bot token rotated away and back, a revoked authorization's (issue 50)", async () => {
  const emu = await startEmulator({ rateLimits: false });
  try {
    const configured = emu.botToken;
    const rotated = "Zq9Xw-rotated-away-bot-token";
    expect(
      await control(emu, `applications/${emu.applicationId}/bot-token`, { token: rotated }),
    ).toBe(204);
    const { access, refresh } = await authorizeUser(emu, "http://127.0.0.1:1/callback");
    for (const token of [rotated, access, refresh]) {
      await fetch(`${emu.apiUrl}/applications/${token}/commands`, {
        headers: { Authorization: `Bot ${rotated}` },
      });
    }
    // Back to the configured token, and the user's authorization revoked: none is held now.
    expect(
      await control(emu, `applications/${emu.applicationId}/bot-token`, { token: configured }),
    ).toBe(204);
    const basic = Buffer.from(`${emu.clientId}:${emu.clientSecret}`).toString("base64");
    const revoked = await fetch(`${emu.apiUrl}/oauth2/token/revoke`, {
      method: "POST",
      headers: {
        Authorization: `Basic ${basic}`,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ token: refresh }).toString(),
    });
    expect(revoked.status).toBe(200);
    expect(emu.requestLog().filter((e) => e.path.includes(rotated))).toHaveLength(1);
    await expectRedactedOnPage(emu, [rotated, access, refresh]);
  } finally {
    await emu.close();
  }
});

test("the request log redacts a text before it cuts it: a token at the edge shows no prefix (issue 50)", async () => {
  const emu = await startEmulator({ rateLimits: false });
  try {
    const rotated = "Zq9Xw-token-at-the-edge-of-the-log";
    emu.control.rotateBotToken(emu.applicationId, rotated);
    // A proxy's page that echoes the request: the log keeps its first 2,000 characters.
    emu.control.setFaults({
      rules: [{ route: "createGlobalCommand", action: { type: "echo", status: 400 } }],
    });
    const logged = (pad: number): string => {
      const text = JSON.stringify({ name: "x", description: `${"a".repeat(pad)}${rotated}` });
      const html = `<html><body><pre>${esc(text)}</pre></body></html>`;
      return JSON.stringify({ html, headers: {} });
    };
    // The padding that starts the token 5 characters before the cut.
    const pad = 1995 - logged(0).indexOf(rotated);
    expect(logged(pad).indexOf(rotated)).toBe(1995);
    const res = await fetch(`${emu.apiUrl}/applications/${emu.applicationId}/commands`, {
      method: "POST",
      headers: { Authorization: `Bot ${rotated}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "x", description: `${"a".repeat(pad)}${rotated}` }),
    });
    expect(res.status).toBe(400);
    const error = emu.requestLog().at(-1)?.error ?? "";
    expect(error).toHaveLength(2000);
    expect(error.slice(1995)).toBe(REDACTED.slice(0, 5));
    const page = await get(`${emu.url}/`);
    const live = await get(`${emu.url}/__page/log.json?after=0`);
    for (const shown of [page.body, live.body]) {
      expect(shown).toContain("aaaa[reda");
      expect(shown).not.toContain(rotated.slice(0, 5));
    }
  } finally {
    await emu.close();
  }
});

test("the page has no style attribute: its Content Security Policy allows only its own stylesheet", async () => {
  const emu = await startEmulator({ rateLimits: false });
  try {
    const page = await get(`${emu.url}/`);
    expect(page.body).toContain('id="live"');
    expect(page.body).not.toMatch(/<[^>]*\sstyle=/i);
  } finally {
    await emu.close();
  }
});
