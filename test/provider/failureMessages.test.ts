/**
 * The exact message of each class of failure, as the dynamic resources' host hands it to
 * the engine: the operation and the resource, the request, the service's status, code and
 * message, and the fix on its own `fix:` line. No JavaScript frames, no gRPC noise, and no
 * second copy (the host's stderr echo of the failure is dropped). The emulator's fault
 * injection supplies each class.
 *
 * Each engine run is a fresh dynamic-provider host: the providers of
 * provider/resources/dynamicProviders.ts loaded anew, configured once per kind from the
 * stack config, then called as the host calls them (`read` for `preview --refresh`,
 * `create` and `update` for `up`, `delete` for `destroy`); what grpc-js makes of the
 * thrown error is what the engine prints after its `error: ` (and `Preview failed: `).
 * The engine's side of it, one message under the resource, is test/engine/failures.test.ts
 * (a write on `up`) and test/engine/recovery.test.ts (a read on `preview --refresh`).
 */
import * as net from "node:net";
import { serverErrorToStatus } from "@grpc/grpc-js/build/src/server-call";
import { status as GrpcStatus } from "@grpc/grpc-js";
import type { RunningEmulator } from "../../emulator";
import type { FaultRuleInput } from "../../emulator/faults";
import type { dynamicProviders as DynamicProviders } from "../../provider/resources/dynamicProviders";
import type * as EngineErrors from "../../provider/resources/engineErrors";
import type { ServiceErrorCode } from "../../provider/schema";
import { omit, SECRET_PATHS_KEY, secretPathsField } from "../../provider/resources/propertyBags";
import type { Bag } from "./helpers";
import { globalInputs, guildInputs, rejection, setup, stackConfig, teardown } from "./helpers";

type Providers = typeof DynamicProviders;
type GrpcError = Parameters<typeof serverErrorToStatus>[0];

/**
 * Short, for the timeout class only (the others keep the default, so that a slow machine
 * does not turn them into timeouts). undici checks a headers timeout on a tick of about
 * half a second, so each of the 5 attempts lasts about 1 s whatever the setting; the
 * emulator's delay is far longer than that. It comes first: the emulator's last delayed answers are over before
 * the file ends.
 */
const TIMEOUT_MS = 100;
const DELAY_MS = 3_000;

let emu: RunningEmulator;
/** A port nothing listens on. */
let closedPort: number;

beforeAll(async () => {
  emu = await setup();
  closedPort = await new Promise<number>((resolve) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
});
afterAll(() => teardown(emu));

/** What the host's stderr received while a test ran (console.error as the host calls it). */
let stderr: string[];
const originalConsoleError = console.error;
beforeEach(() => {
  emu.control.reset();
  stderr = [];
  console.error = (...args: unknown[]) => void stderr.push(args.map(String).join(" "));
});
afterEach(() => {
  console.error = originalConsoleError;
  jest.restoreAllMocks();
});

interface Host {
  readonly providers: Providers;
  readonly engineErrors: typeof EngineErrors;
}

/**
 * A fresh dynamic-provider host for one engine run, over the stack config the engine test
 * used (`discord:apiUrl` the emulator's address, as `pulumi config set` gives it), each
 * kind configured as the host does on its first call (`getProvider`).
 */
async function host(overrides: Record<string, string | undefined> = {}): Promise<Host> {
  jest.resetModules();
  const { dynamicProviders } = await import("../../provider/resources/dynamicProviders");
  const engineErrors = await import("../../provider/resources/engineErrors");
  const config = stackConfig(emu, { "discord:apiUrl": emu.url, ...overrides });
  await dynamicProviders.globalCommand.configure({ config });
  await dynamicProviders.guildCommand.configure({ config });
  return { providers: dynamicProviders, engineErrors };
}

/**
 * `ping`, created by an earlier `up`: its id and outputs as the state holds them (with the
 * secret paths the SDK sends, none here: a state without them is an earlier version's,
 * whose values are all taken as secret).
 */
async function deployedPing(): Promise<{ id: string; outs: Bag }> {
  const { providers } = await host();
  return providers.globalCommand.create({
    ...globalInputs(emu, { name: "ping", description: "Ping the bot" }),
    ...secretPathsField([]),
  });
}

/**
 * The failure of `call` as the engine receives it: grpc-js's status for the thrown error
 * (the host hands it to grpc-js's callback), after the host printed `${e}: ${e.stack}` to
 * its stderr (for check, diff, read and delete), which must not reach the output.
 */
async function failure(h: Host, call: () => Promise<unknown>): Promise<string> {
  // No backoff jitter: the retries of the retried classes wait 0 ms (the texts do not
  // depend on the waits, only on the number of attempts).
  jest.spyOn(Math, "random").mockReturnValue(0);
  const err = await rejection(call());
  expect(err).toBeInstanceOf(h.engineErrors.ProviderFailure);
  // Neither would grpc-js or the host read as a status or a partial create.
  expect(err).not.toHaveProperty("code");
  expect(err).not.toHaveProperty("id");
  const e = err as Error;
  expect(e.stack).not.toMatch(/\n\s+at /);
  console.error(`${String(e)}: ${e.stack ?? ""}`);
  expect(stderr).toEqual([]);
  const status = serverErrorToStatus(err as GrpcError);
  expect(status.code).toBe(GrpcStatus.UNKNOWN);
  expect(status.details).toBe(e.message);
  expect(status.details).not.toMatch(/cardinality|grpc|RPC|ServiceApiError|HttpError|NetworkError/);
  return status.details;
}

const APP = (): string => emu.applicationId;
const GLOBAL = (): string => `/applications/${APP()}/commands`;
const ping = (id: string): string => `global command "ping" (id ${id})`;
const error = (
  status: number,
  code: ServiceErrorCode,
  message: string,
): FaultRuleInput["action"] => ({ type: "error", status, code, message });

interface Case {
  readonly name: string;
  readonly faults: FaultRuleInput[];
  /** The stack config's settings that differ from the emulator's. */
  readonly config?: () => Record<string, string>;
  /** The host's call, on `ping` as the state holds it. */
  readonly call: (p: Providers, id: string, outs: Bag) => Promise<unknown>;
  /** The message, for `ping`'s id. */
  readonly message: (id: string) => string;
}

const read: Case["call"] = (p, id, outs) => p.globalCommand.read(id, outs);
const changePing: Case["call"] = (p, id, outs) =>
  p.globalCommand.update(id, outs, globalInputs(emu, { name: "ping", description: "Changed" }));
const createPong: Case["call"] = (p) =>
  p.globalCommand.create(globalInputs(emu, { name: "pong", description: "Pong" }));

const cases: Case[] = [
  {
    name: "a timeout on read (preview --refresh)",
    faults: [{ route: "listGlobalCommands", action: { type: "delay", ms: DELAY_MS } }],
    config: () => ({ "discord:timeoutMs": String(TIMEOUT_MS) }),
    call: read,
    message: (id) =>
      `refreshing ${ping(id)} failed: GET ${GLOBAL()} failed after 5 attempts: no headers from the service within ${TIMEOUT_MS} ms (UND_ERR_HEADERS_TIMEOUT)\n` +
      `fix: the service at ${emu.url} did not answer in time: try again, or allow more time with \`pulumi config set discord:timeoutMs <ms>\``,
  },
  {
    name: "401 on read (preview --refresh)",
    faults: [{ route: "listGlobalCommands", action: error(401, 0, "401: Unauthorized") }],
    call: read,
    message: (id) =>
      `refreshing ${ping(id)} failed: GET ${GLOBAL()} answered 401 (code 0): 401: Unauthorized\n` +
      "fix: the application's credentials were rejected: if the token was rotated, set a valid one with " +
      "`pulumi config set --secret discord:botToken <token>` (or discord:clientId and discord:clientSecret), " +
      "then run `pulumi refresh --run-program` (or `pulumi preview --refresh --run-program`): " +
      "without --run-program, refresh uses the credentials recorded in the state at the last `pulumi up`",
  },
  {
    name: "a malformed answer on read (preview --refresh)",
    faults: [{ route: "listGlobalCommands", action: { type: "malformed" } }],
    call: read,
    message: (id) =>
      `refreshing ${ping(id)} failed: GET ${GLOBAL()} failed with 200: the service's reply does not have the expected shape\n` +
      `fix: the answer is not the service's API: check that discord:apiUrl (${emu.url}) is the service's address`,
  },
  {
    name: "404 (unknown command) on update (up)",
    faults: [
      { route: "editGlobalCommand", action: error(404, 10063, "Unknown application command") },
    ],
    call: changePing,
    message: (id) =>
      `updating ${ping(id)} failed: PATCH ${GLOBAL()}/${id} answered 404 (code 10063): Unknown application command\n` +
      "fix: the command was deleted outside the stack: run `pulumi refresh`, and the next `pulumi up` creates it again",
  },
  {
    name: "403 (missing access) on create (up)",
    faults: [{ route: "createGuildCommand", action: error(403, 50001, "Missing Access") }],
    call: (p) => p.guildCommand.create(guildInputs(emu, { name: "report", description: "Report" })),
    message: () =>
      `creating guild command "report" in guild ${emu.guildId} failed: POST /applications/${APP()}/guilds/${emu.guildId}/commands answered 403 (code 50001): Missing Access\n` +
      "fix: the application cannot act there: check guildId and that the application is in the guild with the applications.commands scope",
  },
  {
    name: "30032 (too many commands) on create (up) quotes the service's limit",
    faults: [
      {
        route: "createGlobalCommand",
        action: error(400, 30032, "Maximum number of application commands reached (75)"),
      },
    ],
    call: createPong,
    message: () =>
      `creating global command "pong" failed: POST ${GLOBAL()} answered 400 (code 30032): Maximum number of application commands reached (75)\n` +
      "fix: the scope already holds 75 commands of this type: remove commands from the program, or delete ones this stack does not manage",
  },
  {
    name: "30034 (daily creates) as a 400 on create (up) quotes the service's limit",
    faults: [
      {
        route: "createGlobalCommand",
        action: error(
          400,
          30034,
          "Max number of daily application command creates has been reached (150)",
        ),
      },
    ],
    call: createPong,
    message: () =>
      `creating global command "pong" failed: POST ${GLOBAL()} answered 400 (code 30034): Max number of daily application command creates has been reached (150)\n` +
      "fix: the daily budget of command creates is spent (the service allows 150 a day): the service does not say when the day's budget resets: run `pulumi up` again a day later; it resumes where it stopped",
  },
  {
    name: "connection refused on update (up)",
    faults: [],
    config: () => ({ "discord:apiUrl": `http://127.0.0.1:${closedPort}` }),
    call: changePing,
    message: (id) =>
      `updating ${ping(id)} failed: PATCH ${GLOBAL()}/${id} failed after 5 attempts: connect ECONNREFUSED 127.0.0.1:${closedPort} (ECONNREFUSED)\n` +
      `fix: nothing answered at http://127.0.0.1:${closedPort}: check discord:apiUrl and that the service is reachable, then run the command again`,
  },
  {
    name: "5xx after every retry on delete (destroy)",
    faults: [{ route: "deleteGlobalCommand", action: { type: "status", status: 500 } }],
    call: (p, id, outs) => p.globalCommand.delete(id, outs),
    message: (id) =>
      `deleting ${ping(id)} failed: DELETE ${GLOBAL()}/${id} failed with 500 after 5 attempts: 500: Internal Server Error\n` +
      "fix: the service kept failing: try again later (`pulumi up` resumes where it stopped)",
  },
  {
    // Written before the state kept its secret paths: every value but the ids is taken as
    // secret (the name by id, the service's words left out), never guessed by text.
    name: "5xx after every retry on delete (destroy) of an earlier version's state",
    faults: [{ route: "deleteGlobalCommand", action: { type: "status", status: 500 } }],
    call: (p, id, outs) => p.globalCommand.delete(id, omit(outs, [SECRET_PATHS_KEY])),
    message: (id) =>
      `deleting global command [secret] (id ${id}) failed: DELETE ${GLOBAL()}/${id} failed with 500 after 5 attempts: ` +
      "(the service's message is not shown: the request may hold secret values)\n" +
      "fix: the service kept failing: try again later (`pulumi up` resumes where it stopped)",
  },
];

test.each(cases)("$name: one clean message", async (c) => {
  const { id, outs } = await deployedPing();
  const h = await host(c.config?.());
  emu.control.setFaults({ rules: c.faults });
  expect(await failure(h, () => c.call(h.providers, id, outs))).toBe(c.message(id));
});

test("no token on update (up) names discord:botToken; set as it says, the next up passes", async () => {
  const { id, outs } = await deployedPing();
  const h = await host({ "discord:botToken": undefined });
  const message = await failure(h, () => changePing(h.providers, id, outs));
  expect(message).toBe(
    `updating ${ping(id)} failed: command requests need the application's credentials: ` +
      "set discord:botToken (`pulumi config set --secret discord:botToken <token>`), " +
      "or discord:clientId and discord:clientSecret (a secret) for a client-credentials token",
  );
  // Followed literally: the key the message names, set as it says, in the next run's config.
  const key = /`pulumi config set --secret (\S+) <token>`/.exec(message)?.[1] ?? "";
  const next = await host({ [key]: emu.botToken });
  await changePing(next.providers, id, outs);
  const live = emu.control.commands().find((c) => c["name"] === "ping");
  expect(live?.["description"]).toBe("Changed");
});

test("a refresh of an earlier version's state (no secret paths) answers the state without them: the next up writes the program's", async () => {
  const { id, outs } = await deployedPing();
  const h = await host();
  const legacy = omit(outs, [SECRET_PATHS_KEY]);
  const result = (await h.providers.globalCommand.read(id, legacy)) as { props: Bag; inputs: Bag };
  expect(result.props).not.toHaveProperty(SECRET_PATHS_KEY);
  expect(result.inputs).not.toHaveProperty(SECRET_PATHS_KEY);
  expect(result.props["name"]).toBe("ping");
});
