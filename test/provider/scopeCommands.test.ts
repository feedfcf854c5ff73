/**
 * `ScopeCommands` against the emulator: one resource for the commands a stack manages in
 * one scope. Create is one list GET and one PUT whatever the count, and takes over what is
 * already as declared with no write; unmanaged commands are never dropped; a few changes
 * go one request each, more in one overwrite; a rename makes a new id; refresh reports
 * drift per command with no false diff; delete removes only what the resource manages.
 */
import type { RunningEmulator } from "../../emulator";
import type { Bag } from "../../provider/resources/propertyBags";
import { commandKey, scopeCommandsProvider } from "../../provider/resources/scopeCommandsLifecycle";
import { planScopeWrite } from "../../provider/resources/scopeWritePlan";
import { Api, rec, str } from "../emulator/helpers";
import {
  configureAll,
  permissionsProvider,
  rejection,
  requests,
  runtime,
  setup,
  teardown,
  writes,
} from "./helpers";

let emu: RunningEmulator;
let api: Api;

beforeAll(async () => {
  emu = await setup();
  api = new Api(emu);
});
afterAll(() => teardown(emu));

async function fresh(): Promise<ReturnType<typeof scopeCommandsProvider>> {
  emu.control.reset();
  await configureAll(emu);
  return scopeCommandsProvider(runtime);
}

/** The next `up`: a new provider process (its deployment memory starts empty). */
async function nextDeployment(): Promise<ReturnType<typeof scopeCommandsProvider>> {
  await configureAll(emu);
  return scopeCommandsProvider(runtime);
}

function set(names: readonly string[], extra: (name: string) => Bag = () => ({})): Bag {
  return Object.fromEntries(
    names.map((n) => [commandKey(1, n), { name: n, description: `The ${n} command`, ...extra(n) }]),
  );
}

function guildInputs(commands: Bag): Bag {
  return { guildId: emu.guildId, commands };
}

function liveGuild(): Record<string, unknown>[] {
  return emu.control.commands().filter((c) => c["guild_id"] === emu.guildId);
}

async function seedOther(name: string): Promise<Record<string, unknown>> {
  const res = await api.post(`${api.guild}/commands`, { name, description: "not ours" });
  expect(res.status).toBe(201);
  return rec(res.body);
}

describe("the write plan (a pure function of the change's size)", () => {
  test.each([
    [{ creates: 0, edits: 0, deletes: 0 }, "none"],
    [{ creates: 0, edits: 1, deletes: 0 }, "each"],
    [{ creates: 1, edits: 0, deletes: 1 }, "each"], // a rename
    [{ creates: 0, edits: 2, deletes: 0 }, "each"],
    [{ creates: 3, edits: 0, deletes: 0 }, "overwrite"],
    [{ creates: 100, edits: 0, deletes: 0 }, "overwrite"],
    [{ creates: 0, edits: 1, deletes: 2 }, "overwrite"],
  ])("%j -> %s", (counts, plan) => {
    expect(planScopeWrite(counts)).toBe(plan);
  });
});

describe("ScopeCommands", () => {
  test("create: 100 commands in one GET and one PUT, the scope's other commands kept", async () => {
    const p = await fresh();
    const other = await seedOther("not-ours");
    emu.control.resetLog();
    const names = Array.from({ length: 99 }, (_, i) => `cmd-${i}`);
    const inputs = (await p.check({}, guildInputs(set(names)))).inputs;
    emu.control.resetLog(); // check's cap count read the scope
    const { id, outs } = await p.create(inputs);
    expect(id).toBe(`${emu.applicationId}/${emu.guildId}`);
    expect(requests(emu, "GET").length).toBe(1);
    expect(writes(emu).map((w) => w.method)).toEqual(["PUT"]);
    const live = liveGuild();
    expect(live.length).toBe(100);
    expect(live.find((c) => c["id"] === other["id"])).toMatchObject({ name: "not-ours" });
    const ids = outs["commandIds"] as Record<string, string>;
    expect(Object.keys(ids).sort()).toEqual([...names].sort());
    for (const n of names) expect(live.find((c) => c["id"] === ids[n])?.["name"]).toBe(n);
  });

  test("create takes over a scope already as declared with no write", async () => {
    const p = await fresh();
    for (const n of ["a", "b", "c"]) {
      await api.post(`${api.guild}/commands`, { name: n, description: `The ${n} command` });
    }
    emu.control.resetLog();
    const { outs } = await p.create(guildInputs(set(["a", "b", "c"])));
    expect(writes(emu)).toEqual([]);
    expect(Object.keys(outs["commandIds"] as object).sort()).toEqual(["a", "b", "c"]);
  });

  test("one definition changed: one PATCH; a rename: a DELETE and a POST, new id", async () => {
    let p = await fresh();
    const other = await seedOther("not-ours");
    const first = await p.create(guildInputs(set(["a", "b", "c", "d"])));
    const news = guildInputs(
      set(["a", "b", "c", "d"], (n) => (n === "b" ? { description: "Changed" } : {})),
    );
    const diff = await p.diff(first.id, first.outs, news);
    expect(diff.changes).toBe(true);
    expect(diff.replaces).toEqual([]);
    expect(diff.detailedDiff).toEqual({ 'commands["b"].description': "update" });
    emu.control.resetLog();
    const second = await p.update(first.id, first.outs, news);
    expect(writes(emu).map((w) => `${w.method} ${w.route}`)).toEqual(["PATCH editGuildCommand"]);
    expect(liveGuild().find((c) => c["name"] === "b")?.["description"]).toBe("Changed");
    p = await nextDeployment();

    const renamed = guildInputs(
      set(["a", "b2", "c", "d"], (n) => (n === "b2" ? { description: "Changed" } : {})),
    );
    const d2 = await p.diff(first.id, second.outs, renamed);
    expect(d2.detailedDiff).toEqual({ 'commands["b"]': "delete", 'commands["b2"]': "add" });
    emu.control.resetLog();
    const third = await p.update(first.id, second.outs, renamed);
    expect(
      writes(emu)
        .map((w) => w.method)
        .sort(),
    ).toEqual(["DELETE", "POST"]);
    const ids = third.outs["commandIds"] as Record<string, string>;
    const before = first.outs["commandIds"] as Record<string, string>;
    expect(ids["b2"]).toBeDefined();
    expect(ids["b2"]).not.toBe(before["b"]);
    expect(ids["a"]).toBe(before["a"]);
    expect(
      liveGuild()
        .map((c) => c["name"])
        .sort(),
    ).toEqual(["a", "b2", "c", "d", "not-ours"]);
    expect(liveGuild().find((c) => c["id"] === other["id"])).toBeDefined();
  });

  test("many changes: one fresh GET and one PUT, and another writer's new command survives", async () => {
    let p = await fresh();
    const first = await p.create(guildInputs(set(["a", "b", "c"])));
    // Another tool adds a command after our last answer: the PUT must be built from a fresh list.
    const late = await seedOther("late-comer");
    p = await nextDeployment();
    const news = guildInputs(set(["a", "x", "y", "z"], () => ({ description: "New text" })));
    emu.control.resetLog();
    const next = await p.update(first.id, first.outs, news);
    expect(requests(emu, "GET").length).toBe(1);
    expect(writes(emu).map((w) => w.method)).toEqual(["PUT"]);
    const live = liveGuild();
    expect(live.map((c) => c["name"]).sort()).toEqual(["a", "late-comer", "x", "y", "z"]);
    expect(live.find((c) => c["id"] === late["id"])).toBeDefined();
    expect((next.outs["commandIds"] as Record<string, string>)["a"]).toBe(
      (first.outs["commandIds"] as Record<string, string>)["a"],
    );
  });

  test("refresh: drift shows per command, no false diff, a command deleted out of band comes back", async () => {
    const p = await fresh();
    const inputs = guildInputs(
      set(["a", "b"], (n) => (n === "a" ? { nameLocalizations: {}, nsfw: false } : {})),
    );
    const created = await p.create(inputs);
    const ids = created.outs["commandIds"] as Record<string, string>;
    runtime.scopes.clear();
    const clean = await p.read(created.id, created.outs);
    expect((await p.diff(created.id, clean.props ?? {}, inputs)).changes).toBe(false);

    emu.control.patchCommand(str(ids["a"]), { description: "Edited by hand" });
    emu.control.deleteCommand(str(ids["b"]));
    runtime.scopes.clear();
    const drifted = await p.read(created.id, created.outs);
    const d = await p.diff(created.id, drifted.props ?? {}, inputs);
    expect(d.detailedDiff).toEqual({
      'commands["a"].description': "update",
      'commands["b"]': "add",
    });
    emu.control.resetLog();
    await p.update(created.id, drifted.props ?? {}, inputs);
    expect(
      writes(emu)
        .map((w) => w.method)
        .sort(),
    ).toEqual(["PATCH", "POST"]);
    expect(
      liveGuild()
        .map((c) => [c["name"], c["description"]])
        .sort(),
    ).toEqual([
      ["a", "The a command"],
      ["b", "The b command"],
    ]);
  });

  test("delete removes only the managed commands (one overwrite past two)", async () => {
    const p = await fresh();
    const other = await seedOther("not-ours");
    const created = await p.create(guildInputs(set(["a", "b", "c"])));
    emu.control.resetLog();
    await (await nextDeployment()).delete(created.id, created.outs);
    expect(writes(emu).map((w) => w.method)).toEqual(["PUT"]);
    expect(liveGuild().map((c) => c["id"])).toEqual([other["id"]]);
  });

  test("check: every field error with its path under the command's key, keys and caps", async () => {
    const p = await fresh();
    const bad = await p.check(
      {},
      {
        guildId: emu.guildId,
        commands: {
          ban: { name: "ban", description: "x".repeat(101) },
          wrong: { name: "kick", description: "Kick" },
          "user:Info": { type: 2, name: "Info", options: [] },
        },
      },
    );
    const props = bad.failures.map((f) => f.property);
    expect(props).toContain('commands["ban"].description');
    expect(props).toContain('commands["wrong"]');
    expect(bad.failures.find((f) => f.property === 'commands["wrong"]')?.reason).toContain(
      'expected "kick"',
    );

    // 99 declared + 2 unmanaged CHAT_INPUT in the guild: 101 > 100, named with the others.
    await seedOther("other-1");
    await seedOther("other-2");
    const names = Array.from({ length: 99 }, (_, i) => `c${i}`);
    const capped = await p.check({}, guildInputs(set(names)));
    expect(capped.failures.map((f) => f.reason).join("\n")).toMatch(
      /would hold 101 CHAT_INPUT commands \(the limit is 100\): 99 declared here and 2 there already .*other-1, other-2/,
    );
    const entry = await p.check(
      {},
      {
        guildId: emu.guildId,
        commands: { "entry_point:launch": { type: 4, name: "launch", handler: 2 } },
      },
    );
    expect(entry.failures.map((f) => f.reason).join("\n")).toMatch(/global scope/);
  });

  test("an update's check reads nothing: its write checks the caps against its one list, with the check's words", async () => {
    const p = await fresh();
    await seedOther("other-1");
    await seedOther("other-2");
    const names = Array.from({ length: 99 }, (_, i) => `c${i}`);
    emu.control.resetLog();
    // The program says it runs an update (sdk/resources.ts, the plugin's set): no list GET.
    const checked = await p.check({}, { ...guildInputs(set(names)), __updating: true });
    expect(checked.failures).toEqual([]);
    expect(requests(emu, "GET")).toEqual([]);
    expect(checked.inputs).not.toHaveProperty("__updating"); // never in the state
    const err = await rejection(p.create(checked.inputs));
    expect(String(err)).toMatch(
      /creating the commands of guild .* failed: commands: guild .* would hold 101 CHAT_INPUT commands \(the limit is 100\): 99 declared here and 2 there already .*other-1, other-2/,
    );
    expect(requests(emu, "GET").length).toBe(1); // the write's own list, and no PUT
    expect(writes(emu)).toEqual([]);
    // A preview (or a program that does not say) still reads the scope in check.
    const previewed = await p.check({}, { ...guildInputs(set(names)), __updating: false });
    expect(previewed.failures.map((f) => f.reason).join("\n")).toMatch(/would hold 101/);
  });

  test("an up from empty reads the scope once: one list GET and one PUT", async () => {
    const p = await fresh();
    emu.control.resetLog();
    const names = Array.from({ length: 50 }, (_, i) => `c${i}`);
    const checked = await p.check({}, { ...guildInputs(set(names)), __updating: true });
    await p.create(checked.inputs);
    expect(requests(emu, "GET").length).toBe(1);
    expect(writes(emu).map((w) => w.method)).toEqual(["PUT"]);
  });

  test("the permissions of a command this deployment created are written without reading the guild's first", async () => {
    const p = await fresh();
    const created = await p.create(guildInputs(set(["a", "b", "c"])));
    const ids = created.outs["commandIds"] as Record<string, string>;
    const target = (id: string): Bag => ({
      applicationId: emu.applicationId,
      guildId: emu.guildId,
      commandId: id,
      permissions: [{ id: "1300000000000000004", type: 1, permission: true }],
    });
    emu.control.resetLog();
    await permissionsProvider.create(target(ids["a"] ?? ""));
    expect(emu.requestLog().map((e) => `${e.method} ${e.route}`)).toEqual([
      "PUT editCommandPermissions",
    ]);
    // A command that was live before this deployment may hold overwrites: read first.
    const next = await nextDeployment();
    const again = await next.create(guildInputs(set(["a", "b", "c"])));
    emu.control.resetLog();
    await permissionsProvider.create(
      target((again.outs["commandIds"] as Record<string, string>)["b"] ?? ""),
    );
    expect(emu.requestLog().map((e) => e.route)).toContain("listGuildCommandPermissions");
  });

  test("an error names the scope and keeps the service's words", async () => {
    const p = await fresh();
    const err = await rejection(
      p.create({ guildId: "999999999999999999", commands: set(["a", "b", "c"]) }),
    );
    expect(String(err)).toMatch(/guild 999999999999999999/);
  });

  test("a PUT whose answer is lost after the service applied it: tried again from a new list, which finds it done", async () => {
    const p = await fresh();
    const other = await seedOther("not-ours");
    emu.control.setFaults({
      rules: [
        {
          route: "bulkOverwriteGuildCommands",
          action: { type: "drop" },
          phase: "after",
          times: 10,
        },
      ],
    });
    emu.control.resetLog();
    // The write is tried again whole (scopeWrites.ts): its new list GET finds the commands
    // the lost PUT made, as declared, so no second PUT.
    const { outs } = await p.create(guildInputs(set(["a", "b", "c"])));
    emu.control.clearFaults();
    expect(requests(emu, "PUT").map((e) => e.status)).toEqual([0]);
    expect(requests(emu, "GET").length).toBe(2);
    const live = liveGuild();
    expect(live.map((c) => c["name"]).sort()).toEqual(["a", "b", "c", "not-ours"]);
    expect(live.find((c) => c["id"] === other["id"])).toBeDefined();
    const ids = outs["commandIds"] as Record<string, string>;
    for (const n of ["a", "b", "c"]) {
      expect(live.find((c) => c["id"] === ids[n])?.["name"]).toBe(n);
    }
    // The next `up`: no change, no write.
    const q = await nextDeployment();
    emu.control.resetLog();
    await q.update(`${emu.applicationId}/${emu.guildId}`, outs, guildInputs(set(["a", "b", "c"])));
    expect(writes(emu)).toEqual([]);
  });

  test("check reads the scope only when commands are added (a no-op preview reads nothing)", async () => {
    const p = await fresh();
    const created = await p.create(guildInputs(set(["a", "b"])));
    const q = await nextDeployment();
    emu.control.resetLog();
    await q.check(created.outs, guildInputs(set(["a", "b"], () => ({ description: "Edited" }))));
    expect(requests(emu).length).toBe(0);
    await q.check(created.outs, guildInputs(set(["a", "b", "c"])));
    expect(requests(emu, "GET").length).toBe(1);
  });

  test("import by id: every command of the scope comes under management", async () => {
    const p = await fresh();
    await seedOther("one");
    await seedOther("two");
    const read = await p.read(emu.guildId, {});
    expect(read.id).toBe(`${emu.applicationId}/${emu.guildId}`);
    expect(Object.keys(read.inputs?.["commands"] as object).sort()).toEqual(["one", "two"]);
    const d = await p.diff(read.id, read.props ?? {}, read.inputs ?? {});
    expect(d.changes).toBe(false);
  });
});
