/**
 * examples/stack-per-environment through the CLI: one program, two stacks. The committed
 * Pulumi.dev.yaml sends the set to a test guild, Pulumi.prod.yaml globally; the bot token
 * is set as a secret and must be encrypted in the stack file and absent from the state.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import type { PulumiProgram } from "../../scripts/pulumiProgram";
import { emulator, exampleProgram, liveCommands, setConfig } from "./helpers";

jest.setTimeout(300_000);

const SET = [
  ["Translate", 3],
  ["ping", 1],
  ["weather", 1],
];

describe("examples/stack-per-environment", () => {
  let emu: RunningEmulator;
  let prog: PulumiProgram;

  beforeAll(async () => {
    emu = await emulator();
    prog = exampleProgram("stack-per-environment");
  });
  afterAll(async () => {
    prog.cleanup();
    await emu.close();
  });

  /** Selects the stack and sets what the committed file leaves out: the API URL and the token. */
  async function prepare(stack: string): Promise<void> {
    await prog.stack(stack);
    await setConfig(
      prog,
      stack,
      { "discord:apiUrl": emu.url },
      { "discord:botToken": emu.botToken },
    );
  }

  test("the token is set as a secret: encrypted in Pulumi.dev.yaml, next to the committed config", async () => {
    await prepare("dev");
    const file = fs.readFileSync(path.join(prog.dir, "Pulumi.dev.yaml"), "utf8");
    expect(file).toMatch(/discord:botToken:\n\s+secure: v1:/);
    expect(file).not.toContain(emu.botToken);
    expect(file).toContain(`discord-stack-per-environment:guildId: "${emu.guildId}"`);
  });

  test("the dev stack deploys the set as guild commands of the test guild", async () => {
    await prog.up();
    const live = liveCommands(emu);
    expect(live.map((c) => [c.name, c.type ?? 1]).sort()).toEqual(SET);
    expect(live.every((c) => c.guild_id === emu.guildId)).toBe(true);
    const outputs = await prog.outputs();
    expect(outputs["scope"]).toBe(`guild ${emu.guildId}`);
    expect(Object.keys(outputs["commandIds"] as object).sort()).toEqual(SET.map(([n]) => n));
    expect(fs.readFileSync(prog.stateFile("dev"), "utf8")).not.toContain(emu.botToken);
  });

  test("the prod stack deploys the same set as global commands", async () => {
    await prepare("prod");
    await prog.up();
    const live = liveCommands(emu);
    const global = live.filter((c) => c.guild_id === undefined);
    expect(global.map((c) => [c.name, c.type ?? 1]).sort()).toEqual(SET);
    expect(live.filter((c) => c.guild_id === emu.guildId)).toHaveLength(SET.length);
    expect((await prog.outputs())["scope"]).toBe("global");
    expect(fs.readFileSync(prog.stateFile("prod"), "utf8")).not.toContain(emu.botToken);
  });

  test("destroying both stacks removes both sets", async () => {
    await prog.destroy(["--stack", "prod"]);
    expect(liveCommands(emu).every((c) => c.guild_id === emu.guildId)).toBe(true);
    await prog.destroy(["--stack", "dev"]);
    expect(liveCommands(emu)).toEqual([]);
  });
});
