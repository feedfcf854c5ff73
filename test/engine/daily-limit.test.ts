/**
 * The daily create limit (30034) through the real `pulumi` CLI: `up` fails at once (no
 * wait on the service's Retry-After of hours) with a message that names the scope, the
 * limit and when it has room again; the creates that fit are kept in the state, and the
 * failed one is not. One form (a 429, per command) is enough for the engine's part, the
 * state after a partial failure: the message of every form (a 400 or a 429, per command
 * or in bulk) is test/provider/bulk.test.ts "30034 as a $status, $mode mode".
 */
import { startEmulator } from "../../emulator";
import type { RunningEmulator } from "../../emulator";
import type { PulumiProgram } from "../../scripts/pulumiProgram";
import { IDS, liveCommands, programAgainst } from "./lifecycle.helpers";

jest.setTimeout(300_000);

const G = IDS.guild;

const program = `
import * as discord from "pulumi-discord-commands";
for (const name of ["one", "two", "three"]) {
  new discord.GuildCommand(name, { guildId: ${JSON.stringify(G)}, name, description: \`Command \${name}\` });
}
`;

describe("30034 as a 429, per-command mode", () => {
  let emu: RunningEmulator;
  let prog: PulumiProgram;

  beforeAll(async () => {
    emu = await startEmulator({
      port: 0,
      rateLimits: false,
      config: { dailyCreateLimit: 2, dailyCreateLimitStatus: 429 },
    });
    prog = await programAgainst(emu, "daily-429-per-command", program);
    await prog.ok(["config", "set", "discord:writeMode", "per-command"]);
  });

  afterAll(async () => {
    prog?.cleanup();
    await emu?.close();
  });

  test("up fails at once, naming the scope, the limit and the reset; the state keeps the creates that fit", async () => {
    const started = Date.now();
    const res = await prog.run(["up", "--yes", "--non-interactive", "--skip-preview"]);
    expect(Date.now() - started).toBeLessThan(120_000); // never the Retry-After of hours
    expect(res.code).not.toBe(0);
    const out = `${res.stdout}\n${res.stderr}`;
    expect(out).toContain(`in guild ${G}`);
    expect(out).toContain("answered 429 (code 30034)");
    expect(out).toContain(
      "the daily budget of command creates is spent (the service allows 2 a day)",
    );
    // The 429's Retry-After is the reset.
    expect(out).toMatch(/again after \d{4}-\d\d-\d\dT\S+ \(the service's Retry-After\)/);
    // No request was ever retried on the 429.
    const createsAnswered429 = emu
      .requestLog()
      .filter((e) => e.status === 429 && e.method !== "GET").length;
    expect(createsAnswered429).toBeLessThanOrEqual(1);
    // The two creates that fit are live.
    const live = liveCommands(emu).length;
    expect(live).toBe(2);
    // The state holds exactly the live ones: a refresh preview sees no drift.
    const summary = await prog.previewSummary(["--refresh"]);
    expect(summary["create"]).toBe(3 - live);
  });
});
