/**
 * Renames and name swaps in a full scope through the real `pulumi` CLI: a guild holding
 * 100 CHAT_INPUT and 15 USER commands (the limits) renames 5 of each at once and swaps two
 * names of each type, in one `pulumi up`. A rename creates the new command before deleting
 * the old one unless that would pass the limit (30032); then `diff` asks the engine to
 * delete first (scopeLimits.ts), and this test proves the engine does. Permissions follow
 * the renamed command's new id. (Per-command mode, the default; the same deployment in bulk
 * mode, the order the engine runs it in, is test/provider/bulk.test.ts "bulk mode in a
 * full scope"; fewer renames at once are test/provider/scopeLimits.test.ts.)
 */
import { startEmulator } from "../../emulator";
import type { RunningEmulator } from "../../emulator";
import type { PulumiProgram } from "../../scripts/pulumiProgram";
import {
  commandKeys,
  IDS,
  liveCommand,
  liveCommands,
  livePermissions,
  programAgainst,
} from "./lifecycle.helpers";

jest.setTimeout(600_000);

const G = IDS.guild;
const SLASH = 100;
const USER = 15;
const PERMISSIONS = [{ id: IDS.role, type: 1, permission: true }];

interface Phase {
  /** How many of each type carry a new name. */
  readonly renamed: number;
  /** Swap the names of slash commands 50 and 51, and of user commands 10 and 11. */
  readonly swapped: boolean;
}

function slashName(i: number, p: Phase): string {
  if (i < p.renamed) return `renamed${p.renamed}-${i}`;
  if (p.swapped && i === 50) return "cmd51";
  if (p.swapped && i === 51) return "cmd50";
  return `cmd${i}`;
}

function userName(i: number, p: Phase): string {
  if (i < p.renamed) return `Renamed ${p.renamed} ${i}`;
  if (p.swapped && i === 10) return "User 11";
  if (p.swapped && i === 11) return "User 10";
  return `User ${i}`;
}

function program(p: Phase): string {
  const slash = Array.from({ length: SLASH }, (_, i) => slashName(i, p));
  const user = Array.from({ length: USER }, (_, i) => userName(i, p));
  return `
import * as discord from "pulumi-discord-commands";
const guildId = ${JSON.stringify(G)};
const slash = ${JSON.stringify(slash)};
const user = ${JSON.stringify(user)};
const first = slash.map((name, i) => new discord.GuildCommand(\`slash-\${i}\`, { guildId, name, description: \`Command \${i}\` }))[0];
user.forEach((name, i) => new discord.GuildCommand(\`user-\${i}\`, { guildId, type: discord.CommandType.USER, name }));
new discord.GuildCommandPermissions("first-permissions", {
  guildId,
  commandId: first!.commandId,
  permissions: ${JSON.stringify(PERMISSIONS)},
});
`;
}

function expectedKeys(p: Phase): string[] {
  return [
    ...Array.from({ length: SLASH }, (_, i) => `${G} 1 ${slashName(i, p)}`),
    ...Array.from({ length: USER }, (_, i) => `${G} 2 ${userName(i, p)}`),
  ].sort();
}

/** Resources: the stack, 115 commands, 1 permissions object. */
const RESOURCES = 1 + SLASH + USER + 1;

describe("full-scope renames, per-command mode", () => {
  let emu: RunningEmulator;
  let prog: PulumiProgram;

  beforeAll(async () => {
    emu = await startEmulator({ port: 0, rateLimits: false });
    prog = await programAgainst(emu, "full-scope", program({ renamed: 0, swapped: false }));
    await prog.up();
    expect(commandKeys(emu)).toEqual(expectedKeys({ renamed: 0, swapped: false }));
  });

  afterAll(async () => {
    prog?.cleanup();
    await emu?.close();
  });

  test("rename 5 of each type at once and swap two names of each type: delete first where the scope is full", async () => {
    const phase: Phase = { renamed: 5, swapped: true };
    const before = new Map(liveCommands(emu).map((c) => [c.name, c.id]));
    prog.write({ "index.ts": program(phase) });
    await prog.up();

    expect(commandKeys(emu)).toEqual(expectedKeys(phase));
    const first = liveCommand(emu, slashName(0, phase), G);
    expect(before.has(first.name)).toBe(false); // a new command, a new id
    expect([...before.values()]).not.toContain(first.id);
    expect(livePermissions(emu, first.id)).toEqual(PERMISSIONS);
    // The swap took over each other's commands: the two ids survive, crossed.
    expect(liveCommand(emu, "cmd51", G).id).toBe(before.get("cmd51"));
    expect(liveCommand(emu, "User 10", G, 2).id).toBe(before.get("User 10"));
    expect(await prog.previewSummary(["--refresh"])).toEqual({ same: RESOURCES });
  });
});
