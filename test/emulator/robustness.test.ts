/**
 * Hostile and malformed input: the service's error shapes for every failure, and a fuzz
 * run of thousands of random and mutated requests after which the server still answers,
 * nothing crashed (no 500), and the state is intact.
 */
import fc from "fast-check";
import type { RunningEmulator } from "../../emulator";
import { commandsPerScope } from "../../provider/schema";
import { prng } from "../../emulator/faults";
import type { Api } from "./helpers";
import { rec, slash, start, str } from "./helpers";

let emu: RunningEmulator;
let api: Api;

const OTHER_APP = {
  id: "9000000000000000001",
  botToken: "other-bot",
  clientSecret: "other-secret",
};

beforeAll(async () => {
  ({ emu, api } = await start({
    config: {
      maxBodyBytes: 64 * 1024,
      applications: [
        {
          id: "1300000000000000001",
          botToken: "emulator-bot-token",
          clientSecret: "s",
          activities: true,
        },
        OTHER_APP,
      ],
    },
  }));
});
afterAll(async () => {
  await emu.close();
});

describe("malformed requests get the service's error shape", () => {
  test("invalid JSON is 400/50109", async () => {
    const r = await api.call("POST", `${api.app}/commands`, {
      raw: '{"name": "x",',
      headers: { "Content-Type": "application/json" },
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ code: 50109, message: "The request body contains invalid JSON." });
  });

  test("a wrong content type is 400/50035 CONTENT_TYPE_INVALID", async () => {
    const r = await api.call("POST", `${api.app}/commands`, {
      raw: "name=x",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(r.status).toBe(400);
    expect(rec(r.body)["code"]).toBe(50035);
    expect(JSON.stringify(r.body)).toContain("CONTENT_TYPE_INVALID");
  });

  test("a body over the size limit is 413/40005", async () => {
    const r = await api.post(
      `${api.app}/commands`,
      slash("big", { description: "x".repeat(70_000) }),
    );
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ code: 40005, message: "Request entity too large" });
  });

  test("unknown routes are 404 code 0; wrong methods 405 code 0", async () => {
    for (const path of ["/nope", "/applications", `/applications/${emu.applicationId}/things`]) {
      const r = await api.get(path);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ code: 0, message: "404: Not Found" });
    }
    const outside = await fetch(`${emu.url}/api/v9/applications/1/commands`);
    expect(outside.status).toBe(404);
    const r = await api.call("POST", `${api.app}/commands/123`, { body: {} });
    expect(r.status).toBe(405);
    expect(r.body).toEqual({ code: 0, message: "405: Method Not Allowed" });
    expect((await api.call("OPTIONS", `${api.app}/commands`)).status).toBe(405);
  });

  test("__proto__ keys neither pollute nor crash", async () => {
    const r = await api.call("POST", `${api.app}/commands`, {
      raw: '{"__proto__": {"polluted": true}, "name": "proto", "description": "p", "name_localizations": {"__proto__": "x"}}',
      headers: { "Content-Type": "application/json" },
    });
    expect([200, 201, 400]).toContain(r.status);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
  });

  test("deep nesting and giant numbers are 400s", async () => {
    const deep = "[".repeat(5000) + "]".repeat(5000);
    const d = await api.call("PUT", `${api.app}/commands`, {
      raw: deep,
      headers: { "Content-Type": "application/json" },
    });
    expect(d.status).toBe(400);
    const g = await api.call("POST", `${api.app}/commands`, {
      raw: '{"name":"giant","description":"d","type":1e400,"options":[{"type":4,"name":"n","description":"d","min_value":-1e999}]}',
      headers: { "Content-Type": "application/json" },
    });
    expect(g.status).toBe(400);
    expect(rec(g.body)["code"]).toBe(50035);
  });
});

// ---- fuzz ------------------------------------------------------------------------------

test("fuzz: 2500 random and mutated requests leave the server up and the state intact", async () => {
  // A sentinel in another application that the fuzz cannot authenticate for.
  const sentinel = await api.post(`/applications/${OTHER_APP.id}/commands`, slash("sentinel"), {
    auth: `Bot ${OTHER_APP.botToken}`,
  });
  expect(sentinel.status).toBe(201);
  const sentinelBefore = (
    await api.get(`/applications/${OTHER_APP.id}/commands/${str(rec(sentinel.body)["id"])}`, {
      auth: `Bot ${OTHER_APP.botToken}`,
    })
  ).body;

  const random = prng(20261122);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const jsonValues = fc.sample(fc.jsonValue({ maxDepth: 4 }), { seed: 42, numRuns: 400 });
  const hostile: unknown[] = [
    1e308,
    -0,
    Number.MAX_SAFE_INTEGER + 2,
    "\u0000",
    "𝔘".repeat(40),
    { __proto__: null, constructor: { prototype: { x: 1 } } },
    JSON.parse('{"__proto__": {"admin": true}}'),
    [],
    {},
    null,
    "x".repeat(120),
  ];
  const valid = [
    slash("alpha"),
    slash("beta", { options: [{ type: 3, name: "s", description: "S", required: true }] }),
    { name: "User Cmd", type: 2 },
    { name: "Msg Cmd", type: 3 },
    slash("gamma", { name_localizations: { fr: "gamma-fr" }, default_member_permissions: "8" }),
    { name: "Launch", type: 4, description: "Launch an activity", handler: 2 },
  ];
  const mutate = (v: unknown, depth = 0): unknown => {
    if (depth > 4 || random() < 0.25) return random() < 0.5 ? pick(jsonValues) : pick(hostile);
    if (Array.isArray(v)) return v.map((x) => (random() < 0.3 ? mutate(x, depth + 1) : x));
    if (typeof v === "object" && v !== null) {
      const out: Record<string, unknown> = { ...(v as Record<string, unknown>) };
      const keys = Object.keys(out);
      const key =
        keys.length > 0 && random() < 0.8
          ? pick(keys)
          : pick(["type", "options", "id", "__proto__", "zzz"]);
      if (random() < 0.2) delete out[key];
      else out[key] = mutate(out[key], depth + 1);
      return out;
    }
    return pick(jsonValues);
  };

  const ids = () => emu.store.allCommands().map((c) => c.id);
  const app = `/applications/${emu.applicationId}`;
  const guild = `${app}/guilds/${emu.guildId}`;
  const paths = () => {
    const id = pick([...ids(), "1", "0", "99999999999999999999999", "abc", emu.applicationId]);
    return pick([
      `${app}/commands`,
      `${app}/commands/${id}`,
      `${guild}/commands`,
      `${guild}/commands/${id}`,
      `${guild}/commands/permissions`,
      `${guild}/commands/${id}/permissions`,
      `/applications/${OTHER_APP.id}/commands`,
      `/applications/abc/guilds/%2e%2e/commands`,
      `${app}/commands/${id}/%00`,
      "/oauth2/token",
      `/${"x/".repeat(50)}`,
    ]);
  };
  const auths = [
    `Bot ${emu.botToken}`,
    `Bearer ${emu.userBearerToken}`,
    "Bot nope",
    "Bearer",
    null,
    `Bot ${emu.botToken} extra`,
  ];
  const methods = ["GET", "POST", "PATCH", "PUT", "DELETE", "GET", "POST", "PUT"];

  const TOTAL = 2500;
  const CONCURRENCY = 8;
  let sent = 0;
  let answered = 0;
  const statuses = new Map<number, number>();
  const one = async () => {
    const method = pick(methods);
    const path = paths();
    const auth = pick(auths);
    const roll = random();
    let raw: string | undefined;
    let contentType = "application/json";
    if (roll < 0.35) {
      const base =
        path.endsWith("/commands") && method === "PUT"
          ? valid.slice(0, 1 + Math.floor(random() * 6))
          : pick(valid);
      raw = JSON.stringify(mutate(base));
    } else if (roll < 0.55) raw = JSON.stringify(pick(jsonValues));
    else if (roll < 0.65) raw = JSON.stringify(pick(valid));
    else if (roll < 0.72) raw = JSON.stringify(pick(valid)).slice(0, Math.floor(random() * 20));
    else if (roll < 0.76) raw = "[".repeat(200 + Math.floor(random() * 3000));
    else if (roll < 0.8) {
      raw = "grant_type=client_credentials";
      contentType = pick([
        "application/x-www-form-urlencoded",
        "text/plain",
        "application/json; charset=utf-8",
      ]);
    } else if (roll < 0.85)
      raw = JSON.stringify({ permissions: mutate([{ id: "1", type: 1, permission: true }]) });
    const headers: Record<string, string> = {};
    if (auth !== null) headers["Authorization"] = auth;
    if (raw !== undefined && method !== "GET") headers["Content-Type"] = contentType;
    if (random() < 0.1) headers["X-Service-Locale"] = pick(["fr", "en-US", "xx", "", "es-419"]);
    sent++;
    try {
      const res = await fetch(`${emu.apiUrl}${path}`, {
        method,
        headers,
        ...(raw !== undefined && method !== "GET" ? { body: raw } : {}),
      });
      const text = await res.text();
      answered++;
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status >= 400) {
        const body = JSON.parse(text) as unknown;
        expect(typeof body).toBe("object");
      }
    } catch (err) {
      throw new Error(`${method} ${path} failed: ${String(err)}`, { cause: err });
    }
  };
  // Bounded by count, not time: a loaded machine runs the same requests, only slower.
  const workers = Array.from({ length: CONCURRENCY }, async () => {
    while (sent < TOTAL) await one();
  });
  await Promise.all(workers);

  expect(answered).toBe(TOTAL);
  const ok = [...statuses].filter(([s]) => s < 300).reduce((n, [, c]) => n + c, 0);
  expect(ok).toBeGreaterThan(50);
  expect(statuses.get(500) ?? 0).toBe(0);
  expect(emu.counters().internalErrors).toBe(0);
  expect(({} as Record<string, unknown>)["admin"]).toBeUndefined();

  // Still answering, and the sentinel is untouched.
  const after = await api.get(
    `/applications/${OTHER_APP.id}/commands/${str(rec(sentinel.body)["id"])}`,
    {
      auth: `Bot ${OTHER_APP.botToken}`,
    },
  );
  expect(after.status).toBe(200);
  expect(after.body).toEqual(sentinelBefore);

  // Invariants: unique names per (app, scope, type), counts within limits, JSON-clean state.
  const commands = emu.store.allCommands();
  const keys = commands.map(
    (c) => `${c.application_id}/${c.guild_id ?? "global"}/${c.type}/${c.name}`,
  );
  expect(new Set(keys).size).toBe(keys.length);
  const counts = new Map<string, number>();
  for (const c of commands) {
    const k = `${c.application_id}/${c.guild_id ?? "global"}/${c.type}`;
    counts.set(k, (counts.get(k) ?? 0) + 1);
    const limit = commandsPerScope(c.type, c.guild_id === undefined ? "global" : "guild");
    expect(limit).toBeGreaterThan(0);
    expect(counts.get(k)).toBeLessThanOrEqual(limit);
  }
  const state = emu.control.state();
  expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  expect(Object.prototype).not.toHaveProperty("admin");
  const list = await api.get(`${app}/commands`);
  expect(list.status).toBe(200);
}, 180_000);
