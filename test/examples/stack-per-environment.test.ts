/**
 * examples/stack-per-environment through the CLI: one program, one `CommandSet`
 * declaration, two stacks. The committed Pulumi.dev.yaml sends the commands in development
 * (`stage: "dev"`) to a test guild, Pulumi.prod.yaml the promoted ones globally; the bot
 * token is set as a secret and must be encrypted in the stack file and absent from the
 * state. The promotion flow itself is test/engine/promotion.test.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import type { PulumiProgram } from "../../scripts/pulumiProgram";
import { emulator, exampleProgram, liveCommands, setConfig } from "./helpers";

jest.setTimeout(300_000);

/** `[name, type]` of the commands each stage holds in the committed program. */
const DEV = [["weather", 1]];
const PROD = [
  ["Translate", 3],
  ["ping", 1],
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
    expect(file).toContain("discord-stack-per-environment:stage: dev");
  });

  test("the dev stack deploys the commands in development as guild commands of the test guild", async () => {
    await prog.up();
    const live = liveCommands(emu);
    expect(live.map((c) => [c.name, c.type ?? 1]).sort()).toEqual(DEV);
    expect(live.every((c) => c.guild_id === emu.guildId)).toBe(true);
    const outputs = await prog.outputs();
    expect(outputs["scope"]).toBe(`guild ${emu.guildId}`);
    expect(Object.keys(outputs["commandIds"] as object)).toEqual(["weather"]);
    expect(fs.readFileSync(prog.stateFile("dev"), "utf8")).not.toContain(emu.botToken);
  });

  test("the prod stack deploys the promoted commands globally: the test guild lists none twice", async () => {
    await prepare("prod");
    await prog.up();
    const live = liveCommands(emu);
    const global = live.filter((c) => c.guild_id === undefined);
    expect(global.map((c) => [c.name, c.type ?? 1]).sort()).toEqual(PROD);
    expect(live.filter((c) => c.guild_id === emu.guildId).map((c) => c.name)).toEqual(["weather"]);
    const outputs = await prog.outputs();
    expect(outputs["scope"]).toBe("global");
    expect(Object.keys(outputs["commandIds"] as object).sort()).toEqual([
      "message:Translate",
      "ping",
    ]);
    expect(fs.readFileSync(prog.stateFile("prod"), "utf8")).not.toContain(emu.botToken);
  });

  test("destroying both stacks removes both sets", async () => {
    await prog.destroy(["--stack", "prod"]);
    expect(liveCommands(emu).every((c) => c.guild_id === emu.guildId)).toBe(true);
    await prog.destroy(["--stack", "dev"]);
    expect(liveCommands(emu)).toEqual([]);
  });
});
