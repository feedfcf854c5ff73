/**
 * The daily create limit (30034) through the real `pulumi` CLI: whether the service
 * answers it as a 400 or as a 429 with a Retry-After of hours, `up` fails at once (no
 * wait) with a message that names the scope, the limit and when it has room again; the
 * creates that fit are kept in the state, and the failed one is not.
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

describe.each([
  { status: 400 as const, mode: "per-command" },
  { status: 429 as const, mode: "per-command" },
  { status: 429 as const, mode: "bulk" },
])("30034 as a $status, $mode mode", ({ status, mode }) => {
  let emu: RunningEmulator;
  let prog: PulumiProgram;

  beforeAll(async () => {
    emu = await startEmulator({
      port: 0,
      rateLimits: false,
      config: { dailyCreateLimit: 2, dailyCreateLimitStatus: status },
    });
    prog = await programAgainst(emu, `daily-${status}-${mode}`, program);
    await prog.ok(["config", "set", "discord:writeMode", mode]);
  });

  afterAll(async () => {
    prog?.cleanup();
    await emu?.close();
  });

  test("up fails at once, naming the scope, the limit and the reset", async () => {
    const started = Date.now();
    const res = await prog.run(["up", "--yes", "--non-interactive", "--skip-preview"]);
    expect(Date.now() - started).toBeLessThan(120_000); // never the Retry-After of hours
    expect(res.code).not.toBe(0);
    const out = `${res.stdout}\n${res.stderr}`;
    expect(out).toContain(`in guild ${G}`);
    expect(out).toContain(`answered ${status} (code 30034)`);
    expect(out).toContain(
      "the daily budget of command creates is spent (the service allows 2 a day)",
    );
    // The 429 form's Retry-After is the reset; the 400 form says none (never the window's).
    expect(out).toMatch(
      status === 429
        ? /again after \d{4}-\d\d-\d\dT\S+ \(the service's Retry-After\)/
        : /does not say when the day's budget resets: run `pulumi up` again a day later/,
    );
    // No request was ever retried on the 429.
    const createsAnswered429 = emu
      .requestLog()
      .filter((e) => e.status === 429 && e.method !== "GET").length;
    expect(createsAnswered429).toBeLessThanOrEqual(mode === "bulk" ? 3 : 1);
    // Per command, the two creates that fit are live; in bulk mode a batch fails whole.
    const live = liveCommands(emu).length;
    if (mode === "per-command") expect(live).toBe(2);
    else expect(live).toBeLessThanOrEqual(2);
    // The state holds exactly the live ones: a refresh preview sees no drift.
    const summary = await prog.previewSummary(["--refresh"]);
    expect(summary["create"]).toBe(3 - live);
  });
});
