/**
 * The emulator's OAuth2 endpoints judged by an independent client: oauth4webapi (panva's
 * spec-compliant client, https://github.com/panva/oauth4webapi), which encodes requests
 * and reads responses as RFC 6749 says, not as our own code does. One rule per test:
 *
 * - RFC 9700 section 4.14.2: a rotated refresh token presented again revokes the
 *   authorization, every access and refresh token of that grant;
 * - RFC 6749 section 4.1.3: `redirect_uri` at the token endpoint is required only when
 *   the authorization request carried one, and then must be identical;
 * - RFC 6749 section 2.3.1: HTTP Basic client credentials are form-urlencoded before
 *   base64 (`+` is a space, `%XX` an octet).
 */
import * as oauth from "oauth4webapi";
import type { RunningEmulator } from "../../emulator";
import { DEFAULTS } from "../../emulator";
import { CommandsApi } from "../../provider/client";
import type { Api } from "./helpers";
import { rec, slash, start, str } from "./helpers";

let emu: RunningEmulator;
let api: Api;

const REGISTERED = "http://127.0.0.1/callback";
const REDIRECT = "http://127.0.0.1:53682/callback";
const PERMS = "applications.commands.permissions.update";
const insecure = { [oauth.allowInsecureRequests]: true } as const;

afterEach(async () => {
  await emu.close();
});

function server(): oauth.AuthorizationServer {
  return {
    issuer: emu.url,
    authorization_endpoint: `${emu.url}/oauth2/authorize`,
    token_endpoint: `${emu.apiUrl}/oauth2/token`,
    revocation_endpoint: `${emu.apiUrl}/oauth2/token/revoke`,
  };
}

interface Flow {
  readonly as: oauth.AuthorizationServer;
  readonly client: oauth.Client;
  readonly auth: oauth.ClientAuth;
}

function flow(clientId = emu.clientId, secret = emu.clientSecret): Flow {
  return { as: server(), client: { client_id: clientId }, auth: oauth.ClientSecretBasic(secret) };
}

/** Plays the browser: the consent page's redirect, validated by the client. */
async function authorize(
  f: Flow,
  redirectUri: string | undefined,
): Promise<{ params: URLSearchParams; verifier: string }> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(str(f.as.authorization_endpoint));
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", f.client.client_id);
  url.searchParams.set("scope", PERMS);
  url.searchParams.set("state", state);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set("code_challenge_method", "S256");
  if (redirectUri !== undefined) url.searchParams.set("redirect_uri", redirectUri);
  const res = await fetch(url, { redirect: "manual" });
  expect(res.status).toBe(302);
  const location = new URL(str(res.headers.get("location")));
  return { params: oauth.validateAuthResponse(f.as, f.client, location, state), verifier };
}

async function exchange(f: Flow, redirectUri: string): Promise<oauth.TokenEndpointResponse> {
  const { params, verifier } = await authorize(f, redirectUri);
  const res = await oauth.authorizationCodeGrantRequest(
    f.as,
    f.client,
    f.auth,
    params,
    redirectUri,
    verifier,
    insecure,
  );
  return oauth.processAuthorizationCodeResponse(f.as, f.client, res);
}

async function refresh(f: Flow, refreshToken: string): Promise<oauth.TokenEndpointResponse> {
  const res = await oauth.refreshTokenGrantRequest(f.as, f.client, f.auth, refreshToken, insecure);
  return oauth.processRefreshTokenResponse(f.as, f.client, res);
}

/** The OAuth error a token-endpoint call ends in (oauth4webapi throws ResponseBodyError). */
async function oauthError(p: Promise<unknown>): Promise<{ status: number; error: string }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof oauth.ResponseBodyError) return { status: e.status, error: e.error };
    throw e;
  }
  throw new Error("expected an OAuth error response");
}

/** The permissions PUT with a user's Bearer token: 200 when the token is live. */
async function putPermissions(accessToken: string): Promise<number> {
  const created = await api.post(`${api.guild}/commands`, slash(`c${Date.now() % 100000}`));
  const id = str(rec(created.body)["id"]);
  const res = await api.put(
    `${api.guild}/commands/${id}/permissions`,
    { permissions: [{ id: DEFAULTS.managerRoleId, type: 1, permission: true }] },
    { auth: `Bearer ${accessToken}` },
  );
  return res.status;
}

describe("refresh-token rotation and reuse (RFC 9700 section 4.14.2)", () => {
  beforeEach(async () => {
    ({ emu, api } = await start());
  });

  test("each rotated refresh token works once; the chain goes on while none is reused", async () => {
    const f = flow();
    const first = await exchange(f, REDIRECT);
    const second = await refresh(f, str(first.refresh_token));
    const third = await refresh(f, str(second.refresh_token));
    expect(new Set([first.refresh_token, second.refresh_token, third.refresh_token]).size).toBe(3);
    expect(await putPermissions(third.access_token)).toBe(200);
  });

  test("a spent refresh token presented again revokes every token of the grant", async () => {
    const f = flow();
    const first = await exchange(f, REDIRECT);
    const second = await refresh(f, str(first.refresh_token));
    expect(await putPermissions(second.access_token)).toBe(200);

    // The old refresh token again (a stolen copy, or a client that lost the rotation).
    expect(await oauthError(refresh(f, str(first.refresh_token)))).toEqual({
      status: 400,
      error: "invalid_grant",
    });
    // The grant is gone: the newest refresh token and every access token of it.
    expect(await oauthError(refresh(f, str(second.refresh_token)))).toEqual({
      status: 400,
      error: "invalid_grant",
    });
    expect(await putPermissions(second.access_token)).toBe(401);
    expect(await putPermissions(first.access_token)).toBe(401);
  });

  test("reuse revokes only its own grant: another authorization of the same user stays", async () => {
    const f = flow();
    const a = await exchange(f, REDIRECT);
    const b = await exchange(f, REDIRECT);
    await refresh(f, str(a.refresh_token));
    await oauthError(refresh(f, str(a.refresh_token)));
    expect(await putPermissions(b.access_token)).toBe(200);
    expect((await refresh(f, str(b.refresh_token))).access_token).not.toBe("");
  });
});

describe("redirect_uri at the token endpoint (RFC 6749 section 4.1.3)", () => {
  beforeEach(async () => {
    ({ emu, api } = await start());
  });

  /** The code grant without `redirect_uri` (oauth4webapi's code helper always sends it). */
  async function exchangeWithout(f: Flow, params: URLSearchParams, verifier: string) {
    const res = await oauth.genericTokenEndpointRequest(
      f.as,
      f.client,
      f.auth,
      "authorization_code",
      { code: str(params.get("code")), code_verifier: verifier },
      insecure,
    );
    return oauth.processGenericTokenEndpointResponse(f.as, f.client, res);
  }

  test("authorize without redirect_uri: the token request needs none", async () => {
    const f = flow();
    const { params, verifier } = await authorize(f, undefined);
    const tokens = await exchangeWithout(f, params, verifier);
    expect(await putPermissions(tokens.access_token)).toBe(200);
  });

  test("authorize without redirect_uri: one given at the token endpoint must still match", async () => {
    const f = flow();
    const ok = await authorize(f, undefined);
    const good = await oauth.authorizationCodeGrantRequest(
      f.as,
      f.client,
      f.auth,
      ok.params,
      REGISTERED,
      ok.verifier,
      insecure,
    );
    expect((await oauth.processAuthorizationCodeResponse(f.as, f.client, good)).token_type).toBe(
      "bearer",
    );
    const bad = await authorize(f, undefined);
    const res = await oauth.authorizationCodeGrantRequest(
      f.as,
      f.client,
      f.auth,
      bad.params,
      REDIRECT,
      bad.verifier,
      insecure,
    );
    expect(await oauthError(oauth.processAuthorizationCodeResponse(f.as, f.client, res))).toEqual({
      status: 400,
      error: "invalid_grant",
    });
  });

  test("authorize with redirect_uri: the token request must carry the identical one", async () => {
    const f = flow();
    expect((await exchange(f, REDIRECT)).access_token).not.toBe("");
    const missing = await authorize(f, REDIRECT);
    expect(await oauthError(exchangeWithout(f, missing.params, missing.verifier))).toEqual({
      status: 400,
      error: "invalid_grant",
    });
    const other = await authorize(f, REDIRECT);
    const res = await oauth.authorizationCodeGrantRequest(
      f.as,
      f.client,
      f.auth,
      other.params,
      "http://127.0.0.1:53683/callback",
      other.verifier,
      insecure,
    );
    expect(await oauthError(oauth.processAuthorizationCodeResponse(f.as, f.client, res))).toEqual({
      status: 400,
      error: "invalid_grant",
    });
  });
});

describe("HTTP Basic client credentials are form-urlencoded (RFC 6749 section 2.3.1)", () => {
  // Characters that form-encoding changes: space (to `+`), `+`, `%`, `:`, and non-ASCII.
  const CLIENT_ID = "client id+1";
  const SECRET = "s3cr+t with spaces:%41/é";

  beforeEach(async () => {
    ({ emu, api } = await start({
      config: {
        applications: [
          {
            id: DEFAULTS.applicationId,
            botToken: DEFAULTS.botToken,
            clientId: CLIENT_ID,
            clientSecret: SECRET,
            consentUserId: DEFAULTS.userId,
            redirectUris: [REGISTERED],
          },
        ],
      },
    }));
  });

  test("client credentials grant with encoded id and secret", async () => {
    const f = flow(CLIENT_ID, SECRET);
    const res = await oauth.clientCredentialsGrantRequest(
      f.as,
      f.client,
      f.auth,
      { scope: "applications.commands.update" },
      insecure,
    );
    const tokens = await oauth.processClientCredentialsResponse(f.as, f.client, res);
    expect(tokens.scope).toBe("applications.commands.update");
  });

  test("authorization code and refresh grants with encoded id and secret", async () => {
    const f = flow(CLIENT_ID, SECRET);
    const first = await exchange(f, REDIRECT);
    const next = await refresh(f, str(first.refresh_token));
    expect(await putPermissions(next.access_token)).toBe(200);
  });

  test("the provider's own client (client credentials) is accepted with them", async () => {
    const api = new CommandsApi({
      apiUrl: emu.url,
      clientId: CLIENT_ID,
      clientSecret: SECRET,
      maxRetries: 0,
    });
    try {
      await expect(api.listGlobalCommands(emu.applicationId)).resolves.toEqual([]);
    } finally {
      await api.close();
    }
  });

  test("the wrong secret is still refused: invalid_client", async () => {
    const f = flow(CLIENT_ID, `${SECRET}x`);
    const res = await oauth.clientCredentialsGrantRequest(
      f.as,
      f.client,
      f.auth,
      { scope: "applications.commands.update" },
      insecure,
    );
    expect(await oauthError(oauth.processClientCredentialsResponse(f.as, f.client, res))).toEqual({
      status: 401,
      error: "invalid_client",
    });
  });
});
