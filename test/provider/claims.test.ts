/**
 * The program-wide rules as pure functions (claims.ts), which both doors use: the SDK's
 * registry and the plugin's `DeploymentClaims`. One name per (application, scope, type);
 * 100 CHAT_INPUT, 15 USER, 15 MESSAGE, 1 PRIMARY_ENTRY_POINT per scope; no entry point in
 * a guild. Each problem once, naming every resource involved.
 */
import type { Claim } from "../../provider/resources/claims";
import { DeploymentClaims, problemsOf, problemsOfClaims } from "../../provider/resources/claims";

const APP = "1300000000000000001";
const OTHER_APP = "1300000000000000009";
const GUILD = "1400000000000000010";

function claim(resource: string, name: string, more: Partial<Claim> = {}): Claim {
  return { resource, applicationId: APP, guildId: GUILD, type: 1, name, ...more };
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
    const set = Array.from({ length: 60 }, (_, i) => claim(`set commands["s${i}"]`, `s${i}`));
    const problems = problemsOfClaims(set, [...singles, ...set]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("110 CHAT_INPUT commands");
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
});
