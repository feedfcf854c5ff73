/**
 * A month of daily deployments with one authorization, below the CLI: each day is a
 * fresh provider runtime (one engine process per deployment) that gets the state the
 * last day recorded, as the engine hands it over. `UserAuthorization`'s diff decides
 * whether the token needs a refresh (the emulator's access tokens live 7 days), its
 * update refreshes and records the rotated pair, and the day's drifted permissions are
 * written back with that token. The engine suite (test/engine/authorization.test.ts)
 * runs two such days through the real CLI; this one runs all thirty. A revoked
 * authorization fails the resource's update with advice to authorize again, and a new
 * pair in the stack's config (`discord-commands authorize` again) mends it.
 */
import type { RunningEmulator } from "../../emulator";
import { permissionsProvider } from "../../provider/resources/permissionsLifecycle";
import { userAuthorizationProvider } from "../../provider/resources/authorizationLifecycle";
import type { Bag } from "../../provider/resources/propertyBags";
import { ProviderRuntime } from "../../provider/resources/runtime";
import { authorizeUser, clientAuthorization, start } from "../emulator/helpers";

const DAY_MS = 24 * 3600 * 1000;
const REDIRECT = "http://127.0.0.1:1/callback";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = (await start()).emu;
});
afterAll(() => emu.close());

/** The stack's config of a deployment that holds the user authorization `pair`. */
function stackConfig(pair: { access: string; refresh: string }): Map<string, string> {
  return new Map<string, string>([
    ["discord:apiUrl", emu.url],
    ["discord:applicationId", emu.applicationId],
    ["discord:botToken", emu.botToken],
    ["discord:clientId", emu.clientId],
    ["discord:clientSecret", emu.clientSecret],
    ["discord:bearerToken", pair.access],
    ["discord:refreshToken", pair.refresh],
  ]);
}

/** The permissions both tests declare: the guild's everyone role allowed app-wide. */
function declaredPermissions(): Bag {
  return {
    applicationId: emu.applicationId,
    guildId: emu.guildId,
    commandId: emu.applicationId,
    permissions: [{ id: emu.guildId, type: 1, permission: true }],
  };
}

test("30 days, one deployment a day: refreshed as it expires, rotated pair kept, always converging", async () => {
  const first = await authorizeUser(emu, REDIRECT);
  const config = stackConfig(first);
  const declared = declaredPermissions();
  const drifted = [{ id: emu.guildId, type: 1, permission: false }];
  let authorizationState: Bag | undefined;
  let permissionsState: Bag | undefined;
  let refreshes = 0;
  const seen = new Set<string>([first.access, first.refresh]);

  for (let day = 1; day <= 30; day++) {
    emu.control.advanceClock(DAY_MS);
    if (permissionsState !== undefined) {
      emu.control.setPermissions(emu.applicationId, emu.guildId, emu.applicationId, drifted);
    }
    emu.control.resetLog();
    const rt = new ProviderRuntime({ env: {} });
    rt.configure({ get: (key) => config.get(key) });
    const authorization = userAuthorizationProvider(rt);
    const permissions = permissionsProvider(rt);
    try {
      // UserAuthorization first (the permissions depend on it): create, or diff then update.
      if (authorizationState === undefined) {
        authorizationState = (await authorization.create({})).outs;
      } else if ((await authorization.diff("user-authorization", authorizationState, {})).changes) {
        authorizationState = (
          await authorization.update("user-authorization", authorizationState, {})
        ).outs;
      }
      if (permissionsState === undefined) {
        permissionsState = (await permissions.create(declared)).outs;
      } else {
        // `up --refresh`: read shows the drift, diff sees it, update writes it back.
        const id = `${emu.guildId}/${emu.applicationId}`;
        const read = await permissions.read(id, permissionsState);
        const olds = read.props ?? permissionsState;
        expect((await permissions.diff(id, olds, declared)).changes).toBe(true);
        permissionsState = (await permissions.update(id, olds, declared)).outs;
      }
    } finally {
      await rt.close();
    }
    const log = emu.control.requestLog();
    refreshes += log.filter((e) => e.route === "oauth2Token" && e.status === 200).length;
    // The only refusal: UserAuthorization's probe of an expired token.
    const refused = log.filter((e) => e.status === 401 || e.status === 400);
    expect(refused.every((e) => e.route === "oauth2CurrentAuthorization")).toBe(true);
    const live = emu.control.state().permissions.find((p) => p["id"] === emu.applicationId)?.[
      "permissions"
    ];
    expect(live).toEqual(declared["permissions"]);
    seen.add(String(authorizationState["accessToken"]));
    seen.add(String(authorizationState["refreshToken"]));
  }
  // Expiry every 7 days of the emulator's clock: days 7, 14, 21 and 28.
  expect(refreshes).toBe(4);
  expect(seen.size).toBe(2 + 2 * 4);
});

test("a revoked authorization fails with advice; authorizing again mends it: the new pair is adopted and written with", async () => {
  emu.control.reset();
  const first = await authorizeUser(emu, REDIRECT);
  const declared = declaredPermissions();
  const id = `${emu.guildId}/${emu.applicationId}`;
  // The app-wide list; an emptied list is no entry at all.
  const livePermissions = () =>
    emu.control.state().permissions.find((p) => p["id"] === emu.applicationId)?.["permissions"] ??
    [];

  // Day 1: a deployment creates the authorization's keeper and the permissions.
  let config = stackConfig(first);
  let rt = new ProviderRuntime({ env: {} });
  rt.configure({ get: (key) => config.get(key) });
  const authorizationState = (await userAuthorizationProvider(rt).create({})).outs;
  let permissionsState = (await permissionsProvider(rt).create(declared)).outs;
  await rt.close();
  expect(authorizationState["accessToken"]).toBe(first.access);

  // The user revokes the authorization (access and refresh token alike); the list drifts.
  const res = await fetch(`${emu.apiUrl}/oauth2/token/revoke`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Authorization: clientAuthorization(emu),
    },
    body: new URLSearchParams({ token: first.refresh }).toString(),
  });
  expect(res.status).toBe(200);
  emu.control.setPermissions(emu.applicationId, emu.guildId, emu.applicationId, []);

  // The next deployment: the keeper's probe is refused, its update's refresh too.
  rt = new ProviderRuntime({ env: {} });
  rt.configure({ get: (key) => config.get(key) });
  try {
    const authorization = userAuthorizationProvider(rt);
    const diff = await authorization.diff("user-authorization", authorizationState, {});
    expect(diff.changes).toBe(true);
    const err = await authorization.update("user-authorization", authorizationState, {}).then(
      () => undefined,
      (e: unknown) => e,
    );
    const said = String(err);
    expect(said).toMatch(/the service refused the user's refresh token \(400 invalid_grant/);
    expect(said).toMatch(/run `discord-commands authorize` again/);
    for (const secret of [first.access, first.refresh, emu.clientSecret]) {
      expect(said).not.toContain(secret);
    }
  } finally {
    await rt.close();
  }
  // The engine stops before the dependents: the drift stays.
  expect(livePermissions()).toEqual([]);

  // `discord-commands authorize` again: a new pair in the stack's config. The state still
  // holds the revoked session (the failed update recorded nothing).
  const second = await authorizeUser(emu, REDIRECT);
  config = stackConfig(second);
  rt = new ProviderRuntime({ env: {} });
  rt.configure({ get: (key) => config.get(key) });
  try {
    const authorization = userAuthorizationProvider(rt);
    const permissions = permissionsProvider(rt);
    expect((await authorization.diff("user-authorization", authorizationState, {})).changes).toBe(
      true,
    );
    const adopted = (await authorization.update("user-authorization", authorizationState, {})).outs;
    expect(adopted["accessToken"]).toBe(second.access);
    expect(adopted["refreshToken"]).toBe(second.refresh);
    expect(adopted["seed"]).not.toBe(authorizationState["seed"]);
    const read = await permissions.read(id, permissionsState);
    const olds = read.props ?? permissionsState;
    expect((await permissions.diff(id, olds, declared)).changes).toBe(true);
    permissionsState = (await permissions.update(id, olds, declared)).outs;
  } finally {
    await rt.close();
  }
  expect(livePermissions()).toEqual(declared["permissions"]);
  const log = emu.control.requestLog();
  // The new access token was good: no refresh, and the write went through at once.
  expect(log.filter((e) => e.route === "oauth2Token")).toEqual([]);
  expect(log.filter((e) => e.route === "editCommandPermissions").map((e) => e.status)).toEqual([
    200,
  ]);
  expect(permissionsState["permissions"]).toEqual(declared["permissions"]);
});
