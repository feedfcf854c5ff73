/**
 * The command set's structural checks (provider/resources/commandSetPlan.ts), which both
 * doors call: the dynamic resources' `CommandSet` (sdk/commandSet.ts) and the plugin's
 * construct (provider/plugin/commandSet.ts). The scopes' and permissions' problems fail
 * the set when it is declared; the definitions' problems reach every scope's child, whose
 * `check` fails with them before any request.
 */
import {
  definitionProblems,
  scopeCommandMap,
  setStructureProblems,
} from "../../provider/resources/commandSetPlan";
import { Secrecy } from "../../provider/schema";

const A = "1300000000000000002";
const B = "1300000000000000012";
const DEFS = [
  { name: "ban", description: "Remove a member" },
  { name: "kick", description: "Kick a member", contexts: [0] },
  { type: 2, name: "Info" },
];

describe("the definitions", () => {
  test("a valid set has no problems", () => {
    expect(definitionProblems("mods", DEFS, [{ guildId: A, command: "ban" }])).toEqual([]);
    expect(definitionProblems("mods", DEFS, [{ guildId: A, command: "Info", type: 2 }])).toEqual(
      [],
    );
  });

  test("permissions naming a command the set does not declare: the set and the command", () => {
    expect(definitionProblems("mods", DEFS, [{ guildId: A, command: "banish" }])).toEqual([
      `command set 'mods': permissions in guild ${A} name the command 'banish', which the set does not declare`,
    ]);
    // A name the set declares with another type is another command.
    expect(definitionProblems("mods", DEFS, [{ guildId: A, command: "kick", type: 2 }])).toEqual([
      `command set 'mods': permissions in guild ${A} name the command 'kick' (type 2), which the set does not declare`,
    ]);
  });

  test("permissions naming, in plain text, a command whose name or type is secret: refused without the name (issue 50)", () => {
    const problem = (i: number): string =>
      `command set 'mods': permissions in guild ${A} name commands[${i}], whose name is secret: ` +
      "a permissions entry's command names its child resource (its name and URN, never secret), " +
      "so it cannot name a secret command; keep that name plain, or give the command's " +
      "permissions with a GuildCommandPermissions resource on its id";
    const secretName = new Secrecy([[0, "name"]]);
    expect(definitionProblems("mods", DEFS, [{ guildId: A, command: "ban" }], secretName)).toEqual([
      problem(0),
    ]);
    const secretType = new Secrecy([[2, "type"]]);
    expect(
      definitionProblems("mods", DEFS, [{ guildId: A, command: "Info", type: 2 }], secretType),
    ).toEqual([problem(2)]);
    // A secret description keeps the name plain: the entry may name it.
    const secretDescription = new Secrecy([[1, "description"]]);
    expect(
      definitionProblems("mods", DEFS, [{ guildId: A, command: "kick" }], secretDescription),
    ).toEqual([]);
  });

  test("a definition twice, and one without a name", () => {
    expect(
      definitionProblems("mods", [...DEFS, { name: "kick", description: "Again" }], []),
    ).toEqual([
      "command set 'mods': commands[3] declares 'kick' (type 1) a second time: a name is unique per type in a scope",
    ]);
    expect(definitionProblems("mods", [...DEFS, { description: "x" }], [])).toEqual([
      "command set 'mods': commands[3] needs a name",
    ]);
  });

  test("every scope's child gets the definitions' problems, and the first of two definitions", () => {
    const defs = [...DEFS, { name: "kick", description: "Again" }];
    const perms = [{ guildId: A, command: "banish" }];
    const global = scopeCommandMap("mods", defs, {}, perms);
    const guild = scopeCommandMap("mods", defs, { guildId: A }, perms);
    expect(global.problems).toHaveLength(2);
    expect(guild.problems).toEqual(global.problems);
    expect(global.problems[1]).toMatch(/'banish', which the set does not declare/);
    expect(global.commands["kick"]).toEqual({
      name: "kick",
      description: "Kick a member",
      contexts: [0],
    });
    // A guild keeps no contexts.
    expect(guild.commands["kick"]).toEqual({ name: "kick", description: "Kick a member" });
  });
});

describe("the scopes and permissions", () => {
  test("a scope twice, permissions twice, a guild the set does not reach", () => {
    expect(
      setStructureProblems(
        "mods",
        [{ guildId: A }, { guildId: A }],
        [
          { guildId: A, command: "ban" },
          { guildId: A, command: "ban" },
          { guildId: B, command: "ban" },
        ],
      ),
    ).toEqual([
      `command set 'mods': guild ${A} is listed twice`,
      `command set 'mods': permissions of 'ban' in guild ${A} are listed twice`,
      `command set 'mods': permissions of 'ban' in guild ${B}, but the set is deployed neither to that guild nor to the global scope`,
    ]);
  });

  test("the global scope reaches every guild's permissions", () => {
    expect(setStructureProblems("mods", [{}], [{ guildId: B, command: "ban" }])).toEqual([]);
  });
});
