/**
 * Bringing existing commands under management, through the real `pulumi` CLI against the
 * in-process emulator:
 *  - the property: for the project's corpus of generated commands (both scopes, every
 *    command type, the entry point, localizations, overwrites), `discord-commands import`
 *    then `pulumi up` adopts every resource (`adopted: true`, the live ids kept) with zero
 *    writes on the service, and a following `preview` shows no change;
 *  - the entry point: with Activities enabled the application already has one
 *    ("Launch"); declaring another name takes it over in place (its id), and renaming it
 *    in the program later does too.
 */
import type { RunningEmulator } from "../../emulator";
import { importCommands, parseImportArgs } from "../../cli/import";
import type { PulumiProgram } from "../../scripts/pulumiProgram";
import { corpusEmulator, importEnv, seedCorpus } from "../cli/importFixtures";
import { liveCommands, programAgainst, writes } from "./lifecycle.helpers";

jest.setTimeout(600_000);

/** The resources of a stack's state, as `pulumi stack export` writes them. */
interface StateResource {
  readonly type: string;
  readonly urn: string;
  readonly id?: string;
  readonly outputs?: Record<string, unknown>;
}

async function stateResources(prog: PulumiProgram): Promise<StateResource[]> {
  const res = await prog.ok(["stack", "export"]);
  const parsed = JSON.parse(res.stdout) as { deployment: { resources?: StateResource[] } };
  return (parsed.deployment.resources ?? []).filter((r) =>
    r.type.startsWith("pulumi-nodejs:dynamic/discord:"),
  );
}

describe("import, then up: every command adopted, zero writes, then no change", () => {
  let emu: RunningEmulator;
  let prog: PulumiProgram | undefined;
  const counts = { chatInput: 24, user: 4, message: 4 };

  beforeAll(async () => {
    emu = await corpusEmulator();
  });
  afterAll(async () => {
    prog?.cleanup();
    await emu.close();
  });

  test("the corpus", async () => {
    const seeded = await seedCorpus(emu, counts);
    const { output } = await importCommands(
      parseImportArgs(["--global", "--guild", emu.guildId, "--permissions"]),
      importEnv(emu),
    );
    prog = await programAgainst(emu, "import-adopt", output);
    emu.control.resetLog();

    const up = await prog.up();
    expect(writes(emu)).toEqual([]);
    // One list per scope (global, guild) and one permissions list for the guild.
    expect(
      emu
        .requestLog()
        .map((e) => `${e.method} ${e.route}`)
        .sort(),
    ).toEqual([
      "GET listGlobalCommands",
      "GET listGuildCommandPermissions",
      "GET listGuildCommands",
    ]);
    const resources = await stateResources(prog);
    const commands = resources.filter((r) => !r.type.endsWith("GuildCommandPermissions"));
    expect(commands).toHaveLength(seeded.length);
    expect(commands.filter((r) => r.outputs?.["adopted"] !== true)).toEqual([]);
    expect(commands.map((r) => r.id).sort()).toEqual([...seeded].sort());
    expect(resources.length - commands.length).toBe(3); // two commands' overwrites, app-wide
    // "created" in the stack (resources + the stack itself); on the service, nothing written.
    expect(up.stdout).toMatch(new RegExp(`\\+ ${resources.length + 1} created`));

    emu.control.resetLog();
    expect(await prog.previewSummary()).toEqual({ same: resources.length + 1 }); // + the stack
    expect(emu.requestLog()).toEqual([]);
  });
});

describe("the entry point: taken over whatever its name", () => {
  let emu: RunningEmulator;
  let prog: PulumiProgram | undefined;

  const program = (name: string): string => `
import * as discord from "pulumi-discord-commands";

new discord.GlobalCommand("entry-point", {
  type: discord.CommandType.PRIMARY_ENTRY_POINT,
  name: ${JSON.stringify(name)},
  description: "Play a game together",
  handler: discord.EntryPointHandler.DISCORD_LAUNCH_ACTIVITY,
});
`;

  beforeAll(async () => {
    emu = await corpusEmulator(); // Activities enabled: "Launch" exists
  });
  afterAll(async () => {
    prog?.cleanup();
    await emu.close();
  });

  const entryPoints = () => liveCommands(emu).filter((c) => c.type === 4);

  test("Activities created Launch; declaring Play renames it in place (one PATCH, its id)", async () => {
    const [launch] = entryPoints();
    expect(launch?.name).toBe("Launch");
    prog = await programAgainst(emu, "entry-point", program("Play"));
    emu.control.resetLog();
    await prog.up();
    expect(writes(emu)).toEqual([`PATCH editGlobalCommand command:${String(launch?.id)} 200`]);
    expect(entryPoints()).toEqual([
      expect.objectContaining({
        id: launch?.id,
        name: "Play",
        description: "Play a game together",
      }),
    ]);
    const [resource] = await stateResources(prog);
    expect(resource?.id).toBe(launch?.id);
    expect(resource?.outputs?.["adopted"]).toBe(true);
    emu.control.resetLog();
    expect(await prog.previewSummary()).toEqual({ same: 2 });
  });

  test("renamed in the program: a replacement that keeps the one entry point and its id", async () => {
    if (prog === undefined) throw new Error("the previous test did not run");
    const [play] = entryPoints();
    prog.write({ "index.ts": program("Start") });
    emu.control.resetLog();
    const up = await prog.up();
    expect(up.stdout).toMatch(/1 replaced/);
    // The create took Play over (renamed in place); the delete of the original left it.
    expect(writes(emu)).toEqual([`PATCH editGlobalCommand command:${String(play?.id)} 200`]);
    expect(entryPoints().map((c) => [c.id, c.name])).toEqual([[play?.id, "Start"]]);
    emu.control.resetLog();
    expect(await prog.previewSummary()).toEqual({ same: 2 });
  });
});
