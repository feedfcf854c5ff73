/**
 * The program-wide checks of the dynamic resources, where they are made: in the
 * dynamic-provider host's `check` (provider/resources/dynamicProviders.ts), on the same
 * `DeploymentClaims` as the plugin, each resource naming itself by its URN in the hidden
 * input `__claimant` (the program computes it: test/provider/registrationOrder.test.ts). The host runs every dynamic resource's `check` of a deployment in one
 * process, so each check is judged against every claim checked before it: a problem
 * fails at least the later resource, naming every resource involved (moved from the
 * program-side registry's tests, test/provider/registry.test.ts, with the same problems).
 */
import type { dynamicProviders as DynamicProviders } from "../../provider/resources/dynamicProviders";
import type { Bag } from "../../provider/resources/propertyBags";
import { UNKNOWN } from "../../provider/resources/propertyBags";

const APP = "1300000000000000001";
const GUILD = "1300000000000000002";
const OTHER_GUILD = "1300000000000000012";

type Providers = typeof DynamicProviders;
let providers: Providers;

/** A fresh host process per test: its claims start empty. */
beforeEach(async () => {
  jest.resetModules();
  providers = (await import("../../provider/resources/dynamicProviders")).dynamicProviders;
});

/** The URN the program computes for a dynamic resource, under a parent of type `parent`. */
function urnOf(kind: string, resource: string, parent?: string): string {
  const type = `pulumi-nodejs:dynamic/discord:${kind}`;
  return `urn:pulumi:dev::app::${parent === undefined ? "" : `${parent}$`}${type}::${resource}`;
}

interface Checked {
  inputs: Bag;
  /** The failures' reasons, one per line. */
  problems: string;
}

async function checkCommand(
  resource: string,
  name: string,
  extra: { type?: number; guild?: string; parent?: string } = {},
): Promise<Checked> {
  const kind = extra.guild === undefined ? "GlobalCommand" : "GuildCommand";
  const inputs: Bag = {
    __claimant: urnOf(kind, resource, extra.parent),
    applicationId: APP,
    name,
    ...(extra.type === undefined || extra.type === 4 ? { description: "A command" } : {}),
    ...(extra.type === undefined ? {} : { type: extra.type }),
    ...(extra.guild === undefined ? {} : { guildId: extra.guild }),
  };
  const provider = extra.guild === undefined ? providers.globalCommand : providers.guildCommand;
  const result = await provider.check({}, inputs);
  return { inputs: result.inputs, problems: result.failures.map((f) => f.reason).join("\n") };
}

async function checkScope(
  resource: string,
  guild: string | undefined,
  names: readonly string[],
): Promise<Checked> {
  const commands = Object.fromEntries(names.map((n) => [n, { name: n, description: "In a set" }]));
  const result = await providers.scopeCommands.check(
    {},
    {
      __claimant: urnOf("ScopeCommands", resource),
      applicationId: APP,
      ...(guild === undefined ? {} : { guildId: guild }),
      commands,
    },
  );
  return { inputs: result.inputs, problems: result.failures.map((f) => f.reason).join("\n") };
}

const range = (n: number, prefix: string): string[] =>
  Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe("program-wide checks in the dynamic-provider host", () => {
  test("a duplicate (application, scope, type, name) names both resources", async () => {
    expect((await checkCommand("first", "ping")).problems).toBe("");
    const second = await checkCommand("second", "ping");
    for (const s of ["'first'", "'second'", "'ping'"]) expect(second.problems).toContain(s);
    // Checked again (the engine's `up` after its preview), the first fails as well.
    const again = await checkCommand("first", "ping");
    expect(again.problems).toMatch(/'first', 'second' all declare the CHAT_INPUT command 'ping'/);
  });

  test("the hidden __claimant never reaches the inputs the state keeps", async () => {
    const checked = await checkCommand("first", "ping");
    expect(checked.inputs).not.toHaveProperty("__claimant");
    const scope = await checkScope("mods-global", undefined, ["ban"]);
    expect(scope.inputs).not.toHaveProperty("__claimant");
  });

  test("a resource checked again replaces its claim (no twin of itself)", async () => {
    await checkCommand("alpha", "ping", { guild: GUILD });
    expect((await checkCommand("alpha", "ping", { guild: GUILD })).problems).toBe("");
    expect((await checkCommand("alpha", "pong", { guild: GUILD })).problems).toBe("");
    expect((await checkCommand("beta", "ping", { guild: GUILD })).problems).toBe("");
  });

  test("a value unknown at preview claims nothing, holds nothing back, and is checked at up", async () => {
    expect((await checkCommand("pending", "ping", { guild: UNKNOWN })).problems).toBe("");
    expect((await checkCommand("known", "ping", { guild: GUILD })).problems).toBe("");
    // At `up` the guild id is known: the pair is found.
    const up = await checkCommand("pending", "ping", { guild: GUILD });
    expect(up.problems).toMatch(/'known', 'pending'|'pending', 'known'/);
    expect(up.problems).toContain(`guild ${GUILD}`);
  });

  test("a whole scope's claims (ScopeCommands) meet single commands: duplicates and caps", async () => {
    expect((await checkScope("mods-guild", GUILD, [...range(99, "c"), "ping"])).problems).toBe("");
    const single = await checkCommand("lone", "ping", { guild: GUILD });
    expect(single.problems).toContain(`'mods-guild commands["ping"]'`);
    expect(single.problems).toContain("'lone'");
    // 100 in the set plus the single one: 101 CHAT_INPUT commands in the guild.
    expect(single.problems).toMatch(/101 CHAT_INPUT commands in guild .*\(the limit is 100\)/);
    // The set checked again names both sides as well.
    const set = await checkScope("mods-guild", GUILD, [...range(99, "c"), "ping"]);
    expect(set.problems).toContain(`'mods-guild commands["ping"]'`);
    expect(set.problems).toContain("'lone'");
    // A set alone, within the caps: no problem.
    expect((await checkScope("ok", OTHER_GUILD, range(100, "d"))).problems).toBe("");
  });

  test("101 CHAT_INPUT commands in one scope: the last names all 101", async () => {
    for (let i = 0; i < 100; i++) {
      expect((await checkCommand(`c${i}`, `cmd${i}`, { guild: GUILD })).problems).toBe("");
    }
    const last = await checkCommand("c100", "cmd100", { guild: GUILD });
    expect(last.problems).toContain("101 CHAT_INPUT commands");
    expect(last.problems).toContain("(the limit is 100)");
    for (let i = 0; i <= 100; i++) expect(last.problems).toContain(`'c${i}'`);
  });

  test("100 CHAT_INPUT in each of two scopes pass", async () => {
    for (const [prefix, guild] of [
      ["a", GUILD],
      ["b", OTHER_GUILD],
    ] as const) {
      for (let i = 0; i < 100; i++) {
        expect((await checkCommand(`${prefix}${i}`, `cmd${i}`, { guild })).problems).toBe("");
      }
    }
  });

  test("16 USER commands in one scope", async () => {
    for (let i = 0; i < 15; i++) {
      expect((await checkCommand(`u${i}`, `User ${i}`, { type: 2 })).problems).toBe("");
    }
    expect((await checkCommand("u15", "User 15", { type: 2 })).problems).toContain(
      "16 USER commands",
    );
  });

  test("two entry points, and an entry point in a guild", async () => {
    expect((await checkCommand("e1", "Launch", { type: 4 })).problems).toBe("");
    expect((await checkCommand("e2", "Start", { type: 4 })).problems).toContain(
      "2 PRIMARY_ENTRY_POINT commands",
    );
    const inGuild = await checkCommand("eg", "Launch", { type: 4, guild: GUILD });
    expect(inGuild.problems).toContain(
      "resource 'eg' declares a PRIMARY_ENTRY_POINT command in guild",
    );
  });

  test("a global and a guild command may share a name; so may a CHAT_INPUT and a USER command", async () => {
    expect((await checkCommand("global-ping", "ping")).problems).toBe("");
    expect((await checkCommand("guild-ping", "ping", { guild: GUILD })).problems).toBe("");
    expect((await checkCommand("user-ping", "ping", { type: 2 })).problems).toBe("");
  });

  test("two resources of one name under different parents are two claimants, told apart", async () => {
    expect(
      (await checkCommand("kick", "kick", { guild: GUILD, parent: "my:TeamA" })).problems,
    ).toBe("");
    const second = await checkCommand("kick", "kick", { guild: GUILD, parent: "my:TeamB" });
    expect(second.problems).toContain(
      "resources 'kick' (under my:TeamA), 'kick' (under my:TeamB) all declare the CHAT_INPUT command 'kick'",
    );
  });

  test("resources of two kinds with one name are two claimants", async () => {
    expect((await checkCommand("ping", "ping")).problems).toBe("");
    expect((await checkCommand("ping", "ping", { guild: GUILD })).problems).toBe("");
    const twice = await checkCommand("ping", "ping");
    expect(twice.problems).toBe("");
  });
});
