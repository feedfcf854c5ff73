/**
 * A packed `CommandSet` (`packed: true`: every scope in one `CommandSetScopes`, the
 * definitions once) through the real `pulumi` CLI against the emulator (TypeScript program,
 * the dynamic door): a set deployed per scope, then packed, keeps its commands and ids with
 * no write (the state then holds one resource and no `ScopeCommands`); deployed from empty,
 * one PUT per guild and its permissions; a definition changed shows once at its place in
 * the list and is one PATCH per guild; a command changed by hand in one guild shows as that
 * guild's drift in `preview --refresh` and the next `up` puts it back; a secret description
 * appears nowhere (state, CLI output); destroy keeps every command the stack does not manage.
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
const SECRET = "Words-only-the-moderators-know";

function program(kickDescription: string, secret = false, packed = true): string {
  return `
import * as pulumi from "@pulumi/pulumi";
import * as discord from "pulumi-discord-commands";

new discord.CommandSet("mods", {
  commands: [
    { name: "ban", description: "Remove a member" },
    { name: "kick", description: ${JSON.stringify(kickDescription)} },
    ${secret ? `{ name: "note", description: pulumi.secret(${JSON.stringify(SECRET)}) },` : ""}
  ],
  scopes: [{ guildId: ${JSON.stringify(A)} }, { guildId: ${JSON.stringify(B)} }],
  permissions: [{ guildId: ${JSON.stringify(A)}, command: "ban", permissions: ${JSON.stringify(PERMISSIONS)} }],
  packed: ${packed},
});
`;
}

describe("engine: a packed CommandSet", () => {
  let emu: RunningEmulator;
  let prog: PulumiProgram;
  const outputs: string[] = [];

  /** Every live command's id by guild and name. */
  function commandIds(): Record<string, string> {
    return Object.fromEntries(
      emu.control
        .commands()
        .map((c) => [`${String(c["guild_id"])} ${String(c["name"])}`, String(c["id"])]),
    );
  }

  /** A CLI run whose output is kept for the secrecy check at the end. */
  async function kept(args: readonly string[]): Promise<string> {
    const res = await prog.ok(args);
    outputs.push(res.stdout, res.stderr);
    return res.stdout;
  }

  beforeAll(async () => {
    // A command of each guild that another tool made: never touched.
    emu = await twoGuildEmulator(A, B);
    prog = await programAgainst(emu, "command-set-packed", program("Kick a member", false, false));
  });

  afterAll(async () => {
    prog?.cleanup();
    await emu?.close();
  });

  test("a set deployed per scope, then packed: the packed resource takes the commands over, nothing is written", async () => {
    await kept(["up", "--yes", "--non-interactive", "--skip-preview"]);
    const ban = liveCommand(emu, "ban", A);
    expect(livePermissions(emu, ban.id)).toEqual(PERMISSIONS);
    const before = commandIds();
    prog.write({ "index.ts": program("Kick a member") });
    expect(await prog.previewSummary()).toEqual({ create: 1, delete: 2, same: 3 });
    emu.control.resetLog();
    await kept(["up", "--yes", "--non-interactive", "--skip-preview"]);
    // The old scope resources' deletes leave alone what the packed one took over by name.
    expect(writes(emu)).toEqual([]);
    expect(commandIds()).toEqual(before);
    expect(livePermissions(emu, ban.id)).toEqual(PERMISSIONS);
    const state = JSON.parse(await kept(["stack", "export"])) as {
      deployment: { resources: { type: string }[] };
    };
    const types = state.deployment.resources.map((r) => r.type);
    expect(types.filter((t) => t.endsWith(":CommandSetScopes")).length).toBe(1);
    expect(types.filter((t) => t.endsWith(":ScopeCommands"))).toEqual([]);
    emu.control.resetLog();
    await kept(["up", "--yes", "--non-interactive"]);
    expect(writes(emu)).toEqual([]);
  });

  test("deployed from empty: one PUT per guild, permissions included", async () => {
    await kept(["destroy", "--yes", "--non-interactive"]);
    emu.control.resetLog();
    await kept(["up", "--yes", "--non-interactive", "--skip-preview"]);
    const ban = liveCommand(emu, "ban", A);
    expect(livePermissions(emu, ban.id)).toEqual(PERMISSIONS);
    expect(writes(emu)).toEqual(
      [
        `PUT bulkOverwriteGuildCommands guild:${A} commands 200`,
        `PUT bulkOverwriteGuildCommands guild:${B} commands 200`,
        `PUT editCommandPermissions guild:${A} permissions:${ban.id} 200`,
      ].sort(),
    );
    for (const g of [A, B]) {
      expect(commandKeys(emu).filter((k) => k.startsWith(g))).toEqual(
        [`${g} 1 ban`, `${g} 1 kick`, `${g} 1 not-ours`].sort(),
      );
    }
  });

  test("a definition changed shows once, at its place in the list; one PATCH per guild", async () => {
    prog.write({ "index.ts": program("Kick someone out") });
    const preview = await kept(["preview", "--diff", "--non-interactive"]);
    expect(preview.match(/~ description: "Kick a member" => "Kick someone out"/g)?.length).toBe(1);
    // The permissions keep their command: only the set's resource changes.
    expect(await prog.previewSummary()).toEqual({ same: 3, update: 1 });
    emu.control.resetLog();
    await kept(["up", "--yes", "--non-interactive", "--skip-preview"]);
    expect(writes(emu)).toEqual(
      [
        `PATCH editGuildCommand guild:${A} command:${liveCommand(emu, "kick", A).id} 200`,
        `PATCH editGuildCommand guild:${B} command:${liveCommand(emu, "kick", B).id} 200`,
      ].sort(),
    );
  });

  test("a command changed by hand in one guild: the refresh shows that guild's drift; up puts it back", async () => {
    const kick = liveCommand(emu, "kick", B);
    emu.control.patchCommand(kick.id, { description: "Changed by hand" });
    const preview = await kept(["preview", "--refresh", "--diff", "--non-interactive"]);
    // The refresh finds it, and the update shows it under the scope that drifted, as the
    // live values it puts back.
    const [refresh, update] = preview.split("(update)") as [string, string];
    expect(refresh).toMatch(/\+ drift\s*: \{\s*\+ kick: \{\s*\+ description: "Changed by hand"/);
    expect(update).toMatch(
      new RegExp(
        `~ \\[1\\]: \\{\\s*- drift\\s*: \\{\\s*- kick: \\{\\s*- description: "Changed by hand"[\\s\\S]*guildId: "${B}"`,
      ),
    );
    emu.control.resetLog();
    await kept(["up", "--refresh", "--yes", "--non-interactive", "--skip-preview"]);
    expect(writes(emu)).toEqual([`PATCH editGuildCommand guild:${B} command:${kick.id} 200`]);
    expect(liveCommand(emu, "kick", B)["description"]).toBe("Kick someone out");
    const again = await kept(["preview", "--refresh", "--diff", "--non-interactive"]);
    expect(again).not.toMatch(/Changed by hand/);
  });

  test("a secret description appears nowhere; unpacked again, nothing written; destroy keeps what others made", async () => {
    prog.write({ "index.ts": program("Kick someone out", true) });
    await kept(["preview", "--diff", "--non-interactive"]);
    await kept(["up", "--yes", "--non-interactive", "--skip-preview"]);
    expect(liveCommand(emu, "note", B)["description"]).toBe(SECRET);
    await kept(["preview", "--refresh", "--diff", "--non-interactive"]);
    await kept(["stack", "export"]);
    // Back to a resource per scope: taken over by name again, nothing written.
    prog.write({ "index.ts": program("Kick someone out", true, false) });
    emu.control.resetLog();
    await kept(["up", "--yes", "--non-interactive", "--skip-preview"]);
    expect(writes(emu)).toEqual([]);
    await kept(["destroy", "--yes", "--non-interactive"]);
    expect(commandKeys(emu)).toEqual([`${A} 1 not-ours`, `${B} 1 not-ours`]);
    for (const text of outputs) expect(text).not.toContain(SECRET);
    expect(outputs.join("\n")).toContain("[secret]");
  });
});
