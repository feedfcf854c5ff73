/** Conformance: endpoints 13-16 (permissions), authentication and the OAuth2 token endpoint. */
import type { RunningEmulator } from "../../emulator";
import { DEFAULTS } from "../../emulator";
import type { Api } from "./helpers";
import { arr, clientAuthorization, rec, slash, start, str } from "./helpers";

let emu: RunningEmulator;
let api: Api;

const CONFIG = {
  users: [
    {
      id: "501",
      locale: "en-US",
      tokens: [
        { token: "manager", scopes: ["applications.commands.permissions.update"] },
        { token: "no-scope", scopes: ["identify"] },
      ],
    },
    {
      id: "502",
      tokens: [{ token: "member", scopes: ["applications.commands.permissions.update"] }],
    },
    {
      id: "503",
      tokens: [{ token: "outsider", scopes: ["applications.commands.permissions.update"] }],
    },
    {
      id: "504",
      tokens: [{ token: "admin", scopes: ["applications.commands.permissions.update"] }],
    },
  ],
  guilds: [
    {
      id: DEFAULTS.guildId,
      roles: [
        { id: "601", permissions: String((1n << 5n) | (1n << 28n)) },
        { id: "602", permissions: String(1n << 5n) },
        { id: "603", permissions: String(1n << 3n) },
      ],
      members: [
        { userId: "501", roles: ["601"] },
        { userId: "502", roles: ["602"] },
        { userId: "504", roles: ["603"] },
      ],
      authorizedApplications: [DEFAULTS.applicationId],
    },
  ],
};

beforeEach(async () => {
  ({ emu, api } = await start({ config: CONFIG }));
});
afterEach(async () => {
  await emu.close();
});

const overwrites = (n: number) => ({
  permissions: Array.from({ length: n }, (_, i) => ({
    id: String(1000 + i),
    type: 2,
    permission: i % 2 === 0,
  })),
});

describe("permissions (13-16)", () => {
  test("PUT with a manager's Bearer token replaces overwrites; GET returns them", async () => {
    const id = str(rec((await api.post(`${api.guild}/commands`, slash("p"))).body)["id"]);
    const bearer = { auth: "Bearer manager" };
    const r = await api.put(`${api.guild}/commands/${id}/permissions`, overwrites(2), bearer);
    expect(r.status).toBe(200);
    const expected = {
      id,
      application_id: emu.applicationId,
      guild_id: emu.guildId,
      permissions: overwrites(2).permissions,
    };
    expect(r.body).toEqual(expected);
    expect((await api.get(`${api.guild}/commands/${id}/permissions`)).body).toEqual(expected);
    const replaced = await api.put(
      `${api.guild}/commands/${id}/permissions`,
      overwrites(1),
      bearer,
    );
    expect(rec(replaced.body)["permissions"]).toEqual(overwrites(1).permissions);
  });

  test("global commands take permissions per guild; 100 overwrites max", async () => {
    const id = str(rec((await api.post(`${api.app}/commands`, slash("g"))).body)["id"]);
    const bearer = { auth: "Bearer manager" };
    expect(
      (await api.put(`${api.guild}/commands/${id}/permissions`, overwrites(100), bearer)).status,
    ).toBe(200);
    const tooMany = await api.put(
      `${api.guild}/commands/${id}/permissions`,
      overwrites(101),
      bearer,
    );
    expect(tooMany.status).toBe(400);
    expect(rec(tooMany.body)["code"]).toBe(50035);
    expect(
      arr(rec((await api.get(`${api.guild}/commands/${id}/permissions`)).body)["permissions"]),
    ).toHaveLength(100);
  });

  test("a command without overwrites is 404/10066; unknown command 404/10063", async () => {
    const id = str(rec((await api.post(`${api.guild}/commands`, slash("p"))).body)["id"]);
    const r = await api.get(`${api.guild}/commands/${id}/permissions`);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ code: 10066, message: "Unknown application command permissions" });
    const unknown = await api.put(`${api.guild}/commands/999/permissions`, overwrites(1), {
      auth: "Bearer manager",
    });
    expect(unknown.status).toBe(404);
    expect(rec(unknown.body)["code"]).toBe(10063);
  });

  test("the application-id object is listed by 13 and readable by 14", async () => {
    const bearer = { auth: "Bearer manager" };
    const id = str(rec((await api.post(`${api.guild}/commands`, slash("p"))).body)["id"]);
    await api.put(`${api.guild}/commands/${emu.applicationId}/permissions`, overwrites(1), bearer);
    await api.put(`${api.guild}/commands/${id}/permissions`, overwrites(2), bearer);
    const list = await api.get(`${api.guild}/commands/permissions`);
    expect(list.status).toBe(200);
    expect(
      arr(list.body)
        .map((p) => rec(p)["id"])
        .sort(),
    ).toEqual([emu.applicationId, id].sort());
    const appWide = await api.get(`${api.guild}/commands/${emu.applicationId}/permissions`);
    expect(rec(appWide.body)["id"]).toBe(emu.applicationId);
  });

  test("a bot token on the PUT is 403/20001", async () => {
    const id = str(rec((await api.post(`${api.guild}/commands`, slash("p"))).body)["id"]);
    const r = await api.put(`${api.guild}/commands/${id}/permissions`, overwrites(1));
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ code: 20001, message: "Bots cannot use this endpoint" });
  });

  test("scope, membership and MANAGE_GUILD + MANAGE_ROLES are checked", async () => {
    const id = str(rec((await api.post(`${api.guild}/commands`, slash("p"))).body)["id"]);
    const path = `${api.guild}/commands/${id}/permissions`;
    const noScope = await api.put(path, overwrites(1), { auth: "Bearer no-scope" });
    expect(noScope.status).toBe(403);
    expect(rec(noScope.body)["code"]).toBe(50001);
    const member = await api.put(path, overwrites(1), { auth: "Bearer member" });
    expect(member.status).toBe(403);
    expect(member.body).toEqual({ code: 50013, message: "Missing Permissions" });
    const outsider = await api.put(path, overwrites(1), { auth: "Bearer outsider" });
    expect(outsider.status).toBe(403);
    expect(rec(outsider.body)["code"]).toBe(50001);
    expect((await api.put(path, overwrites(1), { auth: "Bearer admin" })).status).toBe(200);
  });

  test("a client-credentials token cannot edit permissions", async () => {
    const token = await clientCredentials();
    const id = str(rec((await api.post(`${api.guild}/commands`, slash("p"))).body)["id"]);
    const r = await api.put(`${api.guild}/commands/${id}/permissions`, overwrites(1), {
      auth: `Bearer ${token}`,
    });
    expect(r.status).toBe(403);
  });

  test("batch edit (16) is disabled with a 403 in the service's shape", async () => {
    const bot = await api.put(`${api.guild}/commands/permissions`, []);
    expect(bot.status).toBe(403);
    expect(rec(bot.body)["code"]).toBe(20001);
    const user = await api.put(`${api.guild}/commands/permissions`, [], { auth: "Bearer manager" });
    expect(user.status).toBe(403);
    expect(rec(user.body)).toEqual({ code: expect.any(Number), message: expect.any(String) });
  });

  test("invalid permission bodies are 50035", async () => {
    const id = str(rec((await api.post(`${api.guild}/commands`, slash("p"))).body)["id"]);
    const r = await api.put(
      `${api.guild}/commands/${id}/permissions`,
      { permissions: [{ id: "x", type: 9, permission: "yes" }] },
      { auth: "Bearer manager" },
    );
    expect(r.status).toBe(400);
    expect(rec(r.body)["code"]).toBe(50035);
  });
});

async function clientCredentials(scope = "applications.commands.update"): Promise<string> {
  const res = await fetch(`${emu.apiUrl}/oauth2/token`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Authorization: clientAuthorization(emu),
    },
    body: new URLSearchParams({ grant_type: "client_credentials", scope }).toString(),
  });
  expect(res.status).toBe(200);
  const body = rec(await res.json());
  return str(body["access_token"]);
}

describe("authentication", () => {
  test("no, malformed or unknown tokens are 401 code 0", async () => {
    for (const auth of [null, "nonsense", "Bot wrong", "Bearer wrong"]) {
      const r = await api.get(`${api.app}/commands`, { auth });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ code: 0, message: "401: Unauthorized" });
    }
  });

  test("client credentials: Basic auth or form fields; the token acts as the application", async () => {
    const res = await fetch(`${emu.apiUrl}/oauth2/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        scope: "applications.commands.update",
        client_id: emu.clientId,
        client_secret: emu.clientSecret,
      }).toString(),
    });
    expect(res.status).toBe(200);
    const body = rec(await res.json());
    expect(body).toEqual({
      access_token: expect.any(String),
      token_type: "Bearer",
      expires_in: 604800,
      scope: "applications.commands.update",
    });
    const auth = `Bearer ${str(body["access_token"])}`;
    expect((await api.post(`${api.app}/commands`, slash("cc"), { auth })).status).toBe(201);
    expect((await api.get(`${api.guild}/commands`, { auth })).status).toBe(200);
  });

  test("tokens expire with the clock", async () => {
    const auth = `Bearer ${await clientCredentials()}`;
    expect((await api.get(`${api.app}/commands`, { auth })).status).toBe(200);
    emu.control.advanceClock(604800 * 1000 + 1);
    expect((await api.get(`${api.app}/commands`, { auth })).status).toBe(401);
  });

  test("a read-only token cannot write (403/50001)", async () => {
    const auth = `Bearer ${await clientCredentials("applications.commands")}`;
    expect((await api.get(`${api.app}/commands`, { auth })).status).toBe(200);
    const r = await api.post(`${api.app}/commands`, slash("x"), { auth });
    expect(r.status).toBe(403);
    expect(rec(r.body)["code"]).toBe(50001);
  });

  test("OAuth2 errors: bad secret, grant type and scope", async () => {
    const post = (form: Record<string, string>, basic?: string) =>
      fetch(`${emu.apiUrl}/oauth2/token`, {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          ...(basic ? { Authorization: `Basic ${Buffer.from(basic).toString("base64")}` } : {}),
        },
        body: new URLSearchParams(form).toString(),
      });
    const badSecret = await post({ grant_type: "client_credentials" }, `${emu.clientId}:nope`);
    expect(badSecret.status).toBe(401);
    expect(rec(await badSecret.json())["error"]).toBe("invalid_client");
    const badGrant = await post({ grant_type: "password" }, `${emu.clientId}:${emu.clientSecret}`);
    expect(badGrant.status).toBe(400);
    expect(rec(await badGrant.json())["error"]).toBe("unsupported_grant_type");
    const badScope = await post(
      { grant_type: "client_credentials", scope: "applications.commands.permissions.update" },
      `${emu.clientId}:${emu.clientSecret}`,
    );
    expect(badScope.status).toBe(400);
    expect(rec(await badScope.json())["error"]).toBe("invalid_scope");
  });

  test("a user token without applications.commands.update cannot write commands", async () => {
    const r = await api.post(`${api.app}/commands`, slash("x"), { auth: "Bearer manager" });
    expect(r.status).toBe(403);
    expect(rec(r.body)["code"]).toBe(50001);
  });
});
