/**
 * Invocations and autocomplete as a user's client makes them: the client's checks, the
 * type 2 and type 4 payloads of the spec, the application's answer judged as a callback
 * (with the 3-second deadline), read-repair of stale global commands, entry points, and
 * the permissions update event feed.
 */
import type { InteractionResult, RunningEmulator } from "../../emulator";
import { DEFAULTS } from "../../emulator";
import type { Api } from "./helpers";
import { arr, rec, slash, start, str } from "./helpers";
import type { TestHandler } from "./interactionHandler";
import { startHandler } from "./interactionHandler";

jest.setTimeout(30_000);

let emu: RunningEmulator;
let api: Api;
let handler: TestHandler;

beforeAll(async () => {
  ({ emu, api } = await start());
  handler = await startHandler(emu.publicKey);
  await emu.setInteractionsEndpoint(handler.url);
});
afterAll(async () => {
  await handler.close();
  await emu.close();
});
beforeEach(() => {
  emu.control.reset();
  handler.received.length = 0;
  handler.answer = () => ({ body: { type: 4, data: { content: "ok" } } });
});

const here = { guildId: DEFAULTS.guildId, channelId: DEFAULTS.channelId, userId: DEFAULTS.userId };

async function create(
  body: Record<string, unknown>,
  path = `${api.app}/commands`,
): Promise<Record<string, unknown>> {
  const r = await api.post(path, body);
  expect([200, 201]).toContain(r.status);
  return rec(r.body);
}

const commandsSent = () => handler.received.filter((r) => r.body["type"] !== 1);

const MANAGE = {
  ...slash("manage"),
  name_localizations: { fr: "gerer" },
  options: [
    {
      type: 2,
      name: "members",
      description: "Members",
      name_localizations: { fr: "membres" },
      options: [
        {
          type: 1,
          name: "warn",
          description: "Warn someone",
          options: [
            { type: 6, name: "user", description: "Who", required: true },
            {
              type: 3,
              name: "reason",
              description: "Why",
              required: true,
              min_length: 3,
              max_length: 10,
            },
            { type: 4, name: "days", description: "Days", min_value: 1, max_value: 7 },
            {
              type: 3,
              name: "level",
              description: "Level",
              choices: [
                { name: "Low", value: "low" },
                { name: "High", value: "high" },
              ],
            },
            { type: 7, name: "where", description: "Where", channel_types: [0] },
            { type: 8, name: "role", description: "Role" },
            { type: 10, name: "ratio", description: "Ratio" },
          ],
        },
      ],
    },
  ],
};

test("a type 2 payload: default names whatever the locale, the options tree, member, resolved, locales", async () => {
  const cmd = await create(MANAGE);
  const r = await emu.invoke({
    ...here,
    name: "manage",
    subcommand: "members warn",
    locale: "fr",
    options: {
      user: DEFAULTS.userId,
      reason: "spam",
      days: 3,
      where: DEFAULTS.channelId,
      role: DEFAULTS.managerRoleId,
    },
  });
  expect(r.outcome).toBe("delivered");
  const sent = commandsSent()[0]?.body;
  expect(sent).toEqual(r.interaction);
  expect(sent).toMatchObject({
    type: 2,
    application_id: emu.applicationId,
    guild_id: DEFAULTS.guildId,
    channel_id: DEFAULTS.channelId,
    locale: "fr",
    guild_locale: "en-US",
    version: 1,
    context: 0,
    token: expect.any(String),
    app_permissions: expect.stringMatching(/^\d+$/),
    member: {
      user: { id: DEFAULTS.userId, username: "emulated-admin" },
      roles: [DEFAULTS.managerRoleId],
      permissions: expect.stringMatching(/^\d+$/),
      joined_at: expect.any(String),
    },
    data: {
      id: cmd["id"],
      name: "manage",
      type: 1,
      options: [
        {
          type: 2,
          name: "members",
          options: [
            {
              type: 1,
              name: "warn",
              options: [
                { type: 6, name: "user", value: DEFAULTS.userId },
                { type: 3, name: "reason", value: "spam" },
                { type: 4, name: "days", value: 3 },
                { type: 7, name: "where", value: DEFAULTS.channelId },
                { type: 8, name: "role", value: DEFAULTS.managerRoleId },
              ],
            },
          ],
        },
      ],
      resolved: {
        users: { [DEFAULTS.userId]: { id: DEFAULTS.userId } },
        members: { [DEFAULTS.userId]: { roles: [DEFAULTS.managerRoleId] } },
        channels: { [DEFAULTS.channelId]: { id: DEFAULTS.channelId, type: 0, name: "general" } },
        roles: { [DEFAULTS.managerRoleId]: { id: DEFAULTS.managerRoleId, name: "Manager" } },
      },
    },
  });
  // The member's permissions: @everyone's bits and the Manager role's.
  expect(BigInt(str(rec(rec(sent)["member"])["permissions"])) & (1n << 11n)).toBe(1n << 11n);
});

test.each([
  ["a required option is missing", { reason: "spam" }, 'option "user" is required'],
  [
    "a string is shorter than min_length",
    { user: DEFAULTS.userId, reason: "no" },
    "shorter than min_length 3",
  ],
  [
    "a string is longer than max_length",
    { user: DEFAULTS.userId, reason: "far too long" },
    "longer than max_length 10",
  ],
  [
    "an integer is below min_value",
    { user: DEFAULTS.userId, reason: "spam", days: 0 },
    "below min_value 1",
  ],
  [
    "an integer is above max_value",
    { user: DEFAULTS.userId, reason: "spam", days: 8 },
    "above max_value 7",
  ],
  [
    "an integer is not whole",
    { user: DEFAULTS.userId, reason: "spam", days: 1.5 },
    "is not an integer",
  ],
  [
    "a value is not one of the choices",
    { user: DEFAULTS.userId, reason: "spam", level: "mid" },
    "is not one of its choices",
  ],
  [
    "a channel type is not allowed",
    { user: DEFAULTS.userId, reason: "spam", where: "1300000000000000099" },
    "no channel",
  ],
  [
    "an option has the wrong type",
    { user: DEFAULTS.userId, reason: 42 },
    "a STRING option takes a string",
  ],
  [
    "a number option gets a string",
    { user: DEFAULTS.userId, reason: "spam", ratio: "1.5" },
    "a number is expected",
  ],
  [
    "an unknown user",
    { user: "1300000000000000098", reason: "spam" },
    "no user 1300000000000000098",
  ],
  ["an unknown option", { user: DEFAULTS.userId, reason: "spam", extra: 1 }, 'no option "extra"'],
])("the client's checks: %s -> invalid, nothing sent", async (_what, options, reason) => {
  await create(MANAGE);
  const r = await emu.invoke({ ...here, name: "manage", subcommand: ["members", "warn"], options });
  expect(r).toMatchObject({ outcome: "invalid", interaction: null, response: null });
  expect(r.reason).toContain(reason);
  expect(commandsSent()).toEqual([]);
});

test("the client's checks: channel_types, base command with subcommands, group without subcommand", async () => {
  const cmd = await create({
    ...slash("where"),
    options: [{ type: 7, name: "voice", description: "A voice channel", channel_types: [2] }],
  });
  const wrongType = await emu.invoke({
    ...here,
    commandId: str(cmd["id"]),
    options: { voice: DEFAULTS.channelId },
  });
  expect(wrongType.reason).toContain("channel type 0 is not one of channel_types 2");
  await create(MANAGE);
  expect((await emu.invoke({ ...here, name: "manage" })).reason).toContain(
    "cannot be invoked as the base command",
  );
  expect((await emu.invoke({ ...here, name: "manage", subcommand: "members" })).reason).toContain(
    "is a subcommand group",
  );
  expect(commandsSent()).toEqual([]);
});

test("USER and MESSAGE commands carry target_id and resolved", async () => {
  const user = await create({ type: 2, name: "Profile" });
  const r = await emu.invoke({ ...here, commandId: str(user["id"]), targetId: DEFAULTS.userId });
  expect(r.outcome).toBe("delivered");
  expect(rec(r.interaction)["data"]).toMatchObject({
    type: 2,
    name: "Profile",
    target_id: DEFAULTS.userId,
    resolved: {
      users: { [DEFAULTS.userId]: { id: DEFAULTS.userId } },
      members: { [DEFAULTS.userId]: { roles: [DEFAULTS.managerRoleId] } },
    },
  });
  const message = await create({ type: 3, name: "Bookmark" });
  const m = await emu.invoke({
    ...here,
    name: "Bookmark",
    type: 3,
    targetId: "1300000000000000777",
    targetMessage: { content: "hello" },
  });
  expect(rec(m.interaction)["data"]).toMatchObject({
    id: message["id"],
    target_id: "1300000000000000777",
    resolved: {
      messages: {
        "1300000000000000777": {
          content: "hello",
          channel_id: DEFAULTS.channelId,
          author: { id: DEFAULTS.userId },
        },
      },
    },
  });
  expect((await emu.invoke({ ...here, name: "Profile", type: 2 })).reason).toContain(
    "needs targetId",
  );
});

test.each([
  ["an empty message", { body: { type: 4, data: {} } }, "Cannot send an empty message"],
  [
    "a component-only callback type",
    { body: { type: 7, data: { content: "x" } } },
    "callback type 7 does not answer a command",
  ],
  [
    "LAUNCH_ACTIVITY for a slash command",
    { body: { type: 12 } },
    "LAUNCH_ACTIVITY (12) answers only an entry point",
  ],
  ["an HTTP error", { status: 500, body: { error: "boom" } }, "the application answered HTTP 500"],
  [
    "a message of more than 2000 characters",
    { body: { type: 4, data: { content: "x".repeat(2001) } } },
    "longer than 2000",
  ],
])("the answer is judged as a callback: %s -> invalid", async (_what, answer, problem) => {
  await create(slash("ping"));
  handler.answer = () => answer;
  const r = await emu.invoke({ ...here, name: "ping" });
  expect(r.outcome).toBe("invalid");
  expect(r.response).toMatchObject({ valid: false, body: answer.body });
  expect(r.reason).toContain(problem);
});

test("a deferred answer (5) is valid; an answer after 3 seconds is not", async () => {
  await create(slash("ping"));
  handler.answer = () => ({ body: { type: 5, data: { flags: 64 } } });
  expect(await emu.invoke({ ...here, name: "ping" })).toMatchObject({
    outcome: "delivered",
    response: { valid: true, status: 200 },
  });
  handler.answer = () => ({ delayMs: 3300, body: { type: 4, data: { content: "late" } } });
  const late = await emu.invoke({ ...here, name: "ping" });
  expect(late).toMatchObject({
    outcome: "invalid",
    response: null,
    reason: "The application did not respond within 3 seconds",
  });
});

test("autocomplete: type 4 with the focused option, required options possibly absent, numbers as strings", async () => {
  const cmd = await create({
    ...slash("find"),
    options: [
      {
        type: 3,
        name: "query",
        description: "Query",
        required: true,
        autocomplete: true,
        max_length: 5,
      },
      { type: 4, name: "count", description: "Count", autocomplete: true },
      { type: 5, name: "exact", description: "Exact" },
    ],
  });
  handler.answer = () => ({ body: { type: 8, data: { choices: [{ name: "Seven", value: 7 }] } } });
  const r = await emu.autocomplete({
    ...here,
    name: "find",
    focused: "count",
    value: "7",
    options: { exact: true },
  });
  expect(r).toMatchObject({ outcome: "delivered", response: { valid: true } });
  expect(r.interaction).toMatchObject({
    type: 4,
    data: {
      id: cmd["id"],
      name: "find",
      type: 1,
      version: cmd["version"],
      options: [
        { type: 4, name: "count", value: "7", focused: true },
        { type: 5, name: "exact", value: true },
      ],
    },
  });
  // Partial values must still pass the client's checks.
  expect(
    (await emu.autocomplete({ ...here, name: "find", focused: "count", value: "7x" })).reason,
  ).toContain("is not a partial number");
  expect(
    (await emu.autocomplete({ ...here, name: "find", focused: "query", value: "toolong" })).reason,
  ).toContain("longer than max_length 5");
  expect(
    (await emu.autocomplete({ ...here, name: "find", focused: "exact", value: "" })).reason,
  ).toContain("autocomplete is not enabled");
  expect(commandsSent()).toHaveLength(1);
});

test.each([
  [
    "26 choices",
    {
      type: 8,
      data: { choices: Array.from({ length: 26 }, (_, i) => ({ name: `c${i}`, value: `v${i}` })) },
    },
    "at most 25 choices",
  ],
  [
    "a number for a STRING option",
    { type: 8, data: { choices: [{ name: "one", value: 1 }] } },
    "must be a string",
  ],
  [
    "an empty choice name",
    { type: 8, data: { choices: [{ name: "", value: "x" }] } },
    ".name must be 1-100",
  ],
  [
    "a message instead of choices",
    { type: 4, data: { content: "hi" } },
    "answered with type 8, not 4",
  ],
])("autocomplete answers are judged: %s -> invalid", async (_what, body, problem) => {
  await create({
    ...slash("find"),
    options: [{ type: 3, name: "query", description: "Query", autocomplete: true }],
  });
  handler.answer = () => ({ body });
  const r = await emu.autocomplete({ ...here, name: "find", focused: "query", value: "a" });
  expect(r.outcome).toBe("invalid");
  expect(r.reason).toContain(problem);
});

test("read-repair: a stale version of a global command is rejected and logged as a reload; guild commands are current", async () => {
  const cmd = await create(slash("ping"));
  const old = str(cmd["version"]);
  const edited = rec(
    (await api.patch(`${api.app}/commands/${str(cmd["id"])}`, { description: "Changed" })).body,
  );
  expect(edited["version"]).not.toBe(old);
  const stale: InteractionResult = await emu.invoke({ ...here, name: "ping", version: old });
  expect(stale).toMatchObject({ outcome: "stale", interaction: null });
  expect(commandsSent()).toEqual([]);
  expect(emu.requestLog().filter((e) => e.event === "reload")).toEqual([
    expect.objectContaining({
      method: "INTERACTION",
      path: `/applications/${emu.applicationId}/commands/${str(cmd["id"])}`,
    }),
  ]);
  expect(
    (await emu.invoke({ ...here, name: "ping", version: str(edited["version"]) })).outcome,
  ).toBe("delivered");
  const guild = await create(slash("local"), `${api.guild}/commands`);
  expect((await emu.invoke({ ...here, commandId: str(guild["id"]), version: "1" })).outcome).toBe(
    "delivered",
  );
});

test("entry points: DISCORD_LAUNCH_ACTIVITY is handled by the service (launch logged), APP_HANDLER may answer LAUNCH_ACTIVITY", async () => {
  emu.control.setActivities(emu.applicationId, true);
  const launched = await emu.invoke({ ...here, name: "Launch", type: 4 });
  expect(launched).toMatchObject({ outcome: "delivered", launched: true, response: null });
  expect(commandsSent()).toEqual([]);
  expect(emu.requestLog().filter((e) => e.event === "launch")).toHaveLength(1);
  const launch = arr((await api.get(`${api.app}/commands`)).body)
    .map(rec)
    .find((c) => c["type"] === 4);
  await api.patch(`${api.app}/commands/${str(launch?.["id"])}`, { handler: 1 });
  handler.answer = () => ({ body: { type: 12 } });
  const own = await emu.invoke({ ...here, commandId: str(launch?.["id"]) });
  expect(own).toMatchObject({
    outcome: "delivered",
    response: { valid: true, body: { type: 12 } },
  });
  expect(commandsSent()).toHaveLength(1);
});

test("every successful permissions PUT is an Application Command Permissions Update event in the feed", async () => {
  const cmd = await create(slash("ping"));
  const path = `${api.guild}/commands/${str(cmd["id"])}/permissions`;
  const body = { permissions: [{ id: DEFAULTS.userId, type: 2, permission: false }] };
  expect((await api.put(path, body)).status).toBe(403); // bot token: no event
  expect((await api.put(path, body, { auth: `Bearer ${DEFAULTS.userBearerToken}` })).status).toBe(
    200,
  );
  const events = await api.get("/__emulator/events?after=0");
  expect(events.body).toEqual([
    {
      id: 1,
      type: "APPLICATION_COMMAND_PERMISSIONS_UPDATE",
      time: expect.any(String),
      data: {
        id: cmd["id"],
        application_id: emu.applicationId,
        guild_id: DEFAULTS.guildId,
        ...body,
      },
    },
  ]);
  expect((await api.get("/__emulator/events?after=1")).body).toEqual([]);
  expect(emu.events()).toHaveLength(1);
  expect((await api.get("/__emulator/events?after=x")).status).toBe(400);
});

test("over HTTP: POST /__emulator/interactions and /autocomplete; no endpoint URL means nothing is delivered", async () => {
  await create(slash("ping"));
  const r = await api.post("/__emulator/interactions", { ...here, name: "ping" });
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({
    outcome: "delivered",
    response: { status: 200, body: { type: 4 } },
  });
  expect((await api.post("/__emulator/interactions", { ...here })).status).toBe(400);
  expect(
    (await api.post("/__emulator/interactions/autocomplete", { ...here, name: "ping" })).status,
  ).toBe(400);
  await emu.setInteractionsEndpoint(null);
  try {
    const none = await api.post("/__emulator/interactions", { ...here, name: "ping" });
    expect(rec(none.body)["outcome"]).toBe("invalid");
    expect(rec(none.body)["reason"]).toContain("has no interactions endpoint URL");
  } finally {
    await emu.setInteractionsEndpoint(handler.url);
  }
});

test("POST /__emulator/reset empties the interactions delivered, with the state and the log", async () => {
  await create(slash("ping"));
  const r = await emu.invoke({ ...here, name: "ping" });
  expect(r.outcome).toBe("delivered");
  expect(emu.interactions.history.list()).toHaveLength(1);
  expect((await api.call("POST", "/__emulator/reset")).status).toBe(204);
  expect(emu.interactions.history.list()).toEqual([]);
  expect(emu.control.commands()).toEqual([]);
});
