/**
 * Adoption of live commands by `create` (provider/resources/liveTwin.ts): a live twin
 * already equal in the canonical form is taken as it is, with no write and one list GET
 * per scope; a twin that differs gets one PATCH of the fields that differ (no POST: a
 * create would spend the day's budget); the application's entry
 * point is taken over whatever its name (the auto-created "Launch" included).
 */
import type { RunningEmulator } from "../../emulator";
import type { WireCommand } from "../../provider/client";
import { diffCommandFields, validateSdkCommand } from "../../provider/schema";
import { Api, rec, str } from "../emulator/helpers";
import type { Bag } from "./helpers";
import {
  configureAll,
  freshDeployment,
  globalInputs,
  globalProvider,
  guildInputs,
  guildProvider,
  permissionsProvider,
  requests,
  setup,
  slashArgs,
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
beforeEach(() => freshDeployment(emu));

/** Registers a command out of band (as a deploy script would) and returns its id. */
async function registerLive(path: string, args: Bag, scope: "global" | "guild"): Promise<string> {
  const body = validateSdkCommand(args, { scope });
  if (!body.ok) throw new Error(JSON.stringify(body.issues));
  const r = await api.post(path, body.value);
  expect(r.status).toBe(201);
  return str(rec(r.body)["id"]);
}

const localized: Bag = {
  name: "ping",
  description: "Check the bot",
  nameLocalizations: { fr: "ping-fr", de: "ping" }, // "de" equals the default: dropped
  options: [{ type: 3, name: "text", description: "What to echo", required: false }],
  defaultMemberPermissions: "32",
};

describe("create adopts an equal live twin without a write", () => {
  test("global and guild: adopted, the live id kept, zero writes, one list GET per scope", async () => {
    const globalIds = [
      await registerLive(`${api.app}/commands`, localized, "global"),
      await registerLive(`${api.app}/commands`, slashArgs("help"), "global"),
      await registerLive(`${api.app}/commands`, { type: 2, name: "Report" }, "global"),
    ];
    const guildId = await registerLive(`${api.guild}/commands`, slashArgs("ban"), "guild");
    emu.control.resetLog();

    // Declared again, differing only in what the canonical form ignores (nsfw: false,
    // description "" of a context menu).
    const created = await Promise.all([
      globalProvider.create(globalInputs(emu, localized)),
      globalProvider.create(globalInputs(emu, slashArgs("help", { nsfw: false }))),
      globalProvider.create(globalInputs(emu, { type: 2, name: "Report", description: "" })),
      guildProvider.create(guildInputs(emu, slashArgs("ban"))),
    ]);
    expect(created.map((c) => c.id)).toEqual([...globalIds, guildId]);
    expect(created.map((c) => c.outs["adopted"])).toEqual([true, true, true, true]);
    expect(writes(emu)).toEqual([]);
    expect(requests(emu, "GET").map((e) => e.route)).toEqual(
      expect.arrayContaining(["listGlobalCommands", "listGuildCommands"]),
    );
    expect(requests(emu, "GET")).toHaveLength(2);
  });

  test("a twin that differs: one PATCH of the differing fields to its id, no POST", async () => {
    const id = await registerLive(`${api.app}/commands`, slashArgs("help"), "global");
    const guildId = await registerLive(`${api.guild}/commands`, slashArgs("ban"), "guild");
    emu.control.resetLog();
    const created = await Promise.all([
      globalProvider.create(globalInputs(emu, slashArgs("help", { description: "Changed" }))),
      guildProvider.create(guildInputs(emu, slashArgs("ban", { nsfw: true }))),
    ]);
    expect(created.map((c) => c.id)).toEqual([id, guildId]);
    expect(created.map((c) => c.outs["adopted"])).toEqual([true, true]);
    const patches = writes(emu);
    expect(patches.map((e) => `${e.method} ${e.route} ${e.status}`).sort()).toEqual([
      "PATCH editGlobalCommand 200",
      "PATCH editGuildCommand 200",
    ]);
    expect(emu.control.commands().find((c) => c["id"] === id)?.["description"]).toBe("Changed");
    expect(emu.control.commands().find((c) => c["id"] === guildId)?.["nsfw"]).toBe(true);
  });

  test("the PATCH leaves the live command equal to the declaration: what it omits is reset", async () => {
    const id = await registerLive(`${api.app}/commands`, localized, "global");
    emu.control.resetLog();
    const declared = slashArgs("ping", { nsfw: true });
    await globalProvider.create(globalInputs(emu, declared));
    expect(writes(emu).map((e) => `${e.method} ${e.route}`)).toEqual(["PATCH editGlobalCommand"]);
    const body = validateSdkCommand(declared, { scope: "global" });
    if (!body.ok) throw new Error("invalid declaration");
    const live = (await api.get(`${api.app}/commands/${id}`)).body as WireCommand;
    // Options, localizations and default_member_permissions of the live twin are gone.
    expect(diffCommandFields(body.value, live)).toEqual([]);
  });

  test("no twin: one POST, not adopted; later creates in the scope reuse the one list", async () => {
    const a = await globalProvider.create(globalInputs(emu, slashArgs("one")));
    const b = await globalProvider.create(globalInputs(emu, slashArgs("two")));
    expect([a.outs["adopted"], b.outs["adopted"]]).toEqual([false, false]);
    expect(requests(emu).map((e) => `${e.method} ${e.status}`)).toEqual([
      "GET 200",
      "POST 201",
      "POST 201",
    ]);
  });
});

describe("the entry point is taken over, whatever its name", () => {
  const entryPoint = (name: string, extra: Bag = {}): Bag => ({
    type: 4,
    name,
    description: "Launch an activity",
    handler: 2,
    ...extra,
  });

  beforeEach(() => emu.control.setActivities(emu.applicationId, true));

  function liveEntryPoints(): Record<string, unknown>[] {
    return emu.control.commands().filter((c) => c["type"] === 4);
  }

  test("the auto-created Launch, declared as it is: adopted with no write", async () => {
    const [launch] = liveEntryPoints();
    expect(launch?.["name"]).toBe("Launch");
    emu.control.resetLog();
    const created = await globalProvider.create(globalInputs(emu, entryPoint("Launch")));
    expect(created.id).toBe(launch?.["id"]);
    expect(created.outs["adopted"]).toBe(true);
    expect(writes(emu)).toEqual([]);
  });

  test("declared under another name: a rename in place (PATCH), its id kept, no 30032", async () => {
    const [launch] = liveEntryPoints();
    emu.control.resetLog();
    const created = await globalProvider.create(
      globalInputs(emu, entryPoint("Play", { handler: 1, description: "Play a game" })),
    );
    expect(created.id).toBe(launch?.["id"]);
    expect(created.outs["adopted"]).toBe(true);
    expect(writes(emu).map((e) => `${e.method} ${e.route} ${e.status}`)).toEqual([
      "PATCH editGlobalCommand 200",
    ]);
    const live = liveEntryPoints();
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({
      id: launch?.["id"],
      name: "Play",
      description: "Play a game",
      handler: 1,
    });
    // The update path and a read see it as declared: no false diff.
    const read = await globalProvider.read(created.id, created.outs);
    const diff = await globalProvider.diff(created.id, read.props ?? {}, created.outs);
    expect(diff).toMatchObject({ changes: false, replaces: [] });
  });

  test("any other entry point is taken over too (not only Launch)", async () => {
    await globalProvider.create(globalInputs(emu, entryPoint("Play")));
    await freshDeploymentKeepingState();
    const [play] = liveEntryPoints();
    const created = await globalProvider.create(globalInputs(emu, entryPoint("Start")));
    expect(created.id).toBe(play?.["id"]);
    expect(liveEntryPoints().map((c) => c["name"])).toEqual(["Start"]);
  });
});

/** A new deployment (process memory and caches cleared) on the service as it is. */
async function freshDeploymentKeepingState(): Promise<void> {
  await configureAll(emu);
  emu.control.resetLog();
}

describe("permission overwrites already as declared are adopted without a write", () => {
  test("equal (in another order): no PUT; different: one PUT", async () => {
    const id = await registerLive(`${api.guild}/commands`, slashArgs("ban"), "guild");
    const overwrites = [
      { id: emu.guildId, type: 1, permission: false },
      { id: "1300000000000000004", type: 1, permission: true },
    ];
    const bearer = { auth: `Bearer ${emu.userBearerToken}` };
    const put = await api.put(
      `${api.guild}/commands/${id}/permissions`,
      { permissions: overwrites },
      bearer,
    );
    expect(put.status).toBe(200);
    emu.control.resetLog();
    const inputs = (permissions: unknown[]): Bag => ({
      applicationId: emu.applicationId,
      guildId: emu.guildId,
      commandId: id,
      permissions,
    });
    const same = await permissionsProvider.create(inputs([...overwrites].reverse()));
    expect(same.id).toBe(`${emu.guildId}/${id}`);
    expect(writes(emu)).toEqual([]);
    await configureAll(emu);
    emu.control.resetLog();
    await permissionsProvider.create(inputs([{ id: emu.guildId, type: 1, permission: true }]));
    expect(writes(emu).map((e) => `${e.method} ${e.route}`)).toEqual([
      "PUT editCommandPermissions",
    ]);
  });
});
