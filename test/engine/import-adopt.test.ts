/**
 * Bringing existing commands under management, through the real `pulumi` CLI against the
 * in-process emulator: for the project's corpus of generated commands (both scopes, every
 * command type, the entry point, localizations, overwrites), the TypeScript program that
 * `discord-commands import` prints runs as is, and `pulumi up` adopts every resource
 * (`adopted: true`, the live ids kept) with zero writes on the service; a following
 * `preview` shows no change.
 *
 * The entry point taken over whatever its name (Activities' "Launch" declared as "Play",
 * then renamed) is provider logic, tested below the CLI: test/provider/adoption.test.ts
 * ("declared under another name…", "any other entry point is taken over too") and
 * test/provider/commands.test.ts ("delete never removes an id a create of the same
 * deployment returned"); the engine's replacement that takes over a live command is
 * test/engine/lifecycle-replace.test.ts ("a rename onto the name of a command removed…").
 */
import type { RunningEmulator } from "../../emulator";
import { importCommands, parseImportArgs } from "../../cli/import";
import type { PulumiProgram } from "../../scripts/pulumiProgram";
import { corpusEmulator, importEnv, seedCorpus } from "../cli/importFixtures";
import { programAgainst, writes } from "./lifecycle.helpers";

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
