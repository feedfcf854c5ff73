/**
 * Requests generated from the service's own contract (openapi.json) for each write
 * operation: global and guild create, edit and bulk overwrite, and the permissions PUT.
 *
 * - Allowed: `null` for every nullable property, both forms of the permission bit set
 *   (decimal string and integer), every optional property absent and present. Each body
 *   is first checked against the document's request schema (so the document does allow
 *   it), then sent; it must be accepted with the effect the document describes: null is
 *   "not given" (the command equals the one without the property; on edit, the field is
 *   reset), a present property is applied.
 * - Forbidden: wrong types, over-long strings, unknown enum values, over-long arrays, from
 *   the same schemas: each is refused with 400/50035 and the field's path in `errors`,
 *   and the emulator's state is the same after it.
 */
import type { RunningEmulator } from "../../emulator";
import type { Api } from "../emulator/helpers";
import { arr, rec, start, str } from "../emulator/helpers";
import { validateWireCommand } from "../../provider/schema";
import { theContract, formatErrors } from "./oracle";

type Json = Record<string, unknown>;

let emu: RunningEmulator;
let api: Api;

beforeAll(async () => {
  ({ emu, api } = await start({ config: { dailyCreateLimit: 100000 } }));
});
afterAll(() => emu.close());
beforeEach(() => emu.control.reset());

// ---- the document's schemas ---------------------------------------------------------------

const contract = theContract();
function schemas(): Json {
  const c = rec(contract.document["components"]);
  return rec(c["schemas"]);
}
function schema(name: string): Json {
  return rec(schemas()[name]);
}
function properties(s: Json): Json {
  return rec(s["properties"]);
}
/** The JSON types a property schema allows (`type`, or the members of a `oneOf`). */
function typesOf(p: Json): string[] {
  if (typeof p["type"] === "string") return [p["type"]];
  if (Array.isArray(p["type"])) return p["type"].map(String);
  if (Array.isArray(p["oneOf"])) {
    return p["oneOf"].flatMap((m) => {
      const member = rec(m);
      if (typeof member["$ref"] === "string") return typesOf(resolve(member));
      return typesOf(member);
    });
  }
  if (typeof p["$ref"] === "string") return typesOf(resolve(p));
  return [];
}
function resolve(p: Json): Json {
  const ref = str(p["$ref"]);
  return schema(ref.slice("#/components/schemas/".length));
}
function nullable(p: Json): boolean {
  return typesOf(p).includes("null");
}
/** The option schemas the create body's `options` items are one of. */
const OPTION_SCHEMAS = arr(
  rec(rec(properties(schema("ApplicationCommandCreateRequest"))["options"])["items"])["oneOf"],
).map((m) => str(rec(m)["$ref"]).slice("#/components/schemas/".length));

function docAllows(method: string, path: string, body: unknown): void {
  const op = contract.operation(method, `/api/v10${path}`);
  if (op === undefined) throw new Error(`no operation for ${method} ${path}`);
  const validate = contract.requestValidator(op);
  if (validate === undefined) throw new Error(`no request schema for ${method} ${path}`);
  if (!validate(body)) {
    throw new Error(
      `the document refuses ${JSON.stringify(body)}: ${formatErrors(validate.errors).join("; ")}`,
    );
  }
}

// ---- operations -----------------------------------------------------------------------------

type Scope = "global" | "guild";
const SCOPES: Scope[] = ["global", "guild"];
const base = (scope: Scope) => (scope === "global" ? api.app : api.guild);

const BASE: Json = { name: "cmd", description: "A command" };

/** The command as the service describes it, without what the service assigns. */
function described(c: unknown): Json {
  const { id: _i, version: _v, application_id: _a, guild_id: _g, ...rest } = rec(c);
  return rest;
}

async function create(scope: Scope, body: Json): Promise<Json> {
  docAllows("POST", `${base(scope)}/commands`, body);
  const r = await api.post(`${base(scope)}/commands`, body);
  if (r.status !== 201 && r.status !== 200) {
    throw new Error(`create ${JSON.stringify(body)}: ${r.status} ${JSON.stringify(r.body)}`);
  }
  return rec(r.body);
}

async function edit(scope: Scope, id: string, body: Json): Promise<Json> {
  docAllows("PATCH", `${base(scope)}/commands/${id}`, body);
  const r = await api.patch(`${base(scope)}/commands/${id}`, body);
  if (r.status !== 200) {
    throw new Error(`edit ${JSON.stringify(body)}: ${r.status} ${JSON.stringify(r.body)}`);
  }
  return rec(r.body);
}

async function bulk(scope: Scope, list: unknown): Promise<unknown[]> {
  docAllows("PUT", `${base(scope)}/commands`, list);
  const r = await api.put(`${base(scope)}/commands`, list);
  if (r.status !== 200) {
    throw new Error(`bulk ${JSON.stringify(list)}: ${r.status} ${JSON.stringify(r.body)}`);
  }
  return arr(r.body);
}

/** The reference: what the service makes of `body` without the property under test. */
async function reference(scope: Scope, body: Json): Promise<Json> {
  const c = described(await create(scope, body));
  emu.control.reset();
  return c;
}

// ---- allowed: nulls ------------------------------------------------------------------------

/** Command properties that are nullable in the document, by request schema. */
function nullableProps(schemaName: string): string[] {
  return Object.entries(properties(schema(schemaName)))
    .filter(([, p]) => nullable(rec(p)))
    .map(([k]) => k);
}

/** The body a nullable property is sent as null in: the spec's rules decide the type. */
function nullBody(prop: string): Json {
  // spec: CHAT_INPUT descriptions are 1-100 characters, so a null description is only
  // "not given" for USER and MESSAGE commands.
  if (prop === "description") return { type: 2, name: "User Cmd", description: null };
  return { ...BASE, [prop]: null };
}

describe("nullable properties sent as null are accepted and mean 'not given'", () => {
  const createNulls = nullableProps("ApplicationCommandCreateRequest");
  const patchNulls = nullableProps("ApplicationCommandPatchRequestPartial");
  const bulkNulls = nullableProps("ApplicationCommandUpdateRequest");

  test("the document marks the fields the issue names as nullable", () => {
    for (const p of ["options", "dm_permission", "type", "handler", "default_member_permissions"]) {
      expect(createNulls).toContain(p);
    }
    expect(bulkNulls).toContain("id");
  });

  for (const scope of SCOPES) {
    test.each(createNulls)(`${scope} create: %s null`, async (prop) => {
      const body = nullBody(prop);
      const { [prop]: _omit, ...without } = body;
      const expected = await reference(scope, without);
      expect(described(await create(scope, body))).toEqual(expected);
    });

    test.each(bulkNulls)(`${scope} bulk overwrite: %s null`, async (prop) => {
      const body = nullBody(prop);
      const { [prop]: _omit, ...without } = body;
      const expected = await reference(scope, without);
      const [c] = await bulk(scope, [body]);
      expect(described(c)).toEqual(expected);
    });

    test.each(patchNulls.filter((p) => p !== "handler"))(
      `${scope} edit: %s null resets the field`,
      async (prop) => {
        const body = nullBody(prop);
        const { [prop]: _omit, ...without } = body;
        const expected = await reference(scope, without);
        const present = PRESENT[prop];
        const withValue = present === undefined ? without : { ...without, [prop]: present };
        const c = await create(scope, withValue);
        expect(described(await edit(scope, str(c["id"]), { [prop]: null }))).toEqual(expected);
      },
    );
  }

  test("global edit: handler null on the entry point", async () => {
    emu.control.setActivities(emu.applicationId, true);
    const list = (await api.get(`${api.app}/commands`)).body;
    const launch = rec(arr(list).find((c) => rec(c)["type"] === 4));
    const c = await edit("global", str(launch["id"]), { handler: null });
    expect(c["type"]).toBe(4);
    expect(c["handler"]).toBeUndefined();
  });

  test.each(OPTION_SCHEMAS)("options: every nullable property of %s sent as null", async (name) => {
    const s = schema(name);
    const option = sampleOption(s);
    const expected = await reference("global", { ...BASE, options: [option] });
    const nulls = Object.entries(properties(s))
      .filter(([, p]) => nullable(rec(p)))
      .map(([k]) => k);
    expect(nulls.length).toBeGreaterThan(0);
    for (const prop of nulls) {
      const body = { ...BASE, options: [{ ...option, [prop]: null }] };
      expect(described(await create("global", body))).toEqual(expected);
      emu.control.reset();
    }
  });

  test("choices: name_localizations null", async () => {
    const option = {
      type: 3,
      name: "pick",
      description: "Pick",
      choices: [{ name: "A", value: "a" }],
    };
    const expected = await reference("global", { ...BASE, options: [option] });
    const body = {
      ...BASE,
      options: [{ ...option, choices: [{ name: "A", value: "a", name_localizations: null }] }],
    };
    expect(described(await create("global", body))).toEqual(expected);
  });

  test("permissions PUT: overwrites of each type present are stored as sent", async () => {
    const c = await create("guild", BASE);
    const path = `${api.guild}/commands/${str(c["id"])}/permissions`;
    const permissions = [
      { id: emu.guildId, type: 1, permission: false },
      { id: emu.userId, type: 2, permission: true },
      { id: String(BigInt(emu.guildId) - 1n), type: 3, permission: true },
    ];
    docAllows("PUT", path, { permissions });
    const r = await api.put(path, { permissions }, { auth: `Bearer ${emu.userBearerToken}` });
    expect(r.status).toBe(200);
    expect(rec(r.body)["permissions"]).toEqual(permissions);
    expect(rec((await api.get(path)).body)["permissions"]).toEqual(permissions);
  });

  test("permissions PUT: permissions null or absent is no overwrites", async () => {
    const c = await create("guild", BASE);
    const path = `${api.guild}/commands/${str(c["id"])}/permissions`;
    const auth = { auth: `Bearer ${emu.userBearerToken}` };
    for (const body of [{ permissions: null }, {}]) {
      docAllows("PUT", path, body);
      const r = await api.put(path, body, auth);
      expect(r.status).toBe(200);
      expect(rec(r.body)["permissions"]).toEqual([]);
    }
  });
});

// ---- allowed: both forms of the permission bit set ---------------------------------------------

describe("default_member_permissions as a decimal string and as an integer", () => {
  for (const scope of SCOPES) {
    test(`${scope}: create, edit and bulk overwrite take 8 and "8" alike`, async () => {
      // The document's form (integer); the spec's form (string) is the one the document lacks.
      const asInt = await create(scope, { ...BASE, default_member_permissions: 8 });
      expect(asInt["default_member_permissions"]).toBe("8");
      const edited = await edit(scope, str(asInt["id"]), { default_member_permissions: 32 });
      expect(edited["default_member_permissions"]).toBe("32");
      const [b] = await bulk(scope, [{ ...BASE, default_member_permissions: 0 }]);
      expect(rec(b)["default_member_permissions"]).toBe("0");
      const r = await api.post(`${base(scope)}/commands`, {
        ...BASE,
        default_member_permissions: "8",
      });
      expect(rec(r.body)["default_member_permissions"]).toBe("8");
      // the document's maximum, 2^54, both forms
      const max = await edit(scope, str(asInt["id"]), { default_member_permissions: 2 ** 54 });
      expect(max["default_member_permissions"]).toBe("18014398509481984");
    });
  }
});

// ---- allowed: optional properties present -------------------------------------------------------

/** A valid value per optional command property (the spec's rules and the document's). */
const PRESENT: Json = {
  name_localizations: { fr: "commande" },
  description_localizations: { fr: "Une commande" },
  options: [{ type: 3, name: "text", description: "Some text" }],
  // the document's form; the string form is tested above
  default_member_permissions: 32,
  dm_permission: false,
  // BOT_DM included: a stored dm_permission follows contexts (README, "Response shapes"),
  // so [0, 1, 2] keeps the null-reset comparison about contexts alone
  contexts: [0, 1, 2],
  integration_types: [0],
  nsfw: true,
  default_permission: true,
  type: 1,
};

/** What a present property reads as on the command returned (undefined: not kept there). */
function expectedValue(scope: Scope, prop: string, value: unknown): unknown {
  if (scope === "guild" && ["dm_permission", "contexts", "integration_types"].includes(prop)) {
    return undefined; // spec: global commands only; guild commands keep none of them
  }
  if (prop === "default_permission") return undefined; // deprecated: accepted, not returned
  if (prop === "default_member_permissions") return String(value); // returned as a string
  return value;
}

describe("optional properties present are applied; absent, the defaults hold", () => {
  const optional = Object.keys(properties(schema("ApplicationCommandCreateRequest"))).filter(
    (k) => k !== "name" && k !== "handler" && k !== "description",
  );

  test("the samples cover every optional property of the document's create body", () => {
    for (const k of optional) expect(Object.keys(PRESENT)).toContain(k);
  });

  for (const scope of SCOPES) {
    test.each(optional)(`${scope} create, bulk and edit: %s present`, async (prop) => {
      const value = PRESENT[prop];
      const want = expectedValue(scope, prop, value);
      const check = (c: Json) => {
        if (want === undefined) expect(c[prop]).toBeUndefined();
        else if (typeof want === "object" && want !== null) expect(c[prop]).toMatchObject(want);
        else expect(c[prop]).toEqual(want);
      };
      const created = await create(scope, { ...BASE, [prop]: value });
      check(created);
      emu.control.reset();
      const [b] = await bulk(scope, [{ ...BASE, [prop]: value }]);
      check(rec(b));
      emu.control.reset();
      if (prop !== "type") {
        const c = await create(scope, BASE);
        check(await edit(scope, str(c["id"]), { [prop]: value }));
      }
    });
  }

  test.each(OPTION_SCHEMAS)("options: every optional property of %s present", async (name) => {
    const s = schema(name);
    const option = { ...sampleOption(s), ...OPTION_PRESENT[name] };
    const c = await create("global", { ...BASE, options: [option] });
    const returned = rec(arr(c["options"])[0]);
    for (const prop of Object.keys(properties(s))) {
      if (["type", "name", "description"].includes(prop)) continue;
      expect(Object.keys(option)).toContain(prop);
      const sent = option[prop];
      // Returned commands omit false and empty fields, as the service's do.
      if (sent === false || (Array.isArray(sent) && sent.length === 0)) {
        expect(returned[prop]).toBeUndefined();
      } else if (typeof sent === "object" && sent !== null) {
        expect(returned[prop]).toMatchObject(sent);
      } else expect(returned[prop]).toEqual(sent);
    }
  });
});

const SUB = { type: 1, name: "sub", description: "A subcommand" };
const LOC = { fr: "option" };
const DESC_LOC = { fr: "Une option" };
/** The optional properties of each option schema, present with valid values. */
const OPTION_PRESENT: Record<string, Json> = {
  ApplicationCommandAttachmentOption: {
    name_localizations: LOC,
    description_localizations: DESC_LOC,
    required: true,
  },
  ApplicationCommandBooleanOption: {
    name_localizations: LOC,
    description_localizations: DESC_LOC,
    required: true,
  },
  ApplicationCommandChannelOption: {
    name_localizations: LOC,
    description_localizations: DESC_LOC,
    required: true,
    channel_types: [0, 5, 15],
  },
  ApplicationCommandIntegerOption: {
    name_localizations: LOC,
    description_localizations: DESC_LOC,
    required: true,
    autocomplete: false,
    choices: [{ name: "One", value: 1, name_localizations: { fr: "Un" } }],
    min_value: -5,
    max_value: 5,
  },
  ApplicationCommandMentionableOption: {
    name_localizations: LOC,
    description_localizations: DESC_LOC,
    required: true,
  },
  ApplicationCommandNumberOption: {
    name_localizations: LOC,
    description_localizations: DESC_LOC,
    required: true,
    autocomplete: true,
    choices: [],
    min_value: -1.5,
    max_value: 2.5,
  },
  ApplicationCommandRoleOption: {
    name_localizations: LOC,
    description_localizations: DESC_LOC,
    required: true,
  },
  ApplicationCommandStringOption: {
    name_localizations: LOC,
    description_localizations: DESC_LOC,
    required: true,
    autocomplete: false,
    min_length: 0,
    max_length: 6000,
    choices: [{ name: "A", value: "a" }],
  },
  ApplicationCommandSubcommandGroupOption: {
    name_localizations: LOC,
    description_localizations: DESC_LOC,
    required: false,
    options: [SUB],
  },
  ApplicationCommandSubcommandOption: {
    name_localizations: LOC,
    description_localizations: DESC_LOC,
    required: false,
    options: [{ type: 3, name: "text", description: "Text" }],
  },
  ApplicationCommandUserOption: {
    name_localizations: LOC,
    description_localizations: DESC_LOC,
    required: true,
  },
};

/** The smallest valid option of a schema (its `type` const, a name and a description). */
function sampleOption(s: Json): Json {
  const type = rec(properties(s)["type"]);
  const t = Number(arr(type["enum"])[0]);
  return { type: t, name: `opt${t}`, description: "An option" };
}

// ---- forbidden --------------------------------------------------------------------------------

interface Bad {
  readonly label: string;
  readonly body: Json;
  /** Where the service's error tree must hold the field's error. */
  readonly path: (string | number)[];
}

/** A value whose JSON type the property schema does not allow. */
function wrongType(p: Json): unknown {
  const types = typesOf(p);
  const candidates: [string, unknown][] = [
    ["boolean", true],
    ["object", { x: 1 }],
    ["array", [1]],
    ["string", "text"],
    ["integer", 12.5],
  ];
  for (const [t, v] of candidates) {
    if (types.includes(t)) continue;
    if (t === "integer" && types.includes("number")) continue;
    return v;
  }
  throw new Error(`no wrong type for ${JSON.stringify(p)}`);
}

function enumOf(p: Json): boolean {
  const r = typeof p["$ref"] === "string" ? resolve(p) : p;
  if (Array.isArray(r["oneOf"]))
    return r["oneOf"].some((m) => "const" in rec(m) || typeof rec(m)["$ref"] === "string");
  return Array.isArray(r["enum"]);
}

/** The forbidden variants of one object's properties, at `prefix` inside `wrap`. */
function badVariants(
  s: Json,
  valid: Json,
  wrap: (o: Json) => Json,
  prefix: (string | number)[],
): Bad[] {
  const out: Bad[] = [];
  for (const [prop, raw] of Object.entries(properties(s))) {
    const p = rec(raw);
    const at = [...prefix, prop];
    out.push({
      label: `${at.join(".")}: wrong type`,
      body: wrap({ ...valid, [prop]: wrongType(p) }),
      path: at,
    });
    if (typeof p["maxLength"] === "number") {
      out.push({
        label: `${at.join(".")}: over-long string`,
        body: wrap({ ...valid, [prop]: "a".repeat(p["maxLength"] + 1) }),
        path: at,
      });
    }
    const ap = isObjectSchema(p["additionalProperties"]);
    if (ap !== undefined && typeof ap["maxLength"] === "number") {
      out.push({
        label: `${at.join(".")}.fr: over-long localized string`,
        body: wrap({ ...valid, [prop]: { fr: "a".repeat(ap["maxLength"] + 1) } }),
        path: [...at, "fr"],
      });
    }
    const oneOfMembers = Array.isArray(p["oneOf"]) ? p["oneOf"].map(rec) : [p];
    if (oneOfMembers.some((m) => enumOf(m)) && prop !== "id") {
      out.push({
        label: `${at.join(".")}: unknown enum value`,
        body: wrap({ ...valid, [prop]: 99 }),
        path: at,
      });
    }
    const items = isObjectSchema(p["items"]);
    if (items !== undefined && enumOf(items)) {
      out.push({
        label: `${at.join(".")}[0]: unknown enum value`,
        body: wrap({ ...valid, [prop]: [99] }),
        path: [...at, 0],
      });
    }
    if (typeof p["maxItems"] === "number") {
      const n = p["maxItems"] + 1;
      const list =
        prop === "choices"
          ? Array.from({ length: n }, (_, i) => ({
              name: `c${i}`,
              value: valid["type"] === 3 ? `v${i}` : i,
            }))
          : Array.from({ length: n }, (_, i) => ({
              type: 3,
              name: `o${i}`,
              description: "An option",
            }));
      out.push({
        label: `${at.join(".")}: over-long array (${n})`,
        body: wrap({ ...valid, [prop]: list }),
        path: at,
      });
    }
  }
  return out;
}

function isObjectSchema(v: unknown): Json | undefined {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
}

function errorAtPath(errors: unknown, path: (string | number)[]): boolean {
  let node: unknown = errors;
  for (const seg of path) {
    const r = isObjectSchema(node);
    if (r === undefined || !Object.hasOwn(r, String(seg))) return false;
    node = r[String(seg)];
  }
  return isObjectSchema(node) !== undefined;
}

describe("requests the document forbids are refused (50035, the field's path), state unchanged", () => {
  const commandBad = badVariants(schema("ApplicationCommandCreateRequest"), BASE, (o) => o, []);
  const optionBad = OPTION_SCHEMAS.flatMap((name) => {
    const s = schema(name);
    const valid = sampleOption(s);
    return badVariants(s, valid, (o) => ({ ...BASE, options: [o] }), ["options", 0]);
  });
  const choiceBad = badVariants(
    schema("ApplicationCommandOptionStringChoice"),
    { name: "A", value: "a" },
    (c) => ({ ...BASE, options: [{ type: 3, name: "pick", description: "Pick", choices: [c] }] }),
    ["options", 0, "choices", 0],
  );
  const all = [...commandBad, ...optionBad, ...choiceBad];

  test("the generator covers wrong types, lengths, enums and array sizes", () => {
    expect(all.length).toBeGreaterThan(100);
    for (const kind of [
      "wrong type",
      "over-long string",
      "unknown enum value",
      "over-long array",
    ]) {
      expect(all.some((b) => b.label.includes(kind))).toBe(true);
    }
  });

  test("the provider's schema refuses every body the document forbids (it may be stricter, never looser)", () => {
    const accepted = all
      .filter((bad) => validateWireCommand(bad.body, { scope: "global", mode: "create" }).ok)
      .map((bad) => bad.label);
    expect(accepted).toEqual([]);
  });

  for (const scope of SCOPES) {
    test(`${scope}: create, edit and bulk overwrite refuse every forbidden body`, async () => {
      const existing = await create(scope, { ...BASE, name: "keep" });
      const before = emu.control.state();
      const failures: string[] = [];
      for (const bad of all) {
        const { body, path } = bad;
        // The document must forbid it, or this is no bad input.
        const op = contract.operation("POST", `/api/v10${base(scope)}/commands`);
        const validate = op && contract.requestValidator(op);
        if (validate === undefined || validate(body)) {
          failures.push(`${bad.label}: the document allows it`);
          continue;
        }
        const attempts: [
          string,
          Promise<{ status: number; body: unknown }>,
          (string | number)[],
        ][] = [
          ["create", api.post(`${base(scope)}/commands`, body), path],
          ["bulk", api.put(`${base(scope)}/commands`, [body]), [0, ...path]],
        ];
        if (
          path[0] !== "name" ||
          bad.label.includes("wrong type") ||
          bad.label.includes("over-long")
        ) {
          attempts.push([
            "edit",
            api.patch(`${base(scope)}/commands/${str(existing["id"])}`, body),
            path,
          ]);
        }
        for (const [what, p, where] of attempts) {
          const r = await p;
          const b = isObjectSchema(r.body);
          if (r.status !== 400 || b?.["code"] !== 50035 || !errorAtPath(b["errors"], where)) {
            failures.push(`${scope} ${what} ${bad.label}: ${r.status} ${JSON.stringify(r.body)}`);
          }
        }
      }
      expect(failures).toEqual([]);
      expect(emu.control.state()).toEqual(before);
    });
  }

  test("permissions PUT: wrong types, unknown types and over 100 overwrites", async () => {
    const c = await create("guild", BASE);
    const path = `${api.guild}/commands/${str(c["id"])}/permissions`;
    const auth = { auth: `Bearer ${emu.userBearerToken}` };
    const role = emu.guildId;
    const cases: [unknown, (string | number)[]][] = [
      [{ permissions: "all" }, ["permissions"]],
      [{ permissions: [{ id: 5, type: 1, permission: true }] }, ["permissions", 0, "id"]],
      [{ permissions: [{ id: role, type: 9, permission: true }] }, ["permissions", 0, "type"]],
      [
        { permissions: [{ id: role, type: 1, permission: "yes" }] },
        ["permissions", 0, "permission"],
      ],
      [{ permissions: [{ id: role, type: 1 }] }, ["permissions", 0, "permission"]],
      [
        {
          permissions: Array.from({ length: 101 }, (_, i) => ({
            id: String(1300000000000001000n + BigInt(i)),
            type: 2,
            permission: true,
          })),
        },
        ["permissions"],
      ],
    ];
    const before = emu.control.state();
    for (const [body, where] of cases) {
      const op = contract.operation("PUT", `/api/v10${path}`);
      const validate = op && contract.requestValidator(op);
      expect(validate?.(body)).toBe(false);
      const r = await api.put(path, body, auth);
      expect([r.status, rec(r.body)["code"]]).toEqual([400, 50035]);
      expect(errorAtPath(rec(r.body)["errors"], where)).toBe(true);
    }
    expect(emu.control.state()).toEqual(before);
  });
});
