/**
 * The SDK's program-wide checks, with Pulumi's mocks standing in for the engine: the
 * resources' `name` input resolves only when the program's claims pass.
 */
import * as pulumi from "@pulumi/pulumi";
import { GlobalCommand, GuildCommand } from "../../sdk/resources";
import { claimCommands, claimName, releaseGroups, resetRegistry } from "../../sdk/registry";
import { useEchoMocks } from "../helpers/pulumiMocks";

const APP = "1300000000000000001";
const GUILD = "1300000000000000002";
const OTHER_GUILD = "1300000000000000012";

useEchoMocks();

/** The Output's internal promises (all reject when an apply throws). */
interface OutputInternals<T> {
  promise(): Promise<T>;
  isKnown: Promise<boolean>;
  isSecret: Promise<boolean>;
  allResources(): Promise<unknown>;
}

/** The settled value of an Output, or its error. */
async function settle<T>(o: pulumi.Output<T>): Promise<{ value?: T; error?: string }> {
  const internals = o as unknown as OutputInternals<T>;
  // Nothing else awaits these: without a handler they would be unhandled rejections.
  for (const p of [internals.isKnown, internals.isSecret, internals.allResources()]) {
    p.catch(() => undefined);
  }
  try {
    const value = await internals.promise();
    return { value };
  } catch (err) {
    return { error: String(err) };
  }
}

function claim(
  resource: string,
  name: string,
  extra: { type?: number; guild?: pulumi.Input<string> } = {},
) {
  return claimName(resource, APP, extra.guild, extra.type, name);
}

describe("program-wide checks", () => {
  test("a duplicate (application, scope, type, name) names both resources", async () => {
    const results = await Promise.all([
      settle(claim("first", "ping")),
      settle(claim("second", "ping")),
    ]);
    for (const r of results) {
      expect(r.error).toContain("'first'");
      expect(r.error).toContain("'second'");
      expect(r.error).toContain("'ping'");
    }
  });

  test("a duplicate where the guild id is an Output (resolved later)", async () => {
    const guild = pulumi.output(Promise.resolve(GUILD));
    const [ra, rb] = await Promise.all([
      settle(claim("alpha", "ping", { guild })),
      settle(claim("beta", "ping", { guild: GUILD })),
    ]);
    expect(ra.error).toMatch(/'alpha', 'beta'|'beta', 'alpha'/);
    expect(rb.error).toContain(`guild ${GUILD}`);
  });

  test("a guild id that resolves long after its siblings is still compared with them (no settle timer)", async () => {
    const late = pulumi.output(
      new Promise<string>((resolve) => setTimeout(() => resolve(GUILD), 300)),
    );
    const [early, slow] = await Promise.all([
      settle(claim("early", "ping", { guild: GUILD })),
      settle(claim("slow", "ping", { guild: late })),
    ]);
    expect(early.error).toMatch(/'early', 'slow'|'slow', 'early'/);
    expect(slow.error).toContain("'early'");
  });

  test("a claim whose value is unknown (preview) does not hold the others back", async () => {
    const unknownGuild = pulumi.output(pulumi.unknown as unknown as string);
    claim("pending", "ping", { guild: unknownGuild });
    const known = await settle(claim("known", "pong", { guild: GUILD }));
    expect(known).toEqual({ value: "pong" });
  });

  test("a whole scope's claims (ScopeCommands) meet single commands: duplicates and caps", async () => {
    const list = (n: number, prefix: string) =>
      Array.from({ length: n }, (_, i) => ({
        key: `${prefix}${i}`,
        type: 1,
        name: `${prefix}${i}`,
      }));
    const [set, single] = await Promise.all([
      settle(
        claimCommands("mods-guild", APP, GUILD, [
          ...list(99, "c"),
          { key: "ping", type: 1, name: "ping" },
        ]),
      ),
      settle(claim("lone", "ping", { guild: GUILD })),
    ]);
    // One name twice: both sides name both resources.
    expect(set.value).toContain(`'mods-guild commands["ping"]'`);
    expect(set.value).toContain("'lone'");
    expect(single.error).toContain(`'mods-guild commands["ping"]'`);
    // 100 in the set plus the single one: 101 CHAT_INPUT commands in the guild.
    expect(set.value).toMatch(/101 CHAT_INPUT commands in guild .*\(the limit is 100\)/);
    // A set alone, within the caps: no problem.
    resetRegistry();
    expect(await settle(claimCommands("ok", APP, OTHER_GUILD, list(100, "d")))).toEqual({
      value: undefined,
    });
  });

  describe("the order claims are handed to the engine", () => {
    const w = (name: string, seq: number, scope: string) => ({ name, seq, scope });
    // Declared: the global ones, then guild A's, then guild B's (seq: program order),
    // settled in another order.
    const waiters = [
      w("b0", 5, "B"),
      w("g2", 2, "global"),
      w("a1", 4, "A"),
      w("g0", 0, "global"),
      w("a0", 3, "A"),
      w("g1", 1, "global"),
    ];
    const names = (groups: { name: string }[][]) => groups.map((g) => g.map((x) => x.name));

    test("per-command mode: one at a time, program order within a scope, the scopes in turn", () => {
      expect(names(releaseGroups(waiters, "per-command"))).toEqual([
        ["g0"],
        ["a0"],
        ["b0"],
        ["g1"],
        ["a1"],
        ["g2"],
      ]);
    });

    test("bulk mode, slots unknown: a scope at a time, all its commands together", () => {
      expect(names(releaseGroups(waiters, "bulk"))).toEqual([
        ["g0", "g1", "g2"],
        ["a0", "a1"],
        ["b0"],
      ]);
    });

    test("bulk mode: as many of one scope as the engine has slots, the scopes in turn", () => {
      expect(names(releaseGroups(waiters, "bulk", 2))).toEqual([
        ["g0", "g1"],
        ["a0", "a1"],
        ["b0"],
        ["g2"],
      ]);
      expect(names(releaseGroups(waiters, "bulk", 100))).toEqual([
        ["g0", "g1", "g2"],
        ["a0", "a1"],
        ["b0"],
      ]);
    });
  });

  test("every claim of a program is released once, whatever the order it settled in", async () => {
    const names = ["g0", "g1", "a0", "b0", "a1", "g2"];
    const guilds = [undefined, undefined, GUILD, OTHER_GUILD, GUILD, undefined];
    const results = await Promise.all(
      names.map((n, i) => {
        const guild = guilds[i];
        return settle(claim(n, n, guild === undefined ? {} : { guild }));
      }),
    );
    expect(results.map((r) => r.value)).toEqual(names);
  });

  test("101 CHAT_INPUT commands in one scope", async () => {
    const results = await Promise.all(
      Array.from({ length: 101 }, (_, i) => settle(claim(`c${i}`, `cmd${i}`, { guild: GUILD }))),
    );
    expect(results.every((r) => r.error?.includes("101 CHAT_INPUT commands") === true)).toBe(true);
    expect(results[0]?.error).toContain("(the limit is 100)");
  });

  test("100 CHAT_INPUT in each of two scopes pass", async () => {
    const results = await Promise.all([
      ...Array.from({ length: 100 }, (_, i) => settle(claim(`a${i}`, `cmd${i}`, { guild: GUILD }))),
      ...Array.from({ length: 100 }, (_, i) =>
        settle(claim(`b${i}`, `cmd${i}`, { guild: OTHER_GUILD })),
      ),
    ]);
    expect(results.filter((r) => r.error !== undefined)).toEqual([]);
  });

  test("16 USER commands in one scope", async () => {
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) => settle(claim(`u${i}`, `User ${i}`, { type: 2 }))),
    );
    expect(results.every((r) => r.error?.includes("16 USER commands") === true)).toBe(true);
  });

  test("two entry points, and an entry point in a guild", async () => {
    const two = await Promise.all([
      settle(claim("e1", "Launch", { type: 4 })),
      settle(claim("e2", "Start", { type: 4 })),
    ]);
    expect(two.every((r) => r.error?.includes("2 PRIMARY_ENTRY_POINT commands") === true)).toBe(
      true,
    );
    resetRegistry();
    const inGuild = await settle(claim("eg", "Launch", { type: 4, guild: pulumi.output(GUILD) }));
    expect(inGuild.error).toContain(
      "resource 'eg' declares a PRIMARY_ENTRY_POINT command in guild",
    );
  });

  test("a global and a guild command may share a name; so may a CHAT_INPUT and a USER command", async () => {
    // Through the resource classes (a failing claim there is reported by the runtime, so
    // only the passing case is run through them here), the guild id an Output.
    const g = new GlobalCommand("global-ping", {
      applicationId: APP,
      name: "ping",
      description: "g",
    });
    const guildId = pulumi.output(Promise.resolve(GUILD));
    const c = new GuildCommand("guild-ping", {
      applicationId: APP,
      guildId,
      name: "ping",
      description: "c",
    });
    const results = await Promise.all([
      settle(g.name),
      settle(c.name),
      settle(claim("user-ping", "ping", { type: 2 })),
    ]);
    expect(results).toEqual([{ value: "ping" }, { value: "ping" }, { value: "ping" }]);
  });
});
