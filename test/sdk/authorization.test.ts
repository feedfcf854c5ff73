/** AuthorizationArgs (sdk/authorization.ts): one test per rule of the spec's table. */
import { createHash } from "node:crypto";
import {
  AuthorizationArgsError,
  buildAuthorizeUrl,
  createAuthorizationCodeVerifier,
  getCommandPermissionsScopes,
  getDefaultCommunicationScopes,
  getDefaultPresenceScopes,
  resolveAuthorizationArgs,
  s256Challenge,
} from "../../sdk/authorization";

const APP = "1300000000000000001";

describe("clientId", () => {
  test("defaults to the configured application id", () => {
    expect(resolveAuthorizationArgs({ scopes: "identify" }, { applicationId: APP }).clientId).toBe(
      APP,
    );
  });
  test("an explicit one wins over the configured one", () => {
    const r = resolveAuthorizationArgs(
      { clientId: "42", scopes: "identify" },
      { applicationId: APP },
    );
    expect(r.clientId).toBe("42");
  });
  test("none at all, or not an id, is a clear error", () => {
    expect(() => resolveAuthorizationArgs({ scopes: "identify" })).toThrow(
      /clientId: none given and no application id configured/,
    );
    expect(() => resolveAuthorizationArgs({ clientId: "my-app", scopes: "identify" })).toThrow(
      AuthorizationArgsError,
    );
  });
});

describe("scopes", () => {
  test("the default sets the spec names, and the permissions scope", () => {
    expect(getDefaultCommunicationScopes()).toBe("openid sdk.social_layer");
    expect(getDefaultPresenceScopes()).toBe("openid sdk.social_layer_presence");
    expect(getCommandPermissionsScopes()).toBe("applications.commands.permissions.update");
  });
  test("space-separated, extra scopes added, duplicates dropped", () => {
    const r = resolveAuthorizationArgs(
      { scopes: `${getDefaultCommunicationScopes()}  identify openid` },
      { applicationId: APP },
    );
    expect(r.scopes).toEqual(["openid", "sdk.social_layer", "identify"]);
  });
  test("an empty list is an error", () => {
    for (const scopes of ["", "   "]) {
      expect(() => resolveAuthorizationArgs({ scopes }, { applicationId: APP })).toThrow(
        /scopes: empty/,
      );
    }
  });
  test("a scope with a forbidden character is an error", () => {
    expect(() =>
      resolveAuthorizationArgs({ scopes: 'identify "x"' }, { applicationId: APP }),
    ).toThrow(/scopes: .* is not a valid scope/);
  });
});

describe("state", () => {
  test("unset: a fresh random value each time (128 bits, base64url)", () => {
    const a = resolveAuthorizationArgs({ scopes: "identify" }, { applicationId: APP }).state;
    const b = resolveAuthorizationArgs({ scopes: "identify" }, { applicationId: APP }).state;
    expect(a).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(a).not.toBe(b);
  });
  test("set: kept; empty: an error", () => {
    expect(
      resolveAuthorizationArgs({ scopes: "identify", state: "s1" }, { applicationId: APP }).state,
    ).toBe("s1");
    expect(() =>
      resolveAuthorizationArgs({ scopes: "identify", state: "" }, { applicationId: APP }),
    ).toThrow(/state: empty/);
  });
});

describe("codeChallenge and createAuthorizationCodeVerifier", () => {
  test("the pair is S256: challenge = base64url(sha256(verifier))", () => {
    const pair = createAuthorizationCodeVerifier();
    expect(pair.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(pair.challenge.method).toBe("S256");
    expect(pair.challenge.challenge).toBe(
      createHash("sha256").update(pair.verifier).digest("base64url"),
    );
    expect(createAuthorizationCodeVerifier().verifier).not.toBe(pair.verifier);
  });
  test("RFC 7636 appendix B's example verifier gives its example challenge", () => {
    expect(s256Challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe(
      "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    );
  });
  test("a challenge that is not S256 is an error", () => {
    expect(() =>
      resolveAuthorizationArgs(
        { scopes: "identify", codeChallenge: { challenge: "short", method: "S256" } },
        { applicationId: APP },
      ),
    ).toThrow(/codeChallenge/);
  });
});

describe("integrationType and nonce", () => {
  test("0 or 1 only", () => {
    expect(
      resolveAuthorizationArgs({ scopes: "identify", integrationType: 1 }, { applicationId: APP })
        .integrationType,
    ).toBe(1);
    expect(() =>
      resolveAuthorizationArgs(
        { scopes: "identify", integrationType: 2 as 0 },
        { applicationId: APP },
      ),
    ).toThrow(/integrationType/);
  });
  test("an empty nonce is an error", () => {
    expect(() =>
      resolveAuthorizationArgs({ scopes: "identify", nonce: "" }, { applicationId: APP }),
    ).toThrow(/nonce/);
  });
});

describe("customSchemeParam", () => {
  test("absent: discord-<application_id>:/authorize/callback", () => {
    const r = resolveAuthorizationArgs({ scopes: "identify" }, { applicationId: APP });
    expect(r.customSchemeRedirect).toBe(`discord-${APP}:/authorize/callback`);
  });
  test("X gives X:/authorize/callback", () => {
    const r = resolveAuthorizationArgs(
      { scopes: "identify", customSchemeParam: "my-game.v2" },
      { applicationId: APP },
    );
    expect(r.customSchemeRedirect).toBe("my-game.v2:/authorize/callback");
  });
  test("a malformed scheme is an error", () => {
    for (const bad of ["", "1game", "my game", "x:/y", "é"]) {
      expect(() =>
        resolveAuthorizationArgs(
          { scopes: "identify", customSchemeParam: bad },
          { applicationId: APP },
        ),
      ).toThrow(/customSchemeParam: .* is not a URI scheme/);
    }
  });
});

describe("buildAuthorizeUrl", () => {
  test("carries every argument as the service's authorize URL does", () => {
    const pair = createAuthorizationCodeVerifier();
    const { url, redirectUri, args } = buildAuthorizeUrl(
      {
        scopes: getCommandPermissionsScopes() + " identify",
        codeChallenge: pair.challenge,
        nonce: "n1",
        integrationType: 0,
      },
      { applicationId: APP, redirectUri: "http://127.0.0.1:5000/callback" },
    );
    const u = new URL(url);
    expect(u.origin + u.pathname).toBe("https://discord.com/oauth2/authorize");
    expect(Object.fromEntries(u.searchParams)).toEqual({
      response_type: "code",
      client_id: APP,
      scope: "applications.commands.permissions.update identify",
      state: args.state,
      redirect_uri: "http://127.0.0.1:5000/callback",
      nonce: "n1",
      code_challenge: pair.challenge.challenge,
      code_challenge_method: "S256",
      integration_type: "0",
    });
    expect(url).toContain("scope=applications.commands.permissions.update%20identify");
    expect(redirectUri).toBe("http://127.0.0.1:5000/callback");
    expect(url).not.toContain(pair.verifier);
  });
  test("without a redirect URI, the custom-scheme redirect; another origin", () => {
    const { url } = buildAuthorizeUrl(
      { scopes: "identify", customSchemeParam: "mygame" },
      { applicationId: APP, baseUrl: "http://127.0.0.1:9999/api/v10" },
    );
    const u = new URL(url);
    expect(u.origin + u.pathname).toBe("http://127.0.0.1:9999/oauth2/authorize");
    expect(u.searchParams.get("redirect_uri")).toBe("mygame:/authorize/callback");
  });
});
