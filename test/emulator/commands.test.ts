/** Conformance: endpoints 1-12 (commands), their status codes, bodies and rules. */
import type { RunningEmulator } from "../../emulator";
import type { Api } from "./helpers";
import { arr, rec, slash, start, str } from "./helpers";

/** Compares two snowflakes numerically (negative when a < b). */
function compareSnowflakes(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

let emu: RunningEmulator;
let api: Api;

beforeEach(async () => {
  ({ emu, api } = await start());
});
afterEach(async () => {
  await emu.close();
});

describe("create (endpoints 2 and 8)", () => {
  test("a new global command is 201 with the service's shape", async () => {
    const r = await api.post(`${api.app}/commands`, slash("ping"));
    expect(r.status).toBe(201);
    const c = rec(r.body);
    expect(c).toEqual({
      id: expect.stringMatching(/^\d+$/),
      application_id: emu.applicationId,
      version: expect.stringMatching(/^\d+$/),
      default_member_permissions: null,
      type: 1,
      name: "ping",
      name_localizations: null,
      description: "The ping command",
      description_localizations: null,
      dm_permission: true,
      contexts: null,
      integration_types: [0],
      nsfw: false,
    });
    expect(c).not.toHaveProperty("options");
    expect(c).not.toHaveProperty("guild_id");
  });

  test("a guild command carries guild_id and no global-only fields", async () => {
    const r = await api.post(`${api.guild}/commands`, slash("ping"));
    expect(r.status).toBe(201);
    const c = rec(r.body);
    expect(c["guild_id"]).toBe(emu.guildId);
    expect(c).not.toHaveProperty("dm_permission");
    expect(c).not.toHaveProperty("integration_types");
    expect(c).not.toHaveProperty("contexts");
    expect(c["nsfw"]).toBe(false);
    expect(c["default_member_permissions"]).toBeNull();
  });

  test("options omit false and empty fields; required only when true; null localizations", async () => {
    const r = await api.post(
      `${api.app}/commands`,
      slash("opt", {
        options: [
          { type: 3, name: "a", description: "A", required: true },
          { type: 3, name: "b", description: "B", required: false, autocomplete: false },
          { type: 4, name: "c", description: "C", choices: [{ name: "one", value: 1 }] },
        ],
      }),
    );
    expect(r.status).toBe(201);
    // The service sends null dictionaries at every level of a full response.
    const nulls = { name_localizations: null, description_localizations: null };
    expect(rec(r.body)["options"]).toEqual([
      { type: 3, name: "a", description: "A", required: true, ...nulls },
      { type: 3, name: "b", description: "B", ...nulls },
      {
        type: 4,
        name: "c",
        description: "C",
        ...nulls,
        choices: [{ name: "one", value: 1, name_localizations: null }],
      },
    ]);
  });

  test('USER and MESSAGE commands have description ""', async () => {
    const u = await api.post(`${api.app}/commands`, { name: "Show Profile", type: 2 });
    const m = await api.post(`${api.app}/commands`, { name: "Quote", type: 3 });
    expect([u.status, m.status]).toEqual([201, 201]);
    expect(rec(u.body)["description"]).toBe("");
    expect(rec(m.body)["description"]).toBe("");
  });

  test("ids and versions are time-based snowflakes that increase", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await api.post(`${api.app}/commands`, slash(`c${i}`));
      ids.push(str(rec(r.body)["id"]));
    }
    for (let i = 1; i < ids.length; i++) {
      expect(compareSnowflakes(ids[i - 1] ?? "", ids[i] ?? "")).toBeLessThan(0);
    }
    const ms = Number(BigInt(ids[0] ?? "0") >> 22n) + 1420070400000;
    expect(Math.abs(ms - Date.now())).toBeLessThan(60_000);
  });

  test("create with an existing name is an upsert: 200, same id; version only on change", async () => {
    const first = rec((await api.post(`${api.app}/commands`, slash("ping"))).body);
    const same = await api.post(`${api.app}/commands`, slash("ping"));
    expect(same.status).toBe(200);
    expect(rec(same.body)["id"]).toBe(first["id"]);
    expect(rec(same.body)["version"]).toBe(first["version"]);
    const changed = await api.post(`${api.app}/commands`, slash("ping", { description: "new" }));
    expect(changed.status).toBe(200);
    expect(rec(changed.body)["id"]).toBe(first["id"]);
    expect(rec(changed.body)["version"]).not.toBe(first["version"]);
    expect(rec(changed.body)["description"]).toBe("new");
    expect(arr((await api.get(`${api.app}/commands`)).body)).toHaveLength(1);
  });

  test("names are unique per type and scope only", async () => {
    const a = await api.post(`${api.app}/commands`, slash("ping"));
    const b = await api.post(`${api.app}/commands`, { name: "ping", type: 2 });
    const c = await api.post(`${api.guild}/commands`, slash("ping"));
    expect([a.status, b.status, c.status]).toEqual([201, 201, 201]);
    expect(new Set([a, b, c].map((r) => rec(r.body)["id"])).size).toBe(3);
  });

  test("an invalid body is 400/50035 with the schema's error tree", async () => {
    const r = await api.post(`${api.app}/commands`, {
      name: "ok",
      description: "d",
      options: [{ type: 3, name: "Bad Name", description: "x" }],
    });
    expect(r.status).toBe(400);
    const body = rec(r.body);
    expect(body["code"]).toBe(50035);
    expect(body["message"]).toBe("Invalid Form Body");
    const leaf = rec(rec(rec(rec(body["errors"])["options"])["0"])["name"]);
    expect(arr(leaf["_errors"])[0]).toEqual({
      code: "APPLICATION_COMMAND_INVALID_NAME",
      message: expect.any(String),
    });
  });

  test("the 8000-character size rule is 50035 APPLICATION_COMMAND_TOO_LARGE", async () => {
    const options = Array.from({ length: 25 }, (_, i) => ({
      type: 3,
      name: `o${i}`,
      description: "d".repeat(100),
      choices: Array.from({ length: 25 }, (_, j) => ({
        name: `n${j}`.padEnd(100, "x"),
        value: `v${j}`,
      })),
    }));
    const r = await api.post(`${api.app}/commands`, slash("big", { options }));
    expect(r.status).toBe(400);
    expect(rec(r.body)["code"]).toBe(50035);
    expect(JSON.stringify(r.body)).toContain("APPLICATION_COMMAND_TOO_LARGE");
  });

  test("integration_types default to the application's contexts and must be supported", async () => {
    const bad = await api.post(`${api.app}/commands`, slash("u", { integration_types: [1] }));
    expect(bad.status).toBe(400);
    expect(rec(bad.body)["code"]).toBe(50035);
    expect(rec(rec(bad.body)["errors"])).toHaveProperty("integration_types");
  });
});

describe("limits", () => {
  test("the 16th USER command is 400/30032; upserts still work", async () => {
    for (let i = 0; i < 15; i++) {
      expect((await api.post(`${api.app}/commands`, { name: `U ${i}`, type: 2 })).status).toBe(201);
    }
    const r = await api.post(`${api.app}/commands`, { name: "U 15", type: 2 });
    expect(r.status).toBe(400);
    expect(rec(r.body)).toEqual({
      code: 30032,
      message: "Maximum number of application commands reached (15)",
    });
    expect((await api.post(`${api.app}/commands`, { name: "U 3", type: 2 })).status).toBe(200);
  });

  test("101 CHAT_INPUT commands in a bulk overwrite are 400/30032", async () => {
    const body = Array.from({ length: 101 }, (_, i) => slash(`c${i}`));
    const r = await api.put(`${api.app}/commands`, body);
    expect(r.status).toBe(400);
    expect(rec(r.body)["code"]).toBe(30032);
    const ok = await api.put(`${api.app}/commands`, body.slice(0, 100));
    expect(ok.status).toBe(200);
    expect(arr(ok.body)).toHaveLength(100);
  });

  test("daily creates: 400/30034 past the limit, upserts do not count, reset after 24 h", async () => {
    await emu.close();
    ({ emu, api } = await start({ config: { dailyCreateLimit: 3 } }));
    for (const n of ["a", "b", "c"]) {
      expect((await api.post(`${api.guild}/commands`, slash(n))).status).toBe(201);
    }
    expect((await api.post(`${api.guild}/commands`, slash("a"))).status).toBe(200);
    const r = await api.post(`${api.guild}/commands`, slash("d"));
    expect(r.status).toBe(400);
    expect(rec(r.body)).toEqual({
      code: 30034,
      message: "Max number of daily application command creates has been reached (3)",
    });
    // A bulk overwrite that only keeps existing names creates nothing: allowed.
    const keep = await api.put(`${api.guild}/commands`, [slash("a"), slash("b")]);
    expect(keep.status).toBe(200);
    // One new name is over the limit, and nothing changes.
    const more = await api.put(`${api.guild}/commands`, [slash("a"), slash("z")]);
    expect(more.status).toBe(400);
    expect(rec(more.body)["code"]).toBe(30034);
    expect(arr((await api.get(`${api.guild}/commands`)).body)).toHaveLength(2);
    // Deleting does not give creates back; time does.
    emu.control.advanceClock(24 * 60 * 60 * 1000 + 1);
    expect((await api.post(`${api.guild}/commands`, slash("d"))).status).toBe(201);
  });

  test("daily creates as a 429 (dailyCreateLimitStatus): code 30034, Retry-After until the window has room", async () => {
    await emu.close();
    ({ emu, api } = await start({ config: { dailyCreateLimit: 2, dailyCreateLimitStatus: 429 } }));
    expect((await api.post(`${api.guild}/commands`, slash("a"))).status).toBe(201);
    emu.control.advanceClock(60 * 60 * 1000); // the second create an hour later
    expect((await api.post(`${api.guild}/commands`, slash("b"))).status).toBe(201);
    const r = await api.post(`${api.guild}/commands`, slash("c"));
    expect(r.status).toBe(429);
    const body = rec(r.body);
    expect(body["code"]).toBe(30034);
    expect(body["global"]).toBe(false);
    // Room again when the first create leaves the 24-hour window: 23 h from now.
    expect(body["retry_after"]).toBeCloseTo(23 * 3600, 0);
    expect(r.headers.get("retry-after")).toBe(String(23 * 3600));
    // A bulk overwrite that adds one command needs the oldest create gone too.
    const put = await api.put(`${api.guild}/commands`, [slash("a"), slash("b"), slash("z")]);
    expect(put.status).toBe(429);
    expect(Number(put.headers.get("retry-after"))).toBe(23 * 3600);
  });

  test("entry points: none in guilds, one global, only with Activities", async () => {
    const ep = { name: "Play", type: 4, description: "Play it", handler: 1 };
    const off = await api.post(`${api.app}/commands`, ep);
    expect(off.status).toBe(400);
    expect(rec(off.body)["code"]).toBe(50035);
    const guild = await api.post(`${api.guild}/commands`, ep);
    expect(guild.status).toBe(400);
    expect([50035, 30032]).toContain(rec(guild.body)["code"]);

    emu.control.setActivities(emu.applicationId, true);
    const list = arr((await api.get(`${api.app}/commands`)).body).map(rec);
    const launch = list.find((c) => c["type"] === 4);
    expect(launch).toMatchObject({ name: "Launch", handler: 2, type: 4 });
    const second = await api.post(`${api.app}/commands`, ep);
    expect(second.status).toBe(400);
    expect(rec(second.body)).toEqual({
      code: 30032,
      message: "Maximum number of application commands reached (1)",
    });
  });

  test("Activities on in the config create Launch at start", async () => {
    await emu.close();
    ({ emu, api } = await start({
      config: {
        applications: [{ id: "42", botToken: "t42", clientSecret: "s42", activities: true }],
        guilds: [],
        users: [],
      },
    }));
    const r = await api.get("/applications/42/commands", { auth: "Bot t42" });
    expect(arr(r.body).map(rec)).toEqual([
      expect.objectContaining({ type: 4, name: "Launch", handler: 2 }),
    ]);
  });

  test("discovery refuses nsfw commands", async () => {
    await emu.close();
    ({ emu, api } = await start({
      config: {
        applications: [{ id: "42", botToken: "t42", clientSecret: "s42", discovery: true }],
      },
    }));
    const r = await api.post("/applications/42/commands", slash("x", { nsfw: true }), {
      auth: "Bot t42",
    });
    expect(r.status).toBe(400);
    expect(rec(rec(r.body)["errors"])).toHaveProperty("nsfw");
  });
});

describe("get, list, edit, delete (1, 3-5, 7, 9-11)", () => {
  test("get returns the full command with localization dictionaries", async () => {
    const created = rec(
      (
        await api.post(
          `${api.guild}/commands`,
          slash("ping", { name_localizations: { fr: "pong" } }),
        )
      ).body,
    );
    const r = await api.get(`${api.guild}/commands/${str(created["id"])}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(created);
    expect(rec(r.body)["name_localizations"]).toEqual({ fr: "pong" });
  });

  test("unknown command ids and the wrong scope are 404/10063", async () => {
    const g = rec((await api.post(`${api.guild}/commands`, slash("ping"))).body);
    for (const path of [
      `${api.app}/commands/123456789`,
      `${api.app}/commands/${str(g["id"])}`,
      `${api.guild}/commands/123`,
    ]) {
      const r = await api.get(path);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ code: 10063, message: "Unknown application command" });
    }
    expect((await api.patch(`${api.app}/commands/1`, { name: "x" })).status).toBe(404);
    expect((await api.delete(`${api.app}/commands/1`)).status).toBe(404);
  });

  test("unknown application is 404/10002; unknown guild 404/10004; unauthorized guild 403/50001", async () => {
    await emu.close();
    ({ emu, api } = await start({
      config: {
        applications: [
          { id: "1", botToken: "b1", clientSecret: "s1" },
          { id: "2", botToken: "b2", clientSecret: "s2" },
        ],
        guilds: [{ id: "10", authorizedApplications: ["1"] }],
        users: [],
      },
    }));
    const unknownApp = await api.get("/applications/999/commands", { auth: "Bot b1" });
    expect(unknownApp.status).toBe(404);
    expect(rec(unknownApp.body)["code"]).toBe(10002);
    const unknownGuild = await api.get("/applications/1/guilds/11/commands", { auth: "Bot b1" });
    expect(unknownGuild.status).toBe(404);
    expect(rec(unknownGuild.body)["code"]).toBe(10004);
    const notAuthorized = await api.post("/applications/2/guilds/10/commands", slash("x"), {
      auth: "Bot b2",
    });
    expect(notAuthorized.status).toBe(403);
    expect(notAuthorized.body).toEqual({ code: 50001, message: "Missing Access" });
    const otherApp = await api.get("/applications/2/commands", { auth: "Bot b1" });
    expect(otherApp.status).toBe(403);
  });

  test("PATCH changes provided fields only; a no-op PATCH keeps the version", async () => {
    const c = rec(
      (
        await api.post(
          `${api.app}/commands`,
          slash("ping", {
            default_member_permissions: "32",
            options: [{ type: 5, name: "b", description: "B" }],
          }),
        )
      ).body,
    );
    const id = str(c["id"]);
    const same = await api.patch(`${api.app}/commands/${id}`, { description: c["description"] });
    expect(same.status).toBe(200);
    expect(rec(same.body)["version"]).toBe(c["version"]);
    const r = await api.patch(`${api.app}/commands/${id}`, { description: "changed", nsfw: true });
    expect(r.status).toBe(200);
    const after = rec(r.body);
    expect(after).toMatchObject({
      id,
      name: "ping",
      description: "changed",
      nsfw: true,
      default_member_permissions: "32",
    });
    expect(after["options"]).toEqual([
      {
        type: 5,
        name: "b",
        description: "B",
        name_localizations: null,
        description_localizations: null,
      },
    ]);
    expect(after["version"]).not.toBe(c["version"]);
    expect(compareSnowflakes(str(after["version"]), str(c["version"]))).toBeGreaterThan(0);
    const cleared = rec(
      (await api.patch(`${api.app}/commands/${id}`, { default_member_permissions: null })).body,
    );
    expect(cleared["default_member_permissions"]).toBeNull();
  });

  test("PATCH rename to a taken name is 50035; rename drops permissions", async () => {
    const a = str(rec((await api.post(`${api.guild}/commands`, slash("a"))).body)["id"]);
    await api.post(`${api.guild}/commands`, slash("b"));
    const clash = await api.patch(`${api.guild}/commands/${a}`, { name: "b" });
    expect(clash.status).toBe(400);
    expect(JSON.stringify(clash.body)).toContain("APPLICATION_COMMANDS_DUPLICATE_NAME");
    const perms = { permissions: [{ id: emu.guildId, type: 1, permission: false }] };
    const bearer = { auth: `Bearer ${emu.userBearerToken}` };
    expect((await api.put(`${api.guild}/commands/${a}/permissions`, perms, bearer)).status).toBe(
      200,
    );
    expect((await api.patch(`${api.guild}/commands/${a}`, { name: "c" })).status).toBe(200);
    expect((await api.get(`${api.guild}/commands/${a}/permissions`)).status).toBe(404);
  });

  test("PATCH with an invalid field is 50035 and changes nothing", async () => {
    const c = rec((await api.post(`${api.app}/commands`, slash("ping"))).body);
    const r = await api.patch(`${api.app}/commands/${str(c["id"])}`, {
      name: "Not Valid",
      description: "ok",
    });
    expect(r.status).toBe(400);
    expect((await api.get(`${api.app}/commands/${str(c["id"])}`)).body).toEqual(c);
  });

  test("DELETE is 204 and drops permissions; a second DELETE is 10063", async () => {
    const id = str(rec((await api.post(`${api.app}/commands`, slash("gone"))).body)["id"]);
    const perms = { permissions: [{ id: emu.guildId, type: 1, permission: true }] };
    await api.put(`${api.guild}/commands/${id}/permissions`, perms, {
      auth: `Bearer ${emu.userBearerToken}`,
    });
    const r = await api.delete(`${api.app}/commands/${id}`);
    expect(r.status).toBe(204);
    expect(r.body).toBeUndefined();
    expect((await api.delete(`${api.app}/commands/${id}`)).status).toBe(404);
    expect(emu.store.permissionsIn(emu.applicationId, emu.guildId)).toEqual([]);
  });
});

describe("bulk overwrite (6 and 12)", () => {
  test("replaces the scope (all types), keeps ids of same names, creates and deletes", async () => {
    const keep = rec((await api.post(`${api.guild}/commands`, slash("keep"))).body);
    const gone = rec((await api.post(`${api.guild}/commands`, { name: "Gone", type: 3 })).body);
    const r = await api.put(`${api.guild}/commands`, [
      slash("keep", { description: "updated" }),
      slash("fresh"),
      { name: "User Thing", type: 2 },
    ]);
    expect(r.status).toBe(200);
    const list = arr(r.body).map(rec);
    expect(list.map((c) => c["name"])).toEqual(["keep", "fresh", "User Thing"]);
    expect(list[0]?.["id"]).toBe(keep["id"]);
    expect(list[0]?.["version"]).not.toBe(keep["version"]);
    expect((await api.get(`${api.guild}/commands/${str(gone["id"])}`)).status).toBe(404);
    expect(arr((await api.get(`${api.guild}/commands`)).body)).toHaveLength(3);
  });

  test("an id in the guild body renames and keeps the id (permissions dropped)", async () => {
    const old = str(rec((await api.post(`${api.guild}/commands`, slash("old"))).body)["id"]);
    await api.put(
      `${api.guild}/commands/${old}/permissions`,
      { permissions: [{ id: emu.guildId, type: 1, permission: false }] },
      { auth: `Bearer ${emu.userBearerToken}` },
    );
    const r = await api.put(`${api.guild}/commands`, [{ id: old, ...slash("renamed") }]);
    expect(r.status).toBe(200);
    expect(arr(r.body).map(rec)[0]).toMatchObject({ id: old, name: "renamed" });
    expect((await api.get(`${api.guild}/commands/${old}/permissions`)).status).toBe(404);
  });

  test("atomic: one invalid entry and nothing changes", async () => {
    const before = (await api.put(`${api.app}/commands`, [slash("a"), slash("b")])).body;
    const r = await api.put(`${api.app}/commands`, [
      slash("c"),
      { name: "BAD NAME", description: "x" },
    ]);
    expect(r.status).toBe(400);
    expect(rec(r.body)["code"]).toBe(50035);
    expect(rec(rec(r.body)["errors"])).toHaveProperty("1");
    expect((await api.get(`${api.app}/commands?with_localizations=true`)).body).toEqual(before);
  });

  test("duplicate names in one body are 50035", async () => {
    const r = await api.put(`${api.app}/commands`, [slash("a"), slash("a")]);
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain("APPLICATION_COMMANDS_DUPLICATE_NAME");
  });

  test("a non-array body is 50035", async () => {
    const r = await api.put(`${api.app}/commands`, { name: "x" });
    expect(r.status).toBe(400);
    expect(rec(r.body)["code"]).toBe(50035);
  });

  test("leaving out the existing entry point is 400/50240; including it works", async () => {
    emu.control.setActivities(emu.applicationId, true);
    const launch = arr((await api.get(`${api.app}/commands`)).body).map(rec)[0] ?? {};
    const r = await api.put(`${api.app}/commands`, [slash("a")]);
    expect(r.status).toBe(400);
    expect(rec(r.body)["code"]).toBe(50240);
    const ok = await api.put(`${api.app}/commands`, [
      slash("a"),
      { name: "Launch", type: 4, description: "Launch an activity", handler: 2 },
    ]);
    expect(ok.status).toBe(200);
    expect(arr(ok.body).map(rec)[1]?.["id"]).toBe(launch["id"]);
  });

  test("an empty list deletes every command of the scope", async () => {
    await api.post(`${api.app}/commands`, slash("a"));
    const r = await api.put(`${api.app}/commands`, []);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([]);
    expect((await api.get(`${api.app}/commands`)).body).toEqual([]);
  });
});

describe("localization on the list endpoints", () => {
  const localized: Record<string, unknown> = slash("hello", {
    name_localizations: { "en-GB": "hullo", fr: "bonjour", "es-ES": "hola" },
    description_localizations: { fr: "Dit bonjour" },
    options: [
      {
        type: 3,
        name: "who",
        description: "Who",
        name_localizations: { fr: "qui" },
        choices: [{ name: "World", value: "w", name_localizations: { fr: "Monde" } }],
      },
    ],
  });

  async function listed(headers: Record<string, string>, query = "", auth?: string) {
    await api.post(`${api.app}/commands`, localized);
    const r = await api.get(`${api.app}/commands${query}`, {
      headers,
      ...(auth === undefined ? {} : { auth }),
    });
    expect(r.status).toBe(200);
    return rec(arr(r.body)[0]);
  }

  test("with_localizations=true returns the dictionaries and no *_localized", async () => {
    const c = await listed({ "X-Service-Locale": "fr" }, "?with_localizations=true");
    expect(c["name_localizations"]).toEqual(localized.name_localizations);
    expect(c).not.toHaveProperty("name_localized");
  });

  test("X-Service-Locale gives name_localized in the command, options and choices", async () => {
    const c = await listed({ "X-Service-Locale": "fr" });
    expect(c).toMatchObject({ name_localized: "bonjour", description_localized: "Dit bonjour" });
    expect(c).not.toHaveProperty("name_localizations");
    const option = rec(arr(c["options"])[0]);
    expect(option["name_localized"]).toBe("qui");
    expect(option).not.toHaveProperty("description_localized");
    expect(rec(arr(option["choices"])[0])["name_localized"]).toBe("Monde");
  });

  test("fallbacks: en-US -> en-GB, es-419 -> es-ES; absent locale omits the field", async () => {
    expect((await listed({ "X-Service-Locale": "en-US" }))["name_localized"]).toBe("hullo");
    expect((await listed({ "X-Discord-Locale": "es-419" }))["name_localized"]).toBe("hola");
    const de = await listed({ "X-Service-Locale": "de" });
    expect(de).not.toHaveProperty("name_localized");
    expect(de).not.toHaveProperty("description_localized");
  });

  test("Accept-Language, then the Bearer user's locale", async () => {
    expect((await listed({ "Accept-Language": "de;q=0.5, fr-FR;q=0.9" }))["name_localized"]).toBe(
      "bonjour",
    );
    await emu.close();
    ({ emu, api } = await start({
      config: {
        users: [
          {
            id: "77",
            locale: "fr",
            tokens: [{ token: "u77", scopes: ["applications.commands"] }],
          },
        ],
      },
    }));
    const c = await listed({}, "", "Bearer u77");
    expect(c["name_localized"]).toBe("bonjour");
  });
});
