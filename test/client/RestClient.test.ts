import type { ClientConfig, ClientEvent } from "../../provider/client";
import {
  CommandsApi,
  DailyCreateLimitError,
  HttpError,
  NetworkError,
  RateLimitError,
  RateLimitNotWaitedError,
  resendable,
  ServiceApiError,
  TimeoutError,
} from "../../provider/client";
import { Routes } from "../../provider/routes";
import type { Recorded, Reply, ScriptedServer } from "./scriptedServer";
import { FakeClock, until, wireCommand, useScriptedServer } from "./scriptedServer";

const APP = "100";
const list = `/applications/${APP}/commands`;

let server: ScriptedServer;
const track = useScriptedServer((s) => (server = s));

interface Harness {
  api: CommandsApi;
  clock: FakeClock;
  events: ClientEvent[];
}

function client(config: ClientConfig = {}): Harness {
  const clock = new FakeClock();
  const events: ClientEvent[] = [];
  const api = new CommandsApi({
    apiUrl: server.url,
    botToken: "bot-token-for-transport-tests",
    sleep: clock.sleep,
    now: clock.now,
    random: () => 0.5,
    onEvent: (e) => events.push(e),
    ...config,
  });
  track(api);
  return { api, clock, events };
}

/** Answers each request with the next reply of the script (the last one repeats). */
function script(...replies: Reply[]): (req: Recorded) => Reply {
  let i = 0;
  return () => {
    const reply = replies[Math.min(i, replies.length - 1)];
    i++;
    if (reply === undefined) throw new Error("empty script");
    return reply;
  };
}

const ok: Reply = { status: 200, json: [wireCommand("1", "ping")] };

describe("rate limits", () => {
  test("waits Reset-After when the learned bucket has Remaining 0", async () => {
    const { api, clock, events } = client();
    server.reset(() => ({
      status: 200,
      json: [],
      headers: {
        "x-ratelimit-bucket": "abc",
        "x-ratelimit-limit": "5",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset-after": "2.5",
      },
    }));
    await api.listGlobalCommands(APP);
    expect(clock.sleeps).toEqual([]);
    await api.listGlobalCommands(APP);
    expect(clock.sleeps).toEqual([2500]);
    expect(server.hits).toHaveLength(2);
    expect(events).toContainEqual(
      expect.objectContaining({ type: "rateLimited", bucket: `abc:${APP}/-`, waitMs: 2500 }),
    );
    expect(api.stats()).toMatchObject({ rateLimitWaits: 1, rateLimitWaitedMs: 2500 });
  });

  test("a bucket learned from one route is shared with another route of the same bucket", async () => {
    const { api, clock } = client();
    server.reset((req) => ({
      status: req.method === "POST" ? 201 : 200,
      json: req.method === "POST" ? wireCommand("1", "a") : [],
      headers: {
        "x-ratelimit-bucket": "shared",
        "x-ratelimit-remaining": req.method === "POST" ? "0" : "3",
        "x-ratelimit-reset-after": "4",
      },
    }));
    await api.listGlobalCommands(APP); // learns GET list -> "shared", 3 left
    await api.createGlobalCommand(APP, { name: "a", description: "A" }); // also "shared", 0 left
    expect(clock.sleeps).toEqual([]);
    await api.listGlobalCommands(APP); // same bucket: must wait
    expect(clock.sleeps).toEqual([4000]);
    // Another application is another bucket (major parameter): no wait.
    await api.listGlobalCommands("999");
    expect(clock.sleeps).toEqual([4000]);
  });

  test("429 with Retry-After, then success", async () => {
    const { api, clock } = client();
    server.reset(
      script(
        {
          status: 429,
          json: { message: "You are being rate limited.", retry_after: 1.5, global: false },
          headers: { "retry-after": "2", "x-ratelimit-scope": "user" },
        },
        ok,
      ),
    );
    await expect(api.listGlobalCommands(APP)).resolves.toHaveLength(1);
    expect(server.hits).toHaveLength(2);
    expect(clock.sleeps).toEqual([1500]); // the body's float retry_after wins
    expect(api.stats()).toMatchObject({ invalidRequests: 1, byStatus: { "429": 1, "200": 1 } });
  });

  test("429 with only a Retry-After header", async () => {
    const { api, clock } = client();
    server.reset(script({ status: 429, text: "slow down", headers: { "retry-after": "3" } }, ok));
    await api.listGlobalCommands(APP);
    expect(clock.sleeps).toEqual([3000]);
    expect(server.hits).toHaveLength(2);
  });

  test("a global 429 pauses every request of the client until it passes", async () => {
    const clock = new FakeClock();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { api, events } = client({
      now: clock.now,
      sleep: async (ms) => {
        clock.sleeps.push(ms);
        await gate;
        clock.t += ms;
      },
    });
    let globalSent = false;
    server.reset((req) => {
      if (req.path === list && !globalSent) {
        globalSent = true;
        return {
          status: 429,
          json: { message: "global", retry_after: 0.75, global: true },
          headers: { "x-ratelimit-global": "true", "retry-after": "1" },
        };
      }
      return req.path.endsWith("/commands") ? ok : { status: 200, json: wireCommand("1", "p") };
    });
    const first = api.listGlobalCommands(APP);
    const globalWaits = () =>
      events.filter((e) => e.type === "rateLimited" && e.global && e.waitMs === 750).length;
    await until(() => globalWaits() === 1, "the first request to wait");
    // Requests on other buckets (other routes, other major parameters) wait too.
    const others = [
      api.listGuildCommands(APP, "200"),
      api.getGlobalCommand("555", "1"),
      api.getGuildCommand(APP, "300", "1"),
    ];
    await until(() => globalWaits() === 4, "every request to wait");
    expect(server.hits).toHaveLength(1);
    expect(clock.sleeps).toEqual([750]); // one shared timer
    release();
    await expect(first).resolves.toHaveLength(1);
    await expect(Promise.all(others)).resolves.toHaveLength(3);
    expect(server.hits).toHaveLength(5);
  });

  test("a 429 with `global: true` only in the body is global too", async () => {
    const { api, clock } = client();
    server.reset(
      script({ status: 429, json: { message: "g", retry_after: 0.2, global: true } }, ok),
    );
    await api.listGlobalCommands(APP);
    expect(clock.sleeps).toEqual([200]);
    // The global pause has passed: the next request on another bucket goes at once.
    await api.listGuildCommands(APP, "1");
    expect(clock.sleeps).toEqual([200]);
  });

  test("a wait beyond maxRateLimitWaitMs fails with a RateLimitError that says how long", async () => {
    const { api } = client({ maxRateLimitWaitMs: 10_000 });
    server.reset(() => ({
      status: 429,
      json: { message: "slow", retry_after: 75, global: false },
    }));
    const error = await api.listGlobalCommands(APP).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(75_000);
    expect((error as Error).message).toMatch(
      /asks to wait 75 s, more than .*\(10 s, maxRateLimitWaitMs\)/,
    );
    expect(server.hits).toHaveLength(1);
  });
});

describe("retries", () => {
  test.each([500, 502, 503, 504])("%i, then success, with jittered backoff", async (status) => {
    const { api, clock, events } = client();
    server.reset(script({ status, text: "upstream trouble" }, { status, json: {} }, ok));
    await expect(api.listGlobalCommands(APP)).resolves.toHaveLength(1);
    expect(server.hits).toHaveLength(3);
    // Full jitter with random() = 0.5: half of 250 ms, then half of 500 ms.
    expect(clock.sleeps).toEqual([125, 250]);
    expect(
      events.filter((e) => e.type === "retry").map((e) => e.type === "retry" && e.reason),
    ).toEqual([`status ${status}`, `status ${status}`]);
    expect(api.stats()).toMatchObject({ retries: 2, requests: 3 });
  });

  test("a dropped connection, then success", async () => {
    const { api } = client();
    server.reset(script("destroy", ok));
    await expect(api.listGlobalCommands(APP)).resolves.toHaveLength(1);
    expect(server.hits).toHaveLength(2);
    expect(api.stats()).toMatchObject({ retries: 1, networkErrors: 1 });
  });

  test("retries exhausted on 5xx -> HttpError", async () => {
    const { api, clock } = client({ maxRetries: 2 });
    server.reset(() => ({ status: 503, text: "<html>busy</html>" }));
    const error = await api.listGlobalCommands(APP).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 503, attempts: 3, method: "GET", path: list });
    expect(server.hits).toHaveLength(3);
    expect(clock.sleeps).toHaveLength(2);
  });

  test("dropped connections exhausted -> NetworkError", async () => {
    const { api } = client({ maxRetries: 1 });
    server.reset(() => "destroy");
    const error = await api.listGlobalCommands(APP).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ attempts: 2 });
    expect(server.hits).toHaveLength(2);
  });

  test("a response slower than timeoutMs -> TimeoutError", async () => {
    const { api } = client({ timeoutMs: 100, maxRetries: 0 });
    server.reset(() => "hang");
    const error = await api.listGlobalCommands(APP).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ phase: "headers", timeoutMs: 100 });
  });

  test.each([401, 403])("%i is never retried", async (status) => {
    const { api } = client();
    server.reset(() => ({ status, json: { code: status === 401 ? 0 : 50001, message: "no" } }));
    const error = await api.listGlobalCommands(APP).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceApiError);
    expect(server.hits).toHaveLength(1);
    expect(api.stats()).toMatchObject({ retries: 0, invalidRequests: 1 });
  });

  test("a 4xx is not retried", async () => {
    const { api } = client();
    server.reset(() => ({ status: 400, json: { code: 50035, message: "Invalid Form Body" } }));
    await expect(api.createGlobalCommand(APP, { name: "x" })).rejects.toBeInstanceOf(
      ServiceApiError,
    );
    expect(server.hits).toHaveLength(1);
  });
});

describe("errors", () => {
  test("the daily create limit (30034) as a 429: fails at once, the reset is its Retry-After", async () => {
    const { api, clock } = client();
    server.reset(() => ({
      status: 429,
      json: {
        code: 30034,
        message: "Max number of daily application command creates has been reached (200)",
        retry_after: 3600.5,
        global: false,
      },
      // The route's window resets in 20 s: not the day's budget.
      headers: { "retry-after": "3600", "x-ratelimit-reset-after": "20" },
    }));
    const error = await api.createGuildCommand(APP, "7", { name: "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DailyCreateLimitError);
    const when = new Date(clock.t + 3_600_000).toISOString();
    expect((error as Error).message).toContain(
      `the service allows 200 creates per day in this scope; the service's Retry-After says it has room again after ${when}`,
    );
    expect((error as DailyCreateLimitError).retryAt?.toISOString()).toBe(when);
    expect((error as DailyCreateLimitError).limit).toBe(200);
    expect(server.hits).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  test("the daily create limit (30034) as a 400: per day, no reset known, never the window's", async () => {
    const { api, clock } = client();
    const reached = "Max number of daily application command creates has been reached (200)";
    const windowReset = (clock.t + 20_000) / 1000;
    server.reset(() => ({
      status: 400,
      json: { code: 30034, message: reached },
      // What the route's rate-limit window says (20 s ahead): not when the budget resets.
      headers: {
        "x-ratelimit-reset-after": "20",
        "x-ratelimit-reset": String(windowReset),
      },
    }));
    const error = await api.createGuildCommand(APP, "7", { name: "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DailyCreateLimitError);
    expect((error as DailyCreateLimitError).retryAt).toBeUndefined();
    const message = (error as Error).message;
    expect(message).toMatch(
      /: the service allows 200 creates per day in this scope; the budget is per day and the service does not say when it resets: try again a day later$/,
    );
    expect(message).not.toContain(new Date(windowReset * 1000).toISOString());
    expect(message).not.toMatch(/\d{4}-\d\d-\d\dT/);
    expect(server.hits).toHaveLength(1);

    // The message quotes the limit the service reported, whatever it is, and none when
    // the service names none.
    const fifty = "Max number of daily application command creates has been reached (50)";
    server.reset(() => ({ status: 400, json: { code: 30034, message: fifty } }));
    await expect(api.createGuildCommand(APP, "7", { name: "x" })).rejects.toThrow(
      /: the service allows 50 creates per day in this scope; the budget is per day/,
    );
    server.reset(() => ({ status: 400, json: { code: 30034, message: "Max creates" } }));
    await expect(api.createGuildCommand(APP, "7", { name: "x" })).rejects.toThrow(
      /: the daily budget of command creates is spent; the budget is per day/,
    );
  });

  test("the service's error tree is flattened into fieldErrors and the message", async () => {
    const { api } = client();
    server.reset(() => ({
      status: 400,
      json: {
        code: 50035,
        message: "Invalid Form Body",
        errors: {
          name: { _errors: [{ code: "APPLICATION_COMMAND_INVALID_NAME", message: "Bad name" }] },
          options: {
            "0": {
              name: {
                _errors: [{ code: "BASE_TYPE_REQUIRED", message: "This field is required" }],
              },
              choices: {
                "1": {
                  value: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: "Too long" }] },
                },
              },
            },
          },
        },
      },
    }));
    const error = await api.createGlobalCommand(APP, { name: "Bad" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceApiError);
    const e = error as ServiceApiError;
    expect(e).toMatchObject({ status: 400, code: 50035, method: "POST", path: list });
    expect(e.route).toBe("/applications/{applicationId}/commands");
    expect(e.fieldErrors).toEqual([
      { path: "name", code: "APPLICATION_COMMAND_INVALID_NAME", message: "Bad name" },
      { path: "options[0].name", code: "BASE_TYPE_REQUIRED", message: "This field is required" },
      { path: "options[0].choices[1].value", code: "BASE_TYPE_MAX_LENGTH", message: "Too long" },
    ]);
    expect(e.message.split("\n")).toEqual([
      `POST ${list} failed with 400: Invalid Form Body (code 50035)`,
      "name: Bad name (APPLICATION_COMMAND_INVALID_NAME)",
      "options[0].name: This field is required (BASE_TYPE_REQUIRED)",
      "options[0].choices[1].value: Too long (BASE_TYPE_MAX_LENGTH)",
    ]);
  });

  test("a non-JSON error response is an HttpError", async () => {
    const { api } = client();
    server.reset(() => ({ status: 418, text: "<html>teapot</html>" }));
    const error = await api.listGlobalCommands(APP).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as Error).message).toContain("non-JSON response: <html>teapot</html>");
  });
});

describe("accounting and events", () => {
  test("stats count requests by method and status; events carry no credentials", async () => {
    const { api, events } = client();
    server.reset(script({ status: 503, text: "x" }, ok));
    await api.listGlobalCommands(APP);
    expect(api.stats()).toEqual({
      requests: 2,
      byMethod: { GET: 2 },
      byStatus: { "503": 1, "200": 1 },
      byMethodAndStatus: { "GET 503": 1, "GET 200": 1 },
      retries: 1,
      networkErrors: 0,
      rateLimitWaits: 0,
      rateLimitWaitedMs: 0,
      invalidRequests: 0,
      tokenExchanges: 0,
    });
    expect(events.map((e) => e.type)).toEqual(["response", "retry", "response"]);
    expect(events[0]).toMatchObject({
      method: "GET",
      route: "/applications/{applicationId}/commands",
      status: 503,
      attempt: 1,
    });
    expect(JSON.stringify(events)).not.toContain("bot-token-for-transport-tests");
  });

  test("a throwing event hook does not break requests", async () => {
    const { api } = client({
      onEvent: () => {
        throw new Error("bad hook");
      },
    });
    server.reset(() => ok);
    await expect(api.listGlobalCommands(APP)).resolves.toHaveLength(1);
  });
});

describe("a request whose caller does the waits and resends (SendPolicy)", () => {
  const once = { resend: false, waitForRateLimits: false };

  test.each([500, 502, 503, 504])("sent once: %i throws at once, resendable", async (status) => {
    const { api, clock } = client();
    server.reset(script({ status, text: "upstream trouble" }, ok));
    const error = await api
      .sending(once)
      .listGlobalCommands(APP)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(resendable(error)).toBe(true);
    expect(server.hits).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  test("sent once: a dropped connection throws at once, resendable; a 400 is not", async () => {
    const { api } = client();
    server.reset(script("destroy", { status: 400, json: { code: 50035, message: "Invalid" } }));
    const dropped = await api
      .sending(once)
      .listGlobalCommands(APP)
      .catch((e: unknown) => e);
    expect(dropped).toBeInstanceOf(NetworkError);
    expect(resendable(dropped)).toBe(true);
    const refused = await api
      .sending(once)
      .listGlobalCommands(APP)
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ServiceApiError);
    expect(resendable(refused)).toBe(false);
    expect(server.hits).toHaveLength(2);
  });

  test("no rate-limit wait: a 429 throws RateLimitNotWaitedError at once, and a request the bucket would hold is not sent", async () => {
    const { api, clock, events } = client();
    const failFast = api.sending({ resend: true, waitForRateLimits: false });
    server.reset(
      script({ status: 429, json: { message: "slow", retry_after: 1.5, global: false } }),
    );
    const limited = await failFast.listGlobalCommands(APP).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimitNotWaitedError);
    expect((limited as RateLimitNotWaitedError).retryAfterMs).toBe(1500);
    // The bucket now says wait: the next request throws without being sent.
    const held = await failFast.listGlobalCommands(APP).catch((e: unknown) => e);
    expect(held).toBeInstanceOf(RateLimitNotWaitedError);
    expect(server.hits).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
    expect(events.filter((e) => e.type === "rateLimited")).toEqual([]);
    // The waits are the caller's: the client says how long, for every route it will send.
    const routes = [Routes.listGlobalCommands, Routes.bulkOverwriteGlobalCommands];
    expect(api.rest.roomWait(routes, { applicationId: APP })).toMatchObject({
      waitMs: 1500,
      def: Routes.listGlobalCommands,
      global: false,
    });
  });

  test("roomWait: two requests on one bucket need room for two while its window lasts", async () => {
    const { api } = client();
    server.reset(() => ({
      status: 200,
      json: [],
      headers: {
        "x-ratelimit-bucket": "shared",
        "x-ratelimit-remaining": "1",
        "x-ratelimit-reset-after": "2",
      },
    }));
    await api.listGlobalCommands(APP);
    const params = { applicationId: APP };
    expect(api.rest.roomWait([Routes.listGlobalCommands], params)).toBeUndefined();
    const twice = [Routes.listGlobalCommands, Routes.listGlobalCommands];
    expect(api.rest.roomWait(twice, params)?.waitMs).toBe(2000);
  });
});
