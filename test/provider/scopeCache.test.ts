/**
 * The scope cache after creates by POST in bulk mode (`addToScope`): a finished list gets
 * the created commands without another GET; a list still loading may predate them, so it
 * is dropped and read again.
 */
import type { RunningEmulator } from "../../emulator";
import type { WireCommand } from "../../provider/client";
import { configureAll, requests, runtime, setup, teardown } from "./helpers";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await setup();
});
afterAll(() => teardown(emu));
beforeEach(async () => {
  emu.control.reset();
  await configureAll(emu);
});

const made = (id: string): WireCommand =>
  ({ id, name: `made-${id}`, description: "d", type: 1, version: id }) as WireCommand;

test("a finished list gets the created commands, with no other GET", async () => {
  await runtime.scopes.scopeCommands(emu.applicationId, emu.guildId);
  runtime.scopes.addToScope(emu.applicationId, emu.guildId, [made("1300000000000000901")]);
  const live = await runtime.scopes.scopeCommands(emu.applicationId, emu.guildId);
  expect([...live.keys()]).toEqual(["1300000000000000901"]);
  expect(requests(emu, "GET")).toHaveLength(1);
});

test("a list still loading is dropped: the next read makes a GET of its own", async () => {
  const loading = runtime.scopes.scopeCommands(emu.applicationId, emu.guildId);
  runtime.scopes.addToScope(emu.applicationId, emu.guildId, [made("1300000000000000902")]);
  await loading;
  await runtime.scopes.scopeCommands(emu.applicationId, emu.guildId);
  expect(requests(emu, "GET")).toHaveLength(2);
});

test("no list cached: nothing to add, nothing read", () => {
  runtime.scopes.addToScope(emu.applicationId, emu.guildId, [made("1300000000000000903")]);
  expect(requests(emu, "GET")).toHaveLength(0);
});
