/**
 * The dynamic resources tell their provider where their secrets are, by path and never by
 * value (sdk/secretPaths.ts, the hidden input `__secretPaths`): the dynamic-provider host
 * gets no secret marks. A `CommandSet` tells each scope's child the paths by key, and makes
 * the whole map secret when a key (a command's name) is. Pulumi's mocks stand in for the
 * engine and record each resource's inputs.
 */
import * as pulumi from "@pulumi/pulumi";
import { SECRET_PATHS_KEY, secretValue } from "../../provider/resources/propertyBags";
import { CommandSet } from "../../sdk/commandSet";
import { GlobalCommand, GuildCommandPermissions, ScopeCommands } from "../../sdk/resources";
import { secretPathsOf } from "../../sdk/secretPaths";
import { resetRegistrationOrder } from "../../sdk/registrationOrder";

const APP = "1300000000000000001";
const GUILD = "1300000000000000002";

/** Each resource's inputs as the engine got them, by name. */
const inputs = new Map<string, Record<string, unknown>>();

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        inputs.set(args.name, args.inputs as Record<string, unknown>);
        // A scope's ids come back secret, as the provider marks them when a key is secret.
        const commandIds = secretValue({ kick: "1300000000000000009" });
        return { id: `${args.name}-id`, state: { ...args.inputs, commandIds } };
      },
      call: (args) => args.inputs,
    },
    "project",
    "stack",
    true,
  );
});
beforeEach(() => {
  inputs.clear();
  resetRegistrationOrder();
});

/** The inputs of `name` once `resource` is registered. */
async function inputsOf(resource: pulumi.Resource, name: string): Promise<Record<string, unknown>> {
  await new Promise((resolve) => resource.urn.apply(resolve));
  const found = inputs.get(name);
  if (found === undefined) throw new Error(`${name} was not registered`);
  return found;
}

describe("secretPathsOf", () => {
  test("finds each secret at its path, at any depth, and nothing in plain values", async () => {
    const args = {
      name: pulumi.secret("poll"),
      description: "plain",
      nameLocalizations: { de: pulumi.secret("umfrage"), fr: "sondage" },
      options: [
        {
          type: 3,
          name: "topic",
          description: pulumi.output("not secret"),
          choices: [
            { name: "a", value: pulumi.secret("x") },
            pulumi.secret({ name: "b", value: "b" }),
          ],
        },
      ],
    };
    expect(await secretPathsOf(args)).toEqual([
      ["name"],
      ["nameLocalizations", "de"],
      ["options", 0, "choices", 0, "value"],
      ["options", 0, "choices", 1],
    ]);
    expect(await secretPathsOf({ name: "plain", options: [{ name: "o" }] })).toEqual([]);
  });

  test("an Output whose value holds a secret, or a Promise of one, is secret as a whole", async () => {
    const holder = pulumi.output("x").apply(() => ({ text: pulumi.secret("inner") }));
    const promised = Promise.resolve(pulumi.secret("later"));
    expect(await secretPathsOf({ a: holder, b: promised, c: Promise.resolve("plain") })).toEqual([
      ["a"],
      ["b"],
    ]);
  });
});

describe("the resources send their secret paths", () => {
  test("a command and a permissions resource", async () => {
    const command = new GlobalCommand("c", {
      applicationId: APP,
      name: pulumi.secret("poll"),
      description: "Run a poll",
      options: [{ type: 3, name: "topic", description: pulumi.secret("hidden") }],
    });
    expect((await inputsOf(command, "c"))[SECRET_PATHS_KEY]).toEqual([
      ["name"],
      ["options", 0, "description"],
    ]);
    const permissions = new GuildCommandPermissions("p", {
      applicationId: APP,
      guildId: GUILD,
      commandId: APP,
      permissions: [{ id: pulumi.secret(GUILD), type: 1, permission: true }],
    });
    expect((await inputsOf(permissions, "p"))[SECRET_PATHS_KEY]).toEqual([
      ["permissions", 0, "id"],
    ]);
  });

  test("a scope's commands by key", async () => {
    const scope = new ScopeCommands("s", {
      applicationId: APP,
      commands: { poll: { name: "poll", description: pulumi.secret("hidden") } },
    });
    expect((await inputsOf(scope, "s"))[SECRET_PATHS_KEY]).toEqual([
      ["commands", "poll", "description"],
    ]);
  });
});

describe("a CommandSet tells each scope where the secrets are", () => {
  test("by key, and the whole map when a name is secret; a duplicate secret name is not quoted", async () => {
    const set = new CommandSet("mods", {
      commands: [
        { name: "kick", description: pulumi.secret("Kick quietly") },
        { name: pulumi.secret("qzjxwv"), description: "Secret" },
        { name: "qzjxwv", description: "Twice" },
      ],
      scopes: [{ applicationId: APP }],
    });
    const child = set.scopes[`${APP}-global`] as ScopeCommands;
    const got = await inputsOf(child, `mods-${APP}-global`);
    expect(got[SECRET_PATHS_KEY]).toEqual([["commands"]]);
    // Secret as the definitions are (the mocks show its value), and quoting none of them.
    const problems = JSON.stringify(got["__programProblems"]);
    expect(problems).toContain("commands[2] declares [secret] (type 1)");
    expect(problems.toLowerCase()).not.toContain("qzjxwv");
  });

  test("a secret description only: its path by key, and the permissions' command id is not secret", async () => {
    const set = new CommandSet("plain", {
      commands: [{ name: "kick", description: pulumi.secret("Kick quietly") }],
      scopes: [{ applicationId: APP, guildId: GUILD }],
      permissions: [
        {
          guildId: GUILD,
          applicationId: APP,
          command: "kick",
          permissions: [{ id: GUILD, type: 1, permission: true }],
        },
      ],
    });
    const child = set.scopes[`${APP}-${GUILD}`] as ScopeCommands;
    const got = await inputsOf(child, `plain-${APP}-${GUILD}`);
    expect(got[SECRET_PATHS_KEY]).toEqual([["commands", "kick", "description"]]);
    // The permissions child registers once the scope's ids are known.
    const name = `plain-${APP}-${GUILD}-kick`;
    for (let i = 0; i < 100 && !inputs.has(name); i++) await new Promise((r) => setTimeout(r, 20));
    expect(inputs.get(name)?.[SECRET_PATHS_KEY]).toEqual([]);
    expect(inputs.get(name)?.["commandId"]).toBe("1300000000000000009");
    expect(await pulumi.isSecret(set.commandIds)).toBe(true);
  });
});
