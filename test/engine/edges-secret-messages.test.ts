/**
 * The messages of issue 50 through the real CLI, in the dynamic resources' door: a name
 * the program marked secret reaches no output, in any form, in one stack's life:
 *  - a create whose answer is a proxy's page echoing the request (a non-JSON 400): the
 *    page's text is left out, the command named `[secret]`;
 *  - the cap message of a new command, checked before the stack's secret-named command
 *    (which is live): the live commands no resource checked so far declares are named by
 *    id;
 *  - a bulk overwrite raced by another writer that deletes a secret-named command of the
 *    stack's own resource (the warning names it `[secret]`) and one of the overwriting
 *    set's own (the PUT's answer lacks its id: the failure names it by id);
 *  - a `destroy` of a state an earlier version wrote (no `__secretPaths`) whose delete
 *    fails: its values are taken as secret, the command named `[secret]` with its id.
 * Every run's output, and every file the runs leave, is searched for the secrets.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import { PulumiProgram } from "../../scripts/pulumiProgram";
import { Api, rec, str } from "../emulator/helpers";
import { commandsProgram, configureStack, emulator, linkPackage, printed } from "./edgeHelpers";
import { AuditedRuns } from "./secretPaths.helpers";

jest.setTimeout(900_000);

/** Letters no output holds anyway (test/helpers/secretForms.ts). */
const S = { single: "kzqxvjwq", hidden: "wxjwjkqv" } as const;

let emu: RunningEmulator;
let api: Api;
let prog: PulumiProgram;
let runs: AuditedRuns;

beforeAll(async () => {
  emu = await emulator();
  api = new Api(emu);
  prog = new PulumiProgram("edges-secret-messages", { "index.ts": commandsProgram("") });
  runs = new AuditedRuns(prog, "index.ts");
  linkPackage(prog);
  await prog.stack("dev");
  await configureStack(prog, emu);
});
afterAll(async () => {
  prog?.cleanup();
  await emu?.close();
});

/**
 * The stack: `mine`, a single command with a secret name; `set`, a set of two plain
 * commands and a secret-named one (`suffix` ends their descriptions); with `extra`, a new command that `mine` waits for (so `extra`
 * is checked first).
 */
function program(suffix = "", extra = false): string {
  const guild = JSON.stringify(emu.guildId);
  return commandsProgram(`
${extra ? `const extra = new discord.GuildCommand("extra", { guildId: ${guild}, name: "extra", description: "One more" });` : ""}
new discord.GuildCommand("mine", {
  guildId: ${guild},
  name: pulumi.secret("${S.single}"),
  description: "Mine",
}${extra ? ", { dependsOn: [extra] }" : ""});
new discord.CommandSet("set", {
  commands: [
    { name: "kick", description: "Kick a member${suffix}" },
    { name: "ban", description: "Ban a member${suffix}" },
    { name: pulumi.secret("${S.hidden}"), description: "Hidden${suffix}" },
  ],
  scopes: [{ guildId: ${guild} }],
});`);
}

const idOf = (name: string): string =>
  str(emu.control.commands().find((c) => c["name"] === name)?.["id"]);

const upArgs = ["up", "--yes", "--non-interactive", "--skip-preview"];

/** Waits until the emulator has injected `n` faults (the delayed GET has been read). */
async function injected(n: number): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    const plan = rec((await api.call("GET", "/__emulator/faults")).body);
    if (Number(plan["injected"]) >= n) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("the list GET never came");
}

async function echoedCreate(): Promise<void> {
  emu.control.setFaults({
    rules: [{ route: "createGuildCommand", action: { type: "echo", status: 400 } }],
  });
  prog.write({ "index.ts": program() });
  const failed = await runs.run(upArgs);
  emu.control.clearFaults();
  expect(failed.code).not.toBe(0);
  expect(printed(failed)).toMatch(
    /POST \/applications\/\d+\/guilds\/\d+\/commands failed with 400: \(the service's message is not shown/,
  );
  expect(printed(failed)).toContain("guild command [secret]");
  expect((await runs.run(upArgs)).code).toBe(0);
}

async function capOfALaterSecret(): Promise<void> {
  // 100 CHAT_INPUT commands live: the stack's four and 96 no stack manages.
  for (let i = 0; i < 96; i++) {
    await api.post(`${api.guild}/commands`, { name: `fill-${i}`, description: "Filler" });
  }
  prog.write({ "index.ts": program(undefined, true) });
  const preview = await runs.run(["preview", "--non-interactive"]);
  expect(preview.code).not.toBe(0);
  expect(printed(preview)).toContain("would hold 101 CHAT_INPUT commands");
  // `mine` is live, and not checked yet: named by id among the first ten.
  expect(printed(preview)).toMatch(
    new RegExp(`no resource checked so far declares, by id: [\\d, ]*\\b${idOf(S.single)}\\b`),
  );
  for (const c of emu.control.commands()) {
    if (String(c["name"]).startsWith("fill-")) emu.control.deleteCommand(str(c["id"]));
  }
}

async function racedOverwrite(): Promise<void> {
  // Three changes: the set overwrites its scope (scopeWritePlan.ts).
  prog.write({ "index.ts": program(", changed") });
  const mine = idOf(S.single);
  const hidden = idOf(S.hidden);
  emu.control.setFaults({
    rules: [
      { route: "listGuildCommands", action: { type: "delay", ms: 1500 }, times: 1, phase: "after" },
    ],
  });
  const before = Number(rec((await api.call("GET", "/__emulator/faults")).body)["injected"]);
  const up = runs.run(upArgs);
  await injected(before + 1);
  for (const id of [mine, hidden]) {
    expect((await api.call("DELETE", `${api.guild}/commands/${id}`)).status).toBe(204);
  }
  const res = await up;
  emu.control.clearFaults();
  const text = printed(res);
  expect(res.code).not.toBe(0);
  expect(text).toMatch(
    new RegExp(
      `warning: .*the command \\[secret\\] \\(id ${mine}\\), which this stack's resource 'mine' declares`,
    ),
  );
  expect(text).toContain(`answered without the command of id ${hidden}`);
  // As the warning says: a refresh, then an up takes the commands over by name.
  expect((await runs.run(["refresh", "--yes", "--non-interactive"])).code).toBe(0);
  expect((await runs.run(upArgs)).code).toBe(0);
}

/** The state as an earlier version wrote it: no resource holds `__secretPaths`. */
async function earlierVersionsState(): Promise<void> {
  const exported = await runs.run(["stack", "export"]);
  expect(exported.code).toBe(0);
  type Bags = Partial<
    Record<"inputs" | "outputs" | "propertyDependencies", Record<string, unknown>>
  >;
  const state = JSON.parse(exported.stdout) as { deployment: { resources: Bags[] } };
  for (const r of state.deployment.resources) {
    for (const bag of [r.inputs, r.outputs, r.propertyDependencies]) delete bag?.["__secretPaths"];
  }
  const without = JSON.stringify(state);
  expect(exported.stdout).toContain("__secretPaths");
  expect(without).not.toContain("__secretPaths");
  const file = path.join(prog.root, "earlier.json");
  fs.writeFileSync(file, without);
  expect((await runs.run(["stack", "import", "--file", file])).code).toBe(0);
  fs.rmSync(file);
}

test("a secret name stays out of an echoed answer, a cap message, a raced overwrite and an earlier version's destroy", async () => {
  await echoedCreate();
  await capOfALaterSecret();
  prog.write({ "index.ts": program() });
  await racedOverwrite();

  await earlierVersionsState();
  emu.control.setFaults({
    rules: [
      {
        route: "deleteGuildCommand",
        action: { type: "error", status: 403, code: 50013, message: "Missing Permissions" },
      },
    ],
  });
  const destroy = await runs.run(["destroy", "--yes", "--non-interactive"]);
  emu.control.clearFaults();
  expect(destroy.code).not.toBe(0);
  expect(printed(destroy)).toMatch(
    /deleting guild command \[secret\] in guild \d+ \(id \d+\) failed/,
  );
  expect((await runs.run(["destroy", "--yes", "--non-interactive"])).code).toBe(0);

  expect(runs.leaks(S)).toEqual([]);
});
