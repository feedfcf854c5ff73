/**
 * The command providers against the emulator: every CRUD path, adoption, replacement
 * versus update, drift detection, 404s, the name swap and the refresh request count.
 */
import type { RunningEmulator } from "../../emulator";
import { CommandsApi } from "../../provider/client";
import { Api, rec } from "../emulator/helpers";
import type { Bag } from "./helpers";
import {
  configureAll,
  declared,
  freshDeployment,
  globalInputs,
  globalProvider,
  guildInputs,
  guildProvider,
  rejection,
  requests,
  runtime,
  setup,
  slashArgs,
  teardown,
  UNKNOWN,
  writes,
} from "./helpers";

let emu: RunningEmulator;
let api: Api;

beforeAll(async () => {
  emu = await setup();
  api = new Api(emu);
});
afterAll(() => teardown(emu));
beforeEach(() => freshDeployment(emu));

const rich: Bag = {
  name: "deploy",
  description: "Deploys a service",
  nameLocalizations: { fr: "deployer", de: "deploy" },
  descriptionLocalizations: { fr: "Deploie un service" },
  options: [
    {
      type: 3,
      name: "target",
      description: "Where to",
      required: true,
      choices: [
        { name: "Production", value: "prod" },
        { name: "Staging", value: "staging", nameLocalizations: { fr: "Preprod" } },
      ],
    },
    { type: 4, name: "replicas", description: "How many", minValue: 1, maxValue: 10 },
  ],
  defaultMemberPermissions: "32",
  nsfw: false,
};

describe("check", () => {
  test("accepts a valid command and fills the application id from the stack config", async () => {
    const { inputs, failures } = await globalProvider.check({}, slashArgs("ping"));
    expect(failures).toEqual([]);
    expect(inputs["applicationId"]).toBe(emu.applicationId);
  });

  test("names the failing nested path in property and reason", async () => {
    const args = {
      ...rich,
      options: [
        {
          type: 3,
          name: "target",
          description: "Where to",
          choices: [
            { name: "ok", value: "a" },
            { name: "", value: "b" },
          ],
        },
      ],
    };
    const { failures } = await globalProvider.check({}, args);
    expect(failures.map((f) => f.property)).toContain("options[0].choices[1].name");
    const f = failures.find((x) => x.property === "options[0].choices[1].name");
    expect(f?.reason).toContain("options[0].choices[1].name");
  });

  test("rejects an upper-case CHAT_INPUT name at `name`", async () => {
    const { failures } = await globalProvider.check({}, slashArgs("Ping"));
    expect(failures.map((f) => f.property)).toEqual(["name"]);
  });

  test("accepts values unknown at preview and still checks the known ones", async () => {
    const ok = await guildProvider.check(
      {},
      {
        guildId: UNKNOWN,
        name: UNKNOWN,
        description: "x",
        options: [{ type: 3, name: UNKNOWN, description: UNKNOWN }],
      },
    );
    expect(ok.failures).toEqual([]);
    const bad = await guildProvider.check({}, { guildId: UNKNOWN, name: UNKNOWN, description: "" });
    expect(bad.failures.map((f) => f.property)).toEqual(["description"]);
  });

  test("a guild command needs a snowflake guild id; an entry point is global only", async () => {
    const noGuild = await guildProvider.check({}, slashArgs("ping"));
    expect(noGuild.failures.map((f) => f.property)).toContain("guildId");
    const badGuild = await guildProvider.check({}, { ...slashArgs("ping"), guildId: "abc" });
    expect(badGuild.failures.map((f) => f.property)).toContain("guildId");
    const entry = await guildProvider.check(
      {},
      { guildId: emu.guildId, type: 4, name: "Launch", description: "Go" },
    );
    expect(entry.failures.map((f) => f.property)).toContain("type");
  });
});

describe("create, read, update, delete", () => {
  test("global: create -> read (no drift) -> diff -> update -> delete", async () => {
    const inputs = globalInputs(emu, rich);
    const created = await globalProvider.create(inputs);
    expect(created.id).toMatch(/^\d+$/);
    expect(created.outs).toMatchObject({
      commandId: created.id,
      adopted: false,
      applicationId: emu.applicationId,
    });
    expect(typeof created.outs["version"]).toBe("string");

    const read = await globalProvider.read(created.id, created.outs);
    expect(read.id).toBe(created.id);
    expect(read.inputs).toEqual(inputs);
    expect(declared(read.props ?? {})).toEqual(inputs);

    const same = await globalProvider.diff(created.id, created.outs, inputs);
    expect(same).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });

    const news = { ...inputs, description: "Deploys it" };
    const d = await globalProvider.diff(created.id, created.outs, news);
    expect(d.changes).toBe(true);
    expect(d.replaces).toEqual([]);

    emu.control.resetLog();
    const updated = await globalProvider.update(created.id, created.outs, news);
    const w = writes(emu);
    expect(w.map((e) => `${e.method} ${e.route}`)).toEqual(["PATCH editGlobalCommand"]);
    expect(rec(emu.control.commands()[0])["description"]).toBe("Deploys it");
    expect(updated.outs["version"]).not.toBe(created.outs["version"]);
    expect(updated.outs["commandId"]).toBe(created.id);

    await configureAll(emu); // a later deployment (`pulumi destroy`)
    await globalProvider.delete(created.id, updated.outs);
    expect(emu.control.commands()).toEqual([]);
  });

  test("guild: create -> read -> update -> delete", async () => {
    const inputs = guildInputs(
      emu,
      slashArgs("ping", { options: [{ type: 5, name: "loud", description: "Shout" }] }),
    );
    const created = await guildProvider.create(inputs);
    expect(created.outs["adopted"]).toBe(false);
    const listed = await api.get(`${api.guild}/commands`);
    expect((listed.body as unknown[]).length).toBe(1);
    const read = await guildProvider.read(created.id, created.outs);
    expect(read.inputs).toEqual(inputs);
    const news = { ...inputs, nsfw: true };
    const updated = await guildProvider.update(created.id, created.outs, news);
    expect(rec(emu.control.commands()[0])["nsfw"]).toBe(true);
    await configureAll(emu);
    await guildProvider.delete(created.id, updated.outs);
    expect(emu.control.commands()).toEqual([]);
  });

  test("delete never removes an id a create of the same deployment returned", async () => {
    const created = await guildProvider.create(guildInputs(emu, slashArgs("ping")));
    emu.control.resetLog();
    await guildProvider.delete(created.id, created.outs);
    expect(emu.requestLog()).toEqual([]);
    expect(emu.control.commands()).toHaveLength(1);
  });

  test("update PATCHes only the changed field", async () => {
    const inputs = globalInputs(emu, rich);
    const created = await globalProvider.create(inputs);
    emu.control.resetLog();
    const edit = jest.spyOn(CommandsApi.prototype, "editGlobalCommand");
    await globalProvider.update(created.id, created.outs, { ...inputs, nsfw: true });
    expect(writes(emu).map((e) => e.method)).toEqual(["PATCH"]);
    expect(edit.mock.calls).toEqual([[emu.applicationId, created.id, { nsfw: true }]]);
    expect(rec(emu.control.commands()[0])["nsfw"]).toBe(true);
    edit.mockRestore();
  });

  test("a field removed from the program is reset on the service", async () => {
    const inputs = globalInputs(emu, rich);
    const created = await globalProvider.create(inputs);
    const { nameLocalizations: _n, options: _o, defaultMemberPermissions: _d, ...rest } = inputs;
    const news = { ...rest, contexts: [0] };
    const edit = jest.spyOn(CommandsApi.prototype, "editGlobalCommand");
    await globalProvider.update(created.id, created.outs, news);
    expect(edit.mock.calls[0]?.[2]).toEqual({
      contexts: [0],
      default_member_permissions: null,
      name_localizations: null,
      options: [],
    });
    edit.mockRestore();
    const live = rec(emu.control.commands()[0]);
    expect(live["options"]).toBeUndefined();
    expect(live["name_localizations"] ?? null).toBeNull();
    expect(live["default_member_permissions"]).toBeNull();
    expect(live["contexts"]).toEqual([0]);
    // And back: removing contexts resets them to the app's default (null).
    const again = await globalProvider.update(created.id, { ...created.outs, ...news }, rest);
    expect(rec(emu.control.commands()[0])["contexts"]).toBeNull();
    const read = await globalProvider.read(created.id, again.outs);
    expect(read.inputs).toEqual(rest);
  });

  test("update with no live-relevant change makes no request", async () => {
    const inputs = globalInputs(emu, rich);
    const created = await globalProvider.create(inputs);
    emu.control.resetLog();
    // Spelled differently, same command: a localization equal to the default, required: false.
    const news = {
      ...inputs,
      nameLocalizations: { ...(rich["nameLocalizations"] as Bag), it: "deploy" },
    };
    const d = await globalProvider.diff(created.id, created.outs, news);
    expect(d.changes).toBe(false);
    const updated = await globalProvider.update(created.id, created.outs, news);
    expect(emu.requestLog()).toEqual([]);
    expect(updated.outs["version"]).toBe(created.outs["version"]);
  });
});

describe("adoption", () => {
  test("create adopts a same-name command made out of band", async () => {
    const existing = await api.post(`${api.app}/commands`, { name: "deploy", description: "old" });
    expect(existing.status).toBe(201);
    const id = rec(existing.body)["id"];
    const created = await globalProvider.create(globalInputs(emu, rich));
    expect(created.id).toBe(id);
    expect(created.outs["adopted"]).toBe(true);
    expect(emu.control.commands()).toHaveLength(1);
    expect(rec(emu.control.commands()[0])["description"]).toBe(rich["description"]);
  });

  test("a guild command adopts in its guild only", async () => {
    await api.post(`${api.app}/commands`, { name: "ping", description: "global" });
    const created = await guildProvider.create(guildInputs(emu, slashArgs("ping")));
    expect(created.outs["adopted"]).toBe(false);
    expect(emu.control.commands()).toHaveLength(2);
  });
});

describe("diff: replacement versus update", () => {
  const olds = (): Bag => ({
    ...guildInputs(emu, slashArgs("ping")),
    commandId: "1",
    version: "1",
    adopted: false,
  });

  test.each([
    ["name", { name: "pong" }],
    ["type", { type: 2, name: "Ping", description: "" }],
    ["guildId", { guildId: "1300000000000000009" }],
    ["applicationId", { applicationId: "1300000000000000008" }],
  ])("a change of %s is a replacement", async (key, change) => {
    const d = await guildProvider.diff("1", olds(), {
      ...guildInputs(emu, slashArgs("ping")),
      ...change,
    });
    expect(d.changes).toBe(true);
    expect(d.replaces).toContain(key);
  });

  test("an unknown name is a replacement; an unknown description an update", async () => {
    const base = guildInputs(emu, slashArgs("ping"));
    expect((await guildProvider.diff("1", olds(), { ...base, name: UNKNOWN })).replaces).toEqual([
      "name",
    ]);
    const d = await guildProvider.diff("1", olds(), { ...base, description: UNKNOWN });
    expect(d).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  });

  test("a type given as its default (1) is no change", async () => {
    const d = await guildProvider.diff("1", olds(), {
      ...guildInputs(emu, slashArgs("ping")),
      type: 1,
    });
    expect(d.changes).toBe(false);
  });
});

describe("drift", () => {
  let created: { id: string; outs: Bag };
  let inputs: Bag;

  beforeEach(async () => {
    inputs = globalInputs(emu, rich);
    created = await globalProvider.create(inputs);
    runtime.scopes.clear();
  });

  async function drifted(
    fields: Record<string, unknown>,
  ): Promise<{ inputs: Bag; changes: boolean }> {
    emu.control.patchCommand(created.id, fields);
    const read = await globalProvider.read(created.id, created.outs);
    expect(read.id).toBe(created.id);
    const readInputs = read.inputs ?? {};
    // The next preview diffs the refreshed state against the program's inputs.
    const d = await globalProvider.diff(created.id, { ...(read.props ?? {}) }, inputs);
    return { inputs: readInputs, changes: d.changes };
  }

  test.each([
    ["description", { description: "changed" }, "description"],
    ["nsfw", { nsfw: true }, "nsfw"],
    ["default_member_permissions", { default_member_permissions: "8" }, "defaultMemberPermissions"],
    ["name_localizations", { name_localizations: { fr: "autre" } }, "nameLocalizations"],
    ["description_localizations", { description_localizations: null }, "descriptionLocalizations"],
    ["options", { options: [] }, "options"],
    ["contexts", { contexts: [1] }, "contexts"],
    ["dm_permission", { dm_permission: false }, "dmPermission"],
    ["default_permission", { default_permission: false }, "defaultPermission"],
  ])("a change of %s shows as drift in that field only", async (_f, fields, sdkKey) => {
    const r = await drifted(fields);
    expect(r.changes).toBe(true);
    const changedKeys = Object.keys({ ...r.inputs, ...inputs }).filter(
      (k) => JSON.stringify(r.inputs[k]) !== JSON.stringify(inputs[k]),
    );
    expect(changedKeys).toEqual([sdkKey]);
  });

  test.each([
    ["an option description", (o: Bag[]) => ((o[1] as Bag)["description"] = "How many pods")],
    [
      "a choice value",
      (o: Bag[]) => (((o[0] as Bag)["choices"] as Bag[])[0]!["value"] = "production"),
    ],
    [
      "a choice localization",
      (o: Bag[]) =>
        ((((o[0] as Bag)["choices"] as Bag[])[1] as Bag)["name_localizations"] = { fr: "Recette" }),
    ],
    ["an option's min_value", (o: Bag[]) => ((o[1] as Bag)["min_value"] = 2)],
    ["a choice removed", (o: Bag[]) => ((o[0] as Bag)["choices"] as Bag[]).pop()],
  ])("a nested change (%s) shows as drift in options", async (_what, mutate) => {
    const live = rec(emu.control.commands()[0]);
    const options = JSON.parse(JSON.stringify(live["options"])) as Bag[];
    mutate(options);
    const r = await drifted({ options });
    expect(r.changes).toBe(true);
    expect(r.inputs["options"]).not.toEqual(inputs["options"]);
    expect(r.inputs["description"]).toBe(inputs["description"]);
  });

  test("commands the stack does not manage, in the same scope, are not drift; the read costs one GET", async () => {
    // Another tool's commands: one of another name, one of the same name and another type.
    for (const body of [
      { name: "legacy", description: "Made by another tool" },
      { type: 2, name: "deploy" },
    ]) {
      expect((await api.post(`${api.app}/commands`, body)).status).toBe(201);
    }
    emu.control.resetLog();
    const read = await globalProvider.read(created.id, created.outs);
    expect(read.id).toBe(created.id);
    expect(read.inputs).toEqual(inputs);
    const d = await globalProvider.diff(created.id, { ...(read.props ?? {}) }, inputs);
    expect(d).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
    expect(emu.requestLog().map((e) => `${e.method} ${e.route} ${e.status}`)).toEqual([
      "GET listGlobalCommands 200",
    ]);
  });

  test("a change the normalizer ignores is no drift", async () => {
    // A localization equal to the default value is dropped by the service's normal form.
    const r = await drifted({ name_localizations: { fr: "deployer", de: "deploy", it: "deploy" } });
    expect(r.changes).toBe(false);
    expect(r.inputs).toEqual(inputs);
  });
});

describe("not found", () => {
  test("read of a command deleted out of band returns an empty id", async () => {
    const created = await guildProvider.create(guildInputs(emu, slashArgs("ping")));
    emu.control.deleteCommand(created.id);
    runtime.scopes.clear();
    expect(await guildProvider.read(created.id, created.outs)).toEqual({ id: "" });
  });

  test("delete of an already-deleted command succeeds", async () => {
    const created = await globalProvider.create(globalInputs(emu, slashArgs("ping")));
    emu.control.deleteCommand(created.id);
    await configureAll(emu); // a later deployment: this id is no longer one it wrote
    await expect(globalProvider.delete(created.id, created.outs)).resolves.toBeUndefined();
    expect(requests(emu, "DELETE").map((e) => e.status)).toEqual([404]);
  });

  test("update of a command deleted out of band says to refresh", async () => {
    const created = await globalProvider.create(globalInputs(emu, slashArgs("ping")));
    emu.control.deleteCommand(created.id);
    const news = { ...created.outs, description: "Changed" };
    const err = await rejection(globalProvider.update(created.id, created.outs, news));
    expect(String(err)).toContain("code 10063");
    expect(String(err)).toContain("pulumi refresh");
  });
});

describe("the swap of two names", () => {
  test("both replacement creates, then both deletes: both commands survive", async () => {
    const a = await globalProvider.create(globalInputs(emu, slashArgs("x", { description: "A" })));
    const b = await globalProvider.create(globalInputs(emu, slashArgs("y", { description: "B" })));
    await configureAll(emu); // the next deployment
    const aNew = globalInputs(emu, slashArgs("y", { description: "A" }));
    const bNew = globalInputs(emu, slashArgs("x", { description: "B" }));
    expect((await globalProvider.diff(a.id, a.outs, aNew)).replaces).toEqual(["name"]);
    expect((await globalProvider.diff(b.id, b.outs, bNew)).replaces).toEqual(["name"]);
    const [ca, cb] = await Promise.all([globalProvider.create(aNew), globalProvider.create(bNew)]);
    // Create is an upsert by name: each replacement took over the other's command.
    expect(ca.id).toBe(b.id);
    expect(cb.id).toBe(a.id);
    await Promise.all([globalProvider.delete(a.id, a.outs), globalProvider.delete(b.id, b.outs)]);
    expect(requests(emu, "DELETE")).toEqual([]);
    const live = emu.control
      .commands()
      .map((c) => `${String(c["name"])}:${String(c["description"])}`);
    expect(live.sort()).toEqual(["x:B", "y:A"]);
  });
});

describe("refresh costs one list GET per scope", () => {
  const scopes = ["1300000000000000002", "1300000000000000012"];

  beforeAll(async () => {
    // A second guild the app is authorized in.
    await emu.close();
    emu = await setup({
      config: {
        guilds: [
          { id: scopes[0]!, authorizedApplications: ["1300000000000000001"] },
          { id: scopes[1]!, authorizedApplications: ["1300000000000000001"] },
        ],
      },
    });
    api = new Api(emu);
  });

  async function createMany(): Promise<{ id: string; outs: Bag; guild: boolean }[]> {
    const made: { id: string; outs: Bag; guild: boolean }[] = [];
    for (let i = 0; i < 5; i++) {
      const g = await globalProvider.create(globalInputs(emu, slashArgs(`g${i}`)));
      made.push({ ...g, guild: false });
      for (const guildId of scopes) {
        const c = await guildProvider.create({ ...guildInputs(emu, slashArgs(`c${i}`)), guildId });
        made.push({ ...c, guild: true });
      }
    }
    return made;
  }

  const read = (m: { id: string; outs: Bag; guild: boolean }) =>
    (m.guild ? guildProvider : globalProvider).read(m.id, m.outs);

  test("15 concurrent reads in 3 scopes: 3 list GETs", async () => {
    const made = await createMany();
    await configureAll(emu);
    emu.control.resetLog();
    const results = await Promise.all(made.map(read));
    expect(results.every((r, i) => r.id === made[i]?.id)).toBe(true);
    expect(
      emu
        .requestLog()
        .map((e) => e.route)
        .sort(),
    ).toEqual(["listGlobalCommands", "listGuildCommands", "listGuildCommands"]);
    // Sequential reads within the cache window cost nothing more.
    for (const m of made) await read(m);
    expect(emu.requestLog()).toHaveLength(3);
  });

  test("a write to a scope invalidates its cache only", async () => {
    const made = await createMany();
    await configureAll(emu);
    await Promise.all(made.map(read));
    emu.control.resetLog();
    const first = made[1]!;
    await guildProvider.update(first.id, first.outs, { ...first.outs, description: "changed" });
    await Promise.all(made.map(read));
    expect(emu.requestLog().map((e) => `${e.method} ${e.route}`)).toEqual([
      "PATCH editGuildCommand",
      "GET listGuildCommands",
    ]);
  });
});
