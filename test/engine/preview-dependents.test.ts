/**
 * Engine: what a preview says about the resources that depend on a command (issue 17).
 * In the preview of an in-place update the engine knows a command's `id` but none of the
 * outputs its provider sets; a `GuildCommandPermissions` that takes the command's id must
 * not show a replacement that `up` will not make. Covered: `commandId` (the README's
 * usage), `id`, and `applicationId` taken from the command, for a guild and a global
 * command, changed in the program or out of band (`preview --refresh`). (A rename, which
 * replaces the command and its permissions, is test/engine/lifecycle-replace.test.ts.)
 *
 * One emulator and one program (stack `dev`): each test continues from the last.
 */
import { startEmulator } from "../../emulator";
import type { RunningEmulator } from "../../emulator";
import type { PulumiProgram } from "../../scripts/pulumiProgram";
import {
  IDS,
  liveCommand,
  livePermissions,
  programAgainst,
  requests,
  writes,
} from "./lifecycle.helpers";

jest.setTimeout(240_000);

const G = IDS.guild;
const BAN_PERMISSIONS = [
  { id: IDS.role, type: 1, permission: true },
  { id: IDS.channel, type: 3, permission: false },
];
const PING_PERMISSIONS = [{ id: IDS.user, type: 2, permission: true }];

interface Declared {
  readonly banName: string;
  readonly banDescription: string;
  readonly pingDescription: string;
}

const START: Declared = {
  banName: "ban",
  banDescription: "Ban a member",
  pingDescription: "Check that the bot is alive",
};

function program(d: Declared): string {
  return `
import * as discord from "pulumi-discord-commands";

const guildId = ${JSON.stringify(G)};
const ban = new discord.GuildCommand("ban", {
  guildId,
  name: ${JSON.stringify(d.banName)},
  description: ${JSON.stringify(d.banDescription)},
  options: [{ type: discord.OptionType.USER, name: "member", description: "Who", required: true }],
});
// The README's usage: the command's \`commandId\`.
new discord.GuildCommandPermissions("ban-permissions", {
  guildId,
  commandId: ban.commandId,
  permissions: ${JSON.stringify(BAN_PERMISSIONS)},
});

const ping = new discord.GlobalCommand("ping", {
  name: "ping",
  description: ${JSON.stringify(d.pingDescription)},
});
// A global command's overwrites in one guild, with the id and the application taken
// from the command's other outputs.
new discord.GuildCommandPermissions("ping-permissions", {
  guildId,
  commandId: ping.id,
  applicationId: ping.applicationId,
  permissions: ${JSON.stringify(PING_PERMISSIONS)},
});

export const banId = ban.commandId;
export const pingId = ping.commandId;
`;
}

/** Resources in the stack: the stack itself, 2 commands, 2 permission objects. */
const RESOURCES = 5;

interface PreviewStep {
  op: string;
  urn: string;
}

/**
 * `op name` of every step of a `preview --json` that changes something, sorted (with
 * `--refresh`, the JSON also lists a `refresh` step for every resource read).
 */
async function changedSteps(prog: PulumiProgram, extra: string[] = []): Promise<string[]> {
  const res = await prog.ok(["preview", "--json", "--non-interactive", ...extra]);
  const parsed = JSON.parse(res.stdout) as { steps?: PreviewStep[] };
  return (parsed.steps ?? [])
    .filter((s) => s.op !== "same" && s.op !== "refresh")
    .map((s) => `${s.op} ${s.urn.split("::").pop() ?? s.urn}`)
    .sort();
}

describe("engine: a command's in-place update leaves the resources that take its id alone", () => {
  let emu: RunningEmulator;
  let prog: PulumiProgram;

  beforeAll(async () => {
    emu = await startEmulator({ port: 0, rateLimits: false });
    prog = await programAgainst(emu, "dependents", program(START));
    await prog.up();
    expect(livePermissions(emu, liveCommand(emu, "ban", G).id)).toEqual(BAN_PERMISSIONS);
    expect(livePermissions(emu, liveCommand(emu, "ping").id)).toEqual(PING_PERMISSIONS);
  });

  afterAll(async () => {
    prog?.cleanup();
    await emu?.close();
  });

  test("a guild and a global command's descriptions changed in the program: one update each, in preview and preview --refresh", async () => {
    const ban = liveCommand(emu, "ban", G);
    const ping = liveCommand(emu, "ping");
    const declared: Declared = {
      ...START,
      banDescription: "Remove a member for good",
      pingDescription: "Is the bot there?",
    };
    prog.write({ "index.ts": program(declared) });

    expect(await changedSteps(prog)).toEqual(["update ban", "update ping"]);
    expect(await changedSteps(prog, ["--refresh"])).toEqual(["update ban", "update ping"]);
    // The text a reviewer reads names no replacement either.
    const text = await prog.ok(["preview", "--non-interactive"]);
    expect(text.stdout).not.toMatch(/replace/);
    expect(text.stdout).toMatch(/2 to update/);

    emu.control.resetLog();
    await prog.up();
    expect([...writes(emu)].sort()).toEqual(
      [
        `PATCH editGuildCommand guild:${G} command:${ban.id} 200`,
        `PATCH editGlobalCommand command:${ping.id} 200`,
      ].sort(),
    );
    expect(livePermissions(emu, ban.id)).toEqual(BAN_PERMISSIONS);
    expect(livePermissions(emu, ping.id)).toEqual(PING_PERMISSIONS);
    expect(await prog.outputs()).toEqual({ banId: ban.id, pingId: ping.id });
    expect(await prog.previewSummary()).toEqual({ same: RESOURCES });
  });

  test("commands changed out of band: preview --refresh shows their updates and nothing else", async () => {
    const ban = liveCommand(emu, "ban", G);
    const ping = liveCommand(emu, "ping");
    emu.control.patchCommand(ban.id, { description: "Edited in the portal" });
    emu.control.patchCommand(ping.id, { nsfw: true });

    emu.control.resetLog();
    expect(await changedSteps(prog, ["--refresh"])).toEqual(["update ban", "update ping"]);
    expect(writes(emu)).toEqual([]);

    emu.control.resetLog();
    await prog.up(["--refresh"]);
    expect(
      requests(emu)
        .filter((r) => !r.startsWith("GET"))
        .sort(),
    ).toEqual(
      [
        `PATCH editGuildCommand guild:${G} command:${ban.id} 200`,
        `PATCH editGlobalCommand command:${ping.id} 200`,
      ].sort(),
    );
    expect(liveCommand(emu, "ban", G)["description"]).toBe("Remove a member for good");
    expect(liveCommand(emu, "ping")["nsfw"]).toBe(false);
    expect(livePermissions(emu, ban.id)).toEqual(BAN_PERMISSIONS);
  });
});
