/**
 * Failures the providers must survive or report well: injected 5xx, dropped connections
 * and 429s (no duplicate command, the right end state), the daily create budget (fail
 * fast, say when it resets, no retry), and credentials never in an error.
 */
import type { RunningEmulator } from "../../emulator";
import { RateLimitConfig, resolveConfig } from "../../emulator";
import { Api } from "../emulator/helpers";
import type { Bag } from "./helpers";
import {
  configureAll,
  errorTexts,
  freshDeployment,
  globalInputs,
  globalProvider,
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

/** A guild that exists but has not authorized the application: 403/50001 there. */
const FOREIGN_GUILD = "1300000000000000099";

beforeAll(async () => {
  const guilds = [...resolveConfig({}).guilds, { id: FOREIGN_GUILD }];
  emu = await setup({ config: { guilds } });
});
afterAll(() => teardown(emu));
beforeEach(() => freshDeployment(emu));

function names(): string[] {
  return emu.control
    .commands()
    .map((c) => String(c["name"]))
    .sort();
}

describe("injected faults", () => {
  test("503 twice on create: retried, one command", async () => {
    emu.control.setFaults({
      rules: [
        {
          route: "createGuildCommand",
          sequence: [
            { type: "status", status: 503 },
            { type: "status", status: 502 },
          ],
        },
      ],
    });
    const created = await guildProvider.create(guildInputs(emu, slashArgs("ping")));
    expect(names()).toEqual(["ping"]);
    expect(requests(emu, "POST").map((e) => e.status)).toEqual([503, 502, 201]);
    expect(created.outs["adopted"]).toBe(false);
  });

  test("a create that took effect but whose response was dropped: the retry finds it, no duplicate", async () => {
    emu.control.setFaults({
      rules: [{ route: "createGlobalCommand", action: { type: "drop" }, phase: "after", times: 1 }],
    });
    const created = await globalProvider.create(globalInputs(emu, slashArgs("ping")));
    expect(names()).toEqual(["ping"]);
    expect(emu.control.commands()[0]?.["id"]).toBe(created.id);
    expect(requests(emu, "POST").map((e) => e.status)).toEqual([0, 200]);
    // The id was minted after the first attempt began: this stack made it, not adopted it.
    expect(created.outs["adopted"]).toBe(false);
  });

  test("a retried create that overwrites a command older than the request: adopted", async () => {
    const api = new Api(emu);
    // The deployment lists the scope first (without "ping"), so the create below POSTs:
    // a live twin the list shows would be adopted by a PATCH instead (liveTwin.ts).
    await globalProvider.create(globalInputs(emu, slashArgs("other")));
    const before = await api.post(`/applications/${emu.applicationId}/commands`, {
      name: "ping",
      description: "made before the stack",
    });
    expect(before.status).toBe(201);
    // Ids carry their creation time in milliseconds: make the first attempt start later.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    emu.control.setFaults({
      rules: [{ route: "createGlobalCommand", action: { type: "drop" }, phase: "after", times: 1 }],
    });
    const created = await globalProvider.create(globalInputs(emu, slashArgs("ping")));
    expect(
      requests(emu, "POST")
        .slice(-2)
        .map((e) => e.status),
    ).toEqual([0, 200]);
    expect(created.id).toBe((before.body as { id: string }).id);
    expect(created.outs["adopted"]).toBe(true);
  });

  test("a dropped PATCH and a 500 on the list: update and read converge", async () => {
    const created = await globalProvider.create(globalInputs(emu, slashArgs("ping")));
    emu.control.setFaults({
      rules: [
        { route: "editGlobalCommand", action: { type: "drop" }, times: 1 },
        { route: "listGlobalCommands", action: { type: "status", status: 500 }, times: 1 },
      ],
    });
    const news = globalInputs(emu, slashArgs("ping", { description: "changed" }));
    const updated = await globalProvider.update(created.id, created.outs, news);
    const read = await globalProvider.read(created.id, updated.outs);
    expect(read.inputs).toEqual(news);
    expect(emu.control.commands()[0]?.["description"]).toBe("changed");
    expect(requests(emu, "PATCH").map((e) => e.status)).toEqual([0, 200]);
    // The create's one list of the scope (its live-twin lookup), then the read's two tries.
    expect(requests(emu, "GET").map((e) => e.status)).toEqual([200, 500, 200]);
  });

  test("a delete that took effect but whose response was dropped: the retry's 404 is success", async () => {
    const created = await guildProvider.create(guildInputs(emu, slashArgs("ping")));
    await configureAll(emu);
    emu.control.setFaults({
      rules: [{ route: "deleteGuildCommand", action: { type: "drop" }, phase: "after", times: 1 }],
    });
    await guildProvider.delete(created.id, created.outs);
    expect(names()).toEqual([]);
    expect(requests(emu, "DELETE").map((e) => e.status)).toEqual([0, 404]);
  });

  test("a scripted 429 on create is waited out and retried once", async () => {
    emu.control.setFaults({
      rules: [
        {
          route: "createGuildCommand",
          action: { type: "rate_limit", retryAfterMs: 200 },
          times: 1,
        },
      ],
    });
    await guildProvider.create(guildInputs(emu, slashArgs("ping")));
    expect(names()).toEqual(["ping"]);
    expect(requests(emu, "POST").map((e) => e.status)).toEqual([429, 201]);
  });

  test("real rate limits: 8 concurrent creates in a tight bucket all land, once each", async () => {
    emu.control.setRateLimits(
      RateLimitConfig.parse({ routes: { "guild-commands-create": { limit: 3, windowMs: 400 } } }),
    );
    try {
      const made = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          guildProvider.create(guildInputs(emu, slashArgs(`cmd${i}`))),
        ),
      );
      expect(new Set(made.map((m) => m.id)).size).toBe(8);
      expect(names()).toHaveLength(8);
      expect(requests(emu, "POST").filter((e) => e.status === 201)).toHaveLength(8);
      expect(made.every((m) => m.outs["adopted"] === false)).toBe(true);
    } finally {
      emu.control.setRateLimits(false);
    }
  });
});

describe("the daily create budget (30034)", () => {
  test("past 200 creates in a guild, create fails fast saying when it resets, with no retry", async () => {
    const api = new Api(emu);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 100; i++) {
        const r = await api.post(`${api.guild}/commands`, {
          name: `c${round}-${i}`,
          description: "x",
        });
        expect(r.status).toBe(201);
      }
      for (const c of emu.control.commands()) emu.control.deleteCommand(String(c["id"]));
    }
    emu.control.resetLog();
    const err = await rejection(guildProvider.create(guildInputs(emu, slashArgs("one-more"))));
    const message = String(err);
    expect(message).toMatch(
      /\(code 30034\): Max number of daily application command creates has been reached \(200\)\n/,
    );
    expect(message).toMatch(
      /fix: the daily budget of command creates is spent \(the service allows 200 a day\): the service does not say when the day's budget resets: run `pulumi up` again a day later; it resumes where it stopped/,
    );
    // The 400 form says no reset: the message names no time (the route window's is not it).
    expect(message).not.toMatch(/again after \d{4}-/);
    // One list of the scope (no live twin of that name), then the one refused POST.
    expect(emu.requestLog().map((e) => `${e.method} ${e.status}`)).toEqual(["GET 200", "POST 400"]);
    // A day later the budget is back.
    emu.control.advanceClock(24 * 3600 * 1000 + 1);
    await expect(
      guildProvider.create(guildInputs(emu, slashArgs("one-more"))),
    ).resolves.toMatchObject({
      outs: { adopted: false },
    });
  });
});

describe("credentials never appear in an error", () => {
  const SECRET_BOT = "bot-SECRET-token-0123456789abcdef";
  const SECRET_CLIENT = "client-SECRET-abcdef0123456789";
  const SECRET_BEARER = "bearer-SECRET-fedcba9876543210";

  function expectClean(err: unknown, secrets: string[]): void {
    expect(err).toBeInstanceOf(Error);
    for (const text of errorTexts(err)) for (const s of secrets) expect(text).not.toContain(s);
  }

  test("a wrong bot token (401)", async () => {
    await configureAll(emu, { "discord:botToken": SECRET_BOT });
    const err = await rejection(globalProvider.create(globalInputs(emu, slashArgs("ping"))));
    expect(String(err)).toMatch(/401/);
    expectClean(err, [SECRET_BOT]);
    const readErr = await rejection(globalProvider.read("1", globalInputs(emu, slashArgs("ping"))));
    expectClean(readErr, [SECRET_BOT]);
  });

  test("a wrong client secret (client-credentials exchange refused)", async () => {
    await configureAll(emu, {
      "discord:botToken": undefined,
      "discord:clientId": emu.clientId,
      "discord:clientSecret": SECRET_CLIENT,
    });
    const err = await rejection(globalProvider.create(globalInputs(emu, slashArgs("ping"))));
    expectClean(err, [SECRET_CLIENT, emu.botToken]);
  });

  test("a missing Bearer token for the permissions PUT", async () => {
    const created = await guildProvider.create(guildInputs(emu, slashArgs("ping")));
    await configureAll(emu, { "discord:botToken": SECRET_BOT, "discord:bearerToken": undefined });
    const err = await rejection(
      permissionsProvider.create({
        applicationId: emu.applicationId,
        guildId: emu.guildId,
        commandId: created.id,
        permissions: [{ id: emu.guildId, type: 1, permission: false }],
      }),
    );
    expect(String(err)).toMatch(/[Bb]earer/);
    expectClean(err, [SECRET_BOT]);
  });

  test("a wrong Bearer token (401) on the permissions PUT", async () => {
    const created = await guildProvider.create(guildInputs(emu, slashArgs("ping")));
    await configureAll(emu, { "discord:bearerToken": SECRET_BEARER });
    const err = await rejection(
      permissionsProvider.update(`${emu.guildId}/${created.id}`, {}, {
        applicationId: emu.applicationId,
        guildId: emu.guildId,
        commandId: created.id,
        permissions: [],
      } as Bag),
    );
    expectClean(err, [SECRET_BEARER, emu.botToken]);
  });

  test("missing access (403) in a guild the application is not in", async () => {
    await configureAll(emu, {
      "discord:botToken": emu.botToken,
      "discord:bearerToken": SECRET_BEARER,
    });
    const err = await rejection(
      guildProvider.create({ ...guildInputs(emu, slashArgs("ping")), guildId: FOREIGN_GUILD }),
    );
    expect(String(err)).toMatch(/403|[Mm]issing [Aa]ccess/);
    expectClean(err, [emu.botToken, SECRET_BEARER]);
  });
});
