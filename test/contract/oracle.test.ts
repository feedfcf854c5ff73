/**
 * The oracle itself: the vendored document is the published one, the response check
 * catches answers that break it (so a green suite means something), and the answers
 * the emulator was measured to get wrong (a 429 body without `code`) now conform.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { authorizeUser, rec, slash, start } from "../emulator/helpers";
import { checkResponse, theContract } from "./oracle";
import { checkedResponses, recordedViolations } from "./recorder";

const here = (f: string) => path.join(__dirname, f);

test("openapi.json is the file README.md names, byte for byte", () => {
  const readme = fs.readFileSync(here("README.md"), "utf8");
  const hash = createHash("sha256")
    .update(fs.readFileSync(here("openapi.json")))
    .digest("hex");
  expect(readme).toContain(hash);
  expect(theContract().document["openapi"]).toBe("3.1.0");
});

describe("the response check", () => {
  const command = {
    id: "1300000000000000100",
    application_id: "1300000000000000001",
    version: "1300000000000000101",
    default_member_permissions: null,
    type: 1,
    name: "ping",
    description: "Ping",
  };
  const path = "/api/v10/applications/1300000000000000001/commands";

  test("passes a conforming command and catches a broken one", () => {
    expect(checkResponse({ method: "POST", path, status: 201, body: command })).toBeUndefined();
    const { version: _v, ...noVersion } = command;
    const v = checkResponse({ method: "POST", path, status: 201, body: noVersion });
    expect(v?.errors.join()).toContain("version");
    const wrongType = checkResponse({
      method: "GET",
      path,
      status: 200,
      body: [{ ...command, type: 9 }],
    });
    expect(wrongType).toBeDefined();
  });

  test("a success status the operation does not declare is a violation", () => {
    const v = checkResponse({ method: "PUT", path, status: 201, body: [] });
    expect(v?.errors).toEqual(["status 201 is not declared"]);
  });

  test("field errors carry string codes (erratum); a 429 needs code", () => {
    const error = {
      code: 50035,
      message: "Invalid Form Body",
      errors: { name: { _errors: [{ code: "BASE_TYPE_REQUIRED", message: "required" }] } },
    };
    expect(checkResponse({ method: "POST", path, status: 400, body: error })).toBeUndefined();
    // The body the emulator sent before: no `code`.
    const old = { message: "You are being rate limited.", retry_after: 1.5, global: false };
    const v = checkResponse({ method: "POST", path, status: 429, body: old });
    expect(v?.errors.join()).toContain("code");
  });

  test("paths outside the document are not judged", () => {
    expect(
      checkResponse({ method: "POST", path: "/api/v10/oauth2/token", status: 200, body: {} }),
    ).toBeUndefined();
  });
});

describe("the emulator's 429 answers conform", () => {
  test("a route bucket's 429 and an injected one carry code 0", async () => {
    const { emu, api } = await start({
      rateLimits: {
        global: { limit: 50, windowMs: 1000 },
        routeDefault: { limit: 1, windowMs: 60000 },
        routes: {},
        invalidRequests: { limit: 10000, windowMs: 600000, banMs: 600000 },
      },
    });
    try {
      await api.get(`${api.app}/commands`);
      const limited = await api.get(`${api.app}/commands`);
      expect(limited.status).toBe(429);
      expect(rec(limited.body)).toMatchObject({ code: 0, global: false });
      expect(
        checkResponse({
          method: "GET",
          path: `/api/v10${api.app}/commands`,
          status: 429,
          body: limited.body,
        }),
      ).toBeUndefined();
      emu.control.setRateLimits(false);
      emu.control.setFaults({
        rules: [{ method: "POST", action: { type: "rate_limit", retryAfterMs: 1500 }, times: 1 }],
      });
      const injected = await api.post(`${api.app}/commands`, slash("x"));
      expect(injected.status).toBe(429);
      expect(
        checkResponse({
          method: "POST",
          path: `/api/v10${api.app}/commands`,
          status: 429,
          body: injected.body,
        }),
      ).toBeUndefined();
    } finally {
      await emu.close();
    }
    // The recorder saw this file's answers (the injected fault is left out).
    expect(checkedResponses()).toBeGreaterThanOrEqual(2);
    expect(recordedViolations()).toEqual([]);
  });
});

test("GET /oauth2/@me carries the application and user fields the document requires", async () => {
  const { emu, api } = await start();
  try {
    const { access } = await authorizeUser(emu, "http://127.0.0.1/callback");
    const r = await api.get("/oauth2/@me", { auth: `Bearer ${access}` });
    expect(r.status).toBe(200);
    expect(rec(rec(r.body)["application"])["verify_key"]).toBe(emu.publicKey);
    expect(
      checkResponse({ method: "GET", path: "/api/v10/oauth2/@me", status: 200, body: r.body }),
    ).toBeUndefined();
    // What the emulator answered before: the application's id and name only.
    const before = { ...rec(r.body), application: { id: emu.applicationId, name: "" } };
    expect(
      checkResponse({ method: "GET", path: "/api/v10/oauth2/@me", status: 200, body: before }),
    ).toBeDefined();
  } finally {
    await emu.close();
  }
});
