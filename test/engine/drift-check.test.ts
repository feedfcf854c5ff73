/**
 * Engine: the README's drift check for CI (issue 16),
 * `pulumi preview --refresh --expect-no-changes --diff`, run through the real CLI against
 * the emulator. It exits 0 when nothing drifted (a command the stack does not manage is
 * not its drift), with one list GET per scope; it exits 7 (the CLI's "changes proposed
 * while none expected") naming the resource and the drifted fields when a command's
 * description changes outside the stack, and planning the create of a managed command
 * deleted outside it. `pulumi refresh --preview-only` compares with the state, not the
 * program: once a refresh has recorded drift, it passes where the recipe still fails.
 *
 * What the provider reads as drift (a choice removed, an overwrite added to a managed
 * list, an empty one included, an unmanaged command in the scope) is tested below the
 * CLI: test/provider/commands.test.ts and permissions.test.ts ("drift"). That a refresh
 * without `--run-program` reads with the config of the last deployment is
 * test/engine/recovery.test.ts.
 *
 * One emulator and one program (stack `dev`): each test continues from the last, and
 * restores the declared commands with `up --refresh` before the next.
 */
import { startEmulator } from "../../emulator";
import type { RunningEmulator } from "../../emulator";
import type { CliResult, PulumiProgram } from "../../scripts/pulumiProgram";
import { IDS, liveCommand, programAgainst, requests, writes } from "./lifecycle.helpers";

jest.setTimeout(300_000);

const G = IDS.guild;
const BAN_PERMISSIONS = [{ id: IDS.role, type: 1, permission: true }];
/** The CLI's exit code for `--expect-no-changes` when changes were proposed. */
const EXIT_CHANGES = 7;

const PROGRAM = `
import * as discord from "pulumi-discord-commands";

const guildId = ${JSON.stringify(G)};
new discord.GlobalCommand("settings", {
  name: "settings",
  description: "Change how the bot behaves",
  options: [
    {
      type: discord.OptionType.STRING,
      name: "level",
      description: "How much the bot says",
      choices: [
        { name: "Everything", value: "all" },
        { name: "Mentions only", value: "mentions" },
      ],
    },
  ],
});
const ban = new discord.GuildCommand("ban", { guildId, name: "ban", description: "Ban a member" });
new discord.GuildCommandPermissions("ban-permissions", {
  guildId,
  commandId: ban.commandId,
  permissions: ${JSON.stringify(BAN_PERMISSIONS)},
});
// Owns the command's (empty) list: the read asks for it (absent from the guild's list).
const warn = new discord.GuildCommand("warn", { guildId, name: "warn", description: "Warn a member" });
new discord.GuildCommandPermissions("warn-permissions", { guildId, commandId: warn.commandId, permissions: [] });
new discord.GuildCommand("kick", { guildId, name: "kick", description: "Kick a member" });
`;

/**
 * The recipe. `--run-program` makes the refresh read with the stack's current config
 * (a moved `discord:apiUrl`, a rotated token) rather than the config recorded at the
 * last deployment (test/engine/recovery.test.ts).
 */
const RECIPE = [
  "preview",
  "--refresh",
  "--run-program",
  "--expect-no-changes",
  "--diff",
  "--non-interactive",
];

/**
 * The blocks of a `--diff` preview's plan (the part after the refresh), by `op name`:
 * e.g. `update settings` -> the lines that show its properties.
 */
function plannedChanges(stdout: string): Map<string, string> {
  const blocks = new Map<string, string>();
  // The block being read: its op (`update`, `create`, `refresh`...) and, once its
  // `[urn=...]` line is seen, its key.
  let op: string | undefined;
  let key: string | undefined;
  for (const line of stdout.split("\n")) {
    const header = /^\s*[~+-]?\s*pulumi-nodejs:dynamic\/discord:\w+: \(([\w-]+)\)/.exec(line);
    const urn = /\[urn=.*::([^\]]+)\]/.exec(line);
    if (header) {
      op = header[1];
      key = undefined;
    } else if (urn && op !== undefined && key === undefined) {
      key = `${op} ${urn[1] ?? ""}`;
      if (op !== "refresh") blocks.set(key, "");
    } else if (key !== undefined && op !== "refresh") {
      blocks.set(key, `${blocks.get(key) ?? ""}${line}\n`);
    }
  }
  return blocks;
}

describe("engine: the drift check for CI (preview --refresh --expect-no-changes --diff)", () => {
  let emu: RunningEmulator;
  let prog: PulumiProgram;

  const recipe = (): Promise<CliResult> => prog.run(RECIPE);

  /** The recipe fails with exactly these planned changes; returns their `--diff` blocks. */
  async function expectDrift(changes: string[]): Promise<Map<string, string>> {
    const res = await recipe();
    expect(res.code).toBe(EXIT_CHANGES);
    expect(res.stderr).toMatch(/no changes were expected for preview but changes were proposed/);
    const planned = plannedChanges(res.stdout);
    expect([...planned.keys()].sort()).toEqual([...changes].sort());
    return planned;
  }

  /** `up --refresh` restores the declared set; the recipe passes again. */
  async function restore(): Promise<void> {
    await prog.up(["--refresh"]);
    expect((await recipe()).code).toBe(0);
  }

  beforeAll(async () => {
    emu = await startEmulator({ port: 0, rateLimits: false });
    prog = await programAgainst(emu, "driftcheck", PROGRAM);
    await prog.up();
    // Another tool's command in the global scope, which the stack does not manage: no
    // test below may count it as drift.
    const res = await fetch(`${emu.apiUrl}/applications/${emu.applicationId}/commands`, {
      method: "POST",
      headers: { authorization: `Bot ${emu.botToken}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "legacy", description: "Made by another tool" }),
    });
    expect(res.status).toBe(201);
  });

  afterAll(async () => {
    prog?.cleanup();
    await emu?.close();
  });

  test("nothing drifted (an unmanaged command in the scope): exit 0, no write, one list GET per scope", async () => {
    emu.control.resetLog();
    const res = await recipe();
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/7 unchanged/);
    expect(writes(emu)).toEqual([]);
    // The global list, the guild's list, the guild's permissions list; and the declared
    // empty list, absent from the guild's list, asked for once (404: no overwrites).
    const warn = liveCommand(emu, "warn", G);
    expect(requests(emu).sort()).toEqual(
      [
        "GET listGlobalCommands commands 200",
        `GET listGuildCommands guild:${G} commands 200`,
        `GET listGuildCommandPermissions guild:${G} permissions 200`,
        `GET getCommandPermissions guild:${G} permissions:${warn.id} 404`,
      ].sort(),
    );
  });

  test("a description changed and a command deleted outside the stack: exit 7, the field and both values shown, the create planned", async () => {
    const settings = liveCommand(emu, "settings");
    emu.control.patchCommand(settings.id, { description: "Changed in the portal" });
    emu.control.deleteCommand(liveCommand(emu, "kick", G).id);
    const planned = await expectDrift(["update settings", "create kick"]);
    expect(planned.get("update settings")).toMatch(
      /~ description\s*: "Changed in the portal" => "Change how the bot behaves"/,
    );
    expect(planned.get("create kick")).toMatch(/description\s*: "Kick a member"/);
    await restore();
    liveCommand(emu, "kick", G);
  });

  test("refresh --preview-only compares with the state: once drift is recorded it passes, the recipe does not", async () => {
    const settings = liveCommand(emu, "settings");
    emu.control.patchCommand(settings.id, { description: "Changed in the portal" });
    const refreshPreview = [
      "refresh",
      "--preview-only",
      "--expect-no-changes",
      "--non-interactive",
    ];
    expect((await prog.run(refreshPreview)).code).toBe(EXIT_CHANGES);
    // Someone runs `pulumi refresh`: the drift is now in the state.
    await prog.ok(["refresh", "--yes", "--non-interactive", "--skip-preview"]);
    expect((await prog.run(refreshPreview)).code).toBe(0);
    await expectDrift(["update settings"]);
    await restore();
  });
});
