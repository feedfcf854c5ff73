/**
 * The one field description holds: every field of the wire shapes (shapes.ts, the zod
 * schemas) is seen by the provider's `diff` when it changes, at the command, option and
 * choice level, and the neutral spellings of "nothing" are not. The field lists below
 * come from the zod shapes, not from the field table (fields.ts), so a field that slips
 * out of the canonical form, or a new field without a comparison, fails here. A command
 * field without a mutation below is changed to its sample value (test/helpers/fieldSamples.ts).
 */
import type { CommandField, WireCommandBody } from "../../provider/schema";
import { fieldSample, optionSample } from "../helpers/fieldSamples";
import {
  validateWireCommand,
  wireChoiceSchema,
  wireCommandBodySchema,
  wireOptionSchema,
  wireToSdk,
} from "../../provider/schema";
import { commandProvider } from "../../provider/resources/commandLifecycle";
import { ProviderRuntime } from "../../provider/resources/runtime";

const APP = "1300000000000000001";
type Body = Record<string, unknown>;

/** A global CHAT_INPUT command that sets every command-level field it may hold. */
function base(): Body {
  return {
    type: 1,
    name: "base",
    name_localizations: { fr: "base-fr" },
    description: "Base command",
    description_localizations: { fr: "Commande de base" },
    default_member_permissions: "32",
    dm_permission: false,
    default_permission: true,
    nsfw: false,
    integration_types: [0],
    contexts: [0, 1],
    options: [
      {
        type: 3,
        name: "text",
        name_localizations: { fr: "texte" },
        description: "Some text",
        description_localizations: { fr: "Du texte" },
        required: true,
        min_length: 1,
        max_length: 50,
        choices: [{ name: "alpha", name_localizations: { fr: "alpha-fr" }, value: "a" }],
      },
      { type: 4, name: "count", description: "A count", min_value: 0, max_value: 10 },
      { type: 10, name: "ratio", description: "A ratio", autocomplete: true },
      { type: 7, name: "where", description: "A channel", channel_types: [0, 5] },
    ],
  };
}

/** A command with a subcommand, for the option-level `options` field. */
function withSubcommand(extra: Body[] = []): Body {
  return {
    name: "nest",
    description: "Nested",
    options: [
      {
        type: 1,
        name: "sub",
        description: "A subcommand",
        options: [{ type: 5, name: "flag", description: "A flag" }, ...extra],
      },
    ],
  };
}

const option = (b: Body, i: number): Body => (b["options"] as Body[])[i] as Body;
const choice = (b: Body): Body => (option(b, 0)["choices"] as Body[])[0] as Body;

/** Per field: a (before, after) pair that differs in that field only. */
type Mutation = () => [Body, Body];
const change =
  (edit: (b: Body) => void, from: () => Body = base): Mutation =>
  () => {
    const after = from();
    edit(after);
    return [from(), after];
  };

const COMMAND_MUTATIONS: Record<string, Mutation | "identifies"> = {
  id: "identifies",
  type: change((b) => {
    b["type"] = 2;
    b["name"] = "Base";
    delete b["description"];
    delete b["description_localizations"];
    delete b["options"];
    b["name_localizations"] = { fr: "Base FR" };
  }),
  name: change((b) => (b["name"] = "based")),
  name_localizations: change((b) => (b["name_localizations"] = { fr: "autre" })),
  description: change((b) => (b["description"] = "Another description")),
  description_localizations: change((b) => (b["description_localizations"] = { de: "Befehl" })),
  options: change((b) => (b["options"] as Body[]).pop()),
  default_member_permissions: change((b) => (b["default_member_permissions"] = "0")),
  // With contexts set, dm_permission is derived from them (as the service does): the
  // field on its own is compared on a command without contexts.
  dm_permission: change(
    (b) => (b["dm_permission"] = true),
    () => {
      const b = base();
      delete b["contexts"];
      return b;
    },
  ),
  default_permission: change((b) => (b["default_permission"] = false)),
  nsfw: change((b) => (b["nsfw"] = true)),
  integration_types: change((b) => (b["integration_types"] = [0, 1])),
  contexts: change((b) => (b["contexts"] = [0])),
  handler: change(
    (b) => (b["handler"] = 2),
    () => ({ type: 4, name: "Launch", description: "Launch the activity", handler: 1 }),
  ),
};

const OPTION_MUTATIONS: Record<string, Mutation> = {
  type: change((b) => (option(b, 1)["type"] = 10)),
  name: change((b) => (option(b, 0)["name"] = "words")),
  name_localizations: change((b) => (option(b, 0)["name_localizations"] = { fr: "mots" })),
  description: change((b) => (option(b, 0)["description"] = "Other text")),
  description_localizations: change(
    (b) => (option(b, 0)["description_localizations"] = { fr: "Autre" }),
  ),
  required: change((b) => (option(b, 0)["required"] = false)),
  choices: change((b) => (option(b, 0)["choices"] as Body[]).push({ name: "beta", value: "b" })),
  options: change(
    () => undefined,
    () => withSubcommand(),
  ),
  channel_types: change((b) => (option(b, 3)["channel_types"] = [0])),
  min_value: change((b) => (option(b, 1)["min_value"] = 1)),
  max_value: change((b) => (option(b, 1)["max_value"] = 9)),
  min_length: change((b) => (option(b, 0)["min_length"] = 2)),
  max_length: change((b) => (option(b, 0)["max_length"] = 49)),
  autocomplete: change((b) => (option(b, 2)["autocomplete"] = false)),
};
// The option-level `options` pair must differ: give the "after" side a second option.
OPTION_MUTATIONS["options"] = () => [
  withSubcommand(),
  withSubcommand([{ type: 3, name: "extra", description: "Another" }]),
];

const CHOICE_MUTATIONS: Record<string, Mutation> = {
  name: change((b) => (choice(b)["name"] = "omega")),
  name_localizations: change((b) => (choice(b)["name_localizations"] = { fr: "oméga" })),
  value: change((b) => (choice(b)["value"] = "z")),
};

/**
 * A command field with no mutation above: the base command, then the same with the
 * field's sample value (test/helpers/fieldSamples.ts), so a new plain field needs no entry.
 */
function sampleMutation(field: CommandField): Mutation {
  return change((b) => (b[field] = fieldSample(field)));
}

/** An option field with no mutation above: its sample option, without and with the field. */
function optionMutation(field: string): Mutation {
  return () => {
    const after = optionSample(field);
    const before = { ...after };
    delete before[field];
    const command = (o: Body): Body => ({ name: "opt", description: "Options", options: [o] });
    return [command(before), command(after)];
  };
}

const provider = commandProvider("global", new ProviderRuntime());
const bag = (b: Body) => ({ applicationId: APP, ...wireToSdk(b as WireCommandBody) });

async function providerSees(before: Body, after: Body): Promise<boolean> {
  for (const b of [before, after]) {
    const v = validateWireCommand(b, { scope: "global", mode: "create" });
    expect(v.ok ? [] : v.issues).toEqual([]); // an invalid side would be a change anyway
  }
  return (await provider.diff("id", bag(before), bag(after))).changes;
}

describe.each([
  ["command", Object.keys(wireCommandBodySchema.shape), COMMAND_MUTATIONS],
  ["option", Object.keys(wireOptionSchema.shape), OPTION_MUTATIONS],
  ["choice", Object.keys(wireChoiceSchema.shape), CHOICE_MUTATIONS],
] as const)("every %s field of the wire shape", (_level, fields, mutations) => {
  test.each(fields.map((f) => [f]))("%s: a change is a diff", async (field) => {
    const mutation =
      (mutations as Record<string, Mutation | "identifies">)[field] ??
      (_level === "command"
        ? sampleMutation(field as CommandField)
        : _level === "option"
          ? optionMutation(field)
          : undefined);
    if (mutation === undefined) throw new Error(`no mutation for ${field}: add one to this test`);
    if (mutation === "identifies") {
      // `id` only matches a bulk body to a live command: never a change of the command.
      const b = base();
      expect(await providerSees(b, b)).toBe(false);
      return;
    }
    const [before, after] = mutation();
    expect(await providerSees(before, after)).toBe(true);
    expect(await providerSees(before, before)).toBe(false);
  });
});

describe("the neutral spellings of nothing are not a diff", () => {
  /** [label, what both sides share, what only the "after" side spells differently] */
  const neutral: [string, (b: Body) => void, (b: Body) => void][] = [
    [
      "command localizations absent vs null",
      (b) => delete b["name_localizations"],
      (b) => (b["name_localizations"] = null),
    ],
    [
      "command localizations absent vs {}",
      (b) => delete b["name_localizations"],
      (b) => (b["name_localizations"] = {}),
    ],
    [
      "a localized value equal to the default",
      (b) => delete b["name_localizations"],
      (b) => (b["name_localizations"] = { fr: "base" }),
    ],
    [
      "option localizations absent vs null and {}",
      () => undefined,
      (b) => (
        (option(b, 1)["name_localizations"] = null),
        (option(b, 1)["description_localizations"] = {})
      ),
    ],
    [
      "choice localizations absent vs {}",
      (b) => delete choice(b)["name_localizations"],
      (b) => (choice(b)["name_localizations"] = {}),
    ],
    ["required: false", () => undefined, (b) => (option(b, 1)["required"] = false)],
    ["autocomplete: false", () => undefined, (b) => (option(b, 1)["autocomplete"] = false)],
    ["nsfw absent", () => undefined, (b) => delete b["nsfw"]],
    ["default_permission absent (true)", () => undefined, (b) => delete b["default_permission"]],
    [
      "channel types in another order",
      () => undefined,
      (b) => (option(b, 3)["channel_types"] = [5, 0]),
    ],
    [
      "permission bits with a leading zero",
      () => undefined,
      (b) => (b["default_member_permissions"] = "032"),
    ],
  ];
  test.each(neutral)("%s", async (_label, shared, edit) => {
    const before = base();
    shared(before);
    const after = base();
    shared(after);
    edit(after);
    expect(await providerSees(before, after)).toBe(false);
  });
});
