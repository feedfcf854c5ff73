import { CommandsApi, ConfigurationError, normalizeApiUrl } from "../../provider/client";
import { match } from "../../provider/routes";
import type { WirePermissionsBody } from "../../provider/client";
import type { Recorded, Reply } from "./scriptedServer";
import { FakeClock, ScriptedServer, wireCommand } from "./scriptedServer";

const APP = "100";
const GUILD = "200";
const CMD = "300";
const perms = {
  id: CMD,
  application_id: APP,
  guild_id: GUILD,
  permissions: [{ id: "400", type: 1, permission: true }],
};

/** Answers every endpoint as the service would, by route name. */
function serviceLike(req: Recorded): Reply {
  const m = match(req.method, req.path);
  if (m === undefined || "methodNotAllowed" in m)
    return { status: 405, json: { code: 0, message: "405" } };
  switch (m.name) {
    case "listGlobalCommands":
    case "listGuildCommands":
      return { status: 200, json: [wireCommand(CMD, "ping")] };
    case "createGlobalCommand":
    case "createGuildCommand": {
      const body = JSON.parse(req.body) as { name: string };
      return { status: body.name === "exists" ? 200 : 201, json: wireCommand(CMD, body.name) };
    }
    case "getGlobalCommand":
    case "getGuildCommand":
    case "deleteGlobalCommand":
    case "deleteGuildCommand":
      if (m.params["commandId"] === "999") {
        return { status: 404, json: { code: 10063, message: "Unknown application command" } };
      }
      return req.method === "DELETE"
        ? { status: 204 }
        : { status: 200, json: wireCommand(CMD, "ping") };
    case "editGlobalCommand":
    case "editGuildCommand":
      return {
        status: 200,
        json: wireCommand(CMD, "ping", JSON.parse(req.body) as Record<string, unknown>),
      };
    case "bulkOverwriteGlobalCommands":
    case "bulkOverwriteGuildCommands": {
      const bodies = JSON.parse(req.body) as { name: string }[];
      return { status: 200, json: bodies.map((b, i) => wireCommand(String(i + 1), b.name)) };
    }
    case "listGuildCommandPermissions":
      return { status: 200, json: [perms] };
    case "getCommandPermissions":
      return m.params["commandId"] === "999"
        ? { status: 404, json: { code: 10066, message: "Unknown application command permissions" } }
        : { status: 200, json: perms };
    case "editCommandPermissions":
      return { status: 200, json: { ...perms, ...(JSON.parse(req.body) as object) } };
    default:
      return { status: 500, text: "unexpected" };
  }
}

let server: ScriptedServer;
let api: CommandsApi;

beforeAll(async () => {
  server = await ScriptedServer.start();
  const clock = new FakeClock();
  api = new CommandsApi({
    apiUrl: `${server.url}/api/v10/`,
    botToken: "bot-token-for-facade-tests",
    bearerToken: "user-bearer-for-facade-tests",
    sleep: clock.sleep,
    now: clock.now,
  });
});
afterAll(async () => {
  await api.close();
  await server.close();
});
beforeEach(() => server.reset(serviceLike));

function only(): Recorded {
  expect(server.hits).toHaveLength(1);
  const hit = server.hits[0];
  if (hit === undefined) throw new Error("no request");
  return hit;
}

describe("global commands", () => {
  test("listGlobalCommands, with and without localizations", async () => {
    await expect(api.listGlobalCommands(APP)).resolves.toEqual([wireCommand(CMD, "ping")]);
    expect(only()).toMatchObject({ method: "GET", path: `/applications/${APP}/commands` });
    expect(server.hits[0]?.query.has("with_localizations")).toBe(false);
    expect(server.hits[0]?.headers["authorization"]).toBe("Bot bot-token-for-facade-tests");
    server.reset(serviceLike);
    await api.listGlobalCommands(APP, { withLocalizations: true });
    expect(only().query.get("with_localizations")).toBe("true");
  });

  test("createGlobalCommand tells a new command (201) from an overwrite (200)", async () => {
    const fresh = await api.createGlobalCommand(APP, { name: "ping", description: "Ping" });
    expect(fresh).toEqual({ command: wireCommand(CMD, "ping"), created: true });
    const hit = only();
    expect(hit).toMatchObject({ method: "POST", path: `/applications/${APP}/commands` });
    expect(hit.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(hit.body)).toEqual({ name: "ping", description: "Ping" });
    const upsert = await api.createGlobalCommand(APP, { name: "exists", description: "x" });
    expect(upsert.created).toBe(false);
  });

  test("getGlobalCommand, and undefined for an unknown command", async () => {
    await expect(api.getGlobalCommand(APP, CMD)).resolves.toEqual(wireCommand(CMD, "ping"));
    expect(only()).toMatchObject({ method: "GET", path: `/applications/${APP}/commands/${CMD}` });
    await expect(api.getGlobalCommand(APP, "999")).resolves.toBeUndefined();
  });

  test("editGlobalCommand sends only the given fields", async () => {
    const cmd = await api.editGlobalCommand(APP, CMD, { description: "New" });
    expect(cmd.description).toBe("New");
    const hit = only();
    expect(hit).toMatchObject({ method: "PATCH", path: `/applications/${APP}/commands/${CMD}` });
    expect(JSON.parse(hit.body)).toEqual({ description: "New" });
  });

  test("deleteGlobalCommand: true when deleted, false when already gone", async () => {
    await expect(api.deleteGlobalCommand(APP, CMD)).resolves.toBe(true);
    expect(only()).toMatchObject({
      method: "DELETE",
      path: `/applications/${APP}/commands/${CMD}`,
    });
    await expect(api.deleteGlobalCommand(APP, "999")).resolves.toBe(false);
  });

  test("bulkOverwriteGlobalCommands", async () => {
    const result = await api.bulkOverwriteGlobalCommands(APP, [
      { name: "a", description: "A" },
      { name: "b", description: "B" },
    ]);
    expect(result.map((c) => c.name)).toEqual(["a", "b"]);
    expect(only()).toMatchObject({ method: "PUT", path: `/applications/${APP}/commands` });
  });
});

describe("guild commands", () => {
  const base = `/applications/${APP}/guilds/${GUILD}/commands`;

  test("listGuildCommands", async () => {
    await expect(
      api.listGuildCommands(APP, GUILD, { withLocalizations: true }),
    ).resolves.toHaveLength(1);
    const hit = only();
    expect(hit).toMatchObject({ method: "GET", path: base });
    expect(hit.query.get("with_localizations")).toBe("true");
  });

  test("createGuildCommand", async () => {
    const result = await api.createGuildCommand(APP, GUILD, { name: "ping", description: "P" });
    expect(result.created).toBe(true);
    expect(result.command.name).toBe("ping");
    expect(only()).toMatchObject({ method: "POST", path: base });
  });

  test("getGuildCommand, and undefined for an unknown command", async () => {
    await expect(api.getGuildCommand(APP, GUILD, CMD)).resolves.toMatchObject({ id: CMD });
    expect(only()).toMatchObject({ method: "GET", path: `${base}/${CMD}` });
    await expect(api.getGuildCommand(APP, GUILD, "999")).resolves.toBeUndefined();
  });

  test("editGuildCommand", async () => {
    await expect(api.editGuildCommand(APP, GUILD, CMD, { nsfw: true })).resolves.toMatchObject({
      nsfw: true,
    });
    const hit = only();
    expect(hit).toMatchObject({ method: "PATCH", path: `${base}/${CMD}` });
    expect(JSON.parse(hit.body)).toEqual({ nsfw: true });
  });

  test("deleteGuildCommand", async () => {
    await expect(api.deleteGuildCommand(APP, GUILD, CMD)).resolves.toBe(true);
    expect(only()).toMatchObject({ method: "DELETE", path: `${base}/${CMD}` });
    await expect(api.deleteGuildCommand(APP, GUILD, "999")).resolves.toBe(false);
  });

  test("bulkOverwriteGuildCommands", async () => {
    const result = await api.bulkOverwriteGuildCommands(APP, GUILD, [
      { name: "a", description: "A" },
    ]);
    expect(result).toEqual([wireCommand("1", "a")]);
    expect(only()).toMatchObject({ method: "PUT", path: base });
  });
});

describe("permissions", () => {
  const base = `/applications/${APP}/guilds/${GUILD}/commands`;

  test("listGuildCommandPermissions uses the application's credential", async () => {
    await expect(api.listGuildCommandPermissions(APP, GUILD)).resolves.toEqual([perms]);
    const hit = only();
    expect(hit).toMatchObject({ method: "GET", path: `${base}/permissions` });
    expect(hit.headers["authorization"]).toBe("Bot bot-token-for-facade-tests");
  });

  test("getCommandPermissions, and undefined when the command has none (10066)", async () => {
    await expect(api.getCommandPermissions(APP, GUILD, CMD)).resolves.toEqual(perms);
    expect(only()).toMatchObject({ method: "GET", path: `${base}/${CMD}/permissions` });
    await expect(api.getCommandPermissions(APP, GUILD, "999")).resolves.toBeUndefined();
  });

  test("editCommandPermissions sends the user's Bearer token", async () => {
    const body: WirePermissionsBody = { permissions: [{ id: "500", type: 2, permission: false }] };
    await expect(api.editCommandPermissions(APP, GUILD, CMD, body)).resolves.toMatchObject(body);
    const hit = only();
    expect(hit).toMatchObject({ method: "PUT", path: `${base}/${CMD}/permissions` });
    expect(hit.headers["authorization"]).toBe("Bearer user-bearer-for-facade-tests");
    expect(JSON.parse(hit.body)).toEqual(body);
  });

  test("a reply of the wrong shape is an HttpError", async () => {
    server.reset(() => ({ status: 200, json: { unexpected: true } }));
    await expect(api.getCommandPermissions(APP, GUILD, CMD)).rejects.toThrow(
      /does not have the expected shape/,
    );
  });
});

describe("configuration", () => {
  test("the base URL is normalized with or without /api/v10", () => {
    for (const url of [
      "https://discord.com",
      "https://discord.com/",
      "https://discord.com/api/v10",
      "https://discord.com/api/v10/",
    ]) {
      expect(normalizeApiUrl(url)).toBe("https://discord.com/api/v10");
    }
    expect(normalizeApiUrl("http://127.0.0.1:8080/prefix")).toBe(
      "http://127.0.0.1:8080/prefix/api/v10",
    );
    expect(new CommandsApi({}).rest.baseUrl).toBe("https://discord.com/api/v10");
  });

  test("bad values are configuration errors", () => {
    expect(() => new CommandsApi({ apiUrl: "not a url" })).toThrow(ConfigurationError);
    expect(() => new CommandsApi({ apiUrl: "https://u:p@host" })).toThrow(ConfigurationError);
    expect(() => new CommandsApi({ timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => new CommandsApi({ maxRetries: -1 })).toThrow(/maxRetries/);
    expect(() => new CommandsApi({ clientId: "1" })).toThrow(/clientSecret/);
  });
});
