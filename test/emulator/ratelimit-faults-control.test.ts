/** Conformance: rate limits, fault injection and the control API. */
import type { RunningEmulator } from "../../emulator";
import type { Api } from "./helpers";
import { arr, rec, slash, start, str } from "./helpers";

let emu: RunningEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

async function boot(options: Parameters<typeof start>[0] = {}): Promise<Api> {
  const s = await start(options);
  emu = s.emu;
  return s.api;
}

const window = (limit: number, windowMs: number) => ({ limit, windowMs });

describe("rate limits", () => {
  test("every response of a limited route carries the bucket headers", async () => {
    const api = await boot({ rateLimits: true });
    const r = await api.get(`${api.app}/commands`);
    expect(r.status).toBe(200);
    expect(r.headers.get("x-ratelimit-limit")).toBe("5");
    expect(r.headers.get("x-ratelimit-remaining")).toBe("4");
    expect(Number(r.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000);
    expect(Number(r.headers.get("x-ratelimit-reset-after"))).toBeGreaterThan(0);
    expect(r.headers.get("x-ratelimit-bucket")).toMatch(/^[0-9a-f]{32}$/);
    const create = await api.post(`${api.app}/commands`, slash("x"));
    expect(create.headers.get("x-ratelimit-bucket")).not.toBe(r.headers.get("x-ratelimit-bucket"));
  });

  test("past the bucket: 429 with Retry-After, scope user and the service's body", async () => {
    const api = await boot({
      rateLimits: {
        global: window(1000, 1000),
        routeDefault: window(2, 60_000),
        routes: {},
        invalidRequests: { limit: 10_000, windowMs: 600_000, banMs: 1000 },
      },
    });
    await api.get(`${api.app}/commands`);
    await api.get(`${api.app}/commands`);
    const r = await api.get(`${api.app}/commands`);
    expect(r.status).toBe(429);
    expect(r.headers.get("retry-after")).toBe("60");
    expect(r.headers.get("x-ratelimit-scope")).toBe("user");
    expect(r.headers.get("x-ratelimit-global")).toBeNull();
    expect(r.headers.get("x-ratelimit-remaining")).toBe("0");
    const body = rec(r.body);
    expect(body["message"]).toBe("You are being rate limited.");
    expect(body["global"]).toBe(false);
    expect(body["retry_after"]).toBeGreaterThan(59);
    // Buckets are per major parameter: the guild's list is another bucket.
    expect((await api.get(`${api.guild}/commands`)).status).toBe(200);
    // The clock resets the window.
    emu?.control.advanceClock(60_000);
    expect((await api.get(`${api.app}/commands`)).status).toBe(200);
  });

  test("the global limit is per token: 429 global with X-RateLimit-Global", async () => {
    const api = await boot({
      rateLimits: {
        global: window(3, 60_000),
        routeDefault: window(100, 1000),
        routes: {},
        invalidRequests: { limit: 10_000, windowMs: 600_000, banMs: 1000 },
      },
    });
    for (let i = 0; i < 3; i++) expect((await api.get(`${api.app}/commands`)).status).toBe(200);
    const r = await api.get(`${api.app}/commands`);
    expect(r.status).toBe(429);
    expect(r.headers.get("x-ratelimit-global")).toBe("true");
    expect(r.headers.get("x-ratelimit-scope")).toBe("global");
    expect(rec(r.body)["global"]).toBe(true);
    const other = await api.get(`${api.app}/commands`, { auth: `Bearer ${emu?.userBearerToken}` });
    expect(other.status).not.toBe(429);
  });

  test("too many invalid requests ban every request for a while", async () => {
    const api = await boot({
      rateLimits: {
        global: window(1000, 1000),
        routeDefault: window(1000, 1000),
        routes: {},
        invalidRequests: { limit: 5, windowMs: 600_000, banMs: 30_000 },
      },
    });
    for (let i = 0; i < 5; i++)
      expect((await api.get(`${api.app}/commands`, { auth: "Bot nope" })).status).toBe(401);
    const banned = await api.get(`${api.app}/commands`);
    expect(banned.status).toBe(429);
    expect(banned.headers.get("x-ratelimit-global")).toBe("true");
    expect(Number(banned.headers.get("retry-after"))).toBe(30);
    emu?.control.advanceClock(30_001);
    expect((await api.get(`${api.app}/commands`)).status).toBe(200);
  });

  test("rateLimits: false sends no rate-limit headers; the control API toggles them", async () => {
    const api = await boot();
    const r = await api.get(`${api.app}/commands`);
    expect(r.headers.get("x-ratelimit-limit")).toBeNull();
    expect(
      (await api.call("PUT", "/__emulator/rate-limits", { body: { enabled: true } })).status,
    ).toBe(204);
    expect((await api.get(`${api.app}/commands`)).headers.get("x-ratelimit-limit")).toBe("5");
  });
});

describe("faults", () => {
  test("a scripted sequence: 503, 429, drop, then normal; nothing changes on a fault", async () => {
    const api = await boot();
    emu?.control.setFaults({
      rules: [
        {
          route: "createGlobalCommand",
          sequence: [
            { type: "status", status: 503 },
            { type: "rate_limit", retryAfterMs: 1500 },
            { type: "drop" },
          ],
        },
      ],
    });
    const first = await api.post(`${api.app}/commands`, slash("x"));
    expect(first.status).toBe(503);
    expect(rec(first.body)["code"]).toBe(0);
    const second = await api.post(`${api.app}/commands`, slash("x"));
    expect(second.status).toBe(429);
    expect(second.headers.get("retry-after")).toBe("2");
    expect(rec(second.body)["retry_after"]).toBe(1.5);
    await expect(api.post(`${api.app}/commands`, slash("x"))).rejects.toThrow();
    expect(emu?.store.allCommands()).toHaveLength(0);
    expect((await api.post(`${api.app}/commands`, slash("x"))).status).toBe(201);
    // Other routes were never affected.
    expect((await api.get(`${api.app}/commands`)).status).toBe(200);
    const faults = (emu?.requestLog() ?? []).map((e) => e.fault ?? "-");
    expect(faults).toEqual(["status:503", "rate_limit", "drop", "-", "-"]);
  });

  test("phase after: the write happens but the client sees a 502", async () => {
    const api = await boot();
    emu?.control.setFaults({
      rules: [
        { method: "POST", action: { type: "status", status: 502 }, phase: "after", times: 1 },
      ],
    });
    expect((await api.post(`${api.app}/commands`, slash("x"))).status).toBe(502);
    expect(emu?.store.allCommands()).toHaveLength(1);
    expect((await api.post(`${api.app}/commands`, slash("x"))).status).toBe(200);
  });

  test("fractions are reproducible from the seed", async () => {
    const api = await boot();
    const run = async () => {
      emu?.control.setFaults({
        seed: 7,
        rules: [{ action: { type: "status", status: 500 }, fraction: 0.5 }],
      });
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await api.get(`${api.app}/commands`)).status);
      return statuses;
    };
    const a = await run();
    const b = await run();
    expect(a).toEqual(b);
    expect(a.filter((s) => s === 500).length).toBeGreaterThan(3);
    expect(a.filter((s) => s === 200).length).toBeGreaterThan(3);
  });

  test("slow responses are delayed", async () => {
    const api = await boot();
    emu?.control.setFaults({ rules: [{ action: { type: "delay", ms: 300 }, times: 1 }] });
    const t0 = Date.now();
    expect((await api.get(`${api.app}/commands`)).status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(280);
  });

  test("service errors and malformed answers on demand; only the table's codes", async () => {
    const api = await boot();
    emu?.control.setFaults({
      rules: [
        {
          route: "createGlobalCommand",
          sequence: [
            { type: "error", status: 403, code: 50001, message: "Missing Access" },
            { type: "malformed" },
          ],
        },
      ],
    });
    const denied = await api.post(`${api.app}/commands`, slash("x"));
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ code: 50001, message: "Missing Access" });
    const odd = await api.post(`${api.app}/commands`, slash("x"));
    expect(odd.status).toBe(200);
    expect(odd.body).toEqual({ unexpected: "a reply in no shape the API describes" });
    expect(emu?.store.allCommands()).toHaveLength(0);
    expect((await api.post(`${api.app}/commands`, slash("x"))).status).toBe(201);
    const madeUp = await api.call("PUT", "/__emulator/faults", {
      body: {
        rules: [{ action: { type: "error", status: 400, code: 12345, message: "made up" } }],
      },
    });
    expect(madeUp.status).toBe(400);
    expect(JSON.stringify(madeUp.body)).toContain("not a service error code");
  });

  test("a rotated bot token: the old one gets 401, the new one works, reset restores", async () => {
    const api = await boot();
    const old = `Bot ${emu?.botToken}`;
    const path = `/__emulator/applications/${emu?.applicationId}/bot-token`;
    expect((await api.call("PUT", path, { body: { token: "rotated-token" } })).status).toBe(204);
    expect((await api.get(`${api.app}/commands`, { auth: old })).status).toBe(401);
    expect((await api.get(`${api.app}/commands`, { auth: "Bot rotated-token" })).status).toBe(200);
    expect(
      (await api.call("PUT", "/__emulator/applications/1/bot-token", { body: { token: "x" } }))
        .status,
    ).toBe(404);
    expect((await api.call("POST", "/__emulator/reset")).status).toBe(204);
    expect((await api.get(`${api.app}/commands`, { auth: old })).status).toBe(200);
    expect((await api.get(`${api.app}/commands`, { auth: "Bot rotated-token" })).status).toBe(401);
  });

  test("an invalid fault plan is a 400 from the control API", async () => {
    const api = await boot();
    const r = await api.call("PUT", "/__emulator/faults", {
      body: { rules: [{ action: { type: "explode" } }] },
    });
    expect(r.status).toBe(400);
  });
});

describe("control API over HTTP", () => {
  test("info, log and counters (control calls are not logged), reset", async () => {
    const api = await boot();
    const info = rec((await api.get("/__emulator/info", { auth: null })).body);
    expect(info).toMatchObject({
      url: emu?.url,
      applicationId: emu?.applicationId,
      botToken: emu?.botToken,
    });
    await api.post(`${api.app}/commands`, slash("x"));
    await api.get(`${api.app}/commands`);
    await api.get("/nope");
    const log = arr((await api.get("/__emulator/log")).body).map(rec);
    expect(log.map((e) => [e["method"], e["route"], e["status"]])).toEqual([
      ["POST", "createGlobalCommand", 201],
      ["GET", "listGlobalCommands", 200],
      ["GET", null, 404],
    ]);
    expect(str(log[0]?.["time"])).toMatch(/^\d{4}-\d\d-\d\dT/);
    const counters = rec((await api.get("/__emulator/counters")).body);
    expect(counters).toMatchObject({ total: 3, writes: 1, byMethod: { GET: 2, POST: 1 } });
    expect((await api.call("DELETE", "/__emulator/log")).status).toBe(204);
    expect((await api.get("/__emulator/log")).body).toEqual([]);
    expect((await api.call("POST", "/__emulator/reset")).status).toBe(204);
    expect((await api.get(`${api.app}/commands`)).body).toEqual([]);
  });

  test("drift: PATCH fields without validation, set and delete permissions, delete a command", async () => {
    const api = await boot();
    const c = rec((await api.post(`${api.guild}/commands`, slash("drift"))).body);
    const id = str(c["id"]);
    const patched = await api.call("PATCH", `/__emulator/commands/${id}`, {
      body: { description: "", nsfw: true },
    });
    expect(patched.status).toBe(200);
    const got = rec((await api.get(`${api.guild}/commands/${id}`)).body);
    expect(got).toMatchObject({ description: "", nsfw: true });
    expect(got["version"]).not.toBe(c["version"]);
    const perms = { permissions: [{ id: "1", type: 2, permission: true }] };
    expect(
      (
        await api.call(
          "PUT",
          `/__emulator/permissions/${emu?.applicationId}/${emu?.guildId}/${id}`,
          { body: perms },
        )
      ).status,
    ).toBe(204);
    expect(
      rec((await api.get(`${api.guild}/commands/${id}/permissions`)).body)["permissions"],
    ).toEqual(perms.permissions);
    expect(
      (
        await api.call(
          "DELETE",
          `/__emulator/permissions/${emu?.applicationId}/${emu?.guildId}/${id}`,
        )
      ).status,
    ).toBe(204);
    expect((await api.get(`${api.guild}/commands/${id}/permissions`)).status).toBe(404);
    expect((await api.call("DELETE", `/__emulator/commands/${id}`)).status).toBe(204);
    expect((await api.get(`${api.guild}/commands/${id}`)).status).toBe(404);
    expect((await api.call("DELETE", `/__emulator/commands/${id}`)).status).toBe(404);
  });

  test("Activities toggle, clock and faults over HTTP", async () => {
    const api = await boot();
    const path = `/__emulator/applications/${emu?.applicationId}/activities`;
    expect((await api.call("PUT", path, { body: { enabled: true } })).status).toBe(204);
    expect(arr((await api.get(`${api.app}/commands`)).body).map((c) => rec(c)["name"])).toEqual([
      "Launch",
    ]);
    expect((await api.call("PUT", path, { body: { enabled: false } })).status).toBe(204);
    expect((await api.get(`${api.app}/commands`)).body).toEqual([]);
    const before = Number(rec((await api.get("/__emulator/clock")).body)["now"]);
    const after = rec(
      (await api.call("POST", "/__emulator/clock/advance", { body: { seconds: 3600 } })).body,
    );
    expect(Number(after["now"]) - before).toBeGreaterThanOrEqual(3600_000);
    const set = await api.call("PUT", "/__emulator/faults", {
      body: {
        rules: [{ route: "listGlobalCommands", action: { type: "status", status: 500 }, times: 1 }],
      },
    });
    expect(set.status).toBe(200);
    expect((await api.get(`${api.app}/commands`)).status).toBe(500);
    expect((await api.get(`${api.app}/commands`)).status).toBe(200);
    expect((await api.get("/__emulator/unknown")).status).toBe(404);
  });

  test("the control API is off on request (and on non-loopback hosts by default)", async () => {
    const api = await boot({ control: false });
    const r = await api.get("/__emulator/info");
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ code: 0, message: "404: Not Found" });
  });
});
