/**
 * The wrapper every provider goes through (provider/resources/engineErrors.ts): a failure
 * of any method reaches the dynamic-provider host as an error grpc-js turns into status
 * UNKNOWN with our message. The client's own errors carry the service's numeric `code`,
 * which grpc-js would send as the gRPC status (0 = OK: "cardinality violation" in the CLI).
 */
import { createHash } from "node:crypto";
import { serverErrorToStatus } from "@grpc/grpc-js/build/src/server-call";
import { status as GrpcStatus } from "@grpc/grpc-js";
import type { RunningEmulator } from "../../emulator";
import { ServiceApiError } from "../../provider/client";
import type * as EngineErrors from "../../provider/resources/engineErrors";
import { ProviderFailure } from "../../provider/resources/engineErrors";
import {
  SECRET_PATHS_KEY,
  secrecyOf,
  secretPathsIn,
  secretValue,
} from "../../provider/resources/propertyBags";
import { readSettings } from "../../provider/resources/settings";
import { userAuthorizationProvider } from "../../provider/resources/authorizationLifecycle";
import type { Bag } from "./helpers";
import {
  configureAll,
  freshDeployment,
  globalInputs,
  globalProvider,
  permissionsProvider,
  rejection,
  runtime,
  setup,
  slashArgs,
  teardown,
} from "./helpers";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await setup();
});
afterAll(() => teardown(emu));
beforeEach(() => freshDeployment(emu));

type GrpcError = Parameters<typeof serverErrorToStatus>[0];

const unauthorized = { type: "error", status: 401, code: 0, message: "401: Unauthorized" } as const;

test("the cause: a service error as thrown by the client is gRPC status OK", () => {
  const info = { method: "GET", route: "/x", path: "/x" };
  const raw = new ServiceApiError(info, 401, 0, "401: Unauthorized", []);
  // grpc-js reads any error-like object; its types only name gRPC's own.
  expect(serverErrorToStatus(raw as unknown as GrpcError).code).toBe(GrpcStatus.OK);
});

describe("every method's failure is status UNKNOWN with one message", () => {
  let created: { id: string; outs: Bag };
  beforeEach(async () => {
    created = await globalProvider.create(globalInputs(emu, slashArgs("ping")));
    emu.control.setFaults({ rules: [{ action: unauthorized }] });
  });

  const calls: [string, () => Promise<unknown>][] = [
    ["create", () => globalProvider.create(globalInputs(emu, slashArgs("pong")))],
    ["read", () => globalProvider.read(created.id, created.outs)],
    [
      "update",
      () =>
        globalProvider.update(created.id, created.outs, {
          ...created.outs,
          description: "Changed",
        }),
    ],
    ["delete", () => freshDeployment(emu).then(() => remove())],
    [
      "create permissions",
      () =>
        permissionsProvider.create({
          applicationId: emu.applicationId,
          guildId: emu.guildId,
          commandId: created.id,
          permissions: [],
        }),
    ],
  ];
  function remove(): Promise<unknown> {
    emu.control.setFaults({ rules: [{ action: unauthorized }] });
    return globalProvider.delete(created.id, created.outs);
  }

  test.each(calls)("%s", async (_name, call) => {
    const err = await rejection(call());
    expect(err).toBeInstanceOf(ProviderFailure);
    expect(err).not.toHaveProperty("code");
    expect(err).not.toHaveProperty("id");
    const status = serverErrorToStatus(err as GrpcError);
    expect(status.code).toBe(GrpcStatus.UNKNOWN);
    expect(status.details).toMatch(/ failed: [A-Z]+ \/applications\/\S+ answered 401 \(code 0\): /);
    expect(status.details).toMatch(/\nfix: /);
    expect((err as Error).stack).not.toMatch(/\n\s+at /);
  });
});

test("check and diff failures go the same way", async () => {
  const bad = { ...globalInputs(emu, slashArgs("ping")), options: "not a list" };
  const err = await rejection(globalProvider.diff("1", bad, bad));
  expect(err).toBeInstanceOf(ProviderFailure);
  expect(String((err as Error).message)).toMatch(
    /^diffing global command "ping" \(id 1\) failed: /,
  );
});

test("the host's stderr echo of our failure is dropped; other lines are kept", async () => {
  const original = console.error;
  const printed: string[] = [];
  console.error = (...args: unknown[]) => void printed.push(args.map(String).join(" "));
  try {
    // A fresh copy of the module, so that it wraps this console.error.
    let mod: typeof EngineErrors | undefined;
    await jest.isolateModulesAsync(async () => {
      mod = await import("../../provider/resources/engineErrors");
    });
    const failing: EngineErrors.ResourceProviderMethods = {
      configure: async () => undefined,
      check: async () => ({}),
      diff: async () => ({}),
      create: async () => ({}),
      read: async (): Promise<unknown> => {
        throw new Error("boom");
      },
      update: async () => ({}),
      delete: async () => undefined,
    };
    if (mod === undefined) throw new Error("module not loaded");
    const provider = mod.forEngine(failing, () => "the thing", {
      settings: readSettings(undefined, {}),
    });
    const err = (await rejection(provider.read("1", {}))) as Error;
    // What the dynamic-provider host prints when read, check, diff or delete fail:
    console.error(`${String(err)}: ${err.stack}`);
    console.error("something else");
    expect(err.message).toBe("refreshing the thing failed: boom");
  } finally {
    console.error = original;
  }
  expect(printed).toEqual(["something else"]);
});

test("UserAuthorization's failures go the same way (its provider is wrapped like the others)", async () => {
  await configureAll(emu, {
    "discord:clientId": emu.applicationId,
    "discord:refreshToken": "refresh-token-of-the-test",
  });
  const authorization = userAuthorizationProvider(runtime);
  const seed = createHash("sha256").update("refresh-token-of-the-test").digest("hex").slice(0, 16);
  const kept = { accessToken: "kept-access-token", refreshToken: "kept-refresh", seed };
  // The token check (`GET /oauth2/@me`) answers 403 with the service's code 0.
  const forbidden = { type: "error", status: 403, code: 0, message: "403: Forbidden" } as const;
  emu.control.setFaults({ rules: [{ action: forbidden }] });
  const err = await rejection(authorization.diff("user-authorization", kept, {}));
  expect(err).toBeInstanceOf(ProviderFailure);
  const status = serverErrorToStatus(err as GrpcError);
  expect(status.code).toBe(GrpcStatus.UNKNOWN);
  expect(status.details).toMatch(
    /^diffing the user authorization failed: GET \/oauth2\/@me answered 403 \(code 0\): /,
  );
  expect(status.details).not.toContain("kept-access-token");
});

describe("check failures as the engine prints them", () => {
  test("the dynamic providers' checks name no property to the host, the path in the reason", async () => {
    const { dynamicProviders } = await import("../../provider/resources/dynamicProviders");
    const { failures } = await dynamicProviders.globalCommand.check(
      {},
      {
        applicationId: "1300000000000000001",
        name: "Bad Top",
        description: "x",
        options: [{ type: 3, name: "Bad Name", description: "x" }],
      },
    );
    expect(failures.map((f) => f.property)).toEqual(["", ""]);
    expect(failures.map((f) => f.reason.split(":")[0]).sort()).toEqual(["name", "options[0].name"]);
  });

  test("the engine's secret values are found by path, and a bag's secret paths read back", () => {
    const raw = {
      name: secretValue("Secret Bad Name"),
      options: [{ name: "public", description: secretValue({ text: "hidden text" }) }],
      short: secretValue("ab"),
    };
    const paths = secretPathsIn(raw);
    expect(paths).toEqual([["name"], ["options", 0, "description"], ["short"]]);
    const secrecy = secrecyOf({ [SECRET_PATHS_KEY]: paths });
    expect(secrecy.covers(["options", 0, "description", "text"])).toBe(true);
    expect(secrecy.covers(["options", 0, "name"])).toBe(false);
    // No paths: nothing secret; a list that is not one of paths (unknown): everything.
    expect(secrecyOf({}).any).toBe(false);
    expect(secrecyOf({ [SECRET_PATHS_KEY]: "04da6b54" }).covers(["name"])).toBe(true);
  });
});
