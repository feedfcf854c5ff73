/**
 * discord.js 14 as a drop-in user of the emulator, the way bots deploy: builder bodies
 * (`SlashCommandBuilder`, `ContextMenuCommandBuilder`) through the client's
 * `ApplicationCommandManager` (create, bulk `set`, `edit`, `fetch` with localizations,
 * `delete`), with no gateway login: `client.rest` gets the token and `client.application`
 * is built from the application's id, as discord.js's READY handler does.
 *
 * `ApplicationCommand#equals` holds between each returned command and its builder's body
 * as sent (`toJSON()` through JSON, which drops undefined keys), except where discord.js's
 * comparator itself is the reason (checked below, documented in emulator/README.md):
 * - `toJSON()` itself carries `nsfw: undefined` when `setNSFW` was not called, and the
 *   comparator tests `'nsfw' in command`, so it sees undefined !== false (the service
 *   always returns `nsfw`);
 * - it compares `integration_types` and `contexts` as lists with absent = `[]`, so a
 *   global builder that leaves `integration_types` out differs from the service's answer
 *   (which fills in the application's default, `[0]`), and a builder reused for a guild
 *   differs from the guild command (guild commands keep neither field);
 * - a subcommand without options goes out as `options: []` and comes back without
 *   `options` (the service omits empty fields), and `_optionEquals` compares
 *   `option.options?.length` without a default (0 !== undefined), unlike the top level
 *   (`?? 0`).
 */
import {
  ApplicationCommandType,
  ApplicationIntegrationType,
  Client,
  ClientApplication,
  ContextMenuCommandBuilder,
  InteractionContextType,
  PermissionFlagsBits,
  SlashCommandBuilder,
} from "discord.js";
import type { ApplicationCommand } from "discord.js";
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";

let emu: RunningEmulator;
let client: Client;

beforeEach(async () => {
  emu = await startEmulator({ rateLimits: false });
  client = new Client({ intents: [], rest: { api: `${emu.url}/api` } });
  client.rest.setToken(emu.botToken);
  // What discord.js's READY handler does with the application it is sent.
  // (The constructor is private in discord.js's typings, public in its code.)
  const App = ClientApplication as unknown as new (c: Client, data: object) => ClientApplication;
  client.application = new App(client, { id: emu.applicationId, flags: 0 });
});
afterEach(async () => {
  await client.destroy();
  await emu.close();
});

function builders() {
  const ping = new SlashCommandBuilder()
    .setName("ping")
    .setDescription("Replies with pong")
    .setNameLocalizations({ fr: "salut", de: "hallo" })
    .setDescriptionLocalizations({ fr: "Répond pong" })
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
    .setContexts(InteractionContextType.Guild, InteractionContextType.BotDM)
    .addStringOption((o) =>
      o
        .setName("text")
        .setDescription("What to say")
        .setRequired(true)
        .setNameLocalizations({ fr: "texte" })
        .addChoices({ name: "Hello", value: "hello", name_localizations: { fr: "Bonjour" } }),
    )
    .addIntegerOption((o) => o.setName("times").setDescription("How often").setMinValue(1));
  const deploy = new SlashCommandBuilder()
    .setName("deploy")
    .setDescription("Deploy things")
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
    .setNSFW(true)
    .addSubcommandGroup((g) =>
      g
        .setName("service")
        .setDescription("A service")
        .addSubcommand((s) =>
          s
            .setName("up")
            .setDescription("Start it")
            .addChannelOption((o) => o.setName("where").setDescription("Channel")),
        )
        .addSubcommand((s) => s.setName("down").setDescription("Stop it")),
    )
    .addSubcommand((s) => s.setName("status").setDescription("Status"));
  const profile = new ContextMenuCommandBuilder()
    .setName("Show Profile")
    .setType(ApplicationCommandType.User)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall);
  const quote = new ContextMenuCommandBuilder()
    .setName("Quote")
    .setType(ApplicationCommandType.Message)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
    .setContexts(InteractionContextType.Guild);
  return { ping, deploy, profile, quote };
}

type Built = ReturnType<typeof builders>[keyof ReturnType<typeof builders>];

/** The builder's body as it goes on the wire (undefined keys dropped). */
const wire = (b: Built | SlashCommandBuilder): Record<string, unknown> =>
  JSON.parse(JSON.stringify(b.toJSON())) as Record<string, unknown>;

/** Drops the `options: []` of option-less subcommands (the comparator's third limit). */
function withoutEmptySubOptions(json: Record<string, unknown>): Record<string, unknown> {
  const strip = (o: unknown): unknown => {
    if (typeof o !== "object" || o === null) return o;
    const { options, ...rest } = o as Record<string, unknown>;
    if (!Array.isArray(options) || options.length === 0) return rest;
    return { ...rest, options: options.map(strip) };
  };
  const options = json["options"];
  return Array.isArray(options) ? { ...json, options: options.map(strip) } : json;
}

/** Each returned command equals the builder of the same name (its wire body, adjusted). */
function expectEqualToBuilders(
  returned: Iterable<ApplicationCommand>,
  all: readonly Built[],
  adjust: (json: Record<string, unknown>) => object = (j) => j,
) {
  const names: string[] = [];
  for (const command of returned) {
    const builder = all.find((b) => b.name === command.name);
    expect(builder).toBeDefined();
    if (!builder) continue;
    names.push(command.name);
    const body = withoutEmptySubOptions(adjust(wire(builder)) as Record<string, unknown>);
    expect({ name: command.name, equals: command.equals(body as never) }).toEqual({
      name: command.name,
      equals: true,
    });
  }
  return names.sort();
}

const commands = () => {
  const manager = client.application?.commands;
  if (!manager) throw new Error("no application");
  return manager;
};

test("create, bulk set, edit, fetch with localizations and delete, global", async () => {
  const b = builders();
  const all = Object.values(b);
  const created = await commands().create(b.ping);
  expectEqualToBuilders([created], all);
  expect(created.defaultMemberPermissions?.bitfield).toBe(PermissionFlagsBits.ManageGuild);
  expect(created.dmPermission).toBe(true); // derived from contexts (BotDM among them)

  const set = await commands().set(all);
  expect(expectEqualToBuilders(set.values(), all)).toEqual([
    "Quote",
    "Show Profile",
    "deploy",
    "ping",
  ]);
  expect(set.find((c) => c.name === "ping")?.id).toBe(created.id); // matched by name
  // The comparator's own limit: `options: []` of an option-less subcommand.
  expect(set.find((c) => c.name === "deploy")?.equals(wire(b.deploy) as never)).toBe(false);

  // edit() with a builder body sends `type`: accepted, ignored, and said so.
  const changed = builders()
    .ping.setDescription("Replies with pong, fast")
    .setContexts(InteractionContextType.Guild);
  const edited = await commands().edit(created.id, changed);
  expect(edited.equals(wire(changed) as never)).toBe(true);
  expect(edited.dmPermission).toBe(false);
  const editLog = emu.requestLog().find((e) => e.route === "editGlobalCommand");
  expect(editLog?.status).toBe(200);
  expect(editLog?.warning).toMatch(/ignored fields: type\b/);

  const fetched = await commands().fetch({ withLocalizations: true });
  expect(fetched.size).toBe(4);
  expectEqualToBuilders(fetched.values(), [changed, b.deploy, b.profile, b.quote]);
  const one = await commands().fetch(created.id, { force: true });
  expect(one.equals(wire(changed) as never)).toBe(true);
  expect(one.nameLocalizations).toEqual({ fr: "salut", de: "hallo" });
  expect(one.options[0]?.nameLocalizations).toEqual({ fr: "texte" });
  expect(one.options[1]?.nameLocalizations).toBeNull(); // null on the wire, as the service

  await commands().delete(created.id);
  const after = await commands().fetch({ force: true });
  expect([...after.values()].map((c) => c.name).sort()).toEqual([
    "Quote",
    "Show Profile",
    "deploy",
  ]);
  expect(emu.requestLog().every((e) => e.status < 400)).toBe(true);
});

test("builders reused for a guild: accepted, global-only fields ignored and named", async () => {
  const b = builders();
  const all = Object.values(b);
  const set = await commands().set(all, emu.guildId);
  expect(set.size).toBe(4);
  const bulk = emu.requestLog().find((e) => e.route === "bulkOverwriteGuildCommands");
  expect(bulk?.status).toBe(200);
  expect(bulk?.warning).toContain("0.integration_types");
  expect(bulk?.warning).toContain("0.contexts");

  // discord.js's comparator counts the ignored fields: with them left out, equal.
  const withoutGlobalOnly = (j: Record<string, unknown>) => {
    const { integration_types: _i, contexts: _c, ...rest } = j;
    return rest;
  };
  expectEqualToBuilders(set.values(), all, withoutGlobalOnly);
  const ping = set.find((c) => c.name === "ping");
  expect(ping?.equals(wire(b.ping) as never)).toBe(false);

  const created = await commands().create(b.quote, emu.guildId);
  expect(created.id).toBe(set.find((c) => c.name === "Quote")?.id); // an upsert by name
  const fetched = await commands().fetch({ guildId: emu.guildId, withLocalizations: true });
  expect(fetched.get(ping?.id ?? "")?.nameLocalizations).toEqual({ fr: "salut", de: "hallo" });
  await commands().delete(created.id, emu.guildId);
  expect(emu.store.commandsIn(emu.applicationId, emu.guildId)).toHaveLength(3);
});

test("the comparator's own limits: nsfw: undefined, absent integration types", async () => {
  const bare = new SlashCommandBuilder().setName("bare").setDescription("No install types");
  const created = await commands().create(bare);
  // The service fills in the application's installation contexts; discord.js compares
  // the builder's absent list as [] against them.
  expect(created.integrationTypes).toEqual([ApplicationIntegrationType.GuildInstall]);
  expect(created.equals(wire(bare) as never)).toBe(false);
  expect(created.equals({ ...wire(bare), integration_types: [0] } as never)).toBe(true);
  // toJSON() carries `nsfw: undefined`; the comparator reads it as a declared value.
  expect(Object.hasOwn(bare.toJSON(), "nsfw")).toBe(true);
  expect(created.nsfw).toBe(false);
  expect(created.equals({ ...bare.toJSON(), integration_types: [0] } as never)).toBe(false);
});
