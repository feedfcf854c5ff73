/**
 * Bulk write mode (`discord:writeMode: bulk`) through the real `pulumi` CLI against the
 * in-process emulator: create, update, delete, rename (replace) and swap converge with
 * bulk overwrite PUTs only (plus the permissions PUTs), batched under the real engine's
 * parallel slots, and every command the stack does not manage (another tool's commands,
 * the Activity entry point) keeps its id, its fields and its version throughout.
 *
 * Drift restored by an update and the deletes of a destroy are the same bulk writes;
 * they are tested below the CLI (test/provider/bulk.test.ts), and their engine sides in
 * test/engine/lifecycle.test.ts.
 *
 * One emulator and one program (stack `dev`) for the whole file, in order.
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
  writes,
} from "./lifecycle.helpers";

jest.setTimeout(240_000);

const G = IDS.guild;
const PERMISSIONS = [
  { id: IDS.role, type: 1, permission: true },
  { id: IDS.user, type: 2, permission: true },
];

interface Phase {
  readonly a: string;
  readonly b: string;
  readonly ban: string;
  readonly helpDescription: string;
  readonly legacy: boolean;
}

const START: Phase = {
  a: "alpha",
  b: "beta",
  ban: "ban",
  helpDescription: "Show help",
  legacy: true,
};

function program(p: Phase): string {
  return `
import * as discord from "pulumi-discord-commands";

new discord.GlobalCommand("a", { name: ${JSON.stringify(p.a)}, description: "Command a" });
new discord.GlobalCommand("b", { name: ${JSON.stringify(p.b)}, description: "Command b" });
new discord.GlobalCommand("help", {
  name: "help",
  description: ${JSON.stringify(p.helpDescription)},
  nameLocalizations: { fr: "aide" },
  contexts: [discord.InteractionContextType.GUILD],
});
new discord.GlobalCommand("inspect", { type: discord.CommandType.USER, name: "Inspect" });
${p.legacy ? `new discord.GlobalCommand("legacy", { name: "legacy", description: "On its way out" });` : ""}

const ban = new discord.GuildCommand("ban", {
  guildId: ${JSON.stringify(G)},
  name: ${JSON.stringify(p.ban)},
  description: "Remove a member",
  options: [{ type: discord.OptionType.USER, name: "member", description: "Who", required: true }],
});
new discord.GuildCommandPermissions("ban-permissions", {
  guildId: ${JSON.stringify(G)},
  commandId: ban.commandId,
  permissions: ${JSON.stringify(PERMISSIONS)},
});
new discord.GuildCommand("quote", { guildId: ${JSON.stringify(G)}, type: discord.CommandType.MESSAGE, name: "Quote" });
`;
}

/** Resources: the stack, 7 commands (6 without legacy), 1 permissions object. */
const RESOURCES = 9;

/** The commands no resource declares: made by another tool, and the entry point. */
function unmanaged(emu: RunningEmulator, ids: readonly string[]): LiveCommand[] {
  return liveCommands(emu).filter((c) => ids.includes(c.id));
}

/** Only bulk overwrites write commands (the permissions PUTs are per command by design). */
function commandWrites(emu: RunningEmulator): string[] {
  return writes(emu).filter((w) => !w.startsWith("PUT editCommandPermissions"));
}

describe("engine lifecycle: bulk write mode", () => {
  let emu: RunningEmulator;
  let prog: PulumiProgram;
  let others: LiveCommand[];

  beforeAll(async () => {
    emu = await startEmulator({
      port: 0,
      rateLimits: false,
      config: {
        applications: [
          {
            id: DEFAULTS.applicationId,
            botToken: DEFAULTS.botToken,
            clientSecret: DEFAULTS.clientSecret,
            activities: true, // the Launch entry point exists
          },
        ],
      },
    });
    // Another tool's commands in both scopes, of three types.
    const api = `${emu.apiUrl}/applications/${emu.applicationId}`;
    const post = async (path: string, body: unknown): Promise<void> => {
      const res = await fetch(`${api}${path}`, {
        method: "POST",
        headers: { Authorization: `Bot ${emu.botToken}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(201);
    };
    await post("/commands", {
      name: "other-global",
      description: "Not ours",
      name_localizations: { de: "andere" },
      contexts: [0, 1],
    });
    await post("/commands", { type: 3, name: "Other Message" });
    await post(`/guilds/${G}/commands`, {
      name: "other-guild",
      description: "Not ours either",
      default_member_permissions: "8",
      options: [{ type: 3, name: "q", description: "Q", choices: [{ name: "x", value: "x" }] }],
    });
    await post(`/guilds/${G}/commands`, { type: 2, name: "Other User" });
    await post(`/guilds/${G}/commands`, { name: "other-two", description: "Five" });
    others = liveCommands(emu);
    expect(others.map((c) => c.type).sort()).toEqual([1, 1, 1, 2, 3, 4]);

    prog = await programAgainst(emu, "lifecycle-bulk", program(START));
    await prog.ok(["config", "set", "discord:writeMode", "bulk"]);
  });

  afterAll(async () => {
    prog?.cleanup();
    await emu?.close();
  });

  const keptUnchanged = (): void => {
    expect(
      unmanaged(
        emu,
        others.map((c) => c.id),
      ),
    ).toEqual(others);
  };

  test("create: bulk PUTs only; unmanaged commands and the entry point kept unchanged", async () => {
    emu.control.resetLog();
    await prog.up();
    expect(commandKeys(emu)).toEqual(
      [
        "global 1 alpha",
        "global 1 beta",
        "global 1 help",
        "global 2 Inspect",
        "global 1 legacy",
        "global 1 other-global",
        "global 3 Other Message",
        "global 4 Launch",
        `${G} 1 ban`,
        `${G} 3 Quote`,
        `${G} 1 other-guild`,
        `${G} 2 Other User`,
        `${G} 1 other-two`,
      ].sort(),
    );
    const puts = commandWrites(emu);
    expect(puts.length).toBeGreaterThanOrEqual(2);
    expect(puts.length).toBeLessThanOrEqual(7); // one per batch, at most one per operation
    for (const w of puts) expect(w).toMatch(/^PUT bulkOverwrite(Global|Guild)Commands .* 200$/);
    keptUnchanged();
    expect(livePermissions(emu, liveCommand(emu, "ban", G).id)).toEqual(PERMISSIONS);
    expect(liveCommand(emu, "help")["name_localizations"]).toEqual({ fr: "aide" });
    expect(await prog.previewSummary()).toEqual({ same: RESOURCES });
  });

  test("update, delete, rename and swap in one up: bulk PUTs, permissions on the new id", async () => {
    const alpha = liveCommand(emu, "alpha");
    const beta = liveCommand(emu, "beta");
    const help = liveCommand(emu, "help");
    const ban = liveCommand(emu, "ban", G);
    const quote = liveCommand(emu, "Quote", G, 3);
    const next: Phase = {
      a: "beta",
      b: "alpha",
      ban: "kick",
      helpDescription: "Show help, with examples",
      legacy: false,
    };
    prog.write({ "index.ts": program(next) });
    emu.control.resetLog();
    await prog.up();

    for (const w of commandWrites(emu)) {
      expect(w).toMatch(/^PUT bulkOverwrite(Global|Guild)Commands .* 200$/);
    }
    expect(liveCommands(emu).some((c) => c.name === "legacy")).toBe(false);
    expect(liveCommands(emu).some((c) => c.name === "ban")).toBe(false);
    // The swap: each create took over the other's command (same ids), nothing deleted.
    expect(liveCommand(emu, "beta").id).toBe(beta.id);
    expect(liveCommand(emu, "beta")["description"]).toBe("Command a");
    expect(liveCommand(emu, "alpha").id).toBe(alpha.id);
    expect(liveCommand(emu, "alpha")["description"]).toBe("Command b");
    // The update keeps its id.
    expect(liveCommand(emu, "help").id).toBe(help.id);
    expect(liveCommand(emu, "help")["description"]).toBe("Show help, with examples");
    // The rename: a new id, the permissions applied to it.
    const kick = liveCommand(emu, "kick", G);
    expect(kick.id).not.toBe(ban.id);
    expect(livePermissions(emu, kick.id)).toEqual(PERMISSIONS);
    // Untouched managed and unmanaged commands keep id and version.
    expect(liveCommand(emu, "Quote", G, 3)).toEqual(quote);
    keptUnchanged();
    expect(await prog.previewSummary(["--refresh"])).toEqual({ same: RESOURCES - 1 });
  });
});
