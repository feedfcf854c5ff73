/**
 * Who may use a command (`canUse`, and invocations through the same rules): one test per
 * rule of emulator/interactions/access.ts, each built so that breaking the rule flips
 * its verdict.
 */
import type { RunningEmulator } from "../../emulator";
import { allChannels, PermissionFlags } from "../../provider/schema";
import type { Api } from "./helpers";
import { rec, slash, start, str } from "./helpers";

const APP = "1400000000000000001";
const G = "1400000000000000010";
const ROLE = {
  admin: "1400000000000000021",
  mod: "1400000000000000022",
  plain: "1400000000000000023",
  extra: "1400000000000000024",
};
const U = {
  owner: "1400000000000000031",
  admin: "1400000000000000032",
  mod: "1400000000000000033",
  plain: "1400000000000000034",
  both: "1400000000000000035",
  adult: "1400000000000000036",
  outsider: "1400000000000000037",
};
const C = {
  general: "1400000000000000041",
  other: "1400000000000000042",
  thread: "1400000000000000043",
  nsfw: "1400000000000000044",
  nsfwThread: "1400000000000000045",
  readOnly: "1400000000000000046",
};
const EVERYONE_BITS = String(
  PermissionFlags.VIEW_CHANNEL |
    PermissionFlags.SEND_MESSAGES |
    PermissionFlags.USE_APPLICATION_COMMANDS |
    PermissionFlags.SEND_MESSAGES_IN_THREADS,
);

let emu: RunningEmulator;
let api: Api;

beforeAll(async () => {
  ({ emu, api } = await start({
    config: {
      applications: [
        { id: APP, botToken: "bot-access", clientSecret: "s", installationContexts: [0, 1] },
      ],
      users: [
        ...Object.entries(U).map(([name, id]) => ({
          id,
          username: name,
          ageVerified: name === "adult",
        })),
      ],
      guilds: [
        {
          id: G,
          ownerId: U.owner,
          roles: [
            { id: G, name: "@everyone", permissions: EVERYONE_BITS },
            { id: ROLE.admin, permissions: String(PermissionFlags.ADMINISTRATOR) },
            { id: ROLE.mod, permissions: String(PermissionFlags.MANAGE_GUILD) },
            { id: ROLE.plain },
            { id: ROLE.extra },
          ],
          channels: [
            { id: C.general, type: 0 },
            { id: C.other, type: 0 },
            { id: C.thread, type: 11, parentId: C.general },
            { id: C.nsfw, type: 0, nsfw: true },
            { id: C.nsfwThread, type: 11, parentId: C.nsfw },
            {
              id: C.readOnly,
              type: 0,
              permissionOverwrites: [
                { id: G, type: 0, deny: String(PermissionFlags.SEND_MESSAGES) },
              ],
            },
          ],
          members: [
            { userId: U.admin, roles: [ROLE.admin] },
            { userId: U.mod, roles: [ROLE.mod] },
            { userId: U.plain, roles: [ROLE.plain] },
            { userId: U.both, roles: [ROLE.plain, ROLE.extra] },
            { userId: U.adult, roles: [] },
          ],
          authorizedApplications: [APP],
        },
      ],
    },
  }));
});
afterAll(() => emu.close());
beforeEach(() => emu.control.reset());

async function create(body: Record<string, unknown>, guild = false): Promise<string> {
  const path = `/applications/${APP}${guild ? `/guilds/${G}` : ""}/commands`;
  const r = await api.post(path, body, { auth: "Bot bot-access" });
  expect([200, 201]).toContain(r.status);
  return str(rec(r.body)["id"]);
}

function overwrite(
  target: string,
  permissions: { id: string; type: number; permission: boolean }[],
) {
  emu.control.setPermissions(APP, G, target, permissions);
}

function can(
  userId: string,
  commandId: string,
  channelId: string = C.general,
  extra: Record<string, unknown> = {},
) {
  return emu.canUse({ applicationId: APP, guildId: G, channelId, userId, commandId, ...extra });
}
const usable = (userId: string, commandId: string, channelId?: string) =>
  can(userId, commandId, channelId).usable;

const ROLE_T = 1;
const USER_T = 2;
const CHANNEL_T = 3;

test("the guild owner can use a command that everyone else is denied", async () => {
  const id = await create(slash("locked", { default_member_permissions: "0" }));
  overwrite(id, [{ id: G, type: ROLE_T, permission: false }]);
  expect(can(U.owner, id)).toMatchObject({
    visible: true,
    usable: true,
    reason: "the guild owner can use every command",
  });
  expect(usable(U.plain, id)).toBe(false);
});

test("members with Administrator can use a command that everyone else is denied", async () => {
  const id = await create(slash("locked", { default_member_permissions: "0" }));
  overwrite(id, [{ id: U.admin, type: USER_T, permission: false }]);
  expect(can(U.admin, id)).toMatchObject({
    usable: true,
    reason: "members with Administrator can use every command",
  });
  expect(usable(U.mod, id)).toBe(false);
});

test("a user overwrite comes before the user's roles", async () => {
  const id = await create(slash("cmd"));
  overwrite(id, [
    { id: ROLE.plain, type: ROLE_T, permission: true },
    { id: U.plain, type: USER_T, permission: false },
  ]);
  expect(can(U.plain, id)).toMatchObject({
    visible: false,
    usable: false,
    reason: "the command's overwrites deny the user",
  });
  expect(usable(U.both, id)).toBe(true);
  overwrite(id, [
    { id: ROLE.plain, type: ROLE_T, permission: false },
    { id: U.plain, type: USER_T, permission: true },
  ]);
  expect(usable(U.plain, id)).toBe(true);
  expect(usable(U.both, id)).toBe(false);
});

test("role overwrites come before @everyone, and an allowing role wins over a denying one", async () => {
  const id = await create(slash("cmd"));
  overwrite(id, [
    { id: G, type: ROLE_T, permission: false },
    { id: ROLE.extra, type: ROLE_T, permission: true },
    { id: ROLE.plain, type: ROLE_T, permission: false },
  ]);
  expect(can(U.both, id)).toMatchObject({
    usable: true,
    reason: "the command's overwrites allow one of the user's roles",
  });
  expect(can(U.plain, id).reason).toBe("the command's overwrites deny the user's roles");
  expect(can(U.mod, id)).toMatchObject({
    usable: false,
    reason: "the command's overwrites deny @everyone",
  });
});

test("a channel overwrite denies the command in that channel only", async () => {
  const id = await create(slash("cmd"));
  overwrite(id, [{ id: C.other, type: CHANNEL_T, permission: false }]);
  expect(can(U.plain, id, C.other)).toMatchObject({
    visible: false,
    reason: `the command's overwrites deny the channel (${C.other})`,
  });
  expect(usable(U.plain, id, C.general)).toBe(true);
});

test("a thread follows its parent channel's overwrite", async () => {
  const id = await create(slash("cmd"));
  overwrite(id, [{ id: C.general, type: CHANNEL_T, permission: false }]);
  expect(can(U.plain, id, C.thread).reason).toBe(
    `the command's overwrites deny the thread's parent channel (${C.general})`,
  );
  expect(usable(U.plain, id, C.other)).toBe(true);
});

test("All Channels (guild id - 1) applies where no channel overwrite does", async () => {
  const id = await create(slash("cmd"));
  overwrite(id, [
    { id: allChannels(G), type: CHANNEL_T, permission: false },
    { id: C.general, type: CHANNEL_T, permission: true },
  ]);
  expect(usable(U.plain, id, C.general)).toBe(true);
  expect(usable(U.plain, id, C.thread)).toBe(true);
  expect(can(U.plain, id, C.other).reason).toBe(
    `the command's overwrites deny All Channels (${allChannels(G)})`,
  );
});

test("application-wide overwrites apply to commands without their own, and only to those", async () => {
  const synced = await create(slash("synced"));
  const custom = await create(slash("custom"));
  overwrite(APP, [{ id: U.plain, type: USER_T, permission: false }]);
  overwrite(custom, [{ id: ROLE.mod, type: ROLE_T, permission: true }]);
  expect(can(U.plain, synced)).toMatchObject({
    usable: false,
    reason: "the application-wide overwrites deny the user",
  });
  expect(usable(U.plain, custom)).toBe(true);
  expect(usable(U.mod, synced)).toBe(true);
});

test("default_member_permissions against the member's permissions; an overwrite allowing the user overrides it", async () => {
  const id = await create(
    slash("manage", { default_member_permissions: String(PermissionFlags.MANAGE_GUILD) }),
  );
  expect(usable(U.mod, id)).toBe(true);
  expect(can(U.plain, id).reason).toContain(
    `default_member_permissions ${PermissionFlags.MANAGE_GUILD} requires`,
  );
  const zero = await create(slash("zero", { default_member_permissions: "0" }));
  expect(usable(U.mod, zero)).toBe(false);
  overwrite(zero, [{ id: U.plain, type: USER_T, permission: true }]);
  expect(usable(U.plain, zero)).toBe(true);
});

test("age-restricted commands: age-verified users only, in age-restricted channels (threads follow their parent)", async () => {
  const id = await create(slash("adult", { nsfw: true }));
  expect(can(U.plain, id, C.nsfw).reason).toBe(
    "age-restricted (nsfw) command: the user is not age-verified",
  );
  expect(can(U.adult, id, C.general).reason).toBe(
    "age-restricted (nsfw) command: the channel is not age-restricted",
  );
  expect(usable(U.adult, id, C.nsfw)).toBe(true);
  expect(usable(U.adult, id, C.nsfwThread)).toBe(true);
  // Not even the owner bypasses the age restriction.
  expect(usable(U.owner, id, C.general)).toBe(false);
});

test("BOT_DM: only global commands whose contexts include it", async () => {
  const guildCommand = await create(slash("guildonly"), true);
  const guildOnly = await create(slash("inguilds", { contexts: [0] }));
  const dm = await create(slash("indms", { contexts: [0, 1] }));
  const inDm = (commandId: string) =>
    emu.canUse({
      applicationId: APP,
      channelId: "1400000000000000099",
      userId: U.plain,
      commandId,
    });
  expect(inDm(guildCommand)).toMatchObject({
    usable: false,
    reason: "guild commands exist only in their guild, never in DMs",
  });
  expect(inDm(guildOnly).usable).toBe(false);
  expect(inDm(dm).usable).toBe(true);
  // A guild command is visible in its guild.
  expect(usable(U.plain, guildCommand)).toBe(true);
});

test("PRIVATE_CHANNEL: only for commands installed to users (USER_INSTALL)", async () => {
  const guildInstall = await create(slash("g", { contexts: [0, 1, 2], integration_types: [0] }));
  const userInstall = await create(slash("u", { contexts: [0, 1, 2], integration_types: [0, 1] }));
  const inGroupDm = (commandId: string) =>
    emu.canUse({
      applicationId: APP,
      channelId: "1400000000000000098",
      userId: U.plain,
      commandId,
      context: 2,
    });
  expect(inGroupDm(guildInstall).reason).toContain("integration_types lack USER_INSTALL (1)");
  expect(inGroupDm(userInstall).usable).toBe(true);
});

test("a USER command needs permission to send messages in the channel, else Permission Denied", async () => {
  const id = await create({ type: 2, name: "Profile" });
  expect(can(U.plain, id, C.readOnly)).toMatchObject({ visible: true, usable: false });
  expect(can(U.plain, id, C.readOnly).reason).toMatch(/^Permission Denied/);
  expect(usable(U.plain, id, C.general)).toBe(true);
  const invoked = await emu.invoke({
    applicationId: APP,
    guildId: G,
    channelId: C.readOnly,
    userId: U.plain,
    commandId: id,
    targetId: U.mod,
  });
  expect(invoked).toMatchObject({ outcome: "denied", interaction: null });
  expect(invoked.reason).toMatch(/^Permission Denied/);
  // A slash command is not subject to it.
  const slashId = await create(slash("say"));
  expect(usable(U.plain, slashId, C.readOnly)).toBe(true);
});

test("can-use over HTTP; a user outside the guild sees nothing; unknown names are 404", async () => {
  const id = await create(slash("cmd"));
  const r = await api.post("/__emulator/interactions/can-use", {
    applicationId: APP,
    guildId: G,
    channelId: C.general,
    userId: U.plain,
    name: "cmd",
  });
  expect(r.status).toBe(200);
  expect(r.body).toEqual({
    visible: true,
    usable: true,
    commandId: id,
    reason: expect.any(String),
  });
  expect(can(U.outsider, id)).toMatchObject({
    visible: false,
    reason: `user ${U.outsider} is not a member of guild ${G}`,
  });
  const missing = await api.post("/__emulator/interactions/can-use", {
    applicationId: APP,
    guildId: G,
    channelId: C.general,
    userId: U.plain,
    name: "nope",
  });
  expect(missing.status).toBe(404);
  const bad = await api.post("/__emulator/interactions/can-use", { channelId: C.general });
  expect(bad.status).toBe(400);
});
