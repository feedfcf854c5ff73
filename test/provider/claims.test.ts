/**
 * The program-wide rules as pure functions (claims.ts), which both doors use on the
 * runtime's `DeploymentClaims`, keyed by the resource's URN. One name per (application,
 * scope, type); 100 CHAT_INPUT, 15 USER, 15 MESSAGE, 1 PRIMARY_ENTRY_POINT per scope; no
 * entry point in a guild. Each problem once, naming every resource involved (two of one
 * name under different parents told apart by their parents).
 */
import type { Claim } from "../../provider/resources/claims";
import { DeploymentClaims, problemsOf, problemsOfClaims } from "../../provider/resources/claims";

const APP = "1300000000000000001";
const OTHER_APP = "1300000000000000009";
const GUILD = "1400000000000000010";

/** A resource's URN, at the top level or under a parent of type `parent`. */
const urnOf = (resource: string, parent?: string): string =>
  `urn:pulumi:dev::app::${parent === undefined ? "" : `${parent}$`}discord-commands:index:GuildCommand::${resource}`;

function claim(resource: string, name: string, more: Partial<Claim> = {}): Claim {
  return { urn: urnOf(resource), applicationId: APP, guildId: GUILD, type: 1, name, ...more };
}

describe("one name per application, scope and type", () => {
  test("two resources with one name in one scope: one problem naming both", () => {
    const a = claim("a", "ping");
    const b = claim("b", "ping");
    const problems = problemsOfClaims([a, b], [a, b]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("resources 'a', 'b' all declare the CHAT_INPUT command 'ping'");
    expect(problems[0]).toContain(`guild ${GUILD} of application ${APP}`);
    expect(problemsOf(b, [a, b])).toEqual(problems);
  });

  test.each([
    ["another guild", { guildId: "1400000000000000011" }],
    ["the global scope", { guildId: undefined }],
    ["another application", { applicationId: OTHER_APP }],
    ["another type", { type: 2 }],
  ])("the same name in %s is no problem", (_label, more) => {
    const a = claim("a", "ping");
    const b = claim("b", "ping", more);
    expect(problemsOfClaims([a, b], [a, b])).toEqual([]);
  });
});

describe("the caps of a scope", () => {
  const many = (n: number, more: Partial<Claim> = {}): Claim[] =>
    Array.from({ length: n }, (_, i) => claim(`r${i}`, `cmd${i}`, more));

  test.each([
    ["CHAT_INPUT", 1, 100],
    ["USER", 2, 15],
    ["MESSAGE", 3, 15],
  ])("%s: the limit passes, one more is one problem listing them all", (name, type, limit) => {
    const full = many(limit, { type });
    expect(problemsOfClaims(full, full)).toEqual([]);
    const over = many(limit + 1, { type });
    const problems = problemsOfClaims(over, over);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`${limit + 1} ${name} commands in guild ${GUILD}`);
    expect(problems[0]).toContain(`(the limit is ${limit})`);
    expect(problems[0]).toContain(`'r${limit}'`);
  });

  test("the caps count per scope and type: 100 slash and 15 user commands in a guild pass", () => {
    const all = [...many(100), ...many(15, { type: 2 }).map((c) => ({ ...c, name: `u${c.name}` }))];
    expect(problemsOfClaims(all, all)).toEqual([]);
  });

  test("only the claims checked are judged, against all: a set's 60 meet 50 singles", () => {
    const singles = many(50);
    const set = Array.from({ length: 60 }, (_, i) => claim("set", `s${i}`, { key: `s${i}` }));
    const problems = problemsOfClaims(set, [...singles, ...set]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("110 CHAT_INPUT commands");
    expect(problems[0]).toContain(`'r0', `);
    expect(problems[0]).toContain(`'set commands["s59"]'`);
  });

  test("an entry point in a guild, and two in the global scope", () => {
    const inGuild = claim("launch", "launch", { type: 4 });
    expect(problemsOf(inGuild, [inGuild])).toEqual([
      `resource 'launch' declares a PRIMARY_ENTRY_POINT command in guild ${GUILD}: ` +
        "entry points exist only in the global scope",
    ]);
    const first = claim("one", "launch", { type: 4, guildId: undefined });
    const second = claim("two", "play", { type: 4, guildId: undefined });
    expect(problemsOf(first, [first])).toEqual([]);
    expect(problemsOfClaims([second], [first, second])).toEqual([
      `2 PRIMARY_ENTRY_POINT commands in the global scope of application ${APP} (the limit is 1): 'one', 'two'`,
    ]);
  });
});

describe("DeploymentClaims (the plugin's view of one deployment)", () => {
  test("a resource checked again replaces its claims; a release removes them", () => {
    const claims = new DeploymentClaims();
    expect(claims.claimAll("urn:set", [claim("set", "ping"), claim("set", "pong")])).toEqual([]);
    // The same resource's check again (preview, then up): not a duplicate of itself.
    expect(claims.claimAll("urn:set", [claim("set", "ping"), claim("set", "pong")])).toEqual([]);
    // A single command claiming a name the set holds: the problem names both.
    const clash = claims.claim("urn:single", claim("single", "pong"));
    expect(clash).toHaveLength(1);
    expect(clash[0]).toContain("resources 'set', 'single'");
    claims.release("urn:set");
    expect(claims.claim("urn:single", claim("single", "pong"))).toEqual([]);
  });

  test("two resources of one name under different parents are two claimants, told apart by their parents", () => {
    const claims = new DeploymentClaims();
    const kick = { applicationId: APP, guildId: GUILD, name: "kick", description: "Kick" };
    expect(claims.checkCommand(urnOf("kick", "my:TeamA"), "guild", kick)).toEqual([]);
    expect(claims.checkCommand(urnOf("kick", "my:Org$my:TeamB"), "guild", kick)).toEqual([
      `resources 'kick' (under my:TeamA), 'kick' (under my:Org > my:TeamB) all declare the ` +
        `CHAT_INPUT command 'kick' in guild ${GUILD} of application ${APP}: names are unique ` +
        "per application, type and scope, and creating an existing name overwrites it",
    ]);
    // At the top level too; a name no other resource has needs no parents.
    const third = claims.checkCommand(urnOf("kick"), "guild", kick);
    expect(third[0]).toContain("'kick' (at the top level)");
    expect(
      claims.checkCommand(urnOf("ban", "my:TeamA"), "guild", { ...kick, name: "ban" }),
    ).toEqual([]);
  });

  test("who fills a scope: each resource once, with its count, and the live commands none declares by id", () => {
    const claims = new DeploymentClaims();
    const set = Array.from({ length: 90 }, (_, i) => `s${i}`);
    claims.checkScope(urnOf("set-guild"), {
      applicationId: APP,
      guildId: GUILD,
      commands: Object.fromEntries(set.map((n) => [n, { name: n, description: n }])),
    });
    for (const n of ["extra-0", "extra-1"]) {
      claims.checkCommand(urnOf(n), "guild", { applicationId: APP, guildId: GUILD, name: n });
    }
    const live = (name: string, i: number): { name: string; id: string } => ({
      name,
      id: `10000000000000${String(i).padStart(4, "0")}`,
    });
    const strays = Array.from({ length: 12 }, (_, i) => live(`stray${i}`, i));
    const commands = [...set.map((n) => ({ name: n })), live("extra-1", 99), ...strays];
    // A live name no resource checked so far declares may be a later resource's secret
    // name: none is shown, only ids.
    expect(claims.whoDeclares(APP, GUILD, 1, commands)).toBe(
      "the stack's resources checked so far declare 91 of them: 'set-guild' (90 commands), " +
        "'extra-1'; 12 live commands no resource checked so far declares, by id: " +
        `${strays
          .slice(0, 10)
          .map((c) => c.id)
          .join(", ")}, ...`,
    );
    // Another scope or type: nobody's.
    expect(claims.whoDeclares(APP, undefined, 1, [live("s1", 1)])).toBe(
      "1 live command no resource checked so far declares, by id: 100000000000000001",
    );
    expect(claims.whoDeclares(APP, GUILD, 1, [])).toBe("");
  });
});
