/**
 * Engine lifecycle, part 2: replacements through the real `pulumi` CLI against the
 * in-process emulator. A rename makes a new command and applies its permissions again;
 * a swap of two names converges without deleting a live command; a type change and a
 * scope change are replacements; a description change is one PATCH of the same id.
 * Assertions read the emulator's state and its request log.
 *
 * One emulator (two guilds) and one program (stack `dev`) for the whole file: each test
 * rewrites the program and continues from the state the previous one left, in order.
 */
import { DEFAULTS, startEmulator } from "../../emulator";
import type { RunningEmulator } from "../../emulator";
import type { PulumiProgram } from "../../scripts/pulumiProgram";
import type { LiveCommand } from "./lifecycle.helpers";
import {
  commandKeys,
  IDS,
  liveCommand,
  liveCommands,
  livePermissions,
  programAgainst,
  requests,
  stepLine,
  writes,
  moderatedGuild,
} from "./lifecycle.helpers";

jest.setTimeout(180_000);

const A = IDS.guild;
const B = "1300000000000000012";

const PERMISSIONS = [
  { id: IDS.role, type: 1, permission: true },
  { id: IDS.user, type: 2, permission: true },
  { id: IDS.channel, type: 3, permission: false },
];

/** What changes from one step to the next; everything else is declared the same. */
interface Phase {
  /** Names of resources `a` and `b` (swapped in one step). */
  readonly a: string;
  readonly b: string;
  /** Name of the guild command `ban` (renamed in one step). */
  readonly ban: string;
  /** `inspect`: a slash command, then a user command of the same name. */
  readonly inspectType: 1 | 2;
  /** The guild of `echo` (moves from guild A to guild B). */
  readonly echoGuild: string;
  /** `status`: a global command, then a guild command (a new resource type). */
  readonly statusScope: "global" | "guild";
  readonly helpDescription: string;
  /** Whether the program declares the global command `legacy` (removed in one step). */
  readonly legacy: boolean;
}

const START: Phase = {
  a: "alpha",
  b: "beta",
  ban: "ban",
  inspectType: 1,
  echoGuild: A,
  statusScope: "global",
  helpDescription: "Show help",
  legacy: true,
};

function program(p: Phase): string {
  const inspect =
    p.inspectType === 1
      ? `{ name: "inspect", description: "Inspect something" }`
      : `{ type: discord.CommandType.USER, name: "inspect" }`;
  const status =
    p.statusScope === "global"
      ? `new discord.GlobalCommand("status", { name: "status", description: "Show the status" });`
      : `new discord.GuildCommand("status", { guildId: ${JSON.stringify(A)}, name: "status", description: "Show the status" });`;
  return `
import * as discord from "pulumi-discord-commands";

const { OptionType } = discord;

new discord.GlobalCommand("a", { name: ${JSON.stringify(p.a)}, description: "Command a" });
new discord.GlobalCommand("b", {
  name: ${JSON.stringify(p.b)},
  description: "Command b",
  options: [{ type: OptionType.STRING, name: "text", description: "Some text" }],
});

const ban = new discord.GuildCommand("ban", {
  guildId: ${JSON.stringify(A)},
  name: ${JSON.stringify(p.ban)},
  description: "Remove a member",
  options: [{ type: OptionType.USER, name: "member", description: "Who", required: true }],
});
new discord.GuildCommandPermissions("ban-permissions", {
  guildId: ${JSON.stringify(A)},
  commandId: ban.commandId,
  permissions: ${JSON.stringify(PERMISSIONS)},
});
new discord.GuildCommand("other", { guildId: ${JSON.stringify(A)}, name: "other", description: "Never changes" });

new discord.GlobalCommand("inspect", ${inspect});
new discord.GuildCommand("echo", { guildId: ${JSON.stringify(p.echoGuild)}, name: "echo", description: "Say it back" });
${status}
new discord.GlobalCommand("help", { name: "help", description: ${JSON.stringify(p.helpDescription)} });
${p.legacy ? `new discord.GlobalCommand("legacy", { name: "legacy", description: "On its way out" });` : ""}
`;
}

/** `id version` of every live command, by id: what "untouched" compares. */
function idsAndVersions(emu: RunningEmulator): Map<string, string> {
  return new Map(liveCommands(emu).map((c) => [c.id, c.version]));
}

/** Resources in the stack: the stack itself, 9 commands, 1 permissions object. */
const RESOURCES = 11;

describe("engine lifecycle: replacements", () => {
  let emu: RunningEmulator;
  let prog: PulumiProgram;

  beforeAll(async () => {
    emu = await startEmulator({
      port: 0,
      rateLimits: false,
      config: {
        // The default guild (roles, channel, the permissions-editing member) plus guild B.
        guilds: [
          moderatedGuild(A),
          { id: B, name: "Second Guild", authorizedApplications: [DEFAULTS.applicationId] },
        ],
      },
    });
    prog = await programAgainst(emu, "lifecycle-replace", program(START));
    await prog.up();
    expect(commandKeys(emu)).toEqual(
      [
        "global 1 alpha",
        "global 1 beta",
        "global 1 inspect",
        "global 1 status",
        "global 1 help",
        "global 1 legacy",
        `${A} 1 ban`,
        `${A} 1 other`,
        `${A} 1 echo`,
      ].sort(),
    );
    expect(livePermissions(emu, liveCommand(emu, "ban", A).id)).toEqual(PERMISSIONS);
  });

  afterAll(async () => {
    prog?.cleanup();
    await emu?.close();
  });

  test("a rename is a replacement: new id, permissions applied again, old command deleted", async () => {
    const old = liveCommand(emu, "ban", A);
    const before = idsAndVersions(emu);
    const renamed: Phase = { ...START, ban: "kick" };
    prog.write({ "index.ts": program(renamed) });

    // The permissions resource depends on the command's id, unknown until the new
    // command exists, so it is replaced too.
    expect(await prog.previewSummary()).toEqual({ same: RESOURCES - 2, replace: 2 });

    emu.control.resetLog();
    const res = await prog.up();
    expect(res.stdout).toMatch(/\+-\s+pulumi-nodejs:dynamic\/discord:GuildCommand ban replaced/);

    const kick = liveCommand(emu, "kick", A);
    expect(kick.id).not.toBe(old.id);
    expect(liveCommands(emu).some((c) => c.id === old.id)).toBe(false);
    expect(livePermissions(emu, kick.id)).toEqual(PERMISSIONS);
    expect(livePermissions(emu, old.id)).toEqual([]);

    // Exactly these writes: create the new command, put its permissions, empty the old
    // command's permissions (the old permissions resource's delete), delete the old one.
    expect(writes(emu)).toEqual(
      [
        `POST createGuildCommand guild:${A} commands 201`,
        `PUT editCommandPermissions guild:${A} permissions:${kick.id} 200`,
        `PUT editCommandPermissions guild:${A} permissions:${old.id} 200`,
        `DELETE deleteGuildCommand guild:${A} command:${old.id} 204`,
      ].sort(),
    );
    // The new command exists before the old one goes (create-before-delete).
    const order = requests(emu);
    const created = order.findIndex((r) => r.startsWith("POST"));
    const deleted = order.findIndex((r) => r.startsWith("DELETE"));
    expect(created).toBeGreaterThanOrEqual(0);
    expect(created).toBeLessThan(deleted);

    // Nothing else touched: every other command keeps its id and version.
    const after = idsAndVersions(emu);
    before.delete(old.id);
    after.delete(kick.id);
    expect(after).toEqual(before);

    expect(await prog.previewSummary()).toEqual({ same: RESOURCES });
  });

  test("a swap of two names converges without deleting a live command", async () => {
    const alpha = liveCommand(emu, "alpha");
    const beta = liveCommand(emu, "beta");
    const count = liveCommands(emu).length;
    const swapped: Phase = { ...START, ban: "kick", a: "beta", b: "alpha" };
    prog.write({ "index.ts": program(swapped) });
    expect(await prog.previewSummary()).toEqual({ same: RESOURCES - 2, replace: 2 });

    emu.control.resetLog();
    await prog.up();

    // Each create finds the other resource's command under its new name and adopts it
    // with one PATCH of the fields that differ (no POST: a create the daily budget
    // counts), and neither original is deleted: its id is the one the other create took.
    expect([...writes(emu)].sort()).toEqual(
      [
        `PATCH editGlobalCommand command:${alpha.id} 200`,
        `PATCH editGlobalCommand command:${beta.id} 200`,
      ].sort(),
    );
    expect(liveCommands(emu)).toHaveLength(count);
    const nowBeta = liveCommand(emu, "beta");
    const nowAlpha = liveCommand(emu, "alpha");
    expect(nowBeta.id).toBe(beta.id);
    expect(nowAlpha.id).toBe(alpha.id);
    expect(nowBeta["description"]).toBe("Command a");
    expect(nowBeta["options"]).toBeUndefined();
    expect(nowAlpha["description"]).toBe("Command b");
    expect(nowAlpha["options"]).toEqual([
      {
        type: 3,
        name: "text",
        description: "Some text",
        name_localizations: null,
        description_localizations: null,
      },
    ]);

    // State agrees with the service: no change, even after reading it again.
    expect(await prog.previewSummary(["--refresh"])).toEqual({ same: RESOURCES });
  });

  test("type and scope changes are replacements; a description change is one PATCH", async () => {
    const inspect = liveCommand(emu, "inspect");
    const echo = liveCommand(emu, "echo", A);
    const status = liveCommand(emu, "status");
    const help = liveCommand(emu, "help");
    const before = idsAndVersions(emu);
    const changed: Phase = {
      ...START,
      ban: "kick",
      a: "beta",
      b: "alpha",
      inspectType: 2,
      echoGuild: B,
      statusScope: "guild",
      helpDescription: "Show help, now with examples",
    };
    prog.write({ "index.ts": program(changed) });

    // `status` becomes another resource type, so the engine sees a new resource (create)
    // and an old one (delete), not a replacement of one.
    const preview = await prog.ok(["preview", "--non-interactive"]);
    // `type` was left at its default before, and a USER command has no description.
    expect(stepLine(preview.stdout, "inspect", "replace")).toMatch(/\[diff: \+type-description\]/);
    expect(stepLine(preview.stdout, "echo", "replace")).toMatch(/\[diff: ~guildId\]/);
    expect(stepLine(preview.stdout, "help", "update")).toMatch(/\[diff: ~description\]/);
    expect(await prog.previewSummary()).toEqual({
      same: RESOURCES - 4,
      replace: 2,
      update: 1,
      create: 1,
      delete: 1,
    });

    emu.control.resetLog();
    await prog.up();

    const newInspect = liveCommand(emu, "inspect", "global", 2);
    const newEcho = liveCommand(emu, "echo", B);
    const newStatus = liveCommand(emu, "status", A);
    const newHelp = liveCommand(emu, "help");
    expect(writes(emu)).toEqual(
      [
        "POST createGlobalCommand commands 201",
        `DELETE deleteGlobalCommand command:${inspect.id} 204`,
        `POST createGuildCommand guild:${B} commands 201`,
        `DELETE deleteGuildCommand guild:${A} command:${echo.id} 204`,
        `POST createGuildCommand guild:${A} commands 201`,
        `DELETE deleteGlobalCommand command:${status.id} 204`,
        `PATCH editGlobalCommand command:${help.id} 200`,
      ].sort(),
    );
    // Every new command exists before any old one goes (create-before-delete).
    const order = requests(emu);
    const lastCreate = order.map((r) => r.startsWith("POST")).lastIndexOf(true);
    const firstDelete = order.findIndex((r) => r.startsWith("DELETE"));
    expect(lastCreate).toBeLessThan(firstDelete);
    for (const [next, old] of [
      [newInspect, inspect],
      [newEcho, echo],
      [newStatus, status],
    ] satisfies [LiveCommand, LiveCommand][]) {
      expect(next.id).not.toBe(old.id);
      expect(liveCommands(emu).some((c) => c.id === old.id)).toBe(false);
    }
    expect(newInspect["description"]).toBe("");
    expect(newHelp.id).toBe(help.id);
    expect(newHelp["description"]).toBe("Show help, now with examples");

    // The rest keep their ids and versions.
    const after = idsAndVersions(emu);
    for (const c of [inspect, echo, status, help]) before.delete(c.id);
    for (const c of [newInspect, newEcho, newStatus, newHelp]) after.delete(c.id);
    expect(after).toEqual(before);

    expect(await prog.previewSummary()).toEqual({ same: RESOURCES });
  });

  test("a rename onto the name of a command removed in the same up takes it over, never deletes it", async () => {
    const beta = liveCommand(emu, "beta"); // resource `a` since the swap
    const legacy = liveCommand(emu, "legacy");
    const count = liveCommands(emu).length;
    const final: Phase = {
      ...START,
      ban: "kick",
      a: "legacy",
      b: "alpha",
      inspectType: 2,
      echoGuild: B,
      statusScope: "guild",
      helpDescription: "Show help, now with examples",
      legacy: false,
    };
    prog.write({ "index.ts": program(final) });
    expect(await prog.previewSummary()).toEqual({ same: RESOURCES - 2, replace: 1, delete: 1 });

    emu.control.resetLog();
    await prog.up();

    // `a`'s create adopts `legacy`'s command (one PATCH of the fields that differ) and
    // returns its id, so the delete of the removed resource `legacy` leaves it alone;
    // `a`'s original goes.
    expect(writes(emu)).toEqual(
      [
        `PATCH editGlobalCommand command:${legacy.id} 200`,
        `DELETE deleteGlobalCommand command:${beta.id} 204`,
      ].sort(),
    );
    expect(liveCommands(emu)).toHaveLength(count - 1);
    const now = liveCommand(emu, "legacy");
    expect(now.id).toBe(legacy.id);
    expect(now["description"]).toBe("Command a");
    expect(liveCommands(emu).some((c) => c.name === "beta")).toBe(false);
    expect(await prog.previewSummary(["--refresh"])).toEqual({ same: RESOURCES - 1 });
  });
});
