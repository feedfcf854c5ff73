/** One block per numbered rule of issue 4; each test fails when its rule is broken. */
import {
  chatInputNameProblem,
  Codes,
  CommandType,
  commandSize,
  Limits,
  LOCALES,
  OptionType,
  validateSdkCommand,
} from "../../provider/schema";
import { expectIssue, expectValid, opt, slash, wire } from "./helpers";

const many = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

describe("rule 1: CHAT_INPUT and option names", () => {
  it.each(["ping", "a", "x".repeat(32), "नमस्ते", "สวัสดี", "你好", "123", "ß", "ça-va_'ok", "ok-2"])(
    "accepts %s",
    (name) => {
      expectValid(wire(slash({ name, options: [opt(3, name)] })));
    },
  );
  it.each(["Hello", "ÄB", "hello world", "ping!", "Ǆ", "emoji😀"])("rejects %s", (name) => {
    const r = wire(slash({ name, options: [opt(3, name)] }));
    expectIssue(r, "name", Codes.INVALID_NAME);
    expectIssue(r, "options[0].name", Codes.INVALID_NAME);
  });
  it.each([
    ["Hello", "hello"],
    ["İstanbul", "istanbul"], // lowercases to "i" + U+0307, outside the name set
    ["ÄB", "äb"],
  ])("suggests only a valid lowercase name for %s", (name, suggestion) => {
    const problem = chatInputNameProblem(name);
    expect(problem).toBe(`Must be lowercase: use "${suggestion}".`);
    expect(chatInputNameProblem(suggestion)).toBeUndefined();
  });
  it("strips only what lowercasing adds outside the name set; a secret name gets no suggestion", () => {
    // "İ" x 32 lowercases to 64 code points, too long; without the dots, "i" x 32 is valid.
    expect(chatInputNameProblem("İ".repeat(32))).toBe(
      `Must be lowercase: use "${"i".repeat(32)}".`,
    );
    expect(chatInputNameProblem("Σ", true)).toBe("Must be lowercase.");
  });
  it("checks the length (1-32)", () => {
    expectIssue(wire(slash({ name: "" })), "name", Codes.BAD_LENGTH);
    expectIssue(wire(slash({ name: "x".repeat(33) })), "name", Codes.BAD_LENGTH);
    expectIssue(
      wire(slash({ options: [opt(3, "x".repeat(33))] })),
      "options[0].name",
      Codes.BAD_LENGTH,
    );
  });
  it("requires a name on create, not on edit", () => {
    expectIssue(wire({ description: "d" }), "name", Codes.REQUIRED);
    expectValid(wire({ description: "new" }, "global", "edit", 1));
  });
  it("applies to localized names, with camelCase SDK paths", () => {
    const args = slash({
      nameLocalizations: { fr: "Bonjour" },
      options: [opt(3, "a", { nameLocalizations: { de: "ÄB" } })],
    });
    const r = validateSdkCommand(args, { scope: "global" });
    expectIssue(r, "nameLocalizations.fr", Codes.INVALID_NAME);
    expectIssue(r, "options[0].nameLocalizations.de", Codes.INVALID_NAME);
  });
});

describe("rule 2: USER and MESSAGE names", () => {
  it.each([CommandType.USER, CommandType.MESSAGE])(
    "type %i accepts mixed case and spaces",
    (type) => {
      expectValid(wire({ type, name: "Report This User" }));
      expectValid(
        wire({ type, name: "Ärger Melden", name_localizations: { de: "Nachricht Melden" } }),
      );
    },
  );
  it("still checks the length", () => {
    expectIssue(wire({ type: 2, name: "X".repeat(33) }), "name", Codes.BAD_LENGTH);
    expectIssue(wire({ type: 3, name: "" }), "name", Codes.BAD_LENGTH);
    expectIssue(
      wire({ type: 3, name: "Ok", name_localizations: { fr: "Y".repeat(33) } }),
      "name_localizations.fr",
      Codes.BAD_LENGTH,
    );
  });
});

describe("rule 3: descriptions, options per type, entry points", () => {
  it("CHAT_INPUT needs a description of 1-100 characters", () => {
    expectIssue(wire({ name: "ping" }), "description", Codes.REQUIRED);
    expectIssue(wire(slash({ description: "" })), "description", Codes.BAD_LENGTH);
    expectIssue(wire(slash({ description: "d".repeat(101) })), "description", Codes.BAD_LENGTH);
    expectIssue(
      wire(slash({ description_localizations: { fr: "d".repeat(101) } })),
      "description_localizations.fr",
      Codes.BAD_LENGTH,
    );
    expectValid(wire(slash({ description: "d".repeat(100) })));
  });
  it("USER and MESSAGE take no description (absent or empty)", () => {
    expectValid(wire({ type: 2, name: "Info", description: "" }));
    expectIssue(
      wire({ type: 2, name: "Info", description: "shows info" }),
      "description",
      Codes.DESCRIPTION_NOT_ALLOWED,
    );
    expectIssue(
      wire({ type: 3, name: "Info", description_localizations: { fr: "x" } }),
      "description_localizations",
      Codes.DESCRIPTION_NOT_ALLOWED,
    );
  });
  it("options only on CHAT_INPUT, with the service's code (discord/discord-api-docs#8574)", () => {
    for (const type of [2, 3, 4]) {
      expectIssue(
        wire({ type, name: "Go", description: type === 4 ? "d" : "", options: [opt(3, "a")] }),
        "options",
        Codes.CONTEXT_MENU_OPTIONS,
      );
    }
  });
  it("PRIMARY_ENTRY_POINT: free-form name, description required, handler allowed, no options", () => {
    expectValid(wire({ type: 4, name: "Launch", description: "Launch the activity", handler: 2 }));
    expectIssue(wire({ type: 4, name: "Launch" }), "description", Codes.REQUIRED);
  });
  it("edit uses the existing type", () => {
    expectIssue(
      wire({ description: "x" }, "global", "edit", CommandType.USER),
      "description",
      Codes.DESCRIPTION_NOT_ALLOWED,
    );
    expectIssue(
      wire({ name: "Big Name" }, "global", "edit", CommandType.CHAT_INPUT),
      "name",
      Codes.INVALID_NAME,
    );
    expectValid(wire({ name: "Big Name" }, "global", "edit", CommandType.USER));
    expectIssue(wire({ type: 1 }, "global", "edit", 1), "type", Codes.FIELD_NOT_ALLOWED);
  });
});

describe("rule 4: at most 25 options at every level, 25 choices", () => {
  it("top level", () => {
    expectValid(wire(slash({ options: many(25, (i) => opt(5, `o${i}`)) })));
    expectIssue(
      wire(slash({ options: many(26, (i) => opt(5, `o${i}`)) })),
      "options",
      Codes.MAX_LENGTH,
    );
  });
  it("in groups and subcommands", () => {
    const sub = opt(1, "sub", { options: many(26, (i) => opt(5, `o${i}`)) });
    expectIssue(wire(slash({ options: [sub] })), "options[0].options", Codes.MAX_LENGTH);
    const group = opt(2, "g", { options: many(26, (i) => opt(1, `s${i}`)) });
    expectIssue(wire(slash({ options: [group] })), "options[0].options", Codes.MAX_LENGTH);
  });
  it("choices", () => {
    const choices = (n: number) => many(n, (i) => ({ name: `c${i}`, value: i }));
    expectValid(wire(slash({ options: [opt(4, "n", { choices: choices(25) })] })));
    expectIssue(
      wire(slash({ options: [opt(4, "n", { choices: choices(26) })] })),
      "options[0].choices",
      Codes.MAX_LENGTH,
    );
  });
});

describe("rule 5: required first, unique names, no required on subcommands", () => {
  it("required options before optional ones", () => {
    expectValid(wire(slash({ options: [opt(3, "a", { required: true }), opt(3, "b")] })));
    const r = wire(slash({ options: [opt(3, "a"), opt(3, "b", { required: true })] }));
    expectIssue(r, "options[1].required", Codes.REQUIRED_ORDER);
    const sdk = validateSdkCommand(
      slash({ options: [opt(3, "a"), opt(3, "b", { required: true })] }),
      { scope: "guild" },
    );
    expectIssue(sdk, "options[1].required", Codes.REQUIRED_ORDER);
  });
  it("unique names within one array, not across arrays", () => {
    expectIssue(
      wire(slash({ options: [opt(3, "a"), opt(4, "a")] })),
      "options[1].name",
      Codes.DUPLICATE_NAME,
    );
    const subs = [opt(1, "x", { options: [opt(3, "a")] }), opt(1, "y", { options: [opt(3, "a")] })];
    expectValid(wire(slash({ options: subs })));
  });
  it("required not allowed on SUB_COMMAND and SUB_COMMAND_GROUP", () => {
    expectIssue(
      wire(slash({ options: [opt(1, "s", { required: true })] })),
      "options[0].required",
      Codes.OPTION_FIELD_NOT_ALLOWED,
    );
    expectIssue(
      wire(slash({ options: [opt(2, "g", { required: true, options: [opt(1, "s")] })] })),
      "options[0].required",
      Codes.OPTION_FIELD_NOT_ALLOWED,
    );
  });
});

describe("rule 6: nesting", () => {
  it("accepts subcommands and groups together, with plain options in subcommands", () => {
    const body = slash({
      options: [
        opt(1, "s", { options: [opt(3, "q")] }),
        opt(2, "g", { options: [opt(1, "t", { options: [opt(4, "n")] })] }),
      ],
    });
    expectValid(wire(body));
  });
  it("never subcommands and plain options side by side", () => {
    expectIssue(
      wire(slash({ options: [opt(1, "s"), opt(3, "q")] })),
      "options[1].type",
      Codes.OPTIONS_TYPE_INVALID,
    );
    expectIssue(
      wire(slash({ options: [opt(3, "q"), opt(2, "g")] })),
      "options[1].type",
      Codes.OPTIONS_TYPE_INVALID,
    );
  });
  it("groups hold only subcommands; subcommands only plain options", () => {
    expectIssue(
      wire(slash({ options: [opt(2, "g", { options: [opt(2, "h")] })] })),
      "options[0].options[0].type",
      Codes.OPTIONS_TYPE_INVALID,
    );
    expectIssue(
      wire(slash({ options: [opt(2, "g", { options: [opt(3, "q")] })] })),
      "options[0].options[0].type",
      Codes.OPTIONS_TYPE_INVALID,
    );
    expectIssue(
      wire(slash({ options: [opt(1, "s", { options: [opt(1, "t")] })] })),
      "options[0].options[0].type",
      Codes.OPTIONS_TYPE_INVALID,
    );
  });
  it("plain options hold no options", () => {
    expectIssue(
      wire(slash({ options: [opt(3, "q", { options: [opt(3, "r")] })] })),
      "options[0].options",
      Codes.OPTIONS_NOT_ALLOWED,
    );
  });
});

describe("rule 7: choices and autocomplete", () => {
  it("choices only on STRING, INTEGER, NUMBER", () => {
    for (const type of [5, 6, 7, 8, 9, 11]) {
      expectIssue(
        wire(slash({ options: [opt(type, "x", { choices: [{ name: "a", value: "a" }] })] })),
        "options[0].choices",
        Codes.OPTION_FIELD_NOT_ALLOWED,
      );
    }
  });
  it("choice name 1-100 and value type", () => {
    const c = (type: number, choice: unknown) =>
      wire(slash({ options: [opt(type, "x", { choices: [choice] })] }));
    expectIssue(c(3, { name: "", value: "a" }), "options[0].choices[0].name", Codes.BAD_LENGTH);
    expectIssue(
      c(3, { name: "n".repeat(101), value: "a" }),
      "options[0].choices[0].name",
      Codes.BAD_LENGTH,
    );
    expectIssue(
      c(3, { name: "n", name_localizations: { fr: "" } }),
      "options[0].choices[0].name_localizations.fr",
      Codes.BAD_LENGTH,
    );
    expectIssue(
      c(3, { name: "n", value: 1 }),
      "options[0].choices[0].value",
      Codes.CHOICE_VALUE_TYPE,
    );
    expectIssue(
      c(3, { name: "n", value: "v".repeat(101) }),
      "options[0].choices[0].value",
      Codes.BAD_LENGTH,
    );
    expectIssue(
      c(4, { name: "n", value: 1.5 }),
      "options[0].choices[0].value",
      Codes.CHOICE_VALUE_TYPE,
    );
    expectIssue(
      c(4, { name: "n", value: "1" }),
      "options[0].choices[0].value",
      Codes.CHOICE_VALUE_TYPE,
    );
    expectIssue(
      c(10, { name: "n", value: "1.5" }),
      "options[0].choices[0].value",
      Codes.CHOICE_VALUE_TYPE,
    );
    expectIssue(c(10, { name: "n" }), "options[0].choices[0].value", Codes.REQUIRED);
    expectValid(c(10, { name: "n", value: 1.5 }));
    expectValid(c(3, { name: "n", value: "v".repeat(100) }));
  });
  it("autocomplete only on STRING, INTEGER, NUMBER and never with choices", () => {
    expectValid(wire(slash({ options: [opt(3, "x", { autocomplete: true })] })));
    expectIssue(
      wire(slash({ options: [opt(5, "x", { autocomplete: true })] })),
      "options[0].autocomplete",
      Codes.OPTION_FIELD_NOT_ALLOWED,
    );
    expectIssue(
      wire(
        slash({
          options: [opt(3, "x", { autocomplete: true, choices: [{ name: "a", value: "a" }] })],
        }),
      ),
      "options[0].autocomplete",
      Codes.AUTOCOMPLETE_WITH_CHOICES,
    );
  });
});

describe("rule 8: numeric ranges and lengths", () => {
  const o = (type: number, extra: Record<string, unknown>) =>
    wire(slash({ options: [opt(type, "x", extra)] }));
  it("INTEGER within ±(2^53-1), NUMBER within ±2^53", () => {
    expectValid(o(4, { min_value: -(2 ** 53) + 1, max_value: 2 ** 53 - 1 }));
    expectIssue(o(4, { min_value: -(2 ** 53) }), "options[0].min_value", Codes.NUMBER_MIN);
    expectIssue(o(4, { max_value: 2 ** 53 }), "options[0].max_value", Codes.NUMBER_MAX);
    expectIssue(
      o(4, { choices: [{ name: "big", value: 2 ** 53 }] }),
      "options[0].choices[0].value",
      Codes.NUMBER_MAX,
    );
    expectValid(o(10, { min_value: -(2 ** 53), max_value: 2 ** 53 }));
    expectIssue(o(10, { max_value: 2 ** 53 + 2 }), "options[0].max_value", Codes.NUMBER_MAX);
    expectIssue(
      o(10, { choices: [{ name: "small", value: -(2 ** 54) }] }),
      "options[0].choices[0].value",
      Codes.NUMBER_MIN,
    );
  });
  it("min_value/max_value only on INTEGER (integers) and NUMBER", () => {
    expectIssue(o(4, { min_value: 1.5 }), "options[0].min_value", Codes.NUMBER_COERCE);
    expectValid(o(10, { min_value: 1.5 }));
    expectIssue(o(3, { min_value: 1 }), "options[0].min_value", Codes.OPTION_FIELD_NOT_ALLOWED);
  });
  it("min_length 0-6000, max_length 1-6000, only on STRING", () => {
    expectValid(o(3, { min_length: 0, max_length: 6000 }));
    expectIssue(o(3, { min_length: -1 }), "options[0].min_length", Codes.NUMBER_MIN);
    expectIssue(o(3, { max_length: 0 }), "options[0].max_length", Codes.NUMBER_MIN);
    expectIssue(o(3, { max_length: 6001 }), "options[0].max_length", Codes.NUMBER_MAX);
    expectIssue(o(4, { max_length: 10 }), "options[0].max_length", Codes.OPTION_FIELD_NOT_ALLOWED);
  });
  it("a minimum above its maximum is rejected", () => {
    expectIssue(o(4, { min_value: 5, max_value: 4 }), "options[0].min_value", Codes.MIN_ABOVE_MAX);
    expectIssue(
      o(3, { min_length: 5, max_length: 4 }),
      "options[0].min_length",
      Codes.MIN_ABOVE_MAX,
    );
    expectValid(o(4, { min_value: 5, max_value: 5 }));
  });
});

describe("rule 9: channel_types", () => {
  it("only on CHANNEL, with values 0-5 and 10-16", () => {
    expectValid(
      wire(
        slash({
          options: [opt(7, "c", { channel_types: [0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15, 16] })],
        }),
      ),
    );
    expectIssue(
      wire(slash({ options: [opt(7, "c", { channel_types: [0, 6] })] })),
      "options[0].channel_types[1]",
      Codes.CHOICES,
    );
    expectIssue(
      wire(slash({ options: [opt(7, "c", { channel_types: [17] })] })),
      "options[0].channel_types[0]",
      Codes.CHOICES,
    );
    expectIssue(
      wire(slash({ options: [opt(3, "c", { channel_types: [0] })] })),
      "options[0].channel_types",
      Codes.OPTION_FIELD_NOT_ALLOWED,
    );
  });
});

describe("rule 10: localizations", () => {
  it("keys are the 32 known locales", () => {
    expect(LOCALES).toHaveLength(32);
    const all = Object.fromEntries(LOCALES.map((l) => [l, "ping"]));
    expectValid(wire(slash({ name_localizations: all })));
    expectIssue(
      wire(slash({ name_localizations: { en: "ping" } })),
      "name_localizations.en",
      Codes.LOCALE_INVALID,
    );
    expectIssue(
      wire(slash({ description_localizations: { "fr-FR": "x" } })),
      "description_localizations.fr-FR",
      Codes.LOCALE_INVALID,
    );
    expectValid(wire(slash({ name_localizations: null, description_localizations: {} })));
  });
  it("localized values obey the field's rules", () => {
    expectIssue(
      wire(slash({ name_localizations: { fr: "Salut" } })),
      "name_localizations.fr",
      Codes.INVALID_NAME,
    );
    expectIssue(
      wire(slash({ options: [opt(3, "a", { description_localizations: { ja: "" } })] })),
      "options[0].description_localizations.ja",
      Codes.BAD_LENGTH,
    );
  });
  it("a localized option name differs from the array's default names and same-locale names", () => {
    const conflictDefault = slash({
      options: [opt(3, "a", { name_localizations: { fr: "b" } }), opt(3, "b")],
    });
    expectIssue(
      wire(conflictDefault),
      "options[0].name_localizations.fr",
      Codes.DUPLICATE_LOCALIZED_NAME,
    );
    const conflictLocale = slash({
      options: [
        opt(3, "a", { name_localizations: { fr: "z" } }),
        opt(3, "b", { name_localizations: { fr: "z" } }),
      ],
    });
    expectIssue(
      wire(conflictLocale),
      "options[1].name_localizations.fr",
      Codes.DUPLICATE_LOCALIZED_NAME,
    );
    const sdk = validateSdkCommand(conflictLocale, { scope: "global" });
    expect(sdk.ok).toBe(false);
    // equal to its own default: ignored; same value in another locale: fine
    expectValid(
      wire(
        slash({
          options: [
            opt(3, "a", { name_localizations: { fr: "a", de: "z" } }),
            opt(3, "b", { name_localizations: { fr: "z" } }),
          ],
        }),
      ),
    );
  });
  it("scope: per options array; options of different subcommands may share localized names", () => {
    const subs = slash({
      options: [
        opt(1, "add", { options: [opt(3, "item", { name_localizations: { fr: "objet" } })] }),
        opt(1, "remove", { options: [opt(3, "thing", { name_localizations: { fr: "objet" } })] }),
      ],
    });
    expectValid(wire(subs));
    const siblingsInSub = slash({
      options: [
        opt(1, "add", {
          options: [opt(3, "item", { name_localizations: { fr: "count" } }), opt(4, "count")],
        }),
      ],
    });
    expectIssue(
      wire(siblingsInSub),
      "options[0].options[0].name_localizations.fr",
      Codes.DUPLICATE_LOCALIZED_NAME,
    );
  });
});

describe("rule 11: size", () => {
  it("rejects more than 8000 characters, counting the longest variant", () => {
    const choices = (n: number) => many(25, (j) => ({ name: "n".repeat(n), value: `v${j}` }));
    // 25 options x 25 choices x (n + 2..3) characters, plus names and descriptions
    const body = (n: number) =>
      slash({ options: many(25, (i) => opt(3, `o${i}`, { choices: choices(n) })) });
    expectValid(wire(body(5)));
    expectIssue(wire(body(12)), "", Codes.TOO_LARGE);
    const localized = slash({
      description_localizations: { fr: "d".repeat(100) },
      options: many(25, (i) =>
        opt(3, `o${i}`, {
          choices: many(25, (j) => ({
            name: "c",
            name_localizations: { fr: "f".repeat(10) },
            value: `v${j}`,
          })),
        }),
      ),
    });
    expectIssue(wire(localized), "", Codes.TOO_LARGE);
  });
});

describe("rule 11: size, exactly at the limit", () => {
  /**
   * 8000 characters by construction, where the longest variant of each field counts:
   * name "size" (4) + description "d" localized to 100 characters (100)
   * + 25 options of a 3-character name and a 100-character description (25 x 103 = 2575)
   * + 25 choices on option 0, each a name "c" localized to 100 characters and a
   *   100-character value (25 x 200 = 5000)
   * + on option 1, one such choice (200) and one whose localized name has `last`
   *   characters and whose value has 100 (last + 100).
   * With last = 21: 4 + 100 + 2575 + 5000 + 200 + 121 = 8000.
   */
  const sized = (last: number) => {
    const choice = (j: number, nameLength = 100) => ({
      name: "c",
      name_localizations: { fr: "z".repeat(nameLength) },
      value: `${j}`.padEnd(100, "v"),
    });
    return slash({
      name: "size",
      description: "d",
      description_localizations: { fr: "x".repeat(100) },
      options: many(25, (i) =>
        opt(3, `o${String(i).padStart(2, "0")}`, {
          description: "y".repeat(100),
          ...(i === 0 ? { choices: many(25, (j) => choice(j)) } : {}),
          ...(i === 1 ? { choices: [choice(0), choice(1, last)] } : {}),
        }),
      ),
    });
  };
  it("accepts 8000 characters and rejects 8001", () => {
    expect(commandSize(sized(21))).toBe(Limits.COMMAND_SIZE_MAX);
    expectValid(wire(sized(21)));
    expect(commandSize(sized(22))).toBe(Limits.COMMAND_SIZE_MAX + 1);
    expectIssue(wire(sized(22)), "", Codes.TOO_LARGE);
  });
  it("the literal figure of the spec, not only the table's", () => {
    expect(Limits.COMMAND_SIZE_MAX).toBe(8000);
  });
});

describe("rule 12: permissions bits, scope-only fields, deprecations", () => {
  it("default_member_permissions is a decimal bit set (any size) or null", () => {
    expectValid(wire(slash({ default_member_permissions: "0" })));
    expectValid(wire(slash({ default_member_permissions: null })));
    expectValid(wire(slash({ default_member_permissions: (1n << 70n).toString() })));
    expectIssue(
      wire(slash({ default_member_permissions: "0x20" })),
      "default_member_permissions",
      Codes.PERMISSIONS_INVALID,
    );
    expectIssue(
      wire(slash({ default_member_permissions: 32 })),
      "default_member_permissions",
      Codes.PERMISSIONS_INVALID,
    );
  });
  it("dm_permission, integration_types and contexts only on global (and guild bulk) bodies", () => {
    for (const field of ["dm_permission", "integration_types", "contexts"]) {
      const value = field === "dm_permission" ? true : [0];
      expectIssue(
        wire(slash({ [field]: value }), "guild", "create"),
        field,
        Codes.FIELD_NOT_ALLOWED,
      );
      expectIssue(wire({ [field]: value }, "guild", "edit", 1), field, Codes.FIELD_NOT_ALLOWED);
      expect(wire(slash({ [field]: value }), "global", "create").ok).toBe(true);
      expect(wire(slash({ [field]: value }), "guild", "bulk").ok).toBe(true);
    }
  });
  it("contexts in {0,1,2}, integration types in {0,1}, nsfw boolean", () => {
    expectValid(wire(slash({ contexts: [0, 1, 2], integration_types: [0, 1], nsfw: true })));
    expectIssue(wire(slash({ contexts: [3] })), "contexts[0]", Codes.CHOICES);
    expectIssue(wire(slash({ integration_types: [0, 2] })), "integration_types[1]", Codes.CHOICES);
    expectIssue(wire(slash({ nsfw: "yes" })), "nsfw", Codes.BOOLEAN_TYPE);
    expectIssue(wire(slash({ nsfw: true }), "guild", "bulk"), "nsfw", Codes.FIELD_NOT_ALLOWED);
  });
  it("default_permission and dm_permission are deprecated: warnings, not errors", () => {
    const r = wire(slash({ default_permission: false, dm_permission: false }));
    expect(r.ok).toBe(true);
    if (r.ok)
      expect(r.warnings.map((w) => `${w.path.join(".")} ${w.code}`).sort()).toEqual([
        "default_permission FIELD_DEPRECATED",
        "dm_permission FIELD_DEPRECATED",
      ]);
    const sdk = validateSdkCommand(slash({ dmPermission: true }), { scope: "global" });
    expect(sdk.ok && sdk.warnings[0]?.path).toEqual(["dmPermission"]);
  });
});

describe("rule 13: handler and entry point scope", () => {
  it("handler only on PRIMARY_ENTRY_POINT, value 1 or 2", () => {
    expectValid(wire({ type: 4, name: "Launch", description: "Launch", handler: 1 }));
    expectIssue(
      wire({ type: 4, name: "Launch", description: "Launch", handler: 3 }),
      "handler",
      Codes.CHOICES,
    );
    expectIssue(wire(slash({ handler: 1 })), "handler", Codes.HANDLER_NOT_ALLOWED);
    expectIssue(wire({ type: 2, name: "User", handler: 2 }), "handler", Codes.HANDLER_NOT_ALLOWED);
  });
  it("PRIMARY_ENTRY_POINT never in a guild", () => {
    expectIssue(
      wire({ type: 4, name: "Launch", description: "Launch" }, "guild"),
      "type",
      Codes.ENTRY_POINT_IN_GUILD,
    );
    expectIssue(
      wire({ type: 4, name: "Launch", description: "Launch" }, "guild", "bulk"),
      "type",
      Codes.ENTRY_POINT_IN_GUILD,
    );
  });
});

describe("write modes", () => {
  it("id only in bulk bodies, and a snowflake", () => {
    expectValid(wire(slash({ id: "123456789012345678" }), "guild", "bulk"));
    expectIssue(wire(slash({ id: "123456789012345678" })), "id", Codes.FIELD_NOT_ALLOWED);
    expectIssue(wire(slash({ id: "abc" }), "global", "bulk"), "id", Codes.NUMBER_COERCE);
  });
  it("type defaults to CHAT_INPUT and must be a command type", () => {
    expectIssue(wire(slash({ type: 5 })), "type", Codes.CHOICES);
    expect(OptionType.ATTACHMENT).toBe(11);
  });
  it("collects every issue, not just the first", () => {
    const r = wire({ name: "Bad Name", description: "", options: [opt(3, "A"), opt(99, "b")] });
    expect(r.ok ? 0 : r.issues.length).toBeGreaterThanOrEqual(4);
  });
});
