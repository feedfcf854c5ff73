/**
 * Invalid programs fail `pulumi preview` through the real CLI, with the field path or
 * the resources involved in the message, and no write reaches the service:
 *  - a command that breaks a spec rule fails the provider's `check`;
 *  - program-wide problems (two resources claiming one name here, two of one name under
 *    different parents included; over 100 slash commands in a scope is
 *    test/provider/dynamicClaims.test.ts) are found in the dynamic-provider host's `check`,
 *    on the deployment's claims (provider/resources/dynamicProviders.ts, the plugin's
 *    `DeploymentClaims`), each resource keyed by the URN its program computed.
 */
import type { RunningEmulator } from "../../emulator";
import { PulumiProgram } from "../../scripts/pulumiProgram";
import { commandsProgram, configureStack, emulator, linkPackage, printed } from "./edgeHelpers";

jest.setTimeout(180_000);

let emu: RunningEmulator;
let prog: PulumiProgram;

beforeAll(async () => {
  emu = await emulator();
  prog = new PulumiProgram("edges-validation", { "index.ts": commandsProgram("") });
  linkPackage(prog);
  await prog.stack("dev");
  await configureStack(prog, emu);
});
afterAll(async () => {
  prog.cleanup();
  await emu.close();
});
beforeEach(() => emu.control.resetLog());

async function failedPreview(body: string): Promise<string> {
  prog.write({ "index.ts": commandsProgram(body) });
  const res = await prog.run(["preview", "--non-interactive"], { timeoutMs: 120_000 });
  expect(res.code).not.toBe(0);
  expect(res.code).not.toBeNull(); // null: killed by the timeout, i.e. the preview hung
  // Nothing is written. A valid new command's check may read its scope's list (one GET,
  // for the count and daily limits: provider/resources/scopeLimits.ts), nothing else.
  expect(emu.counters().writes).toBe(0);
  expect(emu.requestLog().every((e) => e.method === "GET" && /^list/.test(e.route ?? ""))).toBe(
    true,
  );
  return printed(res);
}

test("an invalid option name and an over-long choice name fail preview with their paths; a secret input that breaks a rule is not printed", async () => {
  const out = await failedPreview(`
new discord.GlobalCommand("poll", {
  name: "poll",
  description: pulumi.secret("TOPSECRET-" + "x".repeat(100)),
  options: [
    {
      type: discord.OptionType.STRING,
      name: "answer",
      description: "The answer",
      choices: [{ name: "${"c".repeat(101)}", value: "c" }],
    },
    { type: discord.OptionType.INTEGER, name: "Duration", description: "Minutes" },
  ],
});`);
  // Nested paths go in the reason; the engine's property would print `value {<nil>}`.
  expect(out).toMatch(
    /resource 'poll' has a problem: options\[1\]\.name: Invalid name "Duration"\. Must be lowercase/,
  );
  expect(out).not.toMatch(/<nil>/);
  expect(out).toMatch(/options\[0\]\.choices\[0\]\.name: Must be between 1 and 100 in length/);
  expect(out).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/); // no stack trace
  // A secret input's failure: the engine prints a named input's value, not this one.
  expect(out).toMatch(
    /resource 'poll' has a problem: description: Must be between 1 and 100 in length \(got 110 characters\)/,
  );
  expect(out).not.toContain("TOPSECRET");
});

test("two resources with one name fail preview naming both", async () => {
  const out = await failedPreview(`
new discord.GlobalCommand("ping", { name: "ping", description: "Ping" });
new discord.GlobalCommand("ping-again", { name: "ping", description: "Ping, twice" });
new discord.GlobalCommand("user-ping", { name: "ping", type: discord.CommandType.USER });`);
  expect(out).toMatch(
    /resources ('ping', 'ping-again'|'ping-again', 'ping') all declare the CHAT_INPUT command 'ping' in the global scope/,
  );
  expect(out).not.toContain("'user-ping'"); // another type may share the name
  expect(out).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/);
});

test("two resources of one name under different parents, one name in one guild: preview fails naming each by its parent", async () => {
  const team = (type: string) => `
class ${type} extends pulumi.ComponentResource {
  constructor(name: string) {
    super("my:${type}", name, {});
    new discord.GuildCommand("kick", { guildId: "${emu.guildId}", name: "kick", description: "Kick" }, { parent: this });
  }
}
new ${type}("${type.toLowerCase()}");`;
  const out = await failedPreview(team("TeamA") + team("TeamB"));
  expect(out).toMatch(
    /resources ('kick' \(under my:TeamA\), 'kick' \(under my:TeamB\)|'kick' \(under my:TeamB\), 'kick' \(under my:TeamA\)) all declare the CHAT_INPUT command 'kick' in guild /,
  );
});

test("a token set in stack config as plain text fails preview, since the state would hold it unencrypted", async () => {
  await prog.ok(["config", "set", "discord:bearerToken", "plain-text-bearer-token"]);
  try {
    const out = await failedPreview(`
new discord.GlobalCommand("ping", { name: "ping", description: "Ping" });`);
    expect(out).toContain("discord:bearerToken is set in stack config as plain text");
    expect(out).toContain("pulumi config set --secret discord:bearerToken <value>");
    expect(out).not.toContain("plain-text-bearer-token");
    expect(out).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/);
  } finally {
    await prog.ok(["config", "rm", "discord:bearerToken"]);
  }
});
