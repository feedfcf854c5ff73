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

test("a burst past the service's global limit keeps its pace: no 429, never more than 50 in a second", async () => {
  // 120 list GETs at once, over 120 guilds' buckets (each of its own): only the global
  // limit (50 a second per token, the emulator's realistic default) binds them.
  const guilds = Array.from({ length: 120 }, (_, i) => `14${String(i + 1).padStart(17, "0")}`);
  const burst = await startEmulator({
    port: 0,
    config: { guilds: guilds.map((id) => ({ id, authorizedApplications: [emu.applicationId] })) },
  });
  const client = new CommandsApi({ apiUrl: burst.apiUrl, botToken: burst.botToken });
  try {
    await Promise.all(guilds.map((g) => client.listGuildCommands(burst.applicationId, g)));
    const log = burst.requestLog();
    expect(log.filter((e) => e.status === 429)).toEqual([]);
    const times = log.map((e) => Date.parse(e.time)).sort((a, b) => a - b);
    // In any second, at most 50 arrivals (the service counts them in its windows).
    for (let i = 50; i < times.length; i++) {
      expect((times[i] ?? 0) - (times[i - 50] ?? 0)).toBeGreaterThanOrEqual(1000);
    }
  } finally {
    await client.close();
    await burst.close();
  }
});
