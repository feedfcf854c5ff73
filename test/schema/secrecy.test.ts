/**
 * Secrecy by path (provider/schema/secrecy.ts): every rule that quotes a value quotes a
 * value the program marked secret as `[secret]`, in any form (as given, lowercased, cut at
 * 40 characters, a suggestion built from it, a key, a value it equals elsewhere), and the
 * outcome of the validation is the same. Each case is first validated without the secret
 * mark, to show that its message does quote the value.
 */
import type { Path, SchemaIssue, Validation } from "../../provider/schema";
import {
  Codes,
  SECRET_MARK,
  Secrecy,
  shownPath,
  validatePermissions,
  validateSdkCommand,
} from "../../provider/schema";
import { secretLeaks } from "../helpers/secretForms";

const LONG = "QzJxWvKqZjXwQvJzKxWqZvJkXqWzVjKqZxJwVkQz" + "JqXzWvKj"; // 48 characters

interface Case {
  /** The SDK arguments (or a permissions body), the secret at `path` inside. */
  readonly input: Record<string, unknown>;
  readonly path: Path;
  /** The secret's text, searched for in every form. */
  readonly secret: string;
  readonly code: string;
  readonly permissions?: boolean;
}

const slash = (extra: Record<string, unknown>): Record<string, unknown> => ({
  name: "poll",
  description: "Run a poll",
  ...extra,
});

const CASES: Record<string, Case> = {
  "a name breaking the lowercase rule (and its suggestion)": {
    input: { name: "QzJxWvKq", description: "d" },
    path: ["name"],
    secret: "QzJxWvKq",
    code: Codes.INVALID_NAME,
  },
  "a name of 2 characters": {
    input: slash({ options: [{ type: 3, name: "Zq", description: "d" }] }),
    path: ["options", 0, "name"],
    secret: "Zq",
    code: Codes.INVALID_NAME,
  },
  "a value over 40 characters (quoted cut)": {
    input: slash({ defaultMemberPermissions: LONG }),
    path: ["defaultMemberPermissions"],
    secret: LONG,
    code: Codes.PERMISSIONS_INVALID,
  },
  "a choice's value": {
    input: slash({
      options: [
        { type: 4, name: "n", description: "d", choices: [{ name: "x", value: "QxZjWvKq" }] },
      ],
    }),
    path: ["options", 0, "choices", 0, "value"],
    secret: "QxZjWvKq",
    code: Codes.CHOICE_VALUE_TYPE,
  },
  "a localization": {
    input: slash({ nameLocalizations: { de: "QwZjXvK" } }),
    path: ["nameLocalizations", "de"],
    secret: "QwZjXvK",
    code: Codes.INVALID_NAME,
  },
  "a localization map's key (an invalid locale)": {
    input: slash({ descriptionLocalizations: { "qz-JXWV": "x" } }),
    path: ["descriptionLocalizations"],
    secret: "qz-JXWV",
    code: Codes.LOCALE_INVALID,
  },
  "a misspelt key inside a secret option": {
    input: slash({ options: [{ type: 3, name: "o", description: "d", qzjxWvk: true }] }),
    path: ["options", 0],
    secret: "qzjxWvk",
    code: Codes.UNKNOWN_FIELD,
  },
  "a name another option repeats in clear": {
    input: slash({
      options: [
        { type: 3, name: "zqxjwv", description: "d" },
        { type: 3, name: "zqxjwv", description: "d" },
      ],
    }),
    path: ["options", 0, "name"],
    secret: "zqxjwv",
    code: Codes.DUPLICATE_NAME,
  },
  "a name a localized name repeats in clear": {
    input: slash({
      options: [
        { type: 3, name: "a", description: "d", nameLocalizations: { de: "vkzqxj" } },
        { type: 3, name: "vkzqxj", description: "d" },
      ],
    }),
    path: ["options", 1, "name"],
    secret: "vkzqxj",
    code: Codes.DUPLICATE_LOCALIZED_NAME,
  },
  "a minimum above the maximum": {
    input: slash({
      options: [{ type: 4, name: "n", description: "d", minValue: 987654, maxValue: 5 }],
    }),
    path: ["options", 0, "minValue"],
    secret: "987654",
    code: Codes.MIN_ABOVE_MAX,
  },
  "a flag that is not a boolean": {
    input: slash({ nsfw: "QzVjXw" }),
    path: ["nsfw"],
    secret: "QzVjXw",
    code: Codes.BOOLEAN_TYPE,
  },
  "a permissions entry's id": {
    input: { permissions: [{ id: LONG, type: 1, permission: true }] },
    path: ["permissions", 0, "id"],
    secret: LONG,
    code: Codes.NUMBER_COERCE,
    permissions: true,
  },
};

function validate(c: Case, secrecy: Secrecy): Validation<unknown> {
  return c.permissions === true
    ? validatePermissions(c.input, secrecy)
    : validateSdkCommand(c.input, { scope: "global", secrecy });
}

function issues(result: Validation<unknown>): SchemaIssue[] {
  return result.ok ? [] : result.issues;
}

/** Every text the issues give a user: the path as shown, the code and the message. */
function texts(list: readonly SchemaIssue[], secrecy: Secrecy): string {
  return list.map((i) => `${shownPath(i.path, secrecy)} [${i.code}]: ${i.message}`).join("\n");
}

describe.each(Object.entries(CASES))("%s", (_label, c) => {
  test("is quoted in clear when not secret, and as [secret] when it is", () => {
    const plain = issues(validate(c, Secrecy.NONE));
    expect(plain.map((i) => i.code)).toContain(c.code);
    expect(secretLeaks(texts(plain, Secrecy.NONE), { secret: c.secret }, "plain")).not.toEqual([]);

    const secrecy = new Secrecy([c.path]);
    const hidden = issues(validate(c, secrecy));
    expect(hidden.map((i) => [i.path, i.code])).toEqual(plain.map((i) => [i.path, i.code]));
    expect(secretLeaks(texts(hidden, secrecy), { secret: c.secret }, "secret")).toEqual([]);
    expect(texts(hidden, secrecy)).toContain(SECRET_MARK);
  });
});

test("the tests' search leaves out the paths the machine chose, and finds a secret elsewhere", () => {
  const secrets = { s: "JkWjWvWx" };
  const dir = "/tmp/tmp.1xjkwjvxzz"; // a mktemp name holding "jkw", a piece of the secret
  expect(secretLeaks(`state at ${dir}/x.json`, secrets, "t", [dir])).toEqual([]);
  expect(secretLeaks(`state at ${dir}/x.json`, secrets, "t", [])).not.toEqual([]);
  expect(secretLeaks(`${dir} and "JkW" in a message`, secrets, "t", [dir])).not.toEqual([]);
});

describe("Secrecy", () => {
  const s = new Secrecy([["options", 0, "description"], ["name"]]);

  test("covers a secret value and everything inside it, and nothing beside it", () => {
    expect(s.covers(["name"])).toBe(true);
    expect(s.covers(["options", 0, "description", "x"])).toBe(true);
    expect(s.covers(["options", "0", "description"])).toBe(true); // an index as text
    expect(s.covers(["options", 0])).toBe(false);
    expect(s.touches(["options", 0])).toBe(true);
    expect(s.covers(["options", 1, "description"])).toBe(false);
  });

  test("within a value, renamed, under a prefix, and marks by top-level key", () => {
    expect(s.within(["options", 0]).paths).toEqual([["description"]]);
    expect(s.within(["name", "x"])).toBe(Secrecy.ALL);
    expect(s.within(["type"])).toBe(Secrecy.NONE);
    expect(s.renamed((k) => k.toUpperCase()).paths).toEqual([
      ["OPTIONS", 0, "DESCRIPTION"],
      ["NAME"],
    ]);
    expect(s.under(["commands", "k"]).paths[1]).toEqual(["commands", "k", "name"]);
    expect(s.marks("name")).toBe(true);
    expect(s.marks("type")).toBe(false);
    // Unknown secrecy (everything): no top-level key is named.
    expect(Secrecy.ALL.marks("guildId")).toBe(false);
    expect(Secrecy.ALL.covers(["guildId"])).toBe(true);
  });

  test("quotes a value in clear, or [secret] when any place it sits is secret", () => {
    expect(s.quote("Poll", ["type"])).toBe('"Poll"');
    expect(s.quote("Poll", ["type"], ["name"])).toBe(SECRET_MARK);
    expect(s.text("123", ["guildId"])).toBe("123");
    expect(s.text("123", ["name"])).toBe(SECRET_MARK);
  });

  test("a path shows the keys the schema names inside a secret value, and hides the others", () => {
    const whole = new Secrecy([["options", 0]]);
    expect(shownPath(["options", 0, "nameLocalizations", "de"], whole)).toBe(
      "options[0].nameLocalizations.de",
    );
    expect(shownPath(["options", 0, "qzjxWvk"], whole)).toBe(`options[0]${SECRET_MARK}`);
    expect(shownPath(["options", 1, "qzjxWvk"], whole)).toBe("options[1].qzjxWvk");
  });
});
