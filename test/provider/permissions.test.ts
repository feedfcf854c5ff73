/**
 * The GuildCommandPermissions provider against the emulator: one command's overwrites
 * and the application-wide object (command id = application id).
 */
import type { RunningEmulator } from "../../emulator";
import type { Bag } from "./helpers";
import {
  configureAll,
  freshDeployment,
  guildInputs,
  guildProvider,
  permissionsProvider,
  requests,
  runtime,
  setup,
  slashArgs,
  teardown,
  UNKNOWN,
} from "./helpers";

let emu: RunningEmulator;
const ROLE = "1300000000000000004";
const CHANNEL = "1300000000000000005";
const USER = "1300000000000000003";

beforeAll(async () => {
  emu = await setup();
});
afterAll(() => teardown(emu));
beforeEach(() => freshDeployment(emu));

async function command(name = "ping"): Promise<string> {
  return (await guildProvider.create(guildInputs(emu, slashArgs(name)))).id;
}

function inputs(commandId: string, permissions: Bag[]): Bag {
  return { applicationId: emu.applicationId, guildId: emu.guildId, commandId, permissions };
}

function liveOverwrites(target: string): unknown {
  const p = emu.control.state().permissions.find((x) => x["id"] === target);
  return p?.["permissions"];
}

describe("check and diff", () => {
  test("valid, invalid (path named), and unknown at preview", async () => {
    const ok = await permissionsProvider.check(
      {},
      inputs("1", [{ id: ROLE, type: 1, permission: true }]),
    );
    expect(ok.failures).toEqual([]);
    const bad = await permissionsProvider.check(
      {},
      inputs("1", [{ id: ROLE, type: 9, permission: true }]),
    );
    expect(bad.failures.map((f) => f.property)).toEqual(["permissions[0].type"]);
    expect(bad.failures[0]?.reason).toContain("permissions[0].type");
    const unknown = await permissionsProvider.check(
      {},
      { ...inputs(UNKNOWN, [{ id: UNKNOWN, type: 1, permission: true }]) },
    );
    expect(unknown.failures).toEqual([]);
    const notId = await permissionsProvider.check({}, inputs("abc", []));
    expect(notId.failures.map((f) => f.property)).toEqual(["commandId"]);
  });

  test("order does not matter; a new command id is a replacement", async () => {
    const a = inputs("1", [
      { id: ROLE, type: 1, permission: true },
      { id: CHANNEL, type: 3, permission: false },
    ]);
    const b = inputs("1", [
      { id: CHANNEL, type: 3, permission: false },
      { id: ROLE, type: 1, permission: true },
    ]);
    expect(await permissionsProvider.diff("x", a, b)).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
    const c = await permissionsProvider.diff("x", a, { ...a, commandId: "2" });
    expect(c.replaces).toEqual(["commandId"]);
    const d = await permissionsProvider.diff("x", a, { ...a, permissions: [] });
    expect(d).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  });
});

describe("create, read, update, delete", () => {
  test("one command's overwrites", async () => {
    const id = await command();
    const declaredInputs = inputs(id, [
      { id: ROLE, type: 1, permission: true },
      { id: CHANNEL, type: 3, permission: false },
    ]);
    emu.control.resetLog();
    const created = await permissionsProvider.create(declaredInputs);
    expect(created.id).toBe(`${emu.guildId}/${id}`);
    expect(requests(emu, "PUT").map((e) => e.route)).toEqual(["editCommandPermissions"]);
    expect(liveOverwrites(id)).toHaveLength(2);

    const read = await permissionsProvider.read(created.id, created.outs);
    expect(read.id).toBe(created.id);
    expect(read.inputs).toEqual(declaredInputs);

    const news = inputs(id, [{ id: ROLE, type: 1, permission: false }]);
    await permissionsProvider.update(created.id, created.outs, news);
    expect(liveOverwrites(id)).toEqual([{ id: ROLE, type: 1, permission: false }]);

    await configureAll(emu); // a later deployment
    emu.control.resetLog();
    await permissionsProvider.delete(created.id, news);
    expect(requests(emu).map((e) => `${e.method} ${e.route} ${e.status}`)).toEqual([
      "PUT editCommandPermissions 200",
    ]);
    expect(liveOverwrites(id) ?? []).toEqual([]);
    expect(emu.control.commands()).toHaveLength(1); // the command itself stays
  });

  test("the application-wide object (command id = application id)", async () => {
    const declaredInputs = inputs(emu.applicationId, [{ id: CHANNEL, type: 3, permission: false }]);
    const created = await permissionsProvider.create(declaredInputs);
    expect(created.id).toBe(`${emu.guildId}/${emu.applicationId}`);
    expect(liveOverwrites(emu.applicationId)).toEqual([
      { id: CHANNEL, type: 3, permission: false },
    ]);
    const read = await permissionsProvider.read(created.id, created.outs);
    expect(read.inputs).toEqual(declaredInputs);
    // Cleared out of band: the read shows the drift (no overwrites), the resource stays.
    emu.control.deletePermissions(emu.applicationId, emu.guildId, emu.applicationId);
    runtime.scopes.clear();
    const drifted = await permissionsProvider.read(created.id, created.outs);
    expect(drifted.id).toBe(created.id);
    expect(drifted.inputs?.["permissions"]).toEqual([]);
    await configureAll(emu);
    await permissionsProvider.delete(created.id, created.outs);
    expect(liveOverwrites(emu.applicationId) ?? []).toEqual([]);
  });
});

describe("drift and gone", () => {
  test("overwrites changed out of band show as drift", async () => {
    const id = await command();
    const created = await permissionsProvider.create(
      inputs(id, [{ id: ROLE, type: 1, permission: true }]),
    );
    emu.control.setPermissions(emu.applicationId, emu.guildId, id, [
      { id: ROLE, type: 1, permission: false },
    ]);
    runtime.scopes.clear();
    const read = await permissionsProvider.read(created.id, created.outs);
    expect(read.inputs?.["permissions"]).toEqual([{ id: ROLE, type: 1, permission: false }]);
    const d = await permissionsProvider.diff(created.id, read.props ?? {}, created.outs);
    expect(d.changes).toBe(true);
  });

  test.each([
    {
      what: "a managed list",
      declaredList: [{ id: ROLE, type: 1, permission: true }],
      liveList: [
        { id: ROLE, type: 1, permission: true },
        { id: USER, type: 2, permission: true },
      ],
    },
    {
      what: "a command declared with an empty list",
      declaredList: [],
      liveList: [{ id: CHANNEL, type: 3, permission: false }],
    },
  ])(
    "an overwrite added out of band to $what reads as drift; the update puts the declared list back",
    async ({ declaredList, liveList }) => {
      const id = await command();
      const created = await permissionsProvider.create(inputs(id, declaredList));
      emu.control.setPermissions(emu.applicationId, emu.guildId, id, liveList);
      runtime.scopes.clear();
      const read = await permissionsProvider.read(created.id, created.outs);
      expect(read.id).toBe(created.id);
      expect(read.inputs?.["permissions"]).toEqual(liveList);
      // The next preview diffs the refreshed state against the program's inputs.
      const d = await permissionsProvider.diff(created.id, read.props ?? {}, created.outs);
      expect(d).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
      // `up --refresh`: the update from the refreshed state writes the declared list.
      emu.control.resetLog();
      await permissionsProvider.update(created.id, read.props ?? {}, created.outs);
      expect(requests(emu, "PUT").map((e) => e.route)).toEqual(["editCommandPermissions"]);
      expect(liveOverwrites(id) ?? []).toEqual(declaredList);
    },
  );

  test("no overwrites (404/10066) reads as an empty list: drift, not gone", async () => {
    const id = await command();
    const created = await permissionsProvider.create(
      inputs(id, [{ id: ROLE, type: 1, permission: true }]),
    );
    emu.control.deletePermissions(emu.applicationId, emu.guildId, id);
    runtime.scopes.clear();
    emu.control.resetLog();
    const read = await permissionsProvider.read(created.id, created.outs);
    expect(read.id).toBe(created.id);
    expect(read.inputs?.["permissions"]).toEqual([]);
    expect(requests(emu, "GET").map((e) => e.status)).toEqual([200, 404]);
    const d = await permissionsProvider.diff(created.id, read.props ?? {}, created.outs);
    expect(d.changes).toBe(true);
  });

  test("an empty declared list with no overwrites is no drift", async () => {
    const id = await command();
    const created = await permissionsProvider.create(inputs(id, []));
    runtime.scopes.clear();
    const read = await permissionsProvider.read(created.id, created.outs);
    expect(read.inputs).toEqual(inputs(id, []));
  });

  test("permissions of a deleted command read as gone; their delete succeeds", async () => {
    const id = await command();
    const created = await permissionsProvider.create(
      inputs(id, [{ id: ROLE, type: 1, permission: true }]),
    );
    emu.control.deleteCommand(id);
    runtime.scopes.clear();
    expect(await permissionsProvider.read(created.id, created.outs)).toEqual({ id: "" });
    await configureAll(emu);
    await expect(permissionsProvider.delete(created.id, created.outs)).resolves.toBeUndefined();
  });

  test("create PUTs exactly the declared overwrites", async () => {
    const id = await command();
    const edit = jest.spyOn(runtime.client, "editCommandPermissions");
    await permissionsProvider.create(inputs(id, [{ id: ROLE, type: 1, permission: true }]));
    expect(edit).toHaveBeenCalledTimes(1);
    expect(edit.mock.calls[0]?.[3]).toEqual({
      permissions: [{ id: ROLE, type: 1, permission: true }],
    });
    edit.mockRestore();
  });
});
