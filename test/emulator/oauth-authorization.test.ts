/**
 * Conformance: the OAuth2 authorization-code flow of emulator/handlers/oauth.ts: the
 * consent page's redirect, the code grant (single use, 10 minutes, PKCE S256, redirect
 * URI), the refresh grant (rotating or not), revocation, and the tokens' effect on the
 * permissions endpoint (scopes, user, expiry on the emulator's clock).
 */
import type { RunningEmulator } from "../../emulator";
import { DEFAULTS } from "../../emulator";
import { createAuthorizationCodeVerifier } from "../../sdk/authorization";
import type { Api } from "./helpers";
import { clientAuthorization, rec, slash, start, str } from "./helpers";

let emu: RunningEmulator;
let api: Api;

const REDIRECT = "http://127.0.0.1:53682/callback";
const PERMS = "applications.commands.permissions.update";

async function startWith(extra: Record<string, unknown> = {}): Promise<void> {
  ({ emu, api } = await start({ config: extra }));
}
afterEach(async () => {
  await emu.close();
});

interface Authorized {
  readonly location: URL;
  readonly code: string;
}

/** Plays the browser: opens the authorize URL, returns where the service redirects. */
async function authorize(params: Record<string, string>): Promise<Authorized> {
  const url = new URL(`${emu.url}/oauth2/authorize`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const res = await fetch(url, { redirect: "manual" });
  if (res.status !== 302) throw new Error(`authorize: ${res.status} ${await res.text()}`);
  const location = new URL(str(res.headers.get("location")));
  return { location, code: location.searchParams.get("code") ?? "" };
}

function authorizeParams(challenge: string, extra: Record<string, string> = {}) {
  return {
    response_type: "code",
    client_id: emu.clientId,
    scope: PERMS,
    state: "st-1",
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...extra,
  };
}

async function token(
  form: Record<string, string>,
  auth: string | null = `${emu.clientId}:${emu.clientSecret}`,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${emu.apiUrl}/oauth2/token`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      ...(auth === null ? {} : { Authorization: `Basic ${Buffer.from(auth).toString("base64")}` }),
    },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, body: rec(await res.json()) };
}

async function exchange(code: string, verifier: string, redirectUri = REDIRECT) {
  return token({
    grant_type: "authorization_code",
    code,
    redirect_uri: redirectUri,
    code_verifier: verifier,
  });
}

async function putPermissions(accessToken: string): Promise<number> {
  const created = await api.post(`${api.guild}/commands`, slash("ping"));
  const id = str(rec(created.body)["id"]);
  const res = await api.put(
    `${api.guild}/commands/${id}/permissions`,
    { permissions: [{ id: DEFAULTS.managerRoleId, type: 1, permission: true }] },
    { auth: `Bearer ${accessToken}` },
  );
  return res.status;
}

describe("GET /oauth2/authorize", () => {
  beforeEach(() => startWith());

  test("the configured user consents: 302 to the redirect URI with code and state", async () => {
    const pair = createAuthorizationCodeVerifier();
    const { location, code } = await authorize(authorizeParams(pair.challenge.challenge));
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get("state")).toBe("st-1");
    expect(code).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  });

  test("loopback redirect URIs match on any port; other URIs exactly; no redirect on mismatch", async () => {
    const pair = createAuthorizationCodeVerifier();
    const other = await authorize(
      authorizeParams(pair.challenge.challenge, { redirect_uri: "http://127.0.0.1:1/callback" }),
    );
    expect(other.code).not.toBe("");
    for (const bad of [
      "http://127.0.0.1:53682/elsewhere",
      "http://evil.example/callback",
      "https://127.0.0.1:53682/callback",
    ]) {
      const url = new URL(`${emu.url}/oauth2/authorize`);
      for (const [k, v] of Object.entries(
        authorizeParams(pair.challenge.challenge, { redirect_uri: bad }),
      )) {
        url.searchParams.set(k, v);
      }
      const res = await fetch(url, { redirect: "manual" });
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(await res.json()).toEqual({
        error: "invalid_request",
        error_description: 'Invalid "redirect_uri" in request.',
      });
    }
  });

  test("refusals redirect with error and state", async () => {
    const pair = createAuthorizationCodeVerifier();
    const c = pair.challenge.challenge;
    const cases: [Record<string, string>, string][] = [
      [{ response_type: "token" }, "unsupported_response_type"],
      [{ scope: "" }, "invalid_scope"],
      [{ scope: "applications.commands.update" }, "invalid_scope"],
      [{ code_challenge_method: "plain" }, "invalid_request"],
      [{ integration_type: "1" }, "invalid_request"],
    ];
    for (const [extra, error] of cases) {
      const { location } = await authorize(authorizeParams(c, extra));
      expect([location.searchParams.get("error"), location.searchParams.get("state")]).toEqual([
        error,
        "st-1",
      ]);
      expect(location.searchParams.get("code")).toBeNull();
    }
  });

  test("consent through the control API: another user, or none (access_denied)", async () => {
    const pair = createAuthorizationCodeVerifier();
    const set = (userId: string | null) =>
      fetch(`${emu.url}/__emulator/applications/${emu.applicationId}/consent`, {
        method: "PUT",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ userId }),
      });
    expect((await set(null)).status).toBe(204);
    const denied = await authorize(authorizeParams(pair.challenge.challenge));
    expect(denied.location.searchParams.get("error")).toBe("access_denied");
    expect((await set("999")).status).toBe(404);
    expect((await set(DEFAULTS.userId)).status).toBe(204);
    expect((await authorize(authorizeParams(pair.challenge.challenge))).code).not.toBe("");
  });
});

describe("POST /oauth2/token, authorization_code", () => {
  beforeEach(() => startWith());

  test("a good exchange: the user's token with the granted scopes edits permissions", async () => {
    const pair = createAuthorizationCodeVerifier();
    const { code } = await authorize(authorizeParams(pair.challenge.challenge));
    const res = await exchange(code, pair.verifier);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      access_token: expect.any(String),
      token_type: "Bearer",
      expires_in: 604800,
      refresh_token: expect.any(String),
      scope: PERMS,
    });
    expect(await putPermissions(str(res.body["access_token"]))).toBe(200);
  });

  test("wrong verifier: invalid_grant; the code is spent", async () => {
    const pair = createAuthorizationCodeVerifier();
    const { code } = await authorize(authorizeParams(pair.challenge.challenge));
    const wrong = await exchange(code, createAuthorizationCodeVerifier().verifier);
    expect(wrong).toEqual({
      status: 400,
      body: { error: "invalid_grant", error_description: 'Invalid "code_verifier" in request.' },
    });
    expect((await exchange(code, pair.verifier)).body["error"]).toBe("invalid_grant");
  });

  test("missing verifier for a PKCE code: invalid_grant", async () => {
    const pair = createAuthorizationCodeVerifier();
    const { code } = await authorize(authorizeParams(pair.challenge.challenge));
    const res = await token({ grant_type: "authorization_code", code, redirect_uri: REDIRECT });
    expect(res.body["error_description"]).toBe('Invalid "code_verifier" in request.');
  });

  test("a reused code: invalid_grant, and the tokens it bought are revoked", async () => {
    const pair = createAuthorizationCodeVerifier();
    const { code } = await authorize(authorizeParams(pair.challenge.challenge));
    const first = await exchange(code, pair.verifier);
    expect(first.status).toBe(200);
    const again = await exchange(code, pair.verifier);
    expect(again).toEqual({
      status: 400,
      body: { error: "invalid_grant", error_description: 'Invalid "code" in request.' },
    });
    expect(await putPermissions(str(first.body["access_token"]))).toBe(401);
    const refresh = await token({
      grant_type: "refresh_token",
      refresh_token: str(first.body["refresh_token"]),
    });
    expect(refresh.body["error"]).toBe("invalid_grant");
  });

  test("wrong redirect URI at the exchange: invalid_grant", async () => {
    const pair = createAuthorizationCodeVerifier();
    const { code } = await authorize(authorizeParams(pair.challenge.challenge));
    const res = await exchange(code, pair.verifier, "http://127.0.0.1:9/callback");
    expect(res).toEqual({
      status: 400,
      body: { error: "invalid_grant", error_description: 'Invalid "redirect_uri" in request.' },
    });
  });

  test("a code expires 10 minutes after it is issued (emulator clock)", async () => {
    const pair = createAuthorizationCodeVerifier();
    const { code } = await authorize(authorizeParams(pair.challenge.challenge));
    emu.control.advanceClock(10 * 60 * 1000 + 1);
    expect((await exchange(code, pair.verifier)).body["error"]).toBe("invalid_grant");
  });

  test("a code of another application, a missing code, a bad client", async () => {
    const pair = createAuthorizationCodeVerifier();
    const { code } = await authorize(authorizeParams(pair.challenge.challenge));
    expect(
      (await token({ grant_type: "authorization_code", redirect_uri: REDIRECT })).body,
    ).toEqual({ error: "invalid_request", error_description: 'Missing "code" in request.' });
    const badClient = await token(
      { grant_type: "authorization_code", code, redirect_uri: REDIRECT },
      `${emu.clientId}:wrong`,
    );
    expect([badClient.status, badClient.body["error"]]).toEqual([401, "invalid_client"]);
  });

  test("the access token expires on the emulator's clock", async () => {
    const pair = createAuthorizationCodeVerifier();
    const { code } = await authorize(authorizeParams(pair.challenge.challenge));
    const access = str((await exchange(code, pair.verifier)).body["access_token"]);
    emu.control.advanceClock(604800 * 1000);
    expect(await putPermissions(access)).toBe(401);
  });

  test("a token without the permissions scope is refused on the permissions PUT", async () => {
    const pair = createAuthorizationCodeVerifier();
    const { code } = await authorize(
      authorizeParams(pair.challenge.challenge, { scope: "identify" }),
    );
    const access = str((await exchange(code, pair.verifier)).body["access_token"]);
    expect(await putPermissions(access)).toBe(403);
  });
});

describe("POST /oauth2/token, refresh_token", () => {
  async function tokens(): Promise<{ access: string; refresh: string }> {
    const pair = createAuthorizationCodeVerifier();
    const { code } = await authorize(authorizeParams(pair.challenge.challenge));
    const body = (await exchange(code, pair.verifier)).body;
    return { access: str(body["access_token"]), refresh: str(body["refresh_token"]) };
  }

  test("rotates: a new access and refresh token; the old refresh token is spent", async () => {
    await startWith();
    const t = await tokens();
    emu.control.advanceClock(8 * 24 * 3600 * 1000);
    const next = await token({ grant_type: "refresh_token", refresh_token: t.refresh });
    expect(next.status).toBe(200);
    expect(next.body["refresh_token"]).not.toBe(t.refresh);
    expect(next.body["scope"]).toBe(PERMS);
    expect(await putPermissions(str(next.body["access_token"]))).toBe(200);
    const reused = await token({ grant_type: "refresh_token", refresh_token: t.refresh });
    expect(reused).toEqual({
      status: 400,
      body: { error: "invalid_grant", error_description: 'Invalid "refresh_token" in request.' },
    });
  });

  test("rotateRefreshTokens: false keeps the refresh token", async () => {
    await startWith({ rotateRefreshTokens: false });
    const t = await tokens();
    const a = await token({ grant_type: "refresh_token", refresh_token: t.refresh });
    const b = await token({ grant_type: "refresh_token", refresh_token: t.refresh });
    expect([a.body["refresh_token"], b.body["refresh_token"]]).toEqual([t.refresh, t.refresh]);
  });

  test("revoke: the whole authorization goes, access and refresh tokens alike", async () => {
    await startWith();
    const t = await tokens();
    const res = await fetch(`${emu.apiUrl}/oauth2/token/revoke`, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Authorization: clientAuthorization(emu),
      },
      body: new URLSearchParams({ token: t.access, token_type_hint: "access_token" }).toString(),
    });
    expect(res.status).toBe(200);
    expect(await putPermissions(t.access)).toBe(401);
    const refresh = await token({ grant_type: "refresh_token", refresh_token: t.refresh });
    expect(refresh.body["error"]).toBe("invalid_grant");
  });

  test("a public client exchanges and refreshes with client_id alone (PKCE required)", async () => {
    await startWith({
      applications: [
        {
          id: DEFAULTS.applicationId,
          botToken: DEFAULTS.botToken,
          clientSecret: DEFAULTS.clientSecret,
          publicClient: true,
          consentUserId: DEFAULTS.userId,
        },
      ],
    });
    const noPkce = await authorize({
      response_type: "code",
      client_id: emu.clientId,
      scope: PERMS,
      redirect_uri: REDIRECT,
    });
    expect(noPkce.location.searchParams.get("error")).toBe("invalid_request");
    const pair = createAuthorizationCodeVerifier();
    const { code } = await authorize(authorizeParams(pair.challenge.challenge));
    const res = await token(
      {
        grant_type: "authorization_code",
        client_id: emu.clientId,
        code,
        redirect_uri: REDIRECT,
        code_verifier: pair.verifier,
      },
      null,
    );
    expect(res.status).toBe(200);
    const cc = await token({ grant_type: "client_credentials", client_id: emu.clientId }, null);
    expect(cc.status).toBe(401);
  });
});
