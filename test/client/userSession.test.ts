/**
 * The user's Bearer token in the client (provider/client/auth.ts), against the emulator:
 * refreshed once, single-flight, when it is answered 401 or known to have expired; the
 * rotated pair reported; a refused refresh token is a ReauthorizationRequiredError that
 * says what to do; a session kept by a resource is refreshed by that resource only.
 */
import type { RunningEmulator } from "../../emulator";
import type { ClientConfig, UserSession } from "../../provider/client";
import { CommandsApi, ReauthorizationRequiredError, ServiceApiError } from "../../provider/client";
import { authorizeUser, clientAuthorization, rec, slash, start, str } from "../emulator/helpers";

const REDIRECT = "http://127.0.0.1:1/callback";
const DAY_MS = 24 * 3600 * 1000;

let emu: RunningEmulator;
let commandId: string;
const clients: CommandsApi[] = [];

beforeEach(async () => {
  const started = await start();
  emu = started.emu;
  const created = await started.api.post(`${started.api.guild}/commands`, slash("ping"));
  commandId = str(rec(created.body)["id"]);
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await emu.close();
});

/** A fresh access and refresh token of the emulator's user. */
const userTokens = () => authorizeUser(emu, REDIRECT);

function client(config: ClientConfig): CommandsApi {
  const api = new CommandsApi({
    apiUrl: emu.url,
    botToken: emu.botToken,
    clientId: emu.clientId,
    clientSecret: emu.clientSecret,
    ...config,
  });
  clients.push(api);
  return api;
}

const write = (api: CommandsApi, allowed = true) =>
  api.editCommandPermissions(emu.applicationId, emu.guildId, commandId, {
    permissions: [{ id: emu.guildId, type: 1, permission: allowed }],
  });

const tokenRequests = () =>
  emu.control.requestLog().filter((e) => e.route === "oauth2Token").length;

test("an expired token answered 401: one refresh for five concurrent writes, which all succeed", async () => {
  const t = await userTokens();
  const sessions: UserSession[] = [];
  const api = client({
    bearerToken: t.access,
    refreshToken: t.refresh,
    onUserSession: (s) => sessions.push(s),
  });
  emu.control.advanceClock(8 * DAY_MS);
  await Promise.all([write(api), write(api, false), write(api), write(api, false), write(api)]);
  expect(tokenRequests()).toBe(1);
  expect(sessions).toHaveLength(1);
  expect(sessions[0]?.refreshToken).not.toBe(t.refresh);
  expect(sessions[0]?.accessToken).not.toBe(t.access);
  expect(sessions[0]?.expiresInS).toBe(604800);
});

test("a token known to have expired is refreshed before the request: no 401 spent", async () => {
  const t = await userTokens();
  let now = Date.now();
  const api = client({ bearerToken: t.access, refreshToken: t.refresh, now: () => now });
  emu.control.advanceClock(8 * DAY_MS);
  await write(api); // 401, refresh: the session's expiry is now known
  emu.control.resetLog();
  emu.control.advanceClock(8 * DAY_MS);
  now += 8 * DAY_MS;
  await write(api);
  const log = emu.control.requestLog();
  expect(log.map((e) => [e.route, e.status])).toEqual([
    ["oauth2Token", 200],
    ["editCommandPermissions", 200],
  ]);
});

test("without a refresh token, a 401 is the error, with advice", async () => {
  const t = await userTokens();
  const api = client({ bearerToken: t.access });
  emu.control.advanceClock(8 * DAY_MS);
  const err: unknown = await write(api).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ServiceApiError);
  expect(String(err)).toMatch(/discord:bearerToken\) was rejected/);
  expect(tokenRequests()).toBe(0);
});

test("a revoked authorization: ReauthorizationRequiredError, once, naming the command", async () => {
  const t = await userTokens();
  const api = client({ bearerToken: t.access, refreshToken: t.refresh });
  await fetch(`${emu.apiUrl}/oauth2/token/revoke`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Authorization: clientAuthorization(emu),
    },
    body: new URLSearchParams({ token: t.refresh, token_type_hint: "refresh_token" }).toString(),
  });
  const err: unknown = await write(api).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ReauthorizationRequiredError);
  expect(String(err)).toMatch(/invalid_grant/);
  expect(String(err)).toMatch(/run `discord-commands authorize` again/);
  expect(String(err)).not.toContain(t.refresh);
  expect(String(err)).not.toContain(t.access);
  expect(tokenRequests()).toBe(1);
});

test("a session kept by a resource is not refreshed behind its back", async () => {
  const t = await userTokens();
  const api = client({ bearerToken: t.access, refreshToken: t.refresh });
  api.rest.credentials.keepUserSession();
  emu.control.advanceClock(8 * DAY_MS);
  const err: unknown = await write(api).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ServiceApiError);
  expect(tokenRequests()).toBe(0);
  await api.rest.credentials.refreshUser();
  await write(api);
  expect(tokenRequests()).toBe(1);
});

test("a public client refreshes with client_id alone", async () => {
  await emu.close();
  const started = await start({
    config: {
      applications: [
        {
          id: "1300000000000000001",
          botToken: "emulator-bot-token",
          clientSecret: "emulator-client-secret",
          publicClient: true,
          consentUserId: "1300000000000000003",
        },
      ],
    },
  });
  emu = started.emu;
  const created = await started.api.post(`${started.api.guild}/commands`, slash("ping"));
  commandId = str(rec(created.body)["id"]);
  const t = await userTokens();
  const api = new CommandsApi({
    apiUrl: emu.url,
    clientId: emu.clientId,
    bearerToken: t.access,
    refreshToken: t.refresh,
  });
  clients.push(api);
  emu.control.advanceClock(8 * DAY_MS);
  await write(api);
  expect(tokenRequests()).toBe(1);
});
