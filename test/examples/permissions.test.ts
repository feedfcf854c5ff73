/**
 * examples/permissions through the CLI: overwrites for a role, a user and a channel, the
 * @everyone and All Channels constants, and the app-wide defaults, written with the
 * Bearer token from stack config; destroy empties them.
 */
import type { RunningEmulator } from "../../emulator";
import type { LivePermissions } from "./helpers";
import type { PulumiProgram } from "../../scripts/pulumiProgram";
import {
  emulator,
  liveCommands,
  livePermissions as permissionsOf,
  PERMISSIONS_EXAMPLE_IDS,
  permissionsExample,
} from "./helpers";

jest.setTimeout(300_000);

const { role: ROLE, user: USER, channel: CHANNEL } = PERMISSIONS_EXAMPLE_IDS;

describe("examples/permissions", () => {
  let emu: RunningEmulator;
  let prog: PulumiProgram;

  const livePermissions = () => permissionsOf(emu);

  beforeAll(async () => {
    emu = await emulator();
    prog = await permissionsExample(emu, {
      "discord:botToken": emu.botToken,
      "discord:bearerToken": emu.userBearerToken,
    });
  });
  afterAll(async () => {
    prog.cleanup();
    await emu.close();
  });

  test("up writes the overwrites of both commands and the app-wide defaults", async () => {
    expect([ROLE, USER, CHANNEL]).toEqual([
      emu.config.guilds[0]?.roles[0]?.id,
      emu.userId,
      emu.config.guilds[0]?.channels[0]?.id,
    ]);
    await prog.up();
    const ids = Object.fromEntries(liveCommands(emu).map((c) => [c.name, c.id]));
    const byTarget = Object.fromEntries(livePermissions().map((p) => [p.id, p]));
    const sorted = (p: LivePermissions | undefined) =>
      [...(p?.permissions ?? [])].sort((a, b) => a.id.localeCompare(b.id));
    const everyone = emu.guildId;
    const allChannels = (BigInt(emu.guildId) - 1n).toString();
    expect(sorted(byTarget[ids["ban"] ?? ""])).toEqual(
      [
        { id: everyone, type: 1, permission: false },
        { id: ROLE, type: 1, permission: true },
        { id: USER, type: 2, permission: true },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
    expect(sorted(byTarget[ids["poll"] ?? ""])).toEqual(
      [
        { id: allChannels, type: 3, permission: false },
        { id: CHANNEL, type: 3, permission: true },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
    expect(sorted(byTarget[emu.applicationId])).toEqual([{ id: ROLE, type: 1, permission: true }]);
    expect(livePermissions().every((p) => p.guild_id === emu.guildId)).toBe(true);
  });

  test("destroy empties every list and deletes the commands", async () => {
    await prog.destroy();
    expect(livePermissions().filter((p) => p.permissions.length > 0)).toEqual([]);
    expect(liveCommands(emu)).toEqual([]);
  });
});
