import type { ClientConfig } from "../../provider/client";
import { CommandsApi, ConfigurationError, ServiceApiError } from "../../provider/client";
import { parseTokenReply } from "../../provider/client/auth";
import type { WirePermissionsBody } from "../../provider/client";
import type { Recorded, Reply, ScriptedServer } from "./scriptedServer";
import { FakeClock, wireCommand, useScriptedServer } from "./scriptedServer";

const CLIENT_ID = "123456789";
const CLIENT_SECRET = "client-secret-for-auth-tests";
const BASIC = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64")}`;

let server: ScriptedServer;
const track = useScriptedServer((s) => (server = s));

function client(config: ClientConfig = {}): { api: CommandsApi; clock: FakeClock } {
  const clock = new FakeClock();
  const api = new CommandsApi({
    apiUrl: server.url,
    sleep: clock.sleep,
    now: clock.now,
    ...config,
  });
  track(api);
  return { api, clock };
}

/** A token endpoint that issues cc-token-1, cc-token-2...; commands accept `accepted` tokens. */
function tokenService(accepted: (token: string) => boolean = () => true, expiresIn = 3600) {
  let issued = 0;
  return (req: Recorded): Reply => {
    if (req.path === "/oauth2/token") {
      if (req.headers["authorization"] !== BASIC) {
        return { status: 401, json: { error: "invalid_client" } };
      }
      issued++;
      return {
        status: 200,
        json: {
          access_token: `cc-token-${issued}`,
          token_type: "Bearer",
          expires_in: expiresIn,
          scope: "applications.commands.update",
        },
      };
    }
    const auth = req.headers["authorization"] ?? "";
    if (!auth.startsWith("Bearer ") || !accepted(auth.slice(7))) {
      return { status: 401, json: { code: 0, message: "401: Unauthorized" } };
    }
    return { status: 200, json: wireCommand("1", "ping") };
  };
}

const credentials = { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET };

describe("client credentials", () => {
  test("the exchange is form-encoded with HTTP Basic and the update scope", async () => {
    const { api } = client(credentials);
    server.reset(tokenService());
    await api.getGlobalCommand("100", "1");
    const [token, call] = server.hits;
    expect(token).toMatchObject({ method: "POST", path: "/oauth2/token" });
    expect(token?.headers["authorization"]).toBe(BASIC);
    expect(token?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(token?.body))).toEqual({
      grant_type: "client_credentials",
      scope: "applications.commands.update",
    });
    expect(call?.headers["authorization"]).toBe("Bearer cc-token-1");
    expect(api.stats().tokenExchanges).toBe(1);
  });

  test("10 concurrent calls share one exchange", async () => {
    const { api } = client(credentials);
    server.reset(tokenService());
    // Ten different applications: ten buckets, so the calls really run concurrently.
    const ids = Array.from({ length: 10 }, (_, i) => String(100 + i));
    await Promise.all(ids.map((id) => api.getGlobalCommand(id, "1")));
    expect(server.hitsOn("/oauth2/token")).toHaveLength(1);
    const calls = server.hitsOn("/applications");
    expect(calls).toHaveLength(10);
    expect(new Set(calls.map((c) => c.headers["authorization"]))).toEqual(
      new Set(["Bearer cc-token-1"]),
    );
  });

  test("the token is cached, then refreshed shortly before it expires", async () => {
    const { api, clock } = client(credentials);
    server.reset(tokenService());
    await api.getGlobalCommand("100", "1");
    clock.t += 3_000_000; // 50 of 60 minutes
    await api.getGlobalCommand("100", "1");
    expect(server.hitsOn("/oauth2/token")).toHaveLength(1);
    clock.t += 560_000; // 59m20s: inside the 60 s margin
    await api.getGlobalCommand("100", "1");
    expect(server.hitsOn("/oauth2/token")).toHaveLength(2);
    expect(server.hits.at(-1)?.headers["authorization"]).toBe("Bearer cc-token-2");
  });

  test("a 401 on a command call refreshes the token once and retries once", async () => {
    const { api } = client(credentials);
    server.reset(tokenService((token) => token !== "cc-token-1")); // the first token is revoked
    await expect(api.getGlobalCommand("100", "1")).resolves.toMatchObject({ id: "1" });
    expect(server.hitsOn("/oauth2/token")).toHaveLength(2);
    expect(server.hitsOn("/applications")).toHaveLength(2);
    expect(api.stats()).toMatchObject({ retries: 1, invalidRequests: 1 });
  });

  test("a 401 after the refresh fails without another try", async () => {
    const { api } = client(credentials);
    server.reset(tokenService(() => false));
    const error = await api.getGlobalCommand("100", "1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceApiError);
    expect(error).toMatchObject({ status: 401 });
    expect((error as Error).message).toMatch(/credentials were rejected/);
    expect(server.hitsOn("/oauth2/token")).toHaveLength(2);
    expect(server.hitsOn("/applications")).toHaveLength(2);
  });

  test("rejected client credentials are a ServiceApiError with advice", async () => {
    const { api } = client({ clientId: CLIENT_ID, clientSecret: "wrong-secret" });
    server.reset(tokenService());
    const error = await api.getGlobalCommand("100", "1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceApiError);
    expect(error).toMatchObject({ status: 401, code: "invalid_client" });
    expect((error as Error).message).toMatch(/check discord:clientId and discord:clientSecret/);
    expect(server.hitsOn("/applications")).toHaveLength(0);
  });

  test("a bot token wins over client credentials and is never refreshed", async () => {
    const { api } = client({ ...credentials, botToken: "bot-token-for-auth-tests" });
    server.reset(() => ({ status: 401, json: { code: 0, message: "401: Unauthorized" } }));
    await expect(api.getGlobalCommand("100", "1")).rejects.toBeInstanceOf(ServiceApiError);
    expect(server.hits).toHaveLength(1);
    expect(server.hits[0]?.headers["authorization"]).toBe("Bot bot-token-for-auth-tests");
  });
});

describe("missing credentials fail before any request", () => {
  const body: WirePermissionsBody = { permissions: [{ id: "1", type: 1, permission: true }] };

  test("no application credential", async () => {
    const { api } = client();
    server.reset(tokenService());
    const error = await api.listGlobalCommands("100").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(/set discord:botToken/);
    expect(server.hits).toHaveLength(0);
  });

  test("the permissions PUT without a user's Bearer token", async () => {
    const { api } = client({ botToken: "bot-token-for-auth-tests" });
    server.reset(tokenService());
    await expect(api.editCommandPermissions("100", "200", "300", body)).rejects.toThrow(
      new ConfigurationError(
        "editing command permissions needs a user's Bearer token with " +
          "applications.commands.permissions.update: set discord:bearerToken " +
          "(`discord-commands authorize` stores it, or `pulumi config set --secret discord:bearerToken <token>`)",
      ),
    );
    expect(server.hits).toHaveLength(0);
  });

  test("the permissions PUT uses only the user's token, even without app credentials", async () => {
    const { api } = client({ bearerToken: "user-bearer-for-auth-tests" });
    server.reset(() => ({
      status: 200,
      json: { id: "300", application_id: "100", guild_id: "200", ...body },
    }));
    await expect(api.editCommandPermissions("100", "200", "300", body)).resolves.toMatchObject(
      body,
    );
    expect(server.hits[0]?.headers["authorization"]).toBe("Bearer user-bearer-for-auth-tests");
    await expect(api.getCommandPermissions("100", "200", "300")).rejects.toBeInstanceOf(
      ConfigurationError,
    );
    expect(server.hits).toHaveLength(1);
  });
});

describe("the token endpoint's reply (one schema for every grant)", () => {
  test("a reply without a Bearer access token or a lifetime is refused, naming what it lacks", () => {
    for (const reply of [
      { access_token: "t" },
      { expires_in: 3600 },
      { access_token: "", expires_in: 3600 },
      { access_token: "t", expires_in: 0 },
      { access_token: "t", expires_in: 3600, token_type: "mac" },
      "not json",
    ]) {
      expect(() => parseTokenReply(200, reply)).toThrow(
        "the token endpoint's reply lacks a Bearer access_token and expires_in",
      );
    }
  });

  test("a Bearer reply gives the token and its lifetime, whatever the case of its type", () => {
    expect(
      parseTokenReply(200, { access_token: "t", expires_in: 604800, token_type: "Bearer" }),
    ).toEqual({ accessToken: "t", expiresInS: 604800 });
  });
});
