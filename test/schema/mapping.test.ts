/** The SDK <-> wire mapping, path formatting and the service's error tree. */
import type { SdkCommandArgs, WireCommandBody } from "../../provider/schema";
import {
  Codes,
  OptionType,
  formatPath,
  sdkToWire,
  toErrorTree,
  validateSdkCommand,
  validateWireCommand,
  wireToSdk,
} from "../../provider/schema";
import { expectIssue } from "./helpers";

const sdk: SdkCommandArgs = {
  name: "tag",
  description: "Tags",
  nameLocalizations: { fr: "étiquette" },
  defaultMemberPermissions: "32",
  options: [
    {
      type: OptionType.SUB_COMMAND,
      name: "get",
      description: "Get one",
      options: [
        {
          type: OptionType.STRING,
          name: "key",
          description: "k",
          minLength: 1,
          maxLength: 10,
          choices: [{ name: "a", nameLocalizations: { de: "b" }, value: "a" }],
        },
      ],
    },
  ],
};

describe("mapping", () => {
  it("sdkToWire renames every key, wireToSdk inverts it", () => {
    const wire = sdkToWire(sdk);
    expect(wire).toEqual({
      name: "tag",
      description: "Tags",
      name_localizations: { fr: "étiquette" },
      default_member_permissions: "32",
      options: [
        {
          type: 1,
          name: "get",
          description: "Get one",
          options: [
            {
              type: 3,
              name: "key",
              description: "k",
              min_length: 1,
              max_length: 10,
              choices: [{ name: "a", name_localizations: { de: "b" }, value: "a" }],
            },
          ],
        },
      ],
    });
    expect(wireToSdk(wire)).toEqual(sdk);
    expect(validateWireCommand(wire, { scope: "global", mode: "create" }).ok).toBe(true);
  });
  it("validateSdkCommand returns the wire body and camelCase paths", () => {
    const ok = validateSdkCommand(sdk, { scope: "guild" });
    expect(ok.ok && ok.value).toEqual(sdkToWire(sdk));
    const bad = validateSdkCommand(
      {
        ...sdk,
        options: [
          { type: 3, name: "k", description: "d", maxLength: 0, nameLocalizations: { fr: "K" } },
        ],
      },
      { scope: "guild" },
    );
    expectIssue(bad, "options[0].maxLength", Codes.NUMBER_MIN);
    expectIssue(bad, "options[0].nameLocalizations.fr", Codes.INVALID_NAME);
  });
  it("rejects unknown or snake_case keys in the SDK shape", () => {
    const bad = validateSdkCommand(
      { name: "x", description: "d", default_member_permissions: "0", nsfww: true },
      { scope: "global" },
    );
    expectIssue(bad, "default_member_permissions", Codes.UNKNOWN_FIELD);
    expectIssue(bad, "nsfww", Codes.UNKNOWN_FIELD);
  });
  it("undefined SDK values are dropped", () => {
    const wire: WireCommandBody = sdkToWire({ name: "x", description: "d", nsfw: undefined });
    expect(wire).toEqual({ name: "x", description: "d" });
  });
});

describe("paths and the error tree", () => {
  it("formats paths for users", () => {
    expect(formatPath(["options", 2, "choices", 0, "name"])).toBe("options[2].choices[0].name");
    expect(formatPath(["options", 0, "nameLocalizations", "fr"])).toBe(
      "options[0].nameLocalizations.fr",
    );
    expect(formatPath([])).toBe("");
  });
  it("builds the service's error tree", () => {
    const r = validateWireCommand(
      {
        name: "x",
        description: "d",
        options: [
          { type: 3, name: "a", description: "d" },
          { type: 3, name: "b", description: "d" },
          { type: 3, name: "c", description: "d", choices: [{ name: "", value: "v" }] },
        ],
      },
      { scope: "global", mode: "create" },
    );
    expect(r.ok).toBe(false);
    const tree = toErrorTree(r.ok ? [] : r.issues);
    expect(tree).toEqual({
      options: {
        "2": {
          choices: {
            "0": {
              name: {
                _errors: [{ code: Codes.BAD_LENGTH, message: expect.any(String) as unknown }],
              },
            },
          },
        },
      },
    });
    expect(toErrorTree([{ path: [], code: Codes.TOO_LARGE, message: "m" }])).toEqual({
      _errors: [{ code: Codes.TOO_LARGE, message: "m" }],
    });
  });

  test("a `__proto__` key in a body's path is a key of the tree, not a write on Object.prototype", () => {
    const tree = toErrorTree([
      { path: ["name_localizations", "__proto__"], code: Codes.TOO_LARGE, message: "m" },
    ]);
    expect(({} as Record<string, unknown>)["_errors"]).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, "_errors")).toBe(false);
    expect(JSON.parse(JSON.stringify(tree))).toEqual(
      JSON.parse(
        '{"name_localizations":{"__proto__":{"_errors":[{"code":"' +
          Codes.TOO_LARGE +
          '","message":"m"}]}}}',
      ),
    );
  });
});
