/**
 * examples/quickstart through the CLI: up creates its three global commands, a second
 * preview shows no change, destroy deletes them.
 */
import type { RunningEmulator } from "../../emulator";
import type { PulumiProgram } from "../../scripts/pulumiProgram";
import { emulator, exampleProgram, liveCommands, setConfig } from "./helpers";

jest.setTimeout(300_000);

describe("examples/quickstart", () => {
  let emu: RunningEmulator;
  let prog: PulumiProgram;

  beforeAll(async () => {
    emu = await emulator();
    prog = exampleProgram("quickstart");
    await prog.stack("dev");
    await setConfig(
      prog,
      "dev",
      { "discord:apiUrl": emu.url, "discord:applicationId": emu.applicationId },
      { "discord:botToken": emu.botToken },
    );
  });
  afterAll(async () => {
    prog.cleanup();
    await emu.close();
  });

  test("up creates the three global commands", async () => {
    await prog.up();
    const live = liveCommands(emu);
    expect(live.map((c) => [c.name, c.type ?? 1, c.guild_id]).sort()).toEqual([
      ["Show Profile", 2, undefined],
      ["echo", 1, undefined],
      ["ping", 1, undefined],
    ]);
    const byName = Object.fromEntries(live.map((c) => [c.name, c.id]));
    expect(await prog.outputs()).toEqual({
      commandIds: { ping: byName["ping"], echo: byName["echo"], profile: byName["Show Profile"] },
    });
  });

  test("a second preview shows no change", async () => {
    expect(await prog.previewSummary()).toEqual({ same: 4 });
  });

  test("destroy deletes them", async () => {
    await prog.destroy();
    expect(liveCommands(emu)).toEqual([]);
  });
});
