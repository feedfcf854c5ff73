/**
 * `CommandSetScopes` (a packed `CommandSet`: every scope in one resource, the definitions
 * once) against the emulator: each scope written with one list GET and one PUT, the
 * scopes' other commands kept; one definition changed is one PATCH per scope, shown once at
 * its place in the list; drift per scope and command, with no false diff; scopes added and
 * removed; a failing scope named with the others; secrets kept at their paths in the outputs.
 */
import type { RunningEmulator } from "../../emulator";
import { DeploymentClaims } from "../../provider/resources/claims";
import {
  commandSetScopesProvider,
  packedScopeClaims,
} from "../../provider/resources/commandSetScopesLifecycle";
import type { Bag } from "../../provider/resources/propertyBags";
import { isSecretValue, SECRET_PATHS_KEY } from "../../provider/resources/propertyBags";
import { Api, rec } from "../emulator/helpers";
import { SECRETS, secretLeaks } from "../helpers/secretForms";
import { configureAll, rejection, requests, runtime, setup, teardown, writes } from "./helpers";

const APP = "1300000000000000001";
const G1 = "1300000000000000002";
const G2 = "1300000000000000012";
const G3 = "1300000000000000022";

let emu: RunningEmulator;
let api: Api;

beforeAll(async () => {
  emu = await setup({
    config: {
      guilds: [G1, G2, G3].map((id) => ({ id, authorizedApplications: [APP] })),
    },
  });
  api = new Api(emu);
});
afterAll(() => teardown(emu));

type Provider = ReturnType<typeof commandSetScopesProvider>;

async function fresh(): Promise<Provider> {
  emu.control.reset();
  await configureAll(emu);
  return commandSetScopesProvider(runtime);
}

/** The next `up`: a new provider process (its deployment memory and caches start empty). */
async function nextDeployment(): Promise<Provider> {
  await configureAll(emu);
  return commandSetScopesProvider(runtime);
}

const defs = (names: readonly string[], extra: (n: string) => Bag = () => ({})): Bag[] =>
  names.map((n) => ({ name: n, description: `The ${n} command`, ...extra(n) }));

function packed(commands: Bag[], guilds: readonly string[] = [G1, G2], extra: Bag = {}): Bag {
  return {
    applicationId: APP,
    commands,
    scopes: [{}, ...guilds.map((guildId) => ({ guildId }))],
    ...extra,
  };
}

const live = (guildId: string | undefined): Record<string, unknown>[] =>
  emu.control.commands().filter((c) => (c["guild_id"] ?? undefined) === guildId);

/** The drift a state keeps in the entry of the scope at `at` of its `scopes`. */
const driftAt = (props: Bag | undefined, at: number): unknown =>
  rec((props?.["scopes"] as unknown[] | undefined)?.[at])["drift"];

const idsOf = (outs: Bag): Record<string, Record<string, string>> =>
  outs["commandIds"] as Record<string, Record<string, string>>;

async function seedOther(guildId: string | undefined): Promise<void> {
  const route = guildId === undefined ? `${api.app}` : api.guild.replace(emu.guildId, guildId);
  const res = await api.post(`${route}/commands`, { name: "not-ours", description: "not ours" });
  expect(res.status).toBe(201);
}

describe("CommandSetScopes", () => {
  test("create: one list GET and one PUT per scope, the scopes' other commands kept", async () => {
    const p = await fresh();
    for (const g of [undefined, G1, G2]) await seedOther(g);
    const inputs = (await p.check({}, packed(defs(["a", "b", "c"])))).inputs;
    emu.control.resetLog();
    const { outs } = await p.create(inputs);
    expect(writes(emu).map((w) => w.method)).toEqual(["PUT", "PUT", "PUT"]);
    // Each write lists its scope right before its PUT (the check's cap reads were before).
    expect(requests(emu, "GET").length).toBe(3);
    for (const g of [undefined, G1, G2]) {
      expect(
        live(g)
          .map((c) => c["name"])
          .sort(),
      ).toEqual(["a", "b", "c", "not-ours"]);
    }
    const ids = idsOf(outs);
    expect(Object.keys(ids).sort()).toEqual([G1, G2, "global"].sort());
    expect(live(G2).find((c) => c["id"] === ids[G2]?.["b"])?.["name"]).toBe("b");
    expect(outs["commands"]).toEqual(inputs["commands"]); // the definitions once
  });

  test("one definition changed: one PATCH per scope, shown once at its place in the list", async () => {
    let p = await fresh();
    const first = await p.create(packed(defs(["a", "b", "c"])));
    p = await nextDeployment();
    const news = packed(
      defs(["a", "b", "c"], (n) => (n === "b" ? { description: "Changed" } : {})),
    );
    const diff = await p.diff("command-set", first.outs, news);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    expect(diff.detailedDiff).toEqual({ "commands[1].description": "update" });
    emu.control.resetLog();
    const next = await p.update("command-set", first.outs, news);
    expect(
      writes(emu)
        .map((w) => `${w.method} ${w.route}`)
        .sort(),
    ).toEqual(["PATCH editGlobalCommand", "PATCH editGuildCommand", "PATCH editGuildCommand"]);
    expect(live(G1).find((c) => c["name"] === "b")?.["description"]).toBe("Changed");
    expect(idsOf(next.outs)).toEqual(idsOf(first.outs));
    // Reordering the list is no change.
    const reordered = { ...news, commands: [...(news["commands"] as Bag[])].reverse() };
    expect((await p.diff("command-set", next.outs, reordered)).changes).toBe(false);
  });

  test("a rename: a new id in every scope; a scope added and one removed", async () => {
    let p = await fresh();
    await seedOther(G1);
    const first = await p.create(packed(defs(["a", "b"])));
    p = await nextDeployment();
    const news = packed(defs(["a", "b2"]), [G2, G3]);
    const diff = await p.diff("command-set", first.outs, news);
    expect(diff.detailedDiff).toEqual({
      "commands[1]": "update", // a was there and stays; b there goes, b2 comes
      "scopes[1]": "delete",
      "scopes[2]": "add",
    });
    const next = await p.update("command-set", first.outs, news);
    const ids = idsOf(next.outs);
    expect(Object.keys(ids).sort()).toEqual([G2, G3, "global"].sort());
    expect(ids["global"]?.["b2"]).not.toBe(idsOf(first.outs)["global"]?.["b"]);
    expect(
      live(undefined)
        .map((c) => c["name"])
        .sort(),
    ).toEqual(["a", "b2"]);
    expect(live(G1).map((c) => c["name"])).toEqual(["not-ours"]); // removed: only ours deleted
    expect(
      live(G3)
        .map((c) => c["name"])
        .sort(),
    ).toEqual(["a", "b2"]);
  });

  test("refresh: drift per scope and command, no false diff, a deleted command comes back", async () => {
    const p = await fresh();
    const inputs = packed(
      defs(["a", "b"], (n) => (n === "a" ? { nameLocalizations: {}, nsfw: false } : {})),
    );
    const created = await p.create(inputs);
    runtime.scopes.clear();
    const clean = await p.read("command-set", created.outs);
    for (const at of [0, 1, 2]) expect(driftAt(clean.props, at)).toBeUndefined();
    expect((await p.diff("command-set", clean.props ?? {}, inputs)).changes).toBe(false);

    const ids = idsOf(created.outs);
    emu.control.patchCommand(ids[G1]?.["a"] as string, { description: "Edited by hand" });
    emu.control.deleteCommand(ids[G2]?.["b"] as string);
    runtime.scopes.clear();
    const drifted = await p.read("command-set", created.outs);
    // In the drifted scope's own entry (scopes[1] is G1), in the state and the refreshed inputs.
    expect(driftAt(drifted.props, 1)).toEqual({
      a: expect.objectContaining({ name: "a", description: "Edited by hand" }),
    });
    expect(driftAt(drifted.inputs, 1)).toEqual(driftAt(drifted.props, 1));
    expect(driftAt(drifted.props, 0)).toBeUndefined();
    const d = await p.diff("command-set", drifted.props ?? {}, inputs);
    expect(d.detailedDiff).toEqual({
      'scopes[1].drift["a"]': "update",
      [`commandIds["${G2}"]["b"]`]: "add",
    });
    emu.control.resetLog();
    const fixed = await p.update("command-set", drifted.props ?? {}, inputs);
    expect(
      writes(emu)
        .map((w) => w.method)
        .sort(),
    ).toEqual(["PATCH", "POST"]);
    expect(live(G1).find((c) => c["name"] === "a")?.["description"]).toBe("The a command");
    expect(driftAt(fixed.outs, 1)).toBeUndefined();
  });

  test("delete removes only the set's commands, in every scope", async () => {
    let p = await fresh();
    for (const g of [undefined, G1]) await seedOther(g);
    const created = await p.create(packed(defs(["a", "b", "c"])));
    p = await nextDeployment();
    await p.delete("command-set", created.outs);
    expect(live(undefined).map((c) => c["name"])).toEqual(["not-ours"]);
    expect(live(G1).map((c) => c["name"])).toEqual(["not-ours"]);
    expect(live(G2)).toEqual([]);
  });

  test("check: a rule broken in the guild scopes only says so; ids are checked per scope", async () => {
    const p = await fresh();
    const entry = { type: 4, name: "launch", description: "Launch", handler: 2 };
    const { failures } = await p.check({}, packed([...defs(["a"]), entry]));
    const reasons = failures.map((f) => f.reason);
    expect(reasons.length).toBeGreaterThan(0);
    for (const r of reasons)
      expect(r).toMatch(/^commands\["entry_point:launch"\]\.type: .* \(in the guild scopes\)$/);
    expect(reasons).toContain(
      'commands["entry_point:launch"].type: entry points exist only in the global scope (in the guild scopes)',
    );
    const bad = await p.check({}, { ...packed(defs(["a"])), scopes: [{ guildId: "nope" }] });
    expect(bad.failures.map((f) => f.reason).join("\n")).toMatch(
      /^scopes\[0\]\.guildId is not a snowflake/,
    );
  });

  test("a scope that fails is named, with the others that failed; the rest are written", async () => {
    const p = await fresh();
    const unknown = ["1300000000000000032", "1300000000000000042"];
    const err = await rejection(p.create(packed(defs(["a"]), [G1, ...unknown])));
    const text = String((err as Error).message);
    for (const g of unknown)
      expect(text).toContain(`creating the commands of guild ${g} of application`);
    expect(text).toContain("2 of the set's 4 scopes failed; the other 2 were written");
    expect(live(G1).map((c) => c["name"])).toEqual(["a"]);
    expect(live(undefined).map((c) => c["name"])).toEqual(["a"]);
  });

  test("secrets: a secret field makes its drifted command secret", async () => {
    const p = await fresh();
    const inputs = {
      ...packed(defs(["a", "b"], (n) => (n === "a" ? { description: "Private text" } : {}))),
      [SECRET_PATHS_KEY]: [["commands", 0, "description"]],
    };
    const created = await p.create(inputs);
    const ids = idsOf(created.outs);
    expect(isSecretValue(ids["global"])).toBe(false); // the names are not secret
    emu.control.patchCommand(ids["global"]?.["a"] as string, { description: "Edited by hand" });
    emu.control.patchCommand(ids["global"]?.["b"] as string, { description: "Edited too" });
    runtime.scopes.clear();
    const read = await p.read("command-set", created.outs);
    const drift = rec(driftAt(read.props, 0));
    expect(isSecretValue(drift["a"])).toBe(true);
    expect(isSecretValue(drift["b"])).toBe(false);
    const d = await p.diff("command-set", read.props ?? {}, inputs);
    expect(d.detailedDiff).toEqual({
      'scopes[0].drift["a"]': "update",
      'scopes[0].drift["b"]': "update",
    });
  });

  test("secrets: a secret name makes every scope's ids and drift secret, named by scope only", async () => {
    const p = await fresh();
    const inputs = {
      ...packed(defs(["a", "hidden"])),
      [SECRET_PATHS_KEY]: [["commands", 1, "name"]],
    };
    const created = await p.create(inputs);
    for (const label of ["global", G1, G2]) {
      expect(isSecretValue((created.outs["commandIds"] as Bag)[label])).toBe(true);
    }
    const ids = rec(rec((created.outs["commandIds"] as Bag)[G1])["value"]);
    emu.control.patchCommand(String(ids["a"]), { description: "Edited by hand" });
    emu.control.deleteCommand(String(ids["hidden"]));
    runtime.scopes.clear();
    const read = await p.read("command-set", created.outs);
    expect(isSecretValue(driftAt(read.props, 1))).toBe(true);
    const d = await p.diff("command-set", read.props ?? {}, inputs);
    expect(d.detailedDiff).toEqual({
      "scopes[1].drift": "update",
      [`commandIds["${G1}"]`]: "add",
    });
  });

  test("claims: a name the set declares, declared again in one of its guilds, fails naming both", () => {
    const claims = new DeploymentClaims();
    const single = "urn:pulumi:dev::p::pulumi-nodejs:dynamic/discord:GuildCommand::b-in-g2";
    const set =
      "urn:pulumi:dev::p::discord:index:CommandSet$pulumi-nodejs:dynamic/discord:CommandSetScopes::mods-scopes";
    expect(
      claims.checkCommand(single, "guild", { applicationId: APP, guildId: G2, name: "b" }),
    ).toEqual([]);
    const problems = packedScopeClaims(claims, set, packed(defs(["a", "b"]))).join("\n");
    expect(problems).toMatch(new RegExp(`all declare the CHAT_INPUT command 'b' in guild ${G2}`));
    expect(problems).toContain("b-in-g2");
    expect(problems).toContain(`mods-scopes[${G2}]`);
    // Checked again (a second check of the same set), its claims replace its earlier ones.
    const again = packedScopeClaims(claims, set, packed(defs(["a"]))).join("\n");
    expect(again).toBe("");
  });

  test("a scope that names its application is labelled by it; the set's default application changed is a replacement", async () => {
    const p = await fresh();
    const inputs = {
      commands: defs(["a"]),
      scopes: [{ applicationId: APP }, { applicationId: APP, guildId: G1 }],
    };
    const created = await p.create((await p.check({}, inputs)).inputs);
    expect(Object.keys(idsOf(created.outs)).sort()).toEqual([`${APP}-${G1}`, `${APP}-global`]);
    expect(live(G1).map((c) => c["name"])).toEqual(["a"]);
    const moved = { ...packed(defs(["a"])), applicationId: "1300000000000000099" };
    expect((await p.diff("command-set", packed(defs(["a"])), moved)).replaces).toEqual([
      "applicationId",
    ]);
  });

  test("secrets that break rules fail the check as [secret], in every kind of scope", async () => {
    const p = await fresh();
    const inputs = {
      ...packed([
        { name: SECRETS.name, description: "Capitals in a secret name" },
        {
          name: "long",
          description: "A secret name of 48 characters",
          nameLocalizations: { de: SECRETS.long },
        },
      ]),
      [SECRET_PATHS_KEY]: [
        ["commands", 0, "name"],
        ["commands", 1, "nameLocalizations", "de"],
      ],
    };
    const { failures } = await p.check({}, inputs);
    const reasons = failures.map((f) => f.reason).join("\n");
    expect(failures.length).toBeGreaterThanOrEqual(2);
    expect(reasons).toContain("[secret]");
    const { name, long } = SECRETS;
    expect(secretLeaks(reasons, { name, long }, "the reasons")).toEqual([]);
  });
});
