/**
 * Engine lifecycle, part 1: a realistic command set through the real `pulumi` CLI
 * against the in-process emulator. `up` creates exactly the declared set; a preview
 * right after makes no request; `preview --refresh` and `refresh` see drift made out of
 * band and `up` restores it; a command deleted out of band is recreated, its permissions
 * too; `destroy` removes what the stack created and nothing else. Assertions read the
 * emulator's state and request log, not only what the CLI printed.
 *
 * The request count of a no-drift `preview --refresh` is test/engine/drift-check.test.ts;
 * permissions drift (no overwrites reads as an empty list) is
 * test/provider/permissions.test.ts.
 *
 * One emulator and one program (stack `dev`) for the whole file: each test continues
 * from the state the previous one left, in order.
 */
import * as fs from "node:fs";
import { startEmulator } from "../../emulator";
import type { RunningEmulator } from "../../emulator";
import type { PulumiProgram } from "../../scripts/pulumiProgram";
import type { LiveCommand } from "./lifecycle.helpers";
import {
  asReturned,
  commandKeys,
  IDS,
  liveCommand,
  liveCommands,
  livePermissions,
  programAgainst,
  requests,
  stepLine,
  writes,
} from "./lifecycle.helpers";

jest.setTimeout(180_000);

const G = IDS.guild;

/** Permissions of `ban`: a role, a user and a channel (and @everyone denied). */
const BAN_PERMISSIONS = [
  { id: G, type: 1, permission: false },
  { id: IDS.role, type: 1, permission: true },
  { id: IDS.user, type: 2, permission: true },
  { id: IDS.channel, type: 3, permission: false },
];
/** The application-wide defaults in the guild (command id = application id). */
const APP_PERMISSIONS = [{ id: IDS.channel, type: 3, permission: false }];

const PROGRAM = `
import * as discord from "pulumi-discord-commands";

const { OptionType, CommandType, InteractionContextType, ChannelType, PermissionFlags } = discord;
const guildId = ${JSON.stringify(G)};

new discord.GlobalCommand("ping", {
  name: "ping",
  description: "Check that the bot is alive",
  descriptionLocalizations: { fr: "Vérifier que le bot répond", de: "Prüfen, ob der Bot antwortet" },
  contexts: [InteractionContextType.GUILD, InteractionContextType.BOT_DM],
});

new discord.GlobalCommand("settings", {
  name: "settings",
  nameLocalizations: { fr: "réglages" },
  description: "Change how the bot behaves",
  defaultMemberPermissions: discord.permissions(PermissionFlags.MANAGE_GUILD),
  options: [
    {
      type: OptionType.SUB_COMMAND_GROUP,
      name: "notifications",
      description: "Where and how the bot notifies",
      options: [
        {
          type: OptionType.SUB_COMMAND,
          name: "channel",
          description: "Set the notification channel",
          options: [
            {
              type: OptionType.CHANNEL,
              name: "target",
              description: "The channel",
              required: true,
              channelTypes: [ChannelType.GUILD_TEXT, ChannelType.GUILD_ANNOUNCEMENT],
            },
          ],
        },
        {
          type: OptionType.SUB_COMMAND,
          name: "level",
          description: "Set how much the bot says",
          options: [
            {
              type: OptionType.STRING,
              name: "level",
              description: "The level",
              required: true,
              choices: [
                { name: "Everything", value: "all", nameLocalizations: { fr: "Tout" } },
                { name: "Mentions only", value: "mentions" },
              ],
            },
          ],
        },
      ],
    },
    { type: OptionType.SUB_COMMAND, name: "reset", description: "Reset every setting" },
  ],
});

new discord.GlobalCommand("profile", {
  type: CommandType.USER,
  name: "Show Profile",
  nameLocalizations: { fr: "Voir le profil" },
});

new discord.GlobalCommand("report", { type: CommandType.MESSAGE, name: "Report Message" });

const ban = new discord.GuildCommand("ban", {
  guildId,
  name: "ban",
  description: "Ban a member",
  defaultMemberPermissions: discord.permissions(PermissionFlags.BAN_MEMBERS),
  options: [
    { type: OptionType.USER, name: "member", description: "Who to ban", required: true },
    { type: OptionType.INTEGER, name: "days", description: "Days of messages to delete", minValue: 0, maxValue: 7 },
  ],
});

new discord.GuildCommand("inspect", { guildId, type: CommandType.USER, name: "Inspect" });

new discord.GuildCommandPermissions("ban-permissions", {
  guildId,
  commandId: ban.commandId,
  permissions: ${JSON.stringify(BAN_PERMISSIONS)},
});

new discord.GuildCommandPermissions("app-permissions", {
  guildId,
  commandId: ${JSON.stringify(IDS.application)},
  permissions: ${JSON.stringify(APP_PERMISSIONS)},
});

export const banId = ban.commandId;
`;

/** The declared set: `scope type name`. */
const DECLARED = [
  "global 1 ping",
  "global 1 settings",
  "global 2 Show Profile",
  "global 3 Report Message",
  `${G} 1 ban`,
  `${G} 2 Inspect`,
].sort();

/** Resources in the stack: the stack itself, 6 commands, 2 permission objects. */
const RESOURCES = 9;

describe("engine lifecycle: up, no-change preview, drift, recreate, destroy", () => {
  let emu: RunningEmulator;
  let prog: PulumiProgram;
  /** Commands made out of band before the first `up`: the stack must never touch them. */
  let unmanaged: LiveCommand[];

  beforeAll(async () => {
    emu = await startEmulator({ port: 0, rateLimits: false });
    // Unmanaged commands, made over HTTP as another tool would (names the stack never
    // declares, so create's upsert-by-name cannot adopt them).
    const post = async (path: string, body: unknown): Promise<LiveCommand> => {
      const res = await fetch(`${emu.apiUrl}/applications/${emu.applicationId}${path}`, {
        method: "POST",
        headers: { authorization: `Bot ${emu.botToken}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(201);
      return (await res.json()) as LiveCommand;
    };
    unmanaged = [
      await post("/commands", { name: "legacy", description: "Not managed by the stack" }),
      await post(`/guilds/${G}/commands`, { name: "keep", description: "Guild, unmanaged" }),
    ];
    // Through ts-node, as users run it: the state keeps the TypeScript source's positions.
    prog = await programAgainst(emu, "lifecycle", PROGRAM, { transpiled: false });
    emu.control.resetLog();
  });

  afterAll(async () => {
    prog?.cleanup();
    await emu?.close();
  });

  const UNMANAGED_KEYS = ["global 1 legacy", `${G} 1 keep`];

  test("up creates exactly the declared set, with its content and permissions", async () => {
    await prog.up();

    expect(commandKeys(emu)).toEqual([...DECLARED, ...UNMANAGED_KEYS].sort());

    const ping = liveCommand(emu, "ping");
    expect(ping["description"]).toBe("Check that the bot is alive");
    expect(ping["description_localizations"]).toEqual({
      fr: "Vérifier que le bot répond",
      de: "Prüfen, ob der Bot antwortet",
    });
    expect(ping["contexts"]).toEqual([0, 1]);

    const settings = liveCommand(emu, "settings");
    expect(settings["name_localizations"]).toEqual({ fr: "réglages" });
    expect(settings["default_member_permissions"]).toBe(String(1 << 5));
    expect(settings["options"]).toEqual(
      asReturned([
        {
          type: 2,
          name: "notifications",
          description: "Where and how the bot notifies",
          options: [
            {
              type: 1,
              name: "channel",
              description: "Set the notification channel",
              options: [
                {
                  type: 7,
                  name: "target",
                  description: "The channel",
                  required: true,
                  channel_types: [0, 5],
                },
              ],
            },
            {
              type: 1,
              name: "level",
              description: "Set how much the bot says",
              options: [
                {
                  type: 3,
                  name: "level",
                  description: "The level",
                  required: true,
                  choices: [
                    { name: "Everything", name_localizations: { fr: "Tout" }, value: "all" },
                    { name: "Mentions only", value: "mentions" },
                  ],
                },
              ],
            },
          ],
        },
        { type: 1, name: "reset", description: "Reset every setting" },
      ]),
    );

    const profile = liveCommand(emu, "Show Profile", "global", 2);
    expect(profile["name_localizations"]).toEqual({ fr: "Voir le profil" });
    expect(profile["description"]).toBe("");

    const ban = liveCommand(emu, "ban", G);
    expect(ban["default_member_permissions"]).toBe(String(1 << 2));
    expect(ban["options"]).toEqual(
      asReturned([
        { type: 6, name: "member", description: "Who to ban", required: true },
        {
          type: 4,
          name: "days",
          description: "Days of messages to delete",
          min_value: 0,
          max_value: 7,
        },
      ]),
    );
    expect(livePermissions(emu, ban.id)).toEqual(BAN_PERMISSIONS);
    expect(livePermissions(emu, IDS.application)).toEqual(APP_PERMISSIONS);
    expect((await prog.outputs())["banId"]).toBe(ban.id);

    // Exactly one create per command and one PUT per permissions object; one list per
    // scope (read once: check counts the live commands against the limits, create looks
    // for live twins to adopt) and one of the guild's overwrites.
    expect(
      requests(emu)
        .filter((r) => r.startsWith("GET"))
        .sort(),
    ).toEqual([
      "GET listGlobalCommands commands 200",
      `GET listGuildCommandPermissions guild:${G} permissions 200`,
      `GET listGuildCommands guild:${G} commands 200`,
    ]);
    expect(writes(emu)).toEqual(
      [
        "POST createGlobalCommand commands 201",
        "POST createGlobalCommand commands 201",
        "POST createGlobalCommand commands 201",
        "POST createGlobalCommand commands 201",
        `POST createGuildCommand guild:${G} commands 201`,
        `POST createGuildCommand guild:${G} commands 201`,
        `PUT editCommandPermissions guild:${G} permissions:${ban.id} 200`,
        `PUT editCommandPermissions guild:${G} permissions:${IDS.application} 200`,
      ].sort(),
    );
  });

  test("the state keeps where the program declares each resource", async () => {
    // Resources are constructed without the SDK's per-promise debug stacks
    // (sdk/debugStacks.ts); the engine still gets each declaration's place.
    const state = JSON.parse(fs.readFileSync(prog.stateFile("dev"), "utf8")) as {
      checkpoint: {
        latest: { resources: { type: string; stackTrace?: { sourcePosition?: string }[] }[] };
      };
    };
    const ours = state.checkpoint.latest.resources.filter((r) => r.type.includes("discord:"));
    expect(ours).toHaveLength(RESOURCES - 1);
    for (const r of ours) {
      const frames = (r.stackTrace ?? []).map((f) => f.sourcePosition ?? "");
      expect(frames.filter((f) => /^project:\/\/\/index\.ts#\d+,\d+$/.test(f))).toHaveLength(1);
    }
  });

  test("a preview right after makes no change and no request at all", async () => {
    emu.control.resetLog();
    expect(await prog.previewSummary()).toEqual({ same: RESOURCES });
    // During a preview the engine calls only check and diff, which never leave the process.
    expect(requests(emu)).toEqual([]);
  });

  test("drift made out of band shows in preview --refresh and refresh, and up restores it", async () => {
    const settings = liveCommand(emu, "settings");
    const declared = structuredClone(settings);
    const options = structuredClone(settings["options"]) as {
      options: { options?: { description: string }[] }[];
    }[];
    const target = options[0]?.options[0]?.options?.[0];
    if (!target) throw new Error("settings has no nested option");
    target.description = "Changed by hand"; // notifications > channel > target
    emu.control.patchCommand(settings.id, { description: "Changed out of band", options });
    expect(liveCommand(emu, "settings")["description"]).toBe("Changed out of band");

    // preview --refresh shows it as an update of that command only, naming the fields.
    const text = await prog.ok(["preview", "--refresh", "--non-interactive"]);
    expect(stepLine(text.stdout, "settings", "update")).toMatch(/\[diff: ~description,options\]/);
    expect(text.stdout).toMatch(/1 to update/);
    expect(await prog.previewSummary(["--refresh"])).toEqual({ same: RESOURCES - 1, update: 1 });

    // refresh writes the live values into state; a plain preview then shows the update.
    emu.control.resetLog();
    await prog.ok(["refresh", "--yes", "--non-interactive", "--skip-preview"]);
    expect(writes(emu)).toEqual([]);
    expect(await prog.previewSummary()).toEqual({ same: RESOURCES - 1, update: 1 });

    // up restores the declared values with one PATCH of that command, same id.
    emu.control.resetLog();
    await prog.up();
    expect(writes(emu)).toEqual([`PATCH editGlobalCommand command:${settings.id} 200`]);
    const restored = liveCommand(emu, "settings");
    expect(restored.id).toBe(settings.id);
    expect(restored["description"]).toBe(declared["description"]);
    expect(restored["options"]).toEqual(declared["options"]);
    expect(await prog.previewSummary(["--refresh"])).toEqual({ same: RESOURCES });
  });

  test("a command with permissions deleted out of band is recreated, permissions too, by up --refresh", async () => {
    const ban = liveCommand(emu, "ban", G);
    emu.control.deleteCommand(ban.id);
    expect(livePermissions(emu, ban.id)).toEqual([]);

    emu.control.resetLog();
    await prog.up(["--refresh"]);
    const recreated = liveCommand(emu, "ban", G);
    expect(recreated.id).not.toBe(ban.id);
    expect(livePermissions(emu, recreated.id)).toEqual(BAN_PERMISSIONS);
    expect((await prog.outputs())["banId"]).toBe(recreated.id);
    // Refresh: the three lists, then the permissions object that is not in its list: the
    // command is gone (404), so the permissions resource is dropped and created again.
    // The recreated command's check reads the guild's list too (the limits), from the
    // refresh's copy unless that is older than discord:readCacheMs (a slow machine).
    expect([...new Set(requests(emu).filter((r) => r.startsWith("GET")))].sort()).toEqual(
      [
        "GET listGlobalCommands commands 200",
        `GET listGuildCommands guild:${G} commands 200`,
        `GET listGuildCommandPermissions guild:${G} permissions 200`,
        `GET getCommandPermissions guild:${G} permissions:${ban.id} 404`,
      ].sort(),
    );
    expect(writes(emu)).toEqual(
      [
        `POST createGuildCommand guild:${G} commands 201`,
        `PUT editCommandPermissions guild:${G} permissions:${recreated.id} 200`,
      ].sort(),
    );
    expect(await prog.previewSummary()).toEqual({ same: RESOURCES });
  });

  test("destroy removes what the stack created and leaves unmanaged commands untouched", async () => {
    const managed = liveCommands(emu).filter((c) => !unmanaged.some((u) => u.id === c.id));
    const banId = liveCommand(emu, "ban", G).id;
    emu.control.resetLog();
    await prog.destroy();

    // Only the unmanaged commands are left, with the id and version they were made with.
    expect(commandKeys(emu)).toEqual([...UNMANAGED_KEYS].sort());
    for (const before of unmanaged) {
      const after = liveCommands(emu).find((c) => c.id === before.id);
      expect(after?.version).toBe(before.version);
    }
    // The permissions resources emptied their lists (the application-wide one too).
    expect(emu.control.state().permissions).toEqual([]);
    // One DELETE per managed command, one PUT (of an empty list) per permissions object.
    expect(writes(emu)).toEqual(
      [
        ...managed.map((c) =>
          typeof c["guild_id"] === "string"
            ? `DELETE deleteGuildCommand guild:${G} command:${c.id} 204`
            : `DELETE deleteGlobalCommand command:${c.id} 204`,
        ),
        `PUT editCommandPermissions guild:${G} permissions:${banId} 200`,
        `PUT editCommandPermissions guild:${G} permissions:${IDS.application} 200`,
      ].sort(),
    );
    // A command's permissions are emptied before the command is deleted (dependents first).
    const order = requests(emu);
    expect(order.findIndex((r) => r.includes(`permissions:${banId}`))).toBeLessThan(
      order.findIndex((r) => r.includes(`command:${banId}`)),
    );
    const state = JSON.parse(fs.readFileSync(prog.stateFile("dev"), "utf8")) as {
      checkpoint: { latest: { resources?: unknown[] } };
    };
    expect(state.checkpoint.latest.resources ?? []).toHaveLength(0);
  });
});
