/**
 * The argument types take an Input at every depth: a `pulumi.secret(...)` (or another
 * resource's output) as an option's description, a localization, a choice's name or a
 * permissions entry's id type-checks (`npm run typecheck` compiles this file), and a value
 * of the wrong type still does not. At run time, the values reach the engine as given.
 */
import * as pulumi from "@pulumi/pulumi";
import type {
  CommandSetArgs,
  GlobalCommandArgs,
  GuildCommandPermissionsArgs,
  ScopeCommandsArgs,
} from "pulumi-discord-commands";

const secret = pulumi.secret("hidden text");

const command: GlobalCommandArgs = {
  name: "poll",
  description: "Run a poll",
  descriptionLocalizations: { de: secret },
  options: [
    {
      type: 3,
      name: "topic",
      description: secret,
      nameLocalizations: { fr: pulumi.output("sujet") },
      choices: [{ name: secret, value: "a" }, pulumi.output({ name: "b", value: "b" })],
    },
  ],
};

const permissions: GuildCommandPermissionsArgs = {
  guildId: "1300000000000000001",
  commandId: "1300000000000000002",
  permissions: [{ id: pulumi.secret("1300000000000000003"), type: 1, permission: true }],
};

const scope: ScopeCommandsArgs = {
  commands: { poll: { name: "poll", description: secret, options: command.options } },
};

const set: CommandSetArgs = {
  commands: [{ name: "poll", description: "Run a poll", options: command.options }],
  scopes: [{}],
  permissions: [
    {
      guildId: "1300000000000000001",
      command: "poll",
      permissions: [{ id: secret, type: 1, permission: true }],
    },
  ],
};

const wrong: GlobalCommandArgs = {
  name: "poll",
  description: "Run a poll",
  // @ts-expect-error a description is a string, not a number, at any depth
  options: [{ type: 3, name: "topic", description: pulumi.output(3) }],
};

test("nested inputs keep their values (and secrets) as given", async () => {
  const resolved = await new Promise((resolve) =>
    pulumi.output(command.options).apply((o) => resolve(o)),
  );
  expect(resolved).toEqual([
    {
      type: 3,
      name: "topic",
      description: "hidden text",
      nameLocalizations: { fr: "sujet" },
      choices: [
        { name: "hidden text", value: "a" },
        { name: "b", value: "b" },
      ],
    },
  ]);
  expect(await pulumi.isSecret(pulumi.output(command.options))).toBe(true);
  expect([permissions, scope, set, wrong].length).toBe(4);
});
