/**
 * A corpus of generated commands round-trips create -> read -> diff with no false diff,
 * and the provider's verdict and the emulator's agree where they must (two rule sets:
 * provider/schema and emulator/rules): what the provider accepts the emulator accepts, what the
 * emulator rejects the provider rejects (at the same paths), and the only bodies the
 * provider rejects and the emulator accepts are the service's tolerated blank cells
 * (provider/schema/fields.ts, `tolerated`), each listed and checked here.
 */
import type { RunningEmulator } from "../../emulator";
import type { Path, WireCommandBody } from "../../provider/schema";
import {
  formatPath,
  patchBody,
  toSdkPath,
  validateSdkCommand,
  wireToSdk,
} from "../../provider/schema";
import { Api, rec } from "../emulator/helpers";
import { scopeCorpus } from "./corpus";
import type { Bag } from "./helpers";
import { configureAll, declared, globalProvider, guildProvider, setup, teardown } from "./helpers";

let emu: RunningEmulator;
let api: Api;
const APP = "1300000000000000001";

beforeAll(async () => {
  emu = await setup({
    config: {
      applications: [
        {
          id: APP,
          botToken: "emulator-bot-token",
          clientSecret: "emulator-client-secret",
          activities: true,
          installationContexts: [0, 1],
        },
      ],
    },
  });
  api = new Api(emu);
});
afterAll(() => teardown(emu));

describe("a corpus of generated commands round-trips with no false diff", () => {
  const global = scopeCorpus(20261122, "global", { chatInput: 90, user: 14, message: 14 });
  const guild = scopeCorpus(4242, "guild", { chatInput: 90, user: 14, message: 14 });

  test("the corpus is large and varied", () => {
    expect(global.length + guild.length).toBeGreaterThanOrEqual(200);
    const all = JSON.stringify([...global, ...guild]);
    for (const needle of [
      '"type":2,"name":"group',
      '"channelTypes"',
      '"minValue"',
      '"maxLength"',
      '"nsfw":true',
      '"contexts"',
      '"integrationTypes"',
      '"defaultMemberPermissions"',
      '"handler"',
      '"autocomplete"',
    ]) {
      expect(all).toContain(needle);
    }
    // Choices of each value type: string, integer and double.
    const values = [...all.matchAll(/"value":("[^"]*"|-?[\d.]+)/g)].map((m) => m[1] ?? "");
    expect(values.some((v) => v.startsWith('"'))).toBe(true);
    expect(values.some((v) => /^-?\d+$/.test(v))).toBe(true);
    expect(values.some((v) => /\./.test(v))).toBe(true);
  });

  test.each([
    ["global", global],
    ["guild", guild],
  ] as const)("%s scope: check, create, read, diff", async (scope, corpus) => {
    const provider = scope === "global" ? globalProvider : guildProvider;
    const extra: Bag = scope === "global" ? {} : { guildId: emu.guildId };
    const created: { id: string; outs: Bag; inputs: Bag }[] = [];
    const failures: string[] = [];
    for (const args of corpus) {
      const checked = await provider.check({}, { ...extra, ...args });
      if (checked.failures.length > 0) {
        failures.push(
          `${String(args["name"])}: ${checked.failures.map((f) => f.reason).join("; ")}`,
        );
        continue;
      }
      const { id, outs } = await provider.create(checked.inputs);
      created.push({ id, outs, inputs: checked.inputs });
    }
    expect(failures).toEqual([]);
    emu.control.resetLog();
    const reads = await Promise.all(created.map((c) => provider.read(c.id, c.outs)));
    expect(emu.requestLog()).toHaveLength(1); // one list GET for the whole scope
    const falseDiffs: string[] = [];
    for (const [i, c] of created.entries()) {
      const r = reads[i];
      if (!r || r.id !== c.id) {
        falseDiffs.push(`${c.id}: gone`);
        continue;
      }
      const d = await provider.diff(c.id, r.props ?? {}, c.inputs);
      if (d.changes || JSON.stringify(r.inputs) !== JSON.stringify(c.inputs)) {
        falseDiffs.push(
          `${String(c.inputs["name"])}: ${JSON.stringify(r.inputs)} vs ${JSON.stringify(c.inputs)}`,
        );
      }
      expect(declared(r.props ?? {})).toEqual(c.inputs);
    }
    expect(falseDiffs).toEqual([]);
    expect(created).toHaveLength(corpus.length);
  });
});

/** Every leaf path of a service error tree (`{"options":{"0":{"name":{"_errors":[...]}}}}`). */
function errorPaths(tree: unknown, at: Path = []): string[] {
  if (typeof tree !== "object" || tree === null) return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(tree)) {
    if (k === "_errors") out.push(formatPath(toSdkPath(at)) || "(command)");
    else out.push(...errorPaths(v, [...at, /^\d+$/.test(k) ? Number(k) : k]));
  }
  return out;
}

const base = (extra: Bag = {}): Bag => ({ name: "verdict", description: "A command", ...extra });
const opt = (type: number, name: string, extra: Bag = {}): Bag => ({
  type,
  name,
  description: `the ${name}`,
  ...extra,
});
const long = (n: number): string => "a".repeat(n);

/** Invalid commands in wire shape, each breaking one or two rules. */
const INVALID: [string, Bag][] = [
  ["no name", { description: "x" }],
  ["empty name", base({ name: "" })],
  ["upper-case name", base({ name: "Verdict" })],
  ["name with a space", base({ name: "two words" })],
  ["name too long", base({ name: long(33) })],
  ["name not a string", base({ name: 5 })],
  ["no description", { name: "verdict" }],
  ["empty description", base({ description: "" })],
  ["description too long", base({ description: long(101) })],
  ["unknown type", base({ type: 9 })],
  ["USER with a description", { type: 2, name: "User Thing", description: "no" }],
  ["MESSAGE with options", { type: 3, name: "Msg", options: [opt(3, "a")] }],
  ["USER name too long", { type: 2, name: long(33) }],
  ["bad name localization locale", base({ name_localizations: { xx: "verdict" } })],
  ["bad name localization value", base({ name_localizations: { fr: "Bad Name" } })],
  ["description localization too long", base({ description_localizations: { de: long(101) } })],
  ["option without a type", base({ options: [{ name: "a", description: "b" }] })],
  ["option unknown type", base({ options: [opt(12, "a")] })],
  ["option upper-case name", base({ options: [opt(3, "Abc")] })],
  ["option empty description", base({ options: [opt(3, "a", { description: "" })] })],
  ["duplicate option names", base({ options: [opt(3, "a"), opt(4, "a")] })],
  ["required after optional", base({ options: [opt(3, "a"), opt(3, "b", { required: true })] })],
  ["26 options", base({ options: Array.from({ length: 26 }, (_, i) => opt(5, `o${i}`)) })],
  [
    "choices on a boolean",
    base({ options: [opt(5, "a", { choices: [{ name: "x", value: "x" }] })] }),
  ],
  [
    "26 choices",
    base({
      options: [
        opt(3, "a", {
          choices: Array.from({ length: 26 }, (_, i) => ({ name: `c${i}`, value: `v${i}` })),
        }),
      ],
    }),
  ],
  [
    "empty choice name",
    base({
      options: [
        opt(3, "a", {
          choices: [
            { name: "ok", value: "a" },
            { name: "", value: "b" },
          ],
        }),
      ],
    }),
  ],
  [
    "choice name too long",
    base({ options: [opt(3, "a", { choices: [{ name: long(101), value: "a" }] })] }),
  ],
  [
    "string choice with a number value",
    base({ options: [opt(3, "a", { choices: [{ name: "x", value: 1 }] })] }),
  ],
  [
    "integer choice with a fraction",
    base({ options: [opt(4, "a", { choices: [{ name: "x", value: 1.5 }] })] }),
  ],
  [
    "number choice with a string",
    base({ options: [opt(10, "a", { choices: [{ name: "x", value: "1" }] })] }),
  ],
  [
    "string choice value too long",
    base({ options: [opt(3, "a", { choices: [{ name: "x", value: long(101) }] })] }),
  ],
  [
    "choices and autocomplete",
    base({ options: [opt(3, "a", { autocomplete: true, choices: [{ name: "x", value: "x" }] })] }),
  ],
  ["autocomplete on a boolean", base({ options: [opt(5, "a", { autocomplete: true })] })],
  ["min_value on a string", base({ options: [opt(3, "a", { min_value: 1 })] })],
  ["min_length on an integer", base({ options: [opt(4, "a", { min_length: 1 })] })],
  ["min_length too large", base({ options: [opt(3, "a", { min_length: 6001 })] })],
  ["max_length zero", base({ options: [opt(3, "a", { max_length: 0 })] })],
  ["channel_types on a string", base({ options: [opt(3, "a", { channel_types: [0] })] })],
  ["unknown channel type", base({ options: [opt(7, "a", { channel_types: [7] })] })],
  ["subcommand with a subcommand", base({ options: [opt(1, "s", { options: [opt(1, "t")] })] })],
  ["group with a plain option", base({ options: [opt(2, "g", { options: [opt(3, "a")] })] })],
  ["subcommand mixed with a plain option", base({ options: [opt(1, "s"), opt(3, "a")] })],
  ["required subcommand", base({ options: [opt(1, "s", { required: true })] })],
  [
    "nested bad choice",
    base({
      options: [
        opt(2, "g", {
          options: [
            opt(1, "s", { options: [opt(4, "n", { choices: [{ name: "x", value: "y" }] })] }),
          ],
        }),
      ],
    }),
  ],
  ["default_member_permissions not digits", base({ default_member_permissions: "admin" })],
  ["nsfw not a boolean", base({ nsfw: "yes" })],
  ["unknown context", base({ contexts: [3] })],
  ["unknown integration type", base({ integration_types: [2] })],
  ["handler on CHAT_INPUT", base({ handler: 1 })],
  [
    "entry point with options",
    { type: 4, name: "Launch", description: "Go", options: [opt(3, "a")] },
  ],
  [
    "too large",
    base({
      options: Array.from({ length: 25 }, (_, i) =>
        opt(3, `o${i}`, {
          description: long(100),
          choices: Array.from({ length: 25 }, (_, j) => ({
            name: `${long(90)}${j}`,
            value: `v${j}`,
          })),
        }),
      ),
    }),
  ],
];

describe("the provider's verdict and the emulator's", () => {
  // Each test is a deployment of its own: check counts the names one deployment adds.
  beforeEach(async () => {
    emu.control.reset();
    await configureAll(emu);
  });

  test("at least 50 invalid commands", () => {
    expect(INVALID.length).toBeGreaterThanOrEqual(50);
  });

  test.each(INVALID)(
    "%s: the emulator rejects it, so the provider does, at the same paths",
    async (_what, body) => {
      const verdict = await globalProvider.check(
        {},
        wireToSdk(body as unknown as WireCommandBody) as unknown as Bag,
      );
      const reply = await api.post(`${api.app}/commands`, body);
      expect(reply.status).toBe(400);
      const providerPaths = [...new Set(verdict.failures.map((f) => f.property))].sort();
      const emulatorPaths = [...new Set(errorPaths(rec(reply.body)["errors"]))].sort();
      expect(providerPaths.length).toBeGreaterThan(0);
      expect(providerPaths).toEqual(emulatorPaths);
    },
  );

  test("valid commands: no check failure, so the emulator accepts them", async () => {
    const corpus = scopeCorpus(77, "global", { chatInput: 20, user: 5, message: 5 });
    for (const args of corpus) {
      const verdict = await globalProvider.check({}, args);
      const body = validateSdkCommand(args, { scope: "global" });
      expect(verdict.failures).toEqual([]);
      expect(body.ok).toBe(true);
      if (!body.ok) continue;
      const reply = await api.post(`${api.app}/commands`, body.value);
      expect([200, 201]).toContain(reply.status);
    }
  });

  /**
   * The tolerated blank cells: the provider rejects them (a program never declares what
   * the service would drop), the emulator accepts them as the service does. The provider
   * only creates and edits one command, so a tolerated bulk cell is checked as the
   * provider's create of that scope.
   */
  const TOLERATED: {
    what: string;
    scope: "global" | "guild";
    method: "POST" | "PATCH" | "PUT";
    body: Bag;
    /** The SDK property the provider's check rejects; null: the provider never sends it there. */
    rejectedAs: string | null;
    ignored: string[];
  }[] = [
    {
      what: "contexts on a guild command",
      rejectedAs: "contexts",
      scope: "guild",
      method: "POST",
      body: base({ contexts: [0] }),
      ignored: ["contexts"],
    },
    {
      what: "integration_types on a guild command",
      rejectedAs: "integrationTypes",
      scope: "guild",
      method: "POST",
      body: base({ integration_types: [0] }),
      ignored: ["integration_types"],
    },
    {
      what: "dm_permission on a guild command",
      rejectedAs: "dmPermission",
      scope: "guild",
      method: "PATCH",
      body: { dm_permission: false },
      ignored: ["dm_permission"],
    },
    {
      what: "type in an edit",
      rejectedAs: null,
      scope: "global",
      method: "PATCH",
      body: { type: 1, description: "Edited" },
      ignored: ["type"],
    },
    {
      what: "nsfw in a guild bulk overwrite",
      rejectedAs: null,
      scope: "guild",
      method: "PUT",
      body: base({ nsfw: true }),
      ignored: [],
    },
  ];

  test.each(TOLERATED)("$what: the provider rejects it, the emulator tolerates it", async (c) => {
    const provider = c.scope === "global" ? globalProvider : guildProvider;
    const sdk = wireToSdk({ ...base(), ...c.body } as unknown as WireCommandBody) as unknown as Bag;
    const verdict = await provider.check(
      {},
      c.scope === "guild" ? { ...sdk, guildId: emu.guildId } : sdk,
    );
    if (c.rejectedAs !== null) {
      expect(verdict.failures.map((f) => f.property)).toContain(c.rejectedAs);
    } else {
      // The provider's create of the scope accepts the command; its PATCH leaves `type`
      // out (a type change is a replacement), and it never bulk-overwrites.
      expect(verdict.failures).toEqual([]);
      expect(
        patchBody({ ...base(), ...c.body }, ["type", "description", "nsfw"]),
      ).not.toHaveProperty("type");
    }
    const root = c.scope === "global" ? api.app : api.guild;
    let reply;
    if (c.method === "POST") reply = await api.post(`${root}/commands`, c.body);
    else if (c.method === "PUT") reply = await api.put(`${root}/commands`, [c.body]);
    else {
      const id = rec((await api.post(`${root}/commands`, base())).body)["id"];
      reply = await api.patch(`${root}/commands/${String(id)}`, c.body);
    }
    expect([200, 201]).toContain(reply.status);
    const warning = reply.headers.get("x-emulator-warning");
    if (c.ignored.length === 0) expect(warning).toBeNull();
    else expect(warning).toContain(`ignored fields: ${c.ignored.join(", ")}`);
  });
});
