/**
 * Wire compatibility with a client nobody on this project wrote: @discordjs/rest with
 * discord-api-types' routes, against the emulator (create, upsert, list with and without
 * localizations, edit, bulk overwrite, permissions with a Bearer token, delete), and
 * surviving injected 429s and 5xx, and real rate-limit headers.
 */
import { DiscordAPIError, REST } from "@discordjs/rest";
import { Routes } from "discord-api-types/v10";
import type {
  APIApplicationCommand,
  APIGuildApplicationCommandPermissions,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
} from "discord-api-types/v10";
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";

let emu: RunningEmulator;
let bot: REST;
let user: REST;

function clients(e: RunningEmulator): { bot: REST; user: REST } {
  const api = `${e.url}/api`;
  return {
    bot: new REST({ version: "10", api, retries: 3 }).setToken(e.botToken),
    user: new REST({ version: "10", api, authPrefix: "Bearer" }).setToken(e.userBearerToken),
  };
}

beforeEach(async () => {
  emu = await startEmulator({ rateLimits: false });
  ({ bot, user } = clients(emu));
});
afterEach(async () => {
  bot.clearHashSweeper();
  bot.clearHandlerSweeper();
  user.clearHashSweeper();
  user.clearHandlerSweeper();
  await emu.close();
});

const ping: RESTPostAPIChatInputApplicationCommandsJSONBody = {
  name: "ping",
  description: "Replies with pong",
  name_localizations: { fr: "salut", "en-GB": "ping-gb" },
  options: [{ type: 3, name: "text", description: "What to say", required: true }],
};

test("create, upsert, get, list (localized and not), edit, delete", async () => {
  const created = (await bot.post(Routes.applicationCommands(emu.applicationId), {
    body: ping,
  })) as APIApplicationCommand;
  expect(created).toMatchObject({ name: "ping", type: 1, application_id: emu.applicationId });

  const upserted = (await bot.post(Routes.applicationCommands(emu.applicationId), {
    body: { ...ping, description: "Changed" },
  })) as APIApplicationCommand;
  expect(upserted.id).toBe(created.id);
  expect(upserted.version).not.toBe(created.version);

  const got = (await bot.get(
    Routes.applicationCommand(emu.applicationId, created.id),
  )) as APIApplicationCommand;
  expect(got.name_localizations).toEqual(ping.name_localizations);

  const full = (await bot.get(Routes.applicationCommands(emu.applicationId), {
    query: new URLSearchParams({ with_localizations: "true" }),
  })) as APIApplicationCommand[];
  expect(full[0]?.name_localizations).toEqual(ping.name_localizations);

  const localized = (await bot.get(Routes.applicationCommands(emu.applicationId), {
    headers: { "X-Discord-Locale": "en-US" },
  })) as (APIApplicationCommand & { name_localized?: string })[];
  expect(localized[0]?.name_localized).toBe("ping-gb");
  expect(localized[0]).not.toHaveProperty("name_localizations");

  const edited = (await bot.patch(Routes.applicationCommand(emu.applicationId, created.id), {
    body: { default_member_permissions: "32" },
  })) as APIApplicationCommand;
  expect(edited.default_member_permissions).toBe("32");
  expect(edited.description).toBe("Changed");

  await bot.delete(Routes.applicationCommand(emu.applicationId, created.id));
  await expect(
    bot.get(Routes.applicationCommand(emu.applicationId, created.id)),
  ).rejects.toMatchObject({
    status: 404,
    code: 10063,
  });
});

test("guild bulk overwrite and permissions with a Bearer token", async () => {
  const list = (await bot.put(Routes.applicationGuildCommands(emu.applicationId, emu.guildId), {
    body: [ping, { name: "Inspect", type: 2 }],
  })) as APIApplicationCommand[];
  expect(list.map((c) => c.name)).toEqual(["ping", "Inspect"]);
  const id = list[0]?.id ?? "";

  const body = { permissions: [{ id: emu.guildId, type: 1, permission: false }] };
  const set = (await user.put(
    Routes.applicationCommandPermissions(emu.applicationId, emu.guildId, id),
    { body },
  )) as APIGuildApplicationCommandPermissions;
  expect(set.permissions).toEqual(body.permissions);

  const all = (await bot.get(
    Routes.guildApplicationCommandsPermissions(emu.applicationId, emu.guildId),
  )) as APIGuildApplicationCommandPermissions[];
  expect(all.map((p) => p.id)).toEqual([id]);

  const err: unknown = await bot
    .put(Routes.applicationCommandPermissions(emu.applicationId, emu.guildId, id), { body })
    .catch((e: unknown) => e);
  expect(err).toBeInstanceOf(DiscordAPIError);
  expect(err).toMatchObject({ status: 403, code: 20001 });

  const again = (await bot.put(Routes.applicationGuildCommands(emu.applicationId, emu.guildId), {
    body: [ping],
  })) as APIApplicationCommand[];
  expect(again[0]?.id).toBe(id);
});

test("validation errors arrive as DiscordAPIError with the flattened tree", async () => {
  const err: unknown = await bot
    .post(Routes.applicationCommands(emu.applicationId), {
      body: { name: "Bad Name", description: "x" },
    })
    .catch((e: unknown) => e);
  expect(err).toBeInstanceOf(DiscordAPIError);
  expect(err).toMatchObject({ status: 400, code: 50035 });
  expect(String((err as Error).message)).toContain("APPLICATION_COMMAND_INVALID_NAME");
});

test("survives injected 5xx (retries) and 429 (waits, then retries)", async () => {
  emu.control.setFaults({
    rules: [
      {
        route: "createGlobalCommand",
        sequence: [
          { type: "status", status: 503 },
          { type: "status", status: 502 },
          { type: "rate_limit", retryAfterMs: 200 },
        ],
      },
    ],
  });
  const created = (await bot.post(Routes.applicationCommands(emu.applicationId), {
    body: ping,
  })) as APIApplicationCommand;
  expect(created.name).toBe("ping");
  const statuses = emu.requestLog().map((e) => e.status);
  expect(statuses).toEqual([503, 502, 429, 201]);
});

test("gives up after its retries on persistent 5xx", async () => {
  emu.control.setFaults({ rules: [{ action: { type: "status", status: 500 } }] });
  await expect(bot.get(Routes.applicationCommands(emu.applicationId))).rejects.toMatchObject({
    status: 500,
  });
  expect(emu.requestLog()).toHaveLength(4);
});

test("honours the emulator's rate-limit headers", async () => {
  await emu.close();
  emu = await startEmulator({
    rateLimits: {
      global: { limit: 50, windowMs: 1000 },
      routeDefault: { limit: 2, windowMs: 600 },
      routes: {},
      invalidRequests: { limit: 10000, windowMs: 600000, banMs: 600000 },
    },
  });
  ({ bot, user } = clients(emu));
  const t0 = Date.now();
  for (let i = 0; i < 5; i++) await bot.get(Routes.applicationCommands(emu.applicationId));
  expect(Date.now() - t0).toBeGreaterThanOrEqual(500);
  const statuses = emu.requestLog().map((e) => e.status);
  expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
  expect(statuses.filter((s) => s === 200)).toHaveLength(5);
});
