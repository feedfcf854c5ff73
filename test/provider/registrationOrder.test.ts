/**
 * The order in which the program hands its commands to the engine (sdk/registrationOrder.ts),
 * with Pulumi's mocks standing in for the engine: each command resource's `__claimant`
 * (its URN) resolves once every resource registered so far has settled, and then in turn. The
 * program-wide checks themselves are made in the provider's `check`
 * (test/provider/dynamicClaims.test.ts, test/provider/claims.test.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { GlobalCommand, GuildCommand } from "../../sdk/resources";
import { inTurn, releaseGroups } from "../../sdk/registrationOrder";
import { dynamicProviders } from "../../provider/resources/dynamicProviders";
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
  return inTurn(resource, APP, extra.guild, pulumi.all([extra.type, name]));
}

describe("the registration order", () => {
  test("a guild id that resolves long after its siblings still takes its turn (no settle timer)", async () => {
    const late = pulumi.output(
      new Promise<string>((resolve) => setTimeout(() => resolve(GUILD), 300)),
    );
    const [early, slow] = await Promise.all([
      settle(claim("early", "ping", { guild: GUILD })),
      settle(claim("slow", "ping", { guild: late })),
    ]);
    expect([early, slow]).toEqual([{ value: "early" }, { value: "slow" }]);
  });

  test("a resource whose value is unknown (preview) does not hold the others back", async () => {
    const unknownGuild = pulumi.output(pulumi.unknown as unknown as string);
    claim("pending", "ping", { guild: unknownGuild });
    const known = await settle(claim("known", "pong", { guild: GUILD }));
    expect(known).toEqual({ value: "known" });
  });

  test("a secret name leaves the claimant (the resource's URN) plain", async () => {
    const released = claim("hidden", pulumi.secret("ping") as unknown as string);
    expect(await settle(released)).toEqual({ value: "hidden" });
    expect(await (released as unknown as OutputInternals<string>).isSecret).toBe(false);
  });

  describe("the order resources are handed to the engine", () => {
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

  test("every resource of a program is released once, whatever the order it settled in", async () => {
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

  test("two resources of one name under different parents hand the host their URNs: their duplicate name is found", async () => {
    class TeamA extends pulumi.ComponentResource {
      constructor(name: string) {
        super("my:TeamA", name, {});
      }
    }
    class TeamB extends pulumi.ComponentResource {
      constructor(name: string) {
        super("my:TeamB", name, {});
      }
    }
    const kick = { applicationId: APP, guildId: GUILD, name: "kick", description: "Kick" };
    const commands = [
      new GuildCommand("kick", kick, { parent: new TeamA("a") }),
      new GuildCommand("kick", kick, { parent: new TeamB("b") }),
      new GuildCommand("kick-top", kick),
    ];
    const claimants = await Promise.all(
      commands.map((c) =>
        settle((c as unknown as { __claimant: pulumi.Output<string> }).__claimant),
      ),
    );
    const urns = await Promise.all(commands.map((c) => settle(c.urn)));
    // Each one's URN, as the engine gives it (the mocks', here).
    expect(claimants).toEqual(urns);
    expect(new Set(claimants.map((c) => c.value)).size).toBe(3);
    // The host's check of each (what the engine hands it): the duplicate name is found.
    const problems: string[] = [];
    for (const c of claimants) {
      const checked = await dynamicProviders.guildCommand.check(
        {},
        { ...kick, __claimant: c.value },
      );
      problems.push(checked.failures.map((f) => f.reason).join("\n"));
    }
    expect(problems[0]).toBe("");
    expect(problems[1]).toContain(
      "resources 'kick' (under my:TeamA), 'kick' (under my:TeamB) all declare the CHAT_INPUT command 'kick'",
    );
    expect(problems[2]).toContain("'kick-top'");
  });

  test("the resource classes hand the engine their claimant, and their name as declared", async () => {
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
    const results = await Promise.all([settle(g.name), settle(c.name)]);
    expect(results).toEqual([{ value: "ping" }, { value: "ping" }]);
  });
});
