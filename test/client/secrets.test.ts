/**
 * No credential ever reaches an error, an event or a printed client, even when the
 * service echoes the request's Authorization header and body back in its replies.
 */
import { inspect } from "node:util";
import type { ClientConfig, ClientEvent } from "../../provider/client";
import {
  CommandsApi,
  ConfigurationError,
  DailyCreateLimitError,
  HttpError,
  NetworkError,
  RateLimitError,
  ServiceApiError,
  TimeoutError,
} from "../../provider/client";
import type { WirePermissionsBody } from "../../provider/client";
import type { Recorded, Reply, ScriptedServer } from "./scriptedServer";
import { FakeClock, useScriptedServer } from "./scriptedServer";

const BOT = "BOT.secret-token-AAAA";
const CLIENT_ID = "987654321";
const CLIENT_SECRET = "cs-SECRET-BBBB";
const BEARER = "user-SECRET-CCCC";
const ACCESS = "cc-SECRET-DDDD";
const SECRETS = [
  BOT,
  CLIENT_SECRET,
  BEARER,
  ACCESS,
  Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64"),
];

let server: ScriptedServer;
const track = useScriptedServer((s) => (server = s));
const events: ClientEvent[] = [];

function client(config: ClientConfig): CommandsApi {
  const clock = new FakeClock();
  const api = new CommandsApi({
    apiUrl: server.url,
    sleep: clock.sleep,
    now: clock.now,
    maxRetries: 0,
    onEvent: (e) => events.push(e),
    ...config,
  });
  track(api);
  return api;
}

/** Everything the request carried, as an echoing service would put it in a reply. */
function echo(req: Recorded): string {
  return `you sent ${req.headers["authorization"] ?? ""} with ${req.body}`;
}

function echoing(status: number, extra: Record<string, unknown> = {}) {
  return (req: Recorded): Reply => ({
    status,
    json: {
      code: 50035,
      message: echo(req),
      errors: { name: { _errors: [{ code: echo(req), message: echo(req) }] } },
      ...extra,
    },
  });
}

async function failure(pending: Promise<unknown>): Promise<Error> {
  const error = await pending.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof Error)) throw new Error("expected a rejection with an Error");
  return error;
}

function expectNoSecrets(value: unknown, label: string): void {
  const renderings = [
    JSON.stringify(value) ?? "",
    inspect(value, { depth: Infinity, showHidden: true, getters: true }),
    String(value),
    value instanceof Error ? (value.stack ?? "") : "",
  ];
  for (const text of renderings) {
    for (const secret of SECRETS) {
      if (text.includes(secret)) throw new Error(`${label}: a secret leaked into ${text}`);
    }
  }
}

const body: WirePermissionsBody = { permissions: [{ id: "1", type: 1, permission: true }] };

test("every error kind, every event and the client itself are free of credentials", async () => {
  const bot = client({ botToken: BOT, bearerToken: BEARER });
  const errors: [string, Error, new (...args: never[]) => Error][] = [];

  server.reset(echoing(400));
  errors.push([
    "ServiceApiError",
    await failure(bot.createGlobalCommand("1", { name: "x" })),
    ServiceApiError,
  ]);

  server.reset(echoing(400, { code: 30034 }));
  errors.push([
    "DailyCreateLimitError",
    await failure(bot.createGuildCommand("1", "2", { name: "x" })),
    DailyCreateLimitError,
  ]);

  server.reset((req) => ({ status: 500, text: echo(req) }));
  errors.push(["HttpError 5xx", await failure(bot.listGlobalCommands("1")), HttpError]);

  server.reset((req) => ({ status: 418, text: echo(req) }));
  errors.push(["HttpError non-JSON", await failure(bot.listGlobalCommands("1")), HttpError]);

  server.reset((req) => ({
    status: 429,
    json: { message: echo(req), retry_after: 3600, global: false },
  }));
  errors.push(["RateLimitError", await failure(bot.listGlobalCommands("1")), RateLimitError]);

  server.reset(() => "destroy");
  errors.push(["NetworkError", await failure(bot.listGlobalCommands("5")), NetworkError]);

  server.reset(() => "hang");
  const slow = client({ botToken: BOT, timeoutMs: 50 });
  errors.push(["TimeoutError", await failure(slow.listGlobalCommands("1")), TimeoutError]);

  server.reset(echoing(403, { code: 20001 }));
  errors.push([
    "ServiceApiError (user token)",
    await failure(bot.editCommandPermissions("1", "2", "3", body)),
    ServiceApiError,
  ]);

  errors.push([
    "ConfigurationError",
    await failure(client({ botToken: BOT }).editCommandPermissions("1", "2", "3", body)),
    ConfigurationError,
  ]);

  // Client credentials: the exchange fails, echoing the Basic header and the form body.
  server.reset((req) => ({
    status: 401,
    json: { error: echo(req), error_description: echo(req) },
  }));
  const cc = client({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
  errors.push([
    "ServiceApiError (token exchange)",
    await failure(cc.listGlobalCommands("1")),
    ServiceApiError,
  ]);

  // Client credentials: the exchange works and the command call echoes the access token.
  server.reset((req) =>
    req.path === "/oauth2/token"
      ? { status: 200, json: { access_token: ACCESS, token_type: "Bearer", expires_in: 600 } }
      : echoing(403, { code: 50001 })(req),
  );
  const cc2 = client({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
  errors.push([
    "ServiceApiError (access token)",
    await failure(cc2.listGlobalCommands("1")),
    ServiceApiError,
  ]);

  for (const [label, error, kind] of errors) {
    expect(error).toBeInstanceOf(kind);
    expectNoSecrets(error, label);
  }
  // The redactor really was exercised: the echoes are in the messages, minus the secrets.
  expect(errors[0]?.[1].message).toContain("you sent Bot [redacted]");
  expect(errors.at(-1)?.[1].message).toContain("you sent Bearer [redacted]");

  expect(events.length).toBeGreaterThanOrEqual(10);
  expectNoSecrets(events, "events");
  for (const api of [bot, cc, cc2]) expectNoSecrets(api, "client");
});
