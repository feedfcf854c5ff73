/**
 * examples/quickstart through the CLI: up creates its three global commands, a plain
 * preview shows drift made outside the stack (the project's `options: refresh: always`)
 * at the cost of one list GET, destroy deletes them. That a preview right after `up`
 * shows no change is the CI recipe's `preview --expect-no-changes` on this example
 * (test/examples/ci-with-emulator.test.ts).
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

  test("a plain preview shows drift made outside the stack, for one list GET", async () => {
    const echo = liveCommands(emu).find((c) => c.name === "echo");
    if (!echo) throw new Error("echo is not live");
    emu.control.patchCommand(echo.id, { description: "Changed in the portal" });

    emu.control.resetLog();
    const res = await prog.ok(["preview", "--non-interactive"]);
    expect(res.stdout).toMatch(/echo update \[diff: ~description\]/);
    const seen = (): string[] => emu.requestLog().map((e) => `${e.method} ${e.route ?? ""}`);
    expect(seen()).toEqual(["GET listGlobalCommands"]);

    // `up` (its own preview skipped) refreshes once too, then restores the description.
    emu.control.resetLog();
    await prog.up();
    expect(seen()).toEqual(["GET listGlobalCommands", "PATCH editGlobalCommand"]);
    expect(liveCommands(emu).find((c) => c.id === echo.id)).toMatchObject({
      description: "Repeat what you say",
    });

    // `--refresh=false` skips the read for one run: no request, no drift seen.
    emu.control.patchCommand(echo.id, { description: "Changed again" });
    emu.control.resetLog();
    expect(await prog.previewSummary(["--refresh=false"])).toEqual({ same: 4 });
    expect(seen()).toEqual([]);
    expect(await prog.previewSummary()).toEqual({ same: 3, update: 1 });
    await prog.up();
  });

  test("destroy deletes them", async () => {
    await prog.destroy();
    expect(liveCommands(emu)).toEqual([]);
  });
});
