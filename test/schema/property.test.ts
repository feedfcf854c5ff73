/**
 * Property tests: generated valid commands are accepted; a single mutation that breaks one
 * rule is rejected with that rule's path and code; the canonical form is idempotent.
 */
import fc from "fast-check";
import type { Scope } from "../../provider/schema";
import {
  CHANNEL_TYPES,
  Codes,
  LOCALES,
  canonicalCommand,
  formatPath,
  sdkToWire,
  validateSdkCommand,
  validateWireCommand,
  wireToSdk,
} from "../../provider/schema";
import type { WireCommandBody } from "../../provider/schema";

type Obj = Record<string, unknown>;

const letters = fc.stringMatching(/^[a-zà-öø-ÿक-हก-ฮ你好]{1,8}$/);
const text = (max: number) => fc.string({ minLength: 1, maxLength: max });
const someLocales = fc.subarray([...LOCALES], { maxLength: 3 });

/** Option names: `${base}${index}`; localized names add "_" + a locale tag, so never clash. */
function localizedNames(name: string, locales: string[]): Obj {
  return Object.fromEntries(locales.map((l) => [l, `${name}_${l.replace("-", "").toLowerCase()}`]));
}

const plainOption = (i: number) =>
  fc
    .record({
      base: letters,
      type: fc.constantFrom(3, 4, 5, 6, 7, 8, 9, 10, 11),
      description: text(20),
      required: fc.boolean(),
      locales: someLocales,
      descLocales: someLocales,
      variant: fc.nat(3),
      n1: fc.integer({ min: -1000, max: 1000 }),
      n2: fc.integer({ min: 0, max: 1000 }),
      nChoices: fc.integer({ min: 1, max: 4 }),
      channels: fc.subarray([...CHANNEL_TYPES], { minLength: 1 }),
    })
    .map((g): Obj => {
      const name = `${g.base}${i}`;
      const o: Obj = { type: g.type, name, description: g.description };
      if (g.required) o["required"] = true;
      if (g.locales.length) o["name_localizations"] = localizedNames(name, g.locales);
      if (g.descLocales.length) {
        o["description_localizations"] = Object.fromEntries(
          g.descLocales.map((l) => [l, `${g.description} (${l})`.slice(0, 100)]),
        );
      }
      const choiceValue = (j: number) =>
        g.type === 3 ? `v${j}` : g.type === 4 ? g.n1 + j : (g.n1 + j) / 4;
      if ([3, 4, 10].includes(g.type)) {
        if (g.variant === 0) {
          o["choices"] = Array.from({ length: g.nChoices }, (_, j) => ({
            name: `choice ${j}`,
            value: choiceValue(j),
          }));
        } else if (g.variant === 1) o["autocomplete"] = true;
        else if (g.variant === 2) {
          if (g.type === 3)
            Object.assign(o, { min_length: Math.min(g.n2, 6000), max_length: Math.max(1, g.n2) });
          else Object.assign(o, { min_value: g.n1, max_value: g.n1 + g.n2 });
        }
      }
      if (g.type === 7 && g.variant < 2) o["channel_types"] = g.channels;
      return o;
    });

/** 2-5 plain options, required first. */
const plainOptions = fc
  .integer({ min: 2, max: 5 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => plainOption(i))))
  .map((opts) => [
    ...opts.filter((o) => o["required"] === true),
    ...opts.filter((o) => o["required"] !== true),
  ]);

const subcommand = (i: number) =>
  fc.record({ base: letters, options: plainOptions }).map((g): Obj => ({
    type: 1,
    name: `${g.base}${i}`,
    description: "a subcommand",
    options: g.options,
  }));

const group = (i: number) =>
  fc
    .integer({ min: 1, max: 2 })
    .chain((n) => fc.tuple(letters, ...Array.from({ length: n }, (_, j) => subcommand(j))))
    .map(([base, ...subs]): Obj => ({
      type: 2,
      name: `${base}${i}`,
      description: "a group",
      options: subs,
    }));

const subcommandOptions = fc
  .integer({ min: 1, max: 3 })
  .chain((n) =>
    fc.tuple(...Array.from({ length: n }, (_, i) => (i % 2 === 0 ? subcommand(i) : group(i)))),
  );

const chatInput = fc
  .record({
    base: letters,
    description: text(40),
    options: fc.oneof(plainOptions, subcommandOptions),
    locales: someLocales,
    dmp: fc.option(fc.constantFrom("0", "8", "32", "268435456"), { nil: undefined }),
    nsfw: fc.boolean(),
  })
  .map((g): Obj => {
    const c: Obj = { name: g.base, description: g.description, options: g.options, nsfw: g.nsfw };
    if (g.locales.length) c["name_localizations"] = localizedNames(g.base, g.locales);
    if (g.dmp !== undefined) c["default_member_permissions"] = g.dmp;
    return c;
  });

const contextMenu = fc
  .record({ type: fc.constantFrom(2, 3), name: fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,30}$/) })
  .map((g): Obj => ({ type: g.type, name: g.name, description: "" }));

const entryPoint = fc.constantFrom(1, 2).map((handler): Obj => ({
  type: 4,
  name: "Launch",
  description: "Launch the activity",
  handler,
}));

const command = fc.oneof(
  { weight: 6, arbitrary: chatInput.map((body) => ({ body, scope: "global" as Scope })) },
  { weight: 2, arbitrary: chatInput.map((body) => ({ body, scope: "guild" as Scope })) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(contextMenu, fc.constantFrom<Scope>("global", "guild"))
      .map(([body, scope]) => ({ body, scope })),
  },
  { weight: 1, arbitrary: entryPoint.map((body) => ({ body, scope: "global" as Scope })) },
);

function validate(body: unknown, scope: Scope) {
  return validateWireCommand(body, { scope, mode: "create" });
}

const clone = <T>(x: T): T => structuredClone(x);

/** First array of plain options and its path (top level, or the first subcommand's). */
function plainArray(body: Obj): { list: Obj[]; path: (string | number)[] } {
  const top = body["options"] as Obj[];
  if (top[0]?.["type"] === 1)
    return { list: top[0]["options"] as Obj[], path: ["options", 0, "options"] };
  if (top[0]?.["type"] === 2) {
    const sub = (top[0]["options"] as Obj[])[0] as Obj;
    return { list: sub["options"] as Obj[], path: ["options", 0, "options", 0, "options"] };
  }
  return { list: top, path: ["options"] };
}

type Mutation = (b: Obj) => { path: (string | number)[]; code: string; scope?: Scope };
const strip = (o: Obj): Obj => ({
  type: o["type"],
  name: o["name"],
  description: o["description"],
  ...(o["required"] ? { required: true } : {}),
});

const MUTATIONS: Record<string, Mutation> = {
  uppercaseName: (b) => ((b["name"] = "Bad"), { path: ["name"], code: Codes.INVALID_NAME }),
  emptyDescription: (b) => (
    (b["description"] = ""),
    { path: ["description"], code: Codes.BAD_LENGTH }
  ),
  tooManyOptions: (b) => {
    const { list, path } = plainArray(b);
    for (let i = list.length; i < 26; i++)
      list.push({ type: 5, name: `extra${i}`, description: "d" });
    return { path, code: Codes.MAX_LENGTH };
  },
  duplicateName: (b) => {
    const { list, path } = plainArray(b);
    (list[1] as Obj)["name"] = (list[0] as Obj)["name"];
    return { path: [...path, 1, "name"], code: Codes.DUPLICATE_NAME };
  },
  requiredAfterOptional: (b) => {
    const { list, path } = plainArray(b);
    delete (list[0] as Obj)["required"];
    (list[list.length - 1] as Obj)["required"] = true;
    return { path: [...path, list.length - 1, "required"], code: Codes.REQUIRED_ORDER };
  },
  choicesOnBoolean: (b) => {
    const { list, path } = plainArray(b);
    list[0] = { ...strip(list[0] as Obj), type: 5, choices: [{ name: "a", value: "a" }] };
    return { path: [...path, 0, "choices"], code: Codes.OPTION_FIELD_NOT_ALLOWED };
  },
  minAboveMax: (b) => {
    const { list, path } = plainArray(b);
    list[0] = { ...strip(list[0] as Obj), type: 4, min_value: 5, max_value: 4 };
    return { path: [...path, 0, "min_value"], code: Codes.MIN_ABOVE_MAX };
  },
  badChannelType: (b) => {
    const { list, path } = plainArray(b);
    list[0] = { ...strip(list[0] as Obj), type: 7, channel_types: [6] };
    return { path: [...path, 0, "channel_types", 0], code: Codes.CHOICES };
  },
  integerChoiceNotInteger: (b) => {
    const { list, path } = plainArray(b);
    list[0] = { ...strip(list[0] as Obj), type: 4, choices: [{ name: "half", value: 0.5 }] };
    return { path: [...path, 0, "choices", 0, "value"], code: Codes.CHOICE_VALUE_TYPE };
  },
  autocompleteWithChoices: (b) => {
    const { list, path } = plainArray(b);
    list[0] = {
      ...strip(list[0] as Obj),
      type: 3,
      autocomplete: true,
      choices: [{ name: "a", value: "a" }],
    };
    return { path: [...path, 0, "autocomplete"], code: Codes.AUTOCOMPLETE_WITH_CHOICES };
  },
  localizedNameClash: (b) => {
    const { list, path } = plainArray(b);
    (list[0] as Obj)["name_localizations"] = { fr: (list[1] as Obj)["name"] };
    return { path: [...path, 0, "name_localizations", "fr"], code: Codes.DUPLICATE_LOCALIZED_NAME };
  },
  invalidLocale: (b) => (
    (b["name_localizations"] = { xx: "a" }),
    { path: ["name_localizations", "xx"], code: Codes.LOCALE_INVALID }
  ),
  groupInSubcommand: (b) => {
    b["options"] = [
      { type: 1, name: "s", description: "d", options: [{ type: 2, name: "g", description: "d" }] },
    ];
    return { path: ["options", 0, "options", 0, "type"], code: Codes.OPTIONS_TYPE_INVALID };
  },
  tooLarge: (b) => {
    b["description_localizations"] = { fr: "d".repeat(100) };
    b["options"] = Array.from({ length: 25 }, (_, i) => ({
      type: 3,
      name: `o${i}`,
      description: "d".repeat(100),
      choices: Array.from({ length: 25 }, (_, j) => ({ name: "n".repeat(20), value: `v${j}` })),
    }));
    return { path: [], code: Codes.TOO_LARGE };
  },
  handlerOnSlash: (b) => (
    (b["handler"] = 1),
    { path: ["handler"], code: Codes.HANDLER_NOT_ALLOWED }
  ),
  dmPermissionInGuild: (b) => (
    (b["dm_permission"] = true),
    { path: ["dm_permission"], code: Codes.FIELD_NOT_ALLOWED, scope: "guild" }
  ),
  badPermissionBits: (b) => (
    (b["default_member_permissions"] = "-1"),
    { path: ["default_member_permissions"], code: Codes.PERMISSIONS_INVALID }
  ),
  entryPointInGuild: (b) => {
    for (const k of Object.keys(b)) delete b[k];
    Object.assign(b, { type: 4, name: "Launch", description: "Launch" });
    return { path: ["type"], code: Codes.ENTRY_POINT_IN_GUILD, scope: "guild" };
  },
};

describe("property tests", () => {
  it("accepts generated valid commands, in both shapes", () => {
    fc.assert(
      fc.property(command, ({ body, scope }) => {
        const r = validate(body, scope);
        if (!r.ok)
          throw new Error(r.issues.map((i) => `${formatPath(i.path)} ${i.code}`).join("; "));
        const sdk = validateSdkCommand(wireToSdk(body as WireCommandBody), { scope });
        expect(sdk.ok).toBe(true);
        expect(sdkToWire(wireToSdk(body as WireCommandBody))).toEqual(body);
      }),
      { numRuns: 1000 },
    );
  });

  it("rejects each single rule-breaking mutation with that rule's path and code", () => {
    fc.assert(
      fc.property(
        chatInput,
        fc.constantFrom(...Object.keys(MUTATIONS)),
        fc.constantFrom<Scope>("global", "guild"),
        (valid, name, scope) => {
          const body = clone(valid);
          const expected = (MUTATIONS[name] as Mutation)(body);
          const r = validate(body, expected.scope ?? scope);
          expect(r.ok).toBe(false);
          const found = r.ok ? [] : r.issues.map((i) => `${formatPath(i.path)} ${i.code}`);
          expect(found).toContain(`${formatPath(expected.path)} ${expected.code}`);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("the canonical form is idempotent and equal across the SDK round trip", () => {
    fc.assert(
      fc.property(command, ({ body }) => {
        const c = canonicalCommand(body as WireCommandBody);
        expect(canonicalCommand(c)).toEqual(c);
        expect(canonicalCommand(sdkToWire(wireToSdk(body as WireCommandBody)))).toEqual(c);
      }),
      { numRuns: 500 },
    );
  });
});
