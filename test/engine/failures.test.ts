/**
 * Exploration (replaced below).
 */
import type { RunningEmulator } from "../../emulator";
import { PulumiProgram } from "../../scripts/pulumiProgram";
import { commandsProgram, configureStack, emulator, linkPackage, printed } from "./edgeHelpers";

jest.setTimeout(600_000);

let emu: RunningEmulator;
let prog: PulumiProgram;

beforeAll(async () => {
  emu = await emulator();
  prog = new PulumiProgram("failures", {
    "index.ts": commandsProgram(
      `new discord.GlobalCommand("ping", { name: "ping", description: "Ping the bot" });`,
    ),
  });
  linkPackage(prog);
  await prog.stack("dev");
  await configureStack(prog, emu);
  await prog.ok(["config", "set", "discord:timeoutMs", "1500"]);
  await prog.up();
});
afterAll(async () => {
  prog.cleanup();
  await emu.close();
});

test("explore", async () => {
  emu.control.setFaults({
    rules: [{ route: "listGlobalCommands", action: { type: "error", status: 401, code: 0, message: "401: Unauthorized" } }],
  });
  const r = await prog.run(["preview", "--refresh", "--non-interactive"]);
  console.log("=====OUT\n" + printed(r));
  emu.control.clearFaults();
  emu.control.setFaults({
    rules: [{ route: "deleteGlobalCommand", action: { type: "status", status: 500 } }],
  });
  const d = await prog.run(["destroy", "--yes", "--non-interactive"]);
  console.log("=====OUT2\n" + printed(d));
});
