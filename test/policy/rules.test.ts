/**
 * The policy pack's rules one by one (policy/rules.ts, policy/commands.ts,
 * policy/permissions.ts), on resources as `@pulumi/policy` hands them in either door, and
 * its secret marks (policy/secretMarks.ts) on the real `@pulumi/policy` deserialization,
 * with the `policy-secrets` switch on and off. The pack through the CLI is
 * test/engine/policy-pack.test.ts.
 */
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import type { SeenResource } from "../../policy/commands";
import { commandsOf, kindOf, stackOf } from "../../policy/commands";
import { stackPermissionsViolations } from "../../policy/permissions";
import {
  capIn,
  everyoneGrants,
  matches,
  mustBeHidden,
  requiredLocales,
  runsIn,
  scopeCap,
  stageRules,
} from "../../policy/rules";
import type * as SecretMarks from "../../policy/secretMarks";
import { keepSecretMarks, marksOf, secretPathsOf } from "../../policy/secretMarks";

type SecretMarksModule = typeof SecretMarks;

const G = "1300000000000000002";
const APP = "1300000000000000001";
const urn = (type: string, name: string, stack = "dev"): string =>
  `urn:pulumi:${stack}::proj::${type}::${name}`;

/** A resource as the pack sees it: its props deserialized by `@pulumi/policy`, none secret. */
function resource(type: string, name: string, props: Record<string, unknown>): SeenResource {
  return { type, name, urn: urn(type, name), props: withMarks(props, []) };
}

const guildCommand = (
  name: string,
  props: Record<string, unknown>,
  door = "plugin",
): SeenResource =>
  resource(
    door === "plugin"
      ? "discord-commands:index:GuildCommand"
      : "pulumi-nodejs:dynamic/discord:GuildCommand",
    name,
    { applicationId: APP, guildId: G, ...props },
  );

/** Props as the pack's wrapped deserialization leaves them: plain values, marks beside. */
function withMarks(
  props: Record<string, unknown>,
  secretPaths: (string | number)[][],
): Record<string, unknown> {
  keepSecretMarks();
  const wire = structuredClone(props);
  for (const p of secretPathsWire(secretPaths)) p(wire);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const deserialize = require("@pulumi/policy/deserialize") as {
    deserializeProperties(s: structproto.Struct, proxy: boolean): Record<string, unknown>;
  };
  return deserialize.deserializeProperties(structproto.Struct.fromJavaScript(wire as never), false);
}

/** Wraps the value at each path in the engine's secret envelope. */
function secretPathsWire(paths: (string | number)[][]): ((o: Record<string, unknown>) => void)[] {
  return paths.map((p) => (o) => {
    let at: Record<string | number, unknown> = o;
    for (const k of p.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
    const last = p[p.length - 1] as string | number;
    at[last] = {
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
      value: at[last],
    };
  });
}

describe("the package's resources, both doors", () => {
  test.each([
    ["pulumi-nodejs:dynamic/discord:GuildCommand", "GuildCommand"],
    ["discord-commands:index:GlobalCommand", "GlobalCommand"],
    ["discord-commands:index:ScopeCommands", "ScopeCommands"],
    ["pulumi-nodejs:dynamic/discord:CommandSetScopes", "CommandSetScopes"],
    ["pulumi-nodejs:dynamic/discord:GuildCommandPermissions", "GuildCommandPermissions"],
    ["pulumi-nodejs:dynamic:Resource", undefined],
    ["aws:s3/bucket:Bucket", undefined],
  ])("%s is %s", (type, kind) => expect(kindOf(type)).toBe(kind));

  test("a ScopeCommands' commands are each seen, by key, with the scope", () => {
    const r = resource("discord-commands:index:ScopeCommands", "mods-1", {
      applicationId: APP,
      guildId: G,
      commands: { ban: { description: "Ban" }, "user:Report": { type: 2 } },
    });
    const seen = commandsOf(r);
    expect(seen.map((c) => [c.label, c.body["name"], c.guildId])).toEqual([
      ['command "ban"', "ban", G],
      ['command "user:Report"', "Report", G],
    ]);
    expect(stackOf(r.urn)).toBe("dev");
  });

  test("a packed set's definitions are each seen in each of its scopes; a secret name by place", () => {
    const props = withMarks(
      {
        applicationId: APP,
        scopes: [{}, { guildId: G }],
        commands: [
          { name: "ban", description: "Ban" },
          { type: 2, name: "mod-hush" },
        ],
      },
      [["commands", 1, "name"]],
    );
    const r = {
      type: "pulumi-nodejs:dynamic/discord:CommandSetScopes",
      name: "mods-scopes",
      urn: urn("x", "mods-scopes"),
      props,
    };
    const seen = commandsOf(r);
    expect(seen.map((c) => [c.label, c.guildId, c.applicationId])).toEqual([
      ['command "ban"', undefined, APP],
      ["command #2 (its name is secret)", undefined, APP],
      ['command "ban"', G, APP],
      ["command #2 (its name is secret)", G, APP],
    ]);
    expect(seen[1]?.secretAt(["name"])).toBe(true);
    expect(seen[0]?.secretAt(["name"])).toBe(false);
  });
});

describe("rules", () => {
  const [ban] = commandsOf(
    guildCommand("ban", {
      name: "mod-ban",
      description: "Ban",
      nameLocalizations: { de: "bannen" },
      options: [
        { type: 3, name: "reason", description: "Why", nameLocalizations: { de: "grund" } },
        {
          type: 6,
          name: "who",
          description: "Who",
          nameLocalizations: { de: "wer", fr: "qui" },
          descriptionLocalizations: { de: "Wer", fr: "Qui" },
        },
      ],
    }),
  );
  if (ban === undefined) throw new Error("no command");

  test("required locales: the command's and each option's name and description", () => {
    expect(requiredLocales(ban, { locales: ["de", "fr"] })).toEqual([
      'GuildCommand "ban" (command "mod-ban"): its name lacks the locales fr',
      'GuildCommand "ban" (command "mod-ban"): its description lacks the locales de, fr',
      'GuildCommand "ban" (command "mod-ban"): its option "reason": its name lacks the locales fr',
      'GuildCommand "ban" (command "mod-ban"): its option "reason": its description lacks the locales de, fr',
    ]);
  });

  test("required locales: commands and options exempt", () => {
    expect(requiredLocales(ban, { locales: ["de"], exempt: ["/^mod-/"] })).toEqual([]);
    expect(requiredLocales(ban, { locales: ["de"], exempt: ["mod-ban.reason"] })).toEqual([
      'GuildCommand "ban" (command "mod-ban"): its description lacks the locales de',
    ]);
  });

  test("hidden commands: names or patterns must set default member permissions", () => {
    expect(mustBeHidden(ban, { commands: ["/^mod-/"] })).toEqual([
      'GuildCommand "ban" (command "mod-ban"): must set defaultMemberPermissions (hidden from members unless granted): it matches "/^mod-/"',
    ]);
    expect(mustBeHidden(ban, { commands: ["ban"] })).toEqual([]);
    const [hidden] = commandsOf(
      guildCommand("b", { name: "mod-ban", defaultMemberPermissions: "0" }),
    );
    expect(mustBeHidden(hidden!, { commands: ["mod-ban"] })).toEqual([]);
    expect(matches(["/^MOD/i"], "mod-x")).toBe("/^MOD/i");
  });

  test("stage rules: allowed guilds, global only, no nsfw; only in matching stacks", () => {
    expect(stageRules(ban, "prod", { allowedGuilds: ["1"] })).toEqual([
      `GuildCommand "ban" (command "mod-ban"): guild ${G} is not among the guilds stack "prod" may hold commands in (1)`,
    ]);
    expect(stageRules(ban, "prod", { allowedGuilds: [G] })).toEqual([]);
    expect(stageRules(ban, "prod", { globalOnly: true })).toEqual([
      `GuildCommand "ban" (command "mod-ban"): stack "prod" holds only global commands, not guild ${G}'s`,
    ]);
    const [adult] = commandsOf(
      resource("discord-commands:index:GlobalCommand", "adult", {
        applicationId: APP,
        name: "adult",
        nsfw: true,
      }),
    );
    expect(stageRules(adult!, "prod", { globalOnly: true, noNsfw: true })).toEqual([
      'GlobalCommand "adult" (command "adult"): stack "prod" holds no nsfw commands',
    ]);
    expect(runsIn("^prod", "production")).toBe(true);
    expect(runsIn("^prod$", "dev")).toBe(false);
    expect(runsIn(undefined, "dev")).toBe(true);
  });

  test("a cap per scope counts every resource's commands in the scope", () => {
    const set = resource("discord-commands:index:ScopeCommands", "set-g", {
      applicationId: APP,
      guildId: G,
      commands: { a: {}, b: {} },
    });
    const all = [...commandsOf(set), ...commandsOf(guildCommand("c", { name: "c" }, "dynamic"))];
    expect(scopeCap(all, { maxPerScope: 3 }, "dev")).toEqual([]);
    expect(scopeCap(all, { maxPerScope: 2 }, "dev")).toEqual([
      `guild ${G} would hold 3 commands of this stack, more than the cap of 2, declared by ScopeCommands "set-g", GuildCommand "c" (the last: GuildCommand "c" (command "c"))`,
    ]);
  });

  test("a cap per stage: the first stack pattern that matches", () => {
    const perStage = { maxPerScope: { "^dev$": 25, "^staging": 50 } };
    expect(capIn(perStage, "dev")).toBe(25);
    expect(capIn(perStage, "staging-eu")).toBe(50);
    expect(capIn(perStage, "prod")).toBeUndefined();
    expect(capIn({ maxPerScope: 10 }, "prod")).toBe(10);
  });

  test("permissions: @everyone or all channels allowed on a restricted command", () => {
    const [restricted] = commandsOf(
      guildCommand("r", { name: "purge", defaultMemberPermissions: "8192" }),
    );
    const allChannels = (BigInt(G) - 1n).toString();
    expect(
      everyoneGrants(restricted!, G, [
        { id: G, type: 1, permission: true },
        { id: allChannels, type: 3, permission: true },
        { id: "1300000000000000009", type: 1, permission: true },
        { id: G, type: 1, permission: false },
      ]),
    ).toEqual([
      `GuildCommand "r" (command "purge"): a permissions entry in guild ${G} allows @everyone to use it, though its default member permissions restrict it`,
      `GuildCommand "r" (command "purge"): a permissions entry in guild ${G} allows all channels to use it, though its default member permissions restrict it`,
    ]);
    const [open] = commandsOf(guildCommand("o", { name: "ping" }));
    expect(everyoneGrants(open!, G, [{ id: G, type: 1, permission: true }])).toEqual([]);
  });

  const purgeSets: [string, SeenResource][] = [
    [
      'ScopeCommands "set-g"',
      resource("discord-commands:index:ScopeCommands", "set-g", {
        applicationId: APP,
        guildId: G,
        commands: { purge: { defaultMemberPermissions: "8192" } },
        commandIds: { purge: "1300000000000000077" },
      }),
    ],
    [
      'CommandSetScopes "mods-scopes"',
      resource("pulumi-nodejs:dynamic/discord:CommandSetScopes", "mods-scopes", {
        applicationId: APP,
        scopes: [{}, { guildId: G }],
        commands: [{ name: "purge", defaultMemberPermissions: "8192" }],
        commandIds: {
          global: { purge: "1300000000000000076" },
          [G]: { purge: "1300000000000000077" },
        },
      }),
    ],
  ];

  test.each(purgeSets)(
    "permissions resources are matched to their command by id: %s's by scope and key",
    (label, set) => {
      const perms = resource("pulumi-nodejs:dynamic/discord:GuildCommandPermissions", "p", {
        guildId: G,
        commandId: "1300000000000000077",
        permissions: [{ id: G, type: 1, permission: true }],
      });
      expect(stackPermissionsViolations([set, perms])).toEqual([
        `${label} (command "purge"): a permissions entry in guild ${G} allows @everyone to use it, though its default member permissions restrict it (GuildCommandPermissions "p")`,
      ]);
    },
  );
});

describe("secret names are never quoted", () => {
  test("the engine's marks are kept beside the values, at any depth", () => {
    const props = withMarks(
      { name: "mod-hush", description: "x", options: [{ name: "why", description: "y" }] },
      [["name"], ["options", 0, "description"]],
    );
    expect(props["name"]).toBe("mod-hush"); // policies still read the value
    expect(marksOf(props)).toEqual([["name"], ["options", 0, "description"]]);
    const [c] = commandsOf({ ...guildCommandMeta, props: { ...props } as never });
    expect(c?.label).toBe("command (its name is secret)");
    const lines = [
      ...mustBeHidden(c!, { commands: ["/^mod-/"] }),
      ...requiredLocales(c!, { locales: ["de"] }),
    ];
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).not.toContain("mod-hush");
  });

  test("a secret ScopeCommands definition hides its key", () => {
    const props = withMarks(
      {
        applicationId: APP,
        guildId: G,
        commands: { "mod-hush": { description: "x" }, open: { description: "y" } },
      },
      [["commands", "mod-hush"]],
    );
    const seen = commandsOf({
      ...guildCommandMeta,
      type: "discord-commands:index:ScopeCommands",
      props,
    });
    expect(seen.map((c) => c.label)).toEqual(["command #1 (its name is secret)", 'command "open"']);
  });

  test("without the marks (the policy-secrets switch), no command name is quoted", () => {
    jest.isolateModules(() => {
      process.env["DISCORD_COMMANDS_PUBLIC_PATHS"] = "policy-secrets";
      try {
        // A fresh copy of the module, which has not wrapped anything yet.
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const fresh = require("../../policy/secretMarks") as SecretMarksModule;
        expect(fresh.keepSecretMarks()).toBe(false);
      } finally {
        delete process.env["DISCORD_COMMANDS_PUBLIC_PATHS"];
      }
    });
    const plain = {
      ...guildCommandMeta,
      props: { applicationId: APP, guildId: G, name: "mod-open" },
    };
    expect(commandsOf(plain)[0]?.label).toBe("command (its name is secret)");
  });

  test("secretPathsOf finds the envelope, not the text", () => {
    expect(
      secretPathsOf({
        a: [
          1,
          { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: "s" },
        ],
        b: "1b47061264138c4ac30d75fd1eb44270",
      }),
    ).toEqual([["a", 1]]);
  });
});

const guildCommandMeta = {
  type: "discord-commands:index:GuildCommand",
  name: "quiet",
  urn: urn("discord-commands:index:GuildCommand", "quiet"),
};
