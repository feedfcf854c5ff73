/**
 * The order in which the engine gets the program's commands, through the real `pulumi`
 * CLI. The engine runs operations in a few parallel slots (8 on a 2-core machine), and a
 * create holds its slot while it waits on its scope's create rate limit. The SDK hands
 * the registrations to the engine taking the scopes in turn (sdk/registrationOrder.ts, `release`),
 * so a program that declares all its global commands and then all its guild commands
 * still writes both scopes at once; in the order the inputs happened to resolve, every
 * slot waited on the global scope while the guild's own limit went unused.
 */
import { startEmulator } from "../../emulator";
import type { RunningEmulator } from "../../emulator";
import type { PulumiProgram } from "../../scripts/pulumiProgram";
import { IDS, programAgainst } from "./lifecycle.helpers";

jest.setTimeout(300_000);

const PER_SCOPE = 10;

const globalCommand = `new discord.GlobalCommand(\`global-\${i}\`, { name: \`global\${i}\`, description: "Global" });`;
const guildCommand = `new discord.GuildCommand(\`guild-\${i}\`, { guildId: ${JSON.stringify(IDS.guild)}, name: \`guild\${i}\`, description: "Guild" });`;

/**
 * All the global commands first, then all the guild commands, as programs often read: the
 * case the SDK's release order fixes. (A program that already declares the scopes in turn
 * is released the same way: test/provider/registrationOrder.test.ts "the order resources are
 * handed to the engine".)
 */
const program = `
import * as discord from "pulumi-discord-commands";
for (let i = 0; i < ${PER_SCOPE}; i++) ${globalCommand}
for (let i = 0; i < ${PER_SCOPE}; i++) ${guildCommand}
`;

describe("declared scope by scope", () => {
  let emu: RunningEmulator;
  let prog: PulumiProgram;

  beforeAll(async () => {
    // Creates limited to 2 per 2 s per scope: the service's shape (5 per 20 s), faster.
    const create = { limit: 2, windowMs: 2000 };
    emu = await startEmulator({
      port: 0,
      config: {
        rateLimits: {
          routes: { "global-commands-create": create, "guild-commands-create": create },
        },
      },
    });
    prog = await programAgainst(emu, "scope-order-scope-by-scope", program);
  });

  afterAll(async () => {
    prog?.cleanup();
    await emu?.close();
  });

  test("both scopes are written from the first window and finish in the same window", async () => {
    await prog.ok(["up", "--yes", "--non-interactive", "--skip-preview"]);
    const creates = emu
      .requestLog()
      .filter((e) => e.method === "POST" && e.status === 201)
      .map((e) => ({
        scope: e.route === "createGlobalCommand" ? "global" : "guild",
        at: Date.parse(e.time),
      }));
    expect(creates.length).toBe(2 * PER_SCOPE);
    // Each scope's first window (2 creates) is used at once: the first four creates are two
    // of each scope. With every slot waiting on one scope, the other would wait its turn.
    expect(
      creates
        .slice(0, 4)
        .map((c) => c.scope)
        .sort(),
    ).toEqual(["global", "global", "guild", "guild"]);
    // Five windows each, side by side: the two scopes' last creates are in one window.
    const last = (scope: string): number =>
      Math.max(...creates.filter((c) => c.scope === scope).map((c) => c.at));
    expect(Math.abs(last("global") - last("guild"))).toBeLessThan(1500);
    // No create provoked a 429: the client waits for each window.
    expect(emu.requestLog().filter((e) => e.status === 429)).toEqual([]);
  });
});
