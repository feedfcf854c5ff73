/**
 * What check and diff can know about the per-scope limits (scopeLimits.ts), against the
 * emulator: a new command that would pass the count limit fails check naming the scope,
 * the stack's resources that fill it and the live commands none of them declares;
 * more than 200 creates in one guild fail check; a rename inside a set at the cap passes
 * check (its old command is its own); a rename in a full scope asks for
 * delete-before-replace; and no request is made when nothing is created or renamed.
 */
import type { RunningEmulator } from "../../emulator";
import { Api } from "../emulator/helpers";
import { TOKENS } from "../../provider/plugin/resources";
import { scopeCommandsProvider } from "../../provider/resources/scopeCommandsLifecycle";
import {
  configureAll,
  guildInputs,
  guildProvider,
  guildSetInputs,
  pluginCheck,
  pluginResource,
  requests,
  runtime,
  setCommands,
  setup,
  slashArgs,
  teardown,
} from "./helpers";

let emu: RunningEmulator;
let api: Api;

beforeAll(async () => {
  emu = await setup({ config: { dailyCreateLimit: 1000 } });
  api = new Api(emu);
});
afterAll(() => teardown(emu));
beforeEach(async () => {
  emu.control.reset();
  await configureAll(emu);
});

/** Fills the guild with `n` CHAT_INPUT commands `cmd0..` and `users` USER commands. */
/** The id of the live command `stray`, which the messages name by id only. */
const strayId = (): string =>
  String(emu.control.commands().find((c) => c["name"] === "stray")?.["id"]);

async function fill(n: number, users = 0): Promise<void> {
  const bodies = [
    ...Array.from({ length: n }, (_, i) => slashArgs(`cmd${i}`)),
    ...Array.from({ length: users }, (_, i) => ({ type: 2, name: `User ${i}` })),
  ];
  const res = await api.put(`${api.guild}/commands`, bodies);
  expect(res.status).toBe(200);
  await configureAll(emu); // a fresh deployment: nothing cached
  emu.control.resetLog();
}

describe("check of a new command", () => {
  test("fails, naming the scope and the limit, when the scope's type is full", async () => {
    await fill(100);
    const verdict = await guildProvider.check({}, guildInputs(emu, slashArgs("one-more")));
    expect(verdict.failures).toHaveLength(1);
    expect(verdict.failures[0]?.reason).toContain(`guild ${emu.guildId}`);
    expect(verdict.failures[0]?.reason).toContain(
      "would hold 101 CHAT_INPUT commands (the limit is 100)",
    );
    expect(requests(emu, "GET")).toHaveLength(1);
  });

  test("passes for a name that is live (the create takes it over) and for another type with room", async () => {
    await fill(100, 14);
    expect((await guildProvider.check({}, guildInputs(emu, slashArgs("cmd7")))).failures).toEqual(
      [],
    );
    const user = await guildProvider.check({}, guildInputs(emu, { type: 2, name: "User 14" }));
    expect(user.failures).toEqual([]);
    const another = await guildProvider.check({}, guildInputs(emu, { type: 2, name: "User 15" }));
    expect(another.failures[0]?.reason).toContain("16 USER commands (the limit is 15)");
    expect(requests(emu, "GET")).toHaveLength(1); // one list per scope, cached
  });

  test("counts the names the deployment adds, each once", async () => {
    await fill(98);
    for (const name of ["n1", "n2", "n1"]) {
      expect((await guildProvider.check({}, guildInputs(emu, slashArgs(name)))).failures).toEqual(
        [],
      );
    }
    const third = await guildProvider.check({}, guildInputs(emu, slashArgs("n3")));
    expect(third.failures[0]?.reason).toContain("would hold 101");
  });

  test("an existing resource's check makes no request", async () => {
    await fill(100);
    const inputs = guildInputs(emu, slashArgs("cmd1"));
    expect((await guildProvider.check(inputs, inputs)).failures).toEqual([]);
    expect(emu.requestLog()).toHaveLength(0);
  });

  test("more than 200 creates in one guild also fail check on the daily create limit", async () => {
    // One deployment cannot add more than 130 commands to a guild without passing the
    // count limits first, so the 201st create fails on both.
    await fill(0);
    const reasons: string[][] = [];
    for (let i = 0; i < 201; i++) {
      const v = await guildProvider.check({}, guildInputs(emu, slashArgs(`a${i}`)));
      reasons.push(v.failures.map((f) => f.reason));
    }
    expect(reasons[99]).toEqual([]);
    expect(reasons[100]?.join("\n")).toContain("would hold 101 CHAT_INPUT commands");
    expect(reasons[199]?.join("\n")).not.toContain("daily");
    const last = reasons[200]?.join("\n") ?? "";
    expect(last).toContain(`guild ${emu.guildId}`);
    expect(last).toContain("201 command creates in 24 hours");
    expect(last).toContain("the service's daily budget of 200 (code 30034)");
    expect(last).toContain("and 201 this deployment creates");
    expect(requests(emu, "GET")).toHaveLength(1);
  });
});

describe("a full scope's message names who fills it", () => {
  const urn = (type: string, name: string): string =>
    `urn:pulumi:dev::app::discord-commands:index:${type}::${name}`;
  /** A set's commands `s0..`, as `slashArgs` describes them. */
  const setOfSize = (n: number) =>
    setCommands(
      Array.from({ length: n }, (_, i) => `s${i}`),
      (name) => `The ${name} command`,
    );

  test("a set of 90, 11 single commands and a stray: the failing one names the set and the singles (issue 45)", async () => {
    // Live: a set of 90 (a ScopeCommands), the single `extra-0`, and `stray`, no one's.
    await fill(0);
    const setInputs = guildSetInputs(emu, setOfSize(90));
    const set = await scopeCommandsProvider(runtime).create(setInputs);
    await guildProvider.create(guildInputs(emu, slashArgs("extra-0")));
    await api.post(`${api.guild}/commands`, slashArgs("stray"));

    // The next deployment, through the plugin (the claims are the runtime's, in both doors):
    // the set and extra-0 as they are, then extra-1... new, until one passes the cap.
    await configureAll(emu);
    const setResource = pluginResource(TOKENS.scopeCommands);
    const single = pluginResource(TOKENS.guildCommand);
    expect(
      (await pluginCheck(setResource, urn("ScopeCommands", "set-guild"), set.outs, setInputs))
        .failures,
    ).toEqual([]);
    const reasons: string[] = [];
    for (let i = 0; i <= 10; i++) {
      const inputs = guildInputs(emu, slashArgs(`extra-${i}`));
      const verdict = await pluginCheck(
        single,
        urn("GuildCommand", `extra-${i}`),
        i === 0 ? inputs : {},
        inputs,
      );
      reasons.push(verdict.failures.map((f) => f.reason).join("\n"));
    }
    expect(reasons.slice(0, 9)).toEqual(Array.from({ length: 9 }, () => ""));
    const extras = Array.from({ length: 9 }, (_, i) => `'extra-${i}'`).join(", ");
    expect(reasons[9]).toBe(
      `guild ${emu.guildId} of application ${emu.applicationId} would hold 101 CHAT_INPUT ` +
        "commands (the limit is 100): 92 live now, and this deployment adds 9. Besides this one, " +
        `the stack's resources checked so far declare 99 of them: 'set-guild' (90 commands), ${extras}; ` +
        `1 live command no resource checked so far declares, by id: ${strayId()}. The engine runs creates ` +
        "before it deletes removed resources, so remove commands (or delete the ones no stack " +
        "manages) in an earlier `pulumi up`",
    );
  });

  test("a set that would pass the cap names the stack's resources among the commands it does not manage", async () => {
    await fill(0);
    for (const n of ["one", "two"]) await guildProvider.create(guildInputs(emu, slashArgs(n)));
    await api.post(`${api.guild}/commands`, slashArgs("stray"));
    await configureAll(emu);
    const single = pluginResource(TOKENS.guildCommand);
    const setResource = pluginResource(TOKENS.scopeCommands);
    for (const n of ["one", "two"]) {
      const inputs = guildInputs(emu, slashArgs(n));
      expect((await pluginCheck(single, urn("GuildCommand", n), inputs, inputs)).failures).toEqual(
        [],
      );
    }
    const setInputs = guildSetInputs(emu, setOfSize(98));
    const verdict = await pluginCheck(
      setResource,
      urn("ScopeCommands", "set-guild"),
      {},
      setInputs,
    );
    expect(verdict.failures.map((f) => f.reason).join("\n")).toContain(
      "98 declared here and 3 there already that this resource does not manage (the stack's " +
        "resources checked so far declare 2 of them: 'one', 'two'; 1 live command no resource " +
        `checked so far declares, by id: ${strayId()}); remove those or declare fewer`,
    );
  });
});

describe("check of a full set's change", () => {
  test("a rename inside a set at the cap passes: its old command is the set's own, which the PUT replaces", async () => {
    await fill(0);
    const names = Array.from({ length: 100 }, (_, i) => `s${i}`);
    const about = (name: string) => `The ${name} command`;
    const olds = guildSetInputs(emu, setCommands(names, about));
    await scopeCommandsProvider(runtime).create(olds);
    await configureAll(emu); // the next deployment
    const renamed = guildSetInputs(emu, setCommands([...names.slice(1), "renamed"], about));
    // Check gets the old inputs (no commandIds), in both doors.
    const verdict = await scopeCommandsProvider(runtime).check(olds, renamed);
    expect(verdict.failures).toEqual([]);
    // A live command of another writer still counts (s0 deleted to make room for it).
    emu.control.deleteCommand(
      String(emu.control.commands().find((c) => c["name"] === "s0")?.["id"]),
    );
    expect((await api.post(`${api.guild}/commands`, slashArgs("stray"))).status).toBe(201);
    await configureAll(emu);
    const full = await scopeCommandsProvider(runtime).check(olds, renamed);
    expect(full.failures.map((f) => f.reason).join("\n")).toContain(
      "would hold 101 CHAT_INPUT commands (the limit is 100): 100 declared here and 1 there already",
    );
  });
});

describe("diff of a rename", () => {
  test("in a full scope: delete before replace", async () => {
    await fill(100);
    const olds = guildInputs(emu, slashArgs("cmd3"));
    const id = String(emu.control.commands().find((c) => c["name"] === "cmd3")?.["id"]);
    const d = await guildProvider.diff(id, olds, guildInputs(emu, slashArgs("renamed")));
    expect(d.replaces).toEqual(["name"]);
    expect(d.deleteBeforeReplace).toBe(true);
    // The engine then checks the new command as a new resource: it fits (the old goes first).
    const recheck = await guildProvider.check({}, guildInputs(emu, slashArgs("renamed")));
    expect(recheck.failures).toEqual([]);
    // A brand-new command still does not.
    const other = await guildProvider.check({}, guildInputs(emu, slashArgs("brand-new")));
    expect(other.failures[0]?.reason).toContain("would hold 101");
  });

  test("a diff that runs after other renames deleted their old commands, before they created, still deletes first", async () => {
    await fill(100);
    const idOf = (name: string): string =>
      String(emu.control.commands().find((c) => c["name"] === name)?.["id"]);
    const rename = (from: string, to: string) =>
      guildProvider.diff(
        idOf(from),
        guildInputs(emu, slashArgs(from)),
        guildInputs(emu, slashArgs(to)),
      );
    expect((await rename("cmd1", "n1")).deleteBeforeReplace).toBe(true);
    expect((await rename("cmd2", "n2")).deleteBeforeReplace).toBe(true);
    // The engine deleted both old commands; their creates have not run yet.
    emu.control.deleteCommand(idOf("cmd1"));
    emu.control.deleteCommand(idOf("cmd2"));
    runtime.scopes.clear();
    // 98 live, but n1 and n2 are coming back: a third rename must delete first too.
    expect((await rename("cmd3", "n3")).deleteBeforeReplace).toBe(true);
  });

  test("with room, or onto a live name (a swap): create before delete", async () => {
    await fill(99);
    const olds = guildInputs(emu, slashArgs("cmd3"));
    const one = await guildProvider.diff("1", olds, guildInputs(emu, slashArgs("renamed")));
    expect(one.deleteBeforeReplace).toBe(false);
    const swap = await guildProvider.diff("2", olds, guildInputs(emu, slashArgs("cmd4")));
    expect(swap.deleteBeforeReplace).toBe(false);
    // A second rename in the same deployment would make 101.
    const two = await guildProvider.diff(
      "3",
      guildInputs(emu, slashArgs("cmd5")),
      guildInputs(emu, slashArgs("renamed-too")),
    );
    expect(two.deleteBeforeReplace).toBe(true);
  });

  test("a diff without a replacement makes no request", async () => {
    await fill(100);
    const olds = guildInputs(emu, slashArgs("cmd3"));
    const d = await guildProvider.diff(
      "1",
      olds,
      guildInputs(emu, slashArgs("cmd3", { description: "Edited" })),
    );
    expect(d.changes).toBe(true);
    expect(emu.requestLog()).toHaveLength(0);
  });
});
