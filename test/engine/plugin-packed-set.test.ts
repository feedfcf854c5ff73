/**
 * A packed `CommandSet` (`packed: true`) through the plugin, from a YAML program through the
 * real CLI against the emulator: the set's one child, `CommandSetScopes`, holds every scope
 * (provider/plugin/packedSet.ts). `up` writes each scope with one list read and one bulk
 * overwrite, keeps the commands another writer made, and writes the permissions with the
 * ids the child assigned (its `commandIds[label][key]`), which are also the set's output;
 * the state holds the one child and no `ScopeCommands`; a no-op preview shows no change; a
 * command edited out of band shows as the scope's drift and is put back; a changed
 * definition is named once, at its place in the list, and costs one PATCH per scope; a
 * secret description stays out of the state and the CLI's output; a scope added and one
 * removed write only those two; a definition declared twice, and a single command claiming
 * a name the set holds in one scope, fail the preview naming them; destroy keeps the other
 * writer's commands; a deployed set switched to packed and back keeps every command and id
 * (and so its permissions); a definition from another resource's output is unknown at
 * preview and written once known.
 */
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import { PulumiProgram } from "../../scripts/pulumiProgram";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import { Api } from "../emulator/helpers";
import {
  commandKeys,
  configurePluginStack,
  IDS,
  liveCommand,
  livePermissions,
  moderatedGuild,
  requests,
  writes,
} from "./lifecycle.helpers";

jest.setTimeout(600_000);

let emu: RunningEmulator;
let prog: PulumiProgram;
let api: Api;

const A = IDS.guild;
const B = "1300000000000000020";
const C = "1300000000000000021";
const PERMISSIONS = [{ id: IDS.role, type: 1, permission: true }];
const SECRET = "Kick quietly, never shown";
/** The engine's mark of a secret value in `pulumi stack export`. */
const MARK = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };

/** What a program varies: the set's scopes, more definitions, other resources, `packed`. */
interface ProgramOptions {
  readonly scopes?: readonly Record<string, string>[];
  readonly extra?: readonly Record<string, unknown>[];
  /** Other resources, as YAML lines under `resources:`. */
  readonly resources?: string;
  /** Default true. */
  readonly packed?: boolean;
}

/** The program: the set's properties as JSON (JSON is YAML), `kick`'s description as given. */
function program(
  kickDescription: string | { "fn::secret": string },
  o: ProgramOptions = {},
): string {
  const { scopes = [{ guildId: A }, { guildId: B }, {}], extra = [], resources = "" } = o;
  const properties = {
    packed: o.packed ?? true,
    commands: [
      {
        name: "ban",
        description: "Remove a member",
        options: [{ type: 6, name: "member", description: "Who", required: true }],
      },
      { name: "kick", description: kickDescription },
      { type: 2, name: "Info", contexts: [0] },
      ...extra,
    ],
    scopes,
    permissions: [{ guildId: A, command: "ban", permissions: PERMISSIONS }],
  };
  return [
    "name: plugin-packed-set",
    "runtime: yaml",
    "packages:",
    `  discord-commands: ${PROJECT_ROOT}/plugin`,
    "resources:",
    resources,
    "  mods:",
    "    type: discord-commands:CommandSet",
    `    properties: ${JSON.stringify(properties)}`,
    "outputs:",
    "  ids: ${mods.commandIds}",
    "",
  ].join("\n");
}

/** The live commands' keys (commandKeys) when the set is in `scopes`: the other writer's too. */
function liveKeys(scopes: readonly string[]): string[] {
  const ours = ["1 ban", "1 kick", "2 Info"];
  return [...scopes.flatMap((s) => ours.map((k) => `${s} ${k}`)), `${A} 1 not-ours`].sort();
}

interface ExportedResource {
  type: string;
  urn: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

async function exported(): Promise<{ text: string; resources: ExportedResource[] }> {
  const text = (await prog.ok(["stack", "export"])).stdout;
  const parsed = JSON.parse(text) as { deployment: { resources: ExportedResource[] } };
  return { text, resources: parsed.deployment.resources };
}

beforeAll(async () => {
  emu = await startEmulator({
    port: 0,
    rateLimits: false,
    config: { guilds: [moderatedGuild(A), moderatedGuild(B), moderatedGuild(C)] },
  });
  api = new Api(emu);
  const other = await api.post(`${api.guild}/commands`, { name: "not-ours", description: "x" });
  expect(other.status).toBe(201);
  prog = new PulumiProgram("plugin-packed-set", { "Pulumi.yaml": program("Kick a member") });
  await prog.stack("dev");
  await configurePluginStack(prog, emu);
});

afterAll(async () => {
  prog?.cleanup();
  await emu?.close();
});

test("the first preview plans the set, its one child and the permissions, writing nothing", async () => {
  emu.control.resetLog();
  const preview = await prog.ok(["preview", "--non-interactive"]);
  expect(preview.stdout).toMatch(
    /\+\s+discord-commands:index:CommandSetScopes\s+mods-scopes\s+create/,
  );
  expect(await prog.previewSummary()).toEqual({ create: 4 });
  expect(writes(emu)).toEqual([]);
});

test("up: every scope with one list read and one PUT, the other writer's command kept, the permissions written; one CommandSetScopes in the state", async () => {
  emu.control.resetLog();
  await prog.up();
  expect(commandKeys(emu)).toEqual(liveKeys([A, B, "global"]));
  const ban = liveCommand(emu, "ban", A);
  expect(livePermissions(emu, ban.id)).toEqual(PERMISSIONS);
  expect(liveCommand(emu, "Info", "global", 2)["contexts"]).toEqual([0]);
  // Per scope: one list read, one bulk overwrite (the permissions: their own write).
  const lists = requests(emu).filter((r) => r.startsWith("GET list"));
  expect(lists.sort()).toEqual(
    [
      "GET listGlobalCommands commands 200",
      `GET listGuildCommands guild:${A} commands 200`,
      `GET listGuildCommands guild:${B} commands 200`,
    ].sort(),
  );
  expect(writes(emu)).toEqual(
    [
      "PUT bulkOverwriteGlobalCommands commands 200",
      `PUT bulkOverwriteGuildCommands guild:${A} commands 200`,
      `PUT bulkOverwriteGuildCommands guild:${B} commands 200`,
      `PUT editCommandPermissions guild:${A} permissions:${ban.id} 200`,
    ].sort(),
  );

  const { resources } = await exported();
  const types = resources.map((r) => r.type);
  expect(types.filter((t) => t === "discord-commands:index:CommandSetScopes")).toHaveLength(1);
  expect(types).not.toContain("discord-commands:index:ScopeCommands");
  const packed = resources.find((r) => r.type === "discord-commands:index:CommandSetScopes");
  expect(packed?.urn).toMatch(/::mods-scopes$/);
  // The definitions once, as the program's list.
  expect((packed?.inputs?.["commands"] as unknown[]).length).toBe(3);

  // The set's output: scope label -> command key -> the service's id.
  const { ids } = (await prog.outputs()) as { ids: Record<string, Record<string, string>> };
  expect(ids[A]?.["ban"]).toBe(ban.id);
  expect(ids[B]?.["user:Info"]).toBe(liveCommand(emu, "Info", B, 2).id);
  expect(ids["global"]?.["kick"]).toBe(liveCommand(emu, "kick").id);
});

test("a no-op: the preview shows no change, a second up writes nothing", async () => {
  expect(await prog.previewSummary()).toEqual({ same: 4 });
  emu.control.resetLog();
  await prog.up();
  expect(writes(emu)).toEqual([]);
});

test("drift: a command edited out of band in one scope shows in preview --refresh; up --refresh puts it back with one PATCH", async () => {
  const kickB = liveCommand(emu, "kick", B);
  await api.call("PATCH", `/__emulator/commands/${kickB.id}`, {
    body: { description: "Changed by hand" },
  });
  const preview = await prog.ok(["preview", "--refresh", "--non-interactive", "--diff"]);
  // The refresh finds the scope's command changed (its `drift`, in the scope's entry, the
  // live values by key), and the update shows them under that scope, to be put back.
  const [refresh, update] = preview.stdout.split("CommandSetScopes: (update)") as [string, string];
  expect(refresh).toMatch(/\+ drift\s*: \{\s*\+ kick: \{\s*\+ description: "Changed by hand"/);
  expect(update).toMatch(/- drift\s*: \{\s*- kick: \{\s*- description: "Changed by hand"/);
  emu.control.resetLog();
  await prog.up(["--refresh"]);
  expect(writes(emu)).toEqual([`PATCH editGuildCommand guild:${B} command:${kickB.id} 200`]);
  expect(liveCommand(emu, "kick", B)["description"]).toBe("Kick a member");
  emu.control.resetLog();
  expect(await prog.previewSummary(["--refresh"])).toEqual({ same: 4 });
});

test("a changed definition: the preview names it once, at its place in the list; one PATCH per scope", async () => {
  prog.write({ "Pulumi.yaml": program("Kick someone out") });
  const preview = await prog.ok(["preview", "--diff", "--non-interactive"]);
  const change = /~ description\s*: "Kick a member" => "Kick someone out"/g;
  expect(preview.stdout.match(change)?.length).toBe(1);
  expect(await prog.previewSummary()).toEqual({ same: 3, update: 1 });
  emu.control.resetLog();
  await prog.up();
  expect(writes(emu)).toEqual(
    [
      `PATCH editGlobalCommand command:${liveCommand(emu, "kick").id} 200`,
      `PATCH editGuildCommand guild:${A} command:${liveCommand(emu, "kick", A).id} 200`,
      `PATCH editGuildCommand guild:${B} command:${liveCommand(emu, "kick", B).id} 200`,
    ].sort(),
  );
});

test("a secret description stays secret at its path: never in the state nor the CLI's output", async () => {
  prog.write({ "Pulumi.yaml": program({ "fn::secret": SECRET }) });
  const preview = await prog.ok(["preview", "--diff", "--non-interactive"]);
  const up = await prog.up();
  for (const scope of [A, B, "global"]) {
    expect(liveCommand(emu, "kick", scope)["description"]).toBe(SECRET);
  }
  const { text, resources } = await exported();
  for (const out of [preview.stdout, preview.stderr, up.stdout, up.stderr, text]) {
    expect(out).not.toContain(SECRET);
  }
  const packed = resources.find((r) => r.type === "discord-commands:index:CommandSetScopes");
  for (const bag of [packed?.inputs, packed?.outputs]) {
    // The description alone: the list, kick's name and the ids stay readable.
    const commands = bag?.["commands"] as Record<string, unknown>[];
    expect(commands).not.toMatchObject(MARK);
    expect(commands[1]?.["name"]).toBe("kick");
    expect(commands[1]?.["description"]).toMatchObject(MARK);
  }
  const ids = packed?.outputs?.["commandIds"] as Record<string, unknown>;
  expect(ids).not.toMatchObject(MARK);
  expect(ids["global"]).toEqual(expect.objectContaining({ kick: liveCommand(emu, "kick").id }));
});

test("a scope added and one removed: the set's one child updates; only those scopes are written", async () => {
  const scopes = [{ guildId: A }, { guildId: C }, {}];
  prog.write({ "Pulumi.yaml": program({ "fn::secret": SECRET }, { scopes }) });
  expect(await prog.previewSummary()).toEqual({ same: 3, update: 1 });
  emu.control.resetLog();
  await prog.up();
  expect(commandKeys(emu)).toEqual(liveKeys([A, C, "global"]));
  // The guild A and the global scope are neither read nor written.
  const touched = requests(emu).filter((r) => r.includes(`guild:${A}`) || r.includes("Global"));
  expect(touched).toEqual([]);
  expect(writes(emu)).toContain(`PUT bulkOverwriteGuildCommands guild:${C} commands 200`);
  const { ids } = (await prog.outputs()) as { ids: Record<string, Record<string, string>> };
  expect(Object.keys(ids).sort()).toEqual([A, C, "global"].sort());
  expect(ids[C]?.["kick"]).toBe(liveCommand(emu, "kick", C).id);
});

test("bad input fails the preview naming the set, or both claimants of a command", async () => {
  prog.write({
    "Pulumi.yaml": program("Kick someone out", { extra: [{ name: "kick", description: "Again" }] }),
  });
  const declaredTwice = await prog.run(["preview", "--non-interactive"]);
  expect(declaredTwice.code).not.toBe(0);
  expect(declaredTwice.stdout + declaredTwice.stderr).toMatch(
    /command set 'mods': commands\[3\] declares 'kick' \(type 1\) a second time/,
  );
  const lone = [
    "  lone-kick:",
    "    type: discord-commands:GuildCommand",
    `    properties: ${JSON.stringify({ guildId: A, name: "kick", description: "Mine" })}`,
  ].join("\n");
  prog.write({ "Pulumi.yaml": program("Kick someone out", { resources: lone }) });
  const claimed = await prog.run(["preview", "--non-interactive"]);
  expect(claimed.code).not.toBe(0);
  const out = claimed.stdout + claimed.stderr;
  // The set's child names the scope its claim is of (commandSetScopesLifecycle.ts `packedScopeClaims`).
  expect(out).toContain(
    `resources 'lone-kick', 'mods-scopes[${A}] commands["kick"]' all declare the CHAT_INPUT command 'kick' in guild ${A}`,
  );
  expect(out).toMatch(
    /CommandSet resource 'mods' has a problem: its resource 'mods-scopes' failed/,
  );
  expect(out).not.toMatch(/connection is closing/);
});

test("destroy removes the set's commands and keeps the others", async () => {
  await prog.destroy();
  expect(commandKeys(emu)).toEqual([`${A} 1 not-ours`]);
});

test("an existing set switched to packed and back keeps every command and its id: the new children take them over, the old ones' delete leaves them", async () => {
  prog.write({ "Pulumi.yaml": program("Kick a member", { packed: false }) });
  await prog.up();
  expect(commandKeys(emu)).toEqual(liveKeys([A, B, "global"]));
  const before = Object.fromEntries(emu.control.commands().map((c) => [c["id"], c["name"]]));
  const banId = liveCommand(emu, "ban", A).id;

  prog.write({ "Pulumi.yaml": program("Kick a member") });
  emu.control.resetLog();
  const up = await prog.up();
  expect(commandKeys(emu)).toEqual(liveKeys([A, B, "global"]));
  expect(Object.fromEntries(emu.control.commands().map((c) => [c["id"], c["name"]]))).toEqual(
    before,
  );
  // Nothing deleted; the permissions keep their command.
  expect(writes(emu).filter((w) => w.startsWith("DELETE"))).toEqual([]);
  expect(livePermissions(emu, banId)).toEqual(PERMISSIONS);
  expect(up.stdout).toMatch(/CommandSetScopes\s+mods-scopes\s+created/);
  const { resources } = await exported();
  expect(resources.map((r) => r.type)).not.toContain("discord-commands:index:ScopeCommands");

  // And back: the packed child's delete leaves the commands the scopes' children took over.
  prog.write({ "Pulumi.yaml": program("Kick a member", { packed: false }) });
  emu.control.resetLog();
  await prog.up();
  expect(Object.fromEntries(emu.control.commands().map((c) => [c["id"], c["name"]]))).toEqual(
    before,
  );
  expect(writes(emu).filter((w) => w.startsWith("DELETE"))).toEqual([]);
  expect(livePermissions(emu, banId)).toEqual(PERMISSIONS);
  await prog.destroy();
  expect(commandKeys(emu)).toEqual([`${A} 1 not-ours`]);
});

test("a definition from another resource's output: unknown at preview, the set's child updates; up writes the value to every scope", async () => {
  prog.write({ "Pulumi.yaml": program("Kick a member") });
  await prog.up();
  const other = [
    "  other:",
    "    type: discord-commands:GuildCommand",
    `    properties: ${JSON.stringify({ guildId: B, name: "other-tool", description: "Theirs" })}`,
  ].join("\n");
  prog.write({ "Pulumi.yaml": program("Kick (see ${other.id})", { resources: other }) });
  const preview = await prog.ok(["preview", "--diff", "--non-interactive"]);
  expect(preview.stdout).toMatch(/~ discord-commands:index:CommandSetScopes: \(update\)/);
  expect(await prog.previewSummary()).toEqual({ same: 3, create: 1, update: 1 });
  await prog.up();
  const otherId = liveCommand(emu, "other-tool", B).id;
  for (const scope of [A, B, "global"]) {
    expect(liveCommand(emu, "kick", scope)["description"]).toBe(`Kick (see ${otherId})`);
  }
  await prog.destroy();
  expect(commandKeys(emu)).toEqual([`${A} 1 not-ours`]);
});
