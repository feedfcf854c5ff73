/**
 * The client's rate-limit queues against the emulator's buckets (real HTTP, real
 * headers): one bucket never has two requests in flight, even while the client learns
 * the bucket's name from the first response and moves the route to the learned queue.
 */
import { startEmulator } from "../../emulator";
import type { RunningEmulator } from "../../emulator";
import { CommandsApi } from "../../provider/client";

let emu: RunningEmulator;
let api: CommandsApi;

beforeAll(async () => {
  // The create bucket: 2 per 1 s (the service's shape, 5 per 20 s, made fast).
  emu = await startEmulator({
    port: 0,
    config: {
      rateLimits: { routes: { "guild-commands-create": { limit: 2, windowMs: 1000 } } },
    },
  });
  api = new CommandsApi({ apiUrl: emu.apiUrl, botToken: emu.botToken });
});
afterAll(async () => {
  await api.close();
  await emu.close();
});

test("requests queued before and after the bucket is learned share one queue: no 429", async () => {
  const create = (name: string): Promise<unknown> =>
    api.createGuildCommand(emu.applicationId, emu.guildId, { name, description: "d" });
  // Three before any response (the route's first queue), then three more once the first
  // answer named the bucket (the learned queue): at the reset, both queues would send.
  const first = [create("a1"), create("a2"), create("a3")];
  await first[0];
  const second = [create("b1"), create("b2"), create("b3")];
  await Promise.all([...first, ...second]);

  const creates = emu.requestLog().filter((e) => e.route === "createGuildCommand");
  expect(creates.map((e) => e.status)).toEqual([201, 201, 201, 201, 201, 201]);
  // Two per window: the six creates span three windows.
  const times = creates.map((e) => Date.parse(e.time));
  expect((times[4] ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(1900);
});
