/**
 * Without a `UserAuthorization` resource, the client refreshes the user's Bearer token
 * on its own. When the service refuses the refresh token (revoked, or spent by an
 * earlier rotation), the refusal is remembered for the deployment (the runtime's
 * DeploymentMemory): one `up` with many permissions resources makes one token request,
 * not one per resource (each refused request also counts toward the service's
 * invalid-request ban). Counted in the emulator's request log.
 */
import type { RunningEmulator } from "../../emulator";
import { authorizeUser, clientAuthorization } from "../emulator/helpers";
import type { Bag } from "./helpers";
import {
  configureAll,
  guildInputs,
  guildProvider,
  permissionsProvider,
  rejection,
  requests,
  setup,
  slashArgs,
  teardown,
} from "./helpers";

let emu: RunningEmulator;
const ROLE = "1300000000000000004";
const RESOURCES = 5;
let sessionSecrets: string[] = [];

beforeAll(async () => {
  emu = await setup();
});
afterAll(() => teardown(emu));

/** A deployment holding a dead user authorization: a spent refresh token. */
async function deploymentWithSpentRefreshToken(): Promise<string[]> {
  emu.control.reset();
  const { access, refresh } = await authorizeUser(emu, "http://127.0.0.1:1/callback");
  sessionSecrets = [access, refresh];
  await configureAll(emu, {
    "discord:clientId": emu.clientId,
    "discord:clientSecret": emu.clientSecret,
    "discord:bearerToken": access,
    "discord:refreshToken": refresh,
  });
  const ids: string[] = [];
  for (let i = 0; i < RESOURCES; i++) {
    ids.push((await guildProvider.create(guildInputs(emu, slashArgs(`cmd${i}`)))).id);
  }
  // Elsewhere (another machine, an earlier run whose new pair was lost), the refresh
  // token was spent, and that reuse revoked the authorization (RFC 9700 section 4.14.2).
  for (let n = 0; n < 2; n++) {
    const res = await fetch(`${emu.apiUrl}/oauth2/token`, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Authorization: clientAuthorization(emu),
      },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refresh }),
    });
    expect(res.status).toBe(n === 0 ? 200 : 400);
  }
  emu.control.resetLog();
  return ids;
}

function permissionsOf(commandId: string): Bag {
  return {
    applicationId: emu.applicationId,
    guildId: emu.guildId,
    commandId,
    permissions: [{ id: ROLE, type: 1, permission: true }],
  };
}

function tokenRequests(): number {
  return requests(emu, "POST", "oauth2Token").length;
}

test("one refused refresh per deployment: resources created one after another", async () => {
  const ids = await deploymentWithSpentRefreshToken();
  for (const id of ids) {
    const err = await rejection(permissionsProvider.create(permissionsOf(id)));
    expect(String(err)).toContain("the service refused the user's refresh token");
  }
  expect(tokenRequests()).toBe(1);
  // The first PUT's 401 dropped the access token: the others never went out.
  expect(requests(emu, "PUT").map((e) => e.status)).toEqual([401]);
});

test("one refused refresh per deployment: resources created at once (the engine's slots)", async () => {
  const ids = await deploymentWithSpentRefreshToken();
  const errors = await Promise.all(
    ids.map((id) => rejection(permissionsProvider.create(permissionsOf(id)))),
  );
  for (const err of errors) {
    expect(String(err)).toContain("the service refused the user's refresh token");
  }
  expect(tokenRequests()).toBe(1);
});

test("a delete in a destroy: one refused refresh for all the deletes", async () => {
  const ids = await deploymentWithSpentRefreshToken();
  for (const id of ids) {
    await rejection(permissionsProvider.delete(`${emu.guildId}/${id}`, permissionsOf(id)));
  }
  expect(tokenRequests()).toBe(1);
});

test("the memory is the deployment's: the next deployment asks the service again", async () => {
  const ids = await deploymentWithSpentRefreshToken();
  await rejection(permissionsProvider.create(permissionsOf(str(ids[0]))));
  // A new provider process (a new `up`) with the same dead token: one request again.
  await configureAll(emu, {
    "discord:clientId": emu.clientId,
    "discord:clientSecret": emu.clientSecret,
    "discord:bearerToken": "a-dead-access-token",
    "discord:refreshToken": "a-dead-refresh-token",
  });
  for (const id of ids) await rejection(permissionsProvider.create(permissionsOf(id)));
  expect(tokenRequests()).toBe(2);
});

test("the remembered refusal says what the first said, and names no secret", async () => {
  const ids = await deploymentWithSpentRefreshToken();
  const reason = (err: unknown) => String(err).replace(/^.* failed: /, "");
  const first = await rejection(permissionsProvider.create(permissionsOf(str(ids[0]))));
  const second = await rejection(permissionsProvider.create(permissionsOf(str(ids[1]))));
  expect(reason(second)).toBe(reason(first));
  expect(reason(first)).toMatch(
    /^the service refused the user's refresh token \(400 invalid_grant/,
  );
  for (const secret of [emu.clientSecret, ...sessionSecrets]) {
    expect(String(second)).not.toContain(secret);
  }
});

function str(v: string | undefined): string {
  if (v === undefined) throw new Error("expected a string");
  return v;
}
