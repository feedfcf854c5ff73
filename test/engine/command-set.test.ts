/**
 * `CommandSet` through the real `pulumi` CLI against the emulator (TypeScript program, the
 * dynamic door): one declaration deployed to guild A, then also to guild B; a definition
 * changed in both (one PATCH per guild, nothing else); guild A removed (only the set's
 * commands go); the bad inputs of a set failing the preview with the set's name, through
 * both ways they reach the engine (a definition twice: the scope children's check; a guild
 * twice: the component's constructor); destroy keeping every command the stack does not
 * manage. (A rename in a set is test/provider/scopeCommands.test.ts, its permissions
 * written again on the new id test/engine/lifecycle-replace.test.ts; permissions naming a
 * command the set does not declare, and the other bad inputs, are
 * test/provider/commandSetPlan.test.ts.)
 *
 * One emulator and one program (stack `dev`) for the file: each test continues from the
 * state the previous one left, in order.
 */
import type { RunningEmulator } from "../../emulator";
import type { PulumiProgram } from "../../scripts/pulumiProgram";
import {
  commandKeys,
  IDS,
  liveCommand,
  livePermissions,
  programAgainst,
  writes,
  twoGuildEmulator,
} from "./lifecycle.helpers";

jest.setTimeout(240_000);

const A = IDS.guild;
const B = "1300000000000000012";
const PERMISSIONS = [{ id: IDS.role, type: 1, permission: true }];

interface Phase {
  readonly guilds: readonly string[];
  readonly kickDescription: string;
  readonly ban: string;
  /** Extra definitions (bad input). */
  readonly extra?: string;
}

function program(p: Phase): string {
  const scopes = p.guilds.map((g) => `{ guildId: ${JSON.stringify(g)} }`).join(", ");
  return `
import * as discord from "pulumi-discord-commands";

new discord.CommandSet("mods", {
  commands: [
    { name: ${JSON.stringify(p.ban)}, description: "Remove a member", options: [
      { type: discord.OptionType.USER, name: "member", description: "Who", required: true },
    ] },
    { name: "kick", description: ${JSON.stringify(p.kickDescription)} },
    { type: discord.CommandType.USER, name: "Info", contexts: [0] },
    ${p.extra ?? ""}
  ],
  scopes: [${scopes}],
  permissions: ${
    p.guilds.includes(A)
      ? `[{ guildId: ${JSON.stringify(A)}, command: ${JSON.stringify(p.ban)}, permissions: ${JSON.stringify(PERMISSIONS)} }]`
      : "[]"
  },
});
`;
}

describe("engine: CommandSet", () => {
  let emu: RunningEmulator;
  let prog: PulumiProgram;
  const START: Phase = { guilds: [A], kickDescription: "Kick a member", ban: "ban" };

  beforeAll(async () => {
    // A command of each guild that another tool made: never touched.
    emu = await twoGuildEmulator(A, B);
    prog = await programAgainst(emu, "command-set", program(START));
  });

  afterAll(async () => {
    prog?.cleanup();
    await emu?.close();
  });

  test("deploys the set to guild A in one PUT, permissions included; a second up writes nothing", async () => {
    emu.control.resetLog();
    await prog.up();
    expect(commandKeys(emu)).toEqual(
      [`${A} 1 ban`, `${A} 1 kick`, `${A} 2 Info`, `${A} 1 not-ours`, `${B} 1 not-ours`].sort(),
    );
    const ban = liveCommand(emu, "ban", A);
    expect(livePermissions(emu, ban.id)).toEqual(PERMISSIONS);
    expect(writes(emu)).toEqual(
      [
        `PUT bulkOverwriteGuildCommands guild:${A} commands 200`,
        `PUT editCommandPermissions guild:${A} permissions:${ban.id} 200`,
      ].sort(),
    );
    // A guild's copy leaves out the global-only fields (contexts), as the service would.
    expect(liveCommand(emu, "Info", A, 2)["contexts"]).toBeUndefined();

    emu.control.resetLog();
    await prog.up();
    expect(writes(emu)).toEqual([]);
  });

  test("adding guild B creates B's copy in one PUT and keeps B's own command", async () => {
    prog.write({ "index.ts": program({ ...START, guilds: [A, B] }) });
    expect(await prog.previewSummary()).toMatchObject({ create: 1 });
    emu.control.resetLog();
    await prog.up();
    expect(writes(emu)).toEqual([`PUT bulkOverwriteGuildCommands guild:${B} commands 200`]);
    expect(commandKeys(emu).filter((k) => k.startsWith(B))).toEqual(
      [`${B} 1 ban`, `${B} 1 kick`, `${B} 2 Info`, `${B} 1 not-ours`].sort(),
    );
  });

  test("one definition changed: the preview names the command and field per guild; one PATCH per guild", async () => {
    const changed: Phase = { ...START, guilds: [A, B], kickDescription: "Kick someone out" };
    prog.write({ "index.ts": program(changed) });
    const preview = await prog.ok(["preview", "--diff", "--non-interactive"]);
    expect(preview.stdout).toMatch(/mods-1300000000000000002/);
    expect(preview.stdout).toMatch(/mods-1300000000000000012/);
    // The dynamic door shows the whole map, the changed command and field marked.
    const change = /~ kick\s*: \{\s+~ description: "Kick a member" => "Kick someone out"/g;
    expect(preview.stdout.match(change)?.length).toBe(2);
    // Only the two scopes change: the permissions keep their command (no replacement shown).
    expect(await prog.previewSummary()).toEqual({ same: 3, update: 2 });
    emu.control.resetLog();
    await prog.up();
    const kickA = liveCommand(emu, "kick", A);
    const kickB = liveCommand(emu, "kick", B);
    expect(writes(emu)).toEqual(
      [
        `PATCH editGuildCommand guild:${A} command:${kickA.id} 200`,
        `PATCH editGuildCommand guild:${B} command:${kickB.id} 200`,
      ].sort(),
    );
  });

  test("bad input fails the preview naming the set: a definition twice, a guild twice", async () => {
    const base: Phase = { guilds: [A, B], kickDescription: "Kick someone out", ban: "ban" };
    prog.write({
      "index.ts": program({ ...base, extra: `{ name: "kick", description: "Again" },` }),
    });
    const twice = await prog.run(["preview", "--non-interactive"]);
    expect(twice.code).not.toBe(0);
    expect(twice.stdout + twice.stderr).toMatch(
      /command set 'mods': commands\[3\] declares 'kick' \(type 1\) a second time/,
    );
    prog.write({ "index.ts": program({ ...base, guilds: [A, B, A] }) });
    const guildTwice = await prog.run(["preview", "--non-interactive"]);
    expect(guildTwice.code).not.toBe(0);
    expect(guildTwice.stdout + guildTwice.stderr).toMatch(
      /command set 'mods': guild 1300000000000000002 is listed twice/,
    );
  });

  test("removing guild A deletes only the set's commands there; destroy keeps what others made", async () => {
    prog.write({
      "index.ts": program({ guilds: [B], kickDescription: "Kick someone out", ban: "ban" }),
    });
    await prog.up();
    expect(commandKeys(emu).filter((k) => k.startsWith(A))).toEqual([`${A} 1 not-ours`]);
    await prog.destroy();
    expect(commandKeys(emu)).toEqual([`${A} 1 not-ours`, `${B} 1 not-ours`]);
  });
});
