/** The one normalizer: canonicalCommand, diffCommandFields. */
import type { WireCommand, WireCommandBody } from "../../provider/schema";
import { canonicalCommand, diffCommandFields, patchBody } from "../../provider/schema";

/** Equal in the canonical form: no field differs. */
const commandsEqual = (a: object, b: object): boolean => diffCommandFields(a, b).length === 0;

const base: WireCommandBody = {
  name: "ping",
  description: "Ping",
  options: [
    {
      type: 4,
      name: "n",
      description: "number",
      min_value: 1,
      choices: [{ name: "one", value: 1 }],
    },
    { type: 7, name: "c", description: "channel", channel_types: [2, 0] },
  ],
};

describe("canonicalCommand", () => {
  it("null localizations at option and choice level (as the service returns them) are no diff", () => {
    const returned = {
      ...base,
      name_localizations: null,
      description_localizations: null,
      options: base.options?.map((o) => ({
        ...o,
        name_localizations: null,
        description_localizations: null,
        ...(o.choices
          ? { choices: o.choices.map((c) => ({ ...c, name_localizations: null })) }
          : {}),
      })),
    };
    expect(diffCommandFields(base, returned)).toEqual([]);
  });
  it("dm_permission follows contexts when they are a list; the PATCH leaves it to them", () => {
    expect(canonicalCommand({ ...base, contexts: [0, 2] }).dm_permission).toBe(false);
    expect(canonicalCommand({ ...base, contexts: [1], dm_permission: false }).dm_permission).toBe(
      true,
    );
    expect(canonicalCommand({ ...base, dm_permission: false }).dm_permission).toBe(false);
    expect(canonicalCommand({ ...base, contexts: null }).dm_permission).toBe(true);
    const declared = { ...base, contexts: [0], dm_permission: true };
    expect(commandsEqual(declared, { ...base, contexts: [0], dm_permission: false })).toBe(true);
    expect(patchBody(declared, ["contexts", "dm_permission"])).toEqual({ contexts: [0] });
  });
  it("absent, null and {} localizations are equal; values equal to the default dropped", () => {
    expect(commandsEqual(base, { ...base, name_localizations: null })).toBe(true);
    expect(
      commandsEqual(base, {
        ...base,
        name_localizations: {},
        description_localizations: { fr: "Ping" },
      }),
    ).toBe(true);
    expect(commandsEqual(base, { ...base, name_localizations: { fr: "pong" } })).toBe(false);
  });
  it("required/autocomplete/nsfw absent = false; numbers numerically; channel types as a set", () => {
    const other: WireCommandBody = {
      ...base,
      nsfw: false,
      options: [
        {
          type: 4,
          name: "n",
          description: "number",
          required: false,
          autocomplete: false,
          min_value: 1.0,
          choices: [{ name: "one", value: 1, name_localizations: {} }],
        },
        { type: 7, name: "c", description: "channel", channel_types: [0, 2] },
      ],
    };
    expect(commandsEqual(base, other)).toBe(true);
    expect(commandsEqual(base, { ...base, nsfw: true })).toBe(false);
  });
  it("keeps the order of options and choices", () => {
    const swapped = { ...base, options: [...(base.options ?? [])].reverse() };
    expect(diffCommandFields(base, swapped)).toEqual(["options"]);
  });
  it("default_member_permissions: null and '0' differ; absent = null", () => {
    expect(commandsEqual(base, { ...base, default_member_permissions: null })).toBe(true);
    expect(commandsEqual(base, { ...base, default_member_permissions: "0" })).toBe(false);
  });
  it("USER/MESSAGE description absent = ''; type absent = 1", () => {
    expect(
      commandsEqual({ type: 2, name: "Info" }, { type: 2, name: "Info", description: "" }),
    ).toBe(true);
    expect(canonicalCommand({ name: "x" }).type).toBe(1);
  });
  it("contexts/integration_types: null and absent equal, a list differs", () => {
    expect(commandsEqual(base, { ...base, contexts: null })).toBe(true);
    expect(
      diffCommandFields(
        { ...base, integration_types: [1] },
        { ...base, contexts: [0, 1, 2], integration_types: [0] },
      ),
    ).toEqual(["integration_types", "contexts"]);
    // Undeclared, integration_types is the service's to default (the application's
    // installation contexts): one comparison for diff, drift and the exported helper.
    expect(
      diffCommandFields(base, { ...base, contexts: [0, 1, 2], integration_types: [0] }),
    ).toEqual(["contexts"]);
    expect(commandsEqual({ ...base, contexts: [2, 0] }, { ...base, contexts: [0, 2] })).toBe(true);
  });
  it("a returned command equals its body (ids and version ignored)", () => {
    const returned: WireCommand = {
      ...base,
      id: "1",
      application_id: "2",
      version: "3",
      description: "Ping",
      nsfw: false,
      default_member_permissions: null,
    };
    expect(commandsEqual(base, returned)).toBe(true);
    expect(diffCommandFields(returned, { ...base, name: "pong", description: "x" })).toEqual([
      "name",
      "description",
    ]);
  });
  it("is idempotent", () => {
    const c = canonicalCommand({ ...base, name_localizations: { fr: "ping", de: "pingen" } });
    expect(canonicalCommand(c)).toEqual(c);
    expect(c.name_localizations).toEqual({ de: "pingen" });
  });
});
