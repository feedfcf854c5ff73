/**
 * `CommandSet` through the plugin (the component every language gets), from a YAML program
 * through the real CLI against the emulator: the set deploys to a guild and the global
 * scope with its permissions; a second `up` writes nothing; a changed definition is named
 * with its field in `preview --diff` and costs one PATCH per scope; a definition declared
 * twice, and a single command claiming a name the set holds in the same scope, fail the
 * preview naming them; a refused write under --continue-on-error; a secret definition
 * (secret at its own path); destroy keeps every command the stack does not manage. The plugin's DISCORD_TIMING_LOG
 * times the Construct and every lifecycle call.
 *
 * Permissions naming a command the set does not declare are a problem of the set's plan
 * (test/provider/commandSetPlan.test.ts): every scope's child gets it, so each one's check
 * fails before any write, by the same path as the definition declared twice here.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import type { TimingLine } from "../../provider/resources/timingLog";
import { PulumiProgram } from "../../scripts/pulumiProgram";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import { Api } from "../emulator/helpers";
import {
  commandKeys,
  IDS,
  liveCommand,
  livePermissions,
  writes,
  configurePluginStack,
  moderatedGuild,
} from "./lifecycle.helpers";

jest.setTimeout(600_000);

let emu: RunningEmulator;
let prog: PulumiProgram;

const A = IDS.guild;
const PERMISSIONS = [{ id: IDS.role, type: 1, permission: true }];

function program(kickDescription: string, extra = ""): string {
  return `name: plugin-command-set
runtime: yaml
packages:
  discord-commands: ${PROJECT_ROOT}/plugin
resources:
  mods:
    type: discord-commands:CommandSet
    properties:
      commands:
        - name: ban
          description: Remove a member
          options:
            - type: 6
              name: member
              description: Who
              required: true
        - name: kick
          description: ${kickDescription}
        - type: 2
          name: Info
          contexts: [0]
${extra}
      scopes:
        - guildId: "${A}"
        - {}
      permissions:
        - guildId: "${A}"
          command: ban
          permissions:
            - id: "${IDS.role}"
              type: 1
              permission: true
`;
}

beforeAll(async () => {
  emu = await startEmulator({
    port: 0,
    rateLimits: false,
    config: {
      guilds: [moderatedGuild(A)],
    },
  });
  const api = new Api(emu);
  const other = await api.post(`${api.guild}/commands`, { name: "not-ours", description: "x" });
  expect(other.status).toBe(201);
  prog = new PulumiProgram("plugin-command-set", { "Pulumi.yaml": program("Kick a member") });
  // The plugin's timings (provider/resources/timingLog.ts), read by the first test.
  prog.env["DISCORD_TIMING_LOG"] = path.join(prog.root, "timings.jsonl");
  await prog.stack("dev");
  await configurePluginStack(prog, emu);
});

afterAll(async () => {
  prog?.cleanup();
  await emu?.close();
});

test("the set deploys to the guild and the global scope with its permissions; a second up writes nothing", async () => {
  emu.control.resetLog();
  await prog.up();
  expect(commandKeys(emu)).toEqual(
    [
      `${A} 1 ban`,
      `${A} 1 kick`,
      `${A} 2 Info`,
      `${A} 1 not-ours`,
      "global 1 ban",
      "global 1 kick",
      "global 2 Info",
    ].sort(),
  );
  const ban = liveCommand(emu, "ban", A);
  expect(livePermissions(emu, ban.id)).toEqual(PERMISSIONS);
  expect(liveCommand(emu, "Info", "global", 2)["contexts"]).toEqual([0]);
  expect(writes(emu)).toEqual(
    [
      `PUT bulkOverwriteGlobalCommands commands 200`,
      `PUT bulkOverwriteGuildCommands guild:${A} commands 200`,
      `PUT editCommandPermissions guild:${A} permissions:${ban.id} 200`,
    ].sort(),
  );
  // The plugin timed its Construct of the set and each call of its children's lifecycles.
  const timings = fs
    .readFileSync(path.join(prog.root, "timings.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as TimingLine);
  const calls = timings.flatMap((t) => (t.type === "call" ? [`${t.method} ${t.resource}`] : []));
  expect(calls).toContain("construct the command set 'mods'");
  expect(calls.filter((c) => c.startsWith("create "))).toHaveLength(3);
  expect(timings.some((t) => t.type === "process")).toBe(true);

  emu.control.resetLog();
  await prog.up();
  expect(writes(emu)).toEqual([]);
});

test("a changed definition: the preview names command and field; one PATCH per scope", async () => {
  prog.write({ "Pulumi.yaml": program("Kick someone out") });
  const preview = await prog.ok(["preview", "--diff", "--non-interactive"]);
  // Per scope: the command and the field, nothing else (the permissions keep their command).
  const change =
    /~ commands: \{\s+~ kick: \{\s+~ description: "Kick a member" => "Kick someone out"/g;
  expect(preview.stdout.match(change)?.length).toBe(2);
  expect(await prog.previewSummary()).toEqual({ same: 3, update: 2 });
  emu.control.resetLog();
  await prog.up();
  expect(writes(emu)).toEqual(
    [
      `PATCH editGlobalCommand command:${liveCommand(emu, "kick").id} 200`,
      `PATCH editGuildCommand guild:${A} command:${liveCommand(emu, "kick", A).id} 200`,
    ].sort(),
  );
});

test("bad input fails the preview naming the set or the resources", async () => {
  prog.write({
    "Pulumi.yaml": program(
      "Kick someone out",
      "        - name: kick\n          description: Again",
    ),
  });
  const twice = await prog.run(["preview", "--non-interactive"]);
  expect(twice.code).not.toBe(0);
  expect(twice.stdout + twice.stderr).toMatch(
    /command set 'mods': commands\[3\] declares 'kick' \(type 1\) a second time/,
  );
  const single = program("Kick someone out").replace(
    "resources:\n",
    `resources:\n  lone-kick:\n    type: discord-commands:GuildCommand\n    properties:\n      guildId: "${A}"\n      name: kick\n      description: Mine\n`,
  );
  prog.write({ "Pulumi.yaml": single });
  const claimed = await prog.run(["preview", "--non-interactive"]);
  expect(claimed.code).not.toBe(0);
  expect(claimed.stdout + claimed.stderr).toMatch(
    /'lone-kick'.*mods-1300000000000000002 commands\["kick"\]|mods-1300000000000000002 commands\["kick"\].*'lone-kick'/,
  );
  // The set's Construct answers as soon as its child's check fails
  // (provider/plugin/childFailures.ts), not when the engine closes the connection.
  for (const out of [twice.stdout + twice.stderr, claimed.stdout + claimed.stderr]) {
    expect(out).toMatch(
      /CommandSet resource 'mods' has a problem: its resource 'mods-(global|1300000000000000002)' failed/,
    );
    expect(out).not.toMatch(/connection is closing/);
  }
});

test("a refused write under --continue-on-error: the set's other children go on, the set names the child", async () => {
  // The global scope's write is refused; the guild's scope and its permissions go on.
  prog.write({
    "Pulumi.yaml": program("Kick, continued").replace("permission: true", "permission: false"),
  });
  emu.control.setFaults({
    rules: [
      {
        route: "editGlobalCommand",
        action: { type: "error", status: 403, code: 50001, message: "Missing Access" },
      },
    ],
  });
  try {
    const res = await prog.run([
      "up",
      "--yes",
      "--skip-preview",
      "--non-interactive",
      "--continue-on-error",
    ]);
    expect(res.code).not.toBe(0);
    const out = res.stdout + res.stderr;
    expect(out).toMatch(/updating the commands of the global scope .* answered 403 \(code 50001\)/);
    expect(out).toMatch(
      /CommandSet resource 'mods' has a problem: its resource 'mods-global' failed \(that resource's error says why\)/,
    );
    expect(liveCommand(emu, "kick", A)["description"]).toBe("Kick, continued");
    expect(liveCommand(emu, "kick")["description"]).not.toBe("Kick, continued");
    expect(livePermissions(emu, liveCommand(emu, "ban", A).id)).toEqual([
      { id: IDS.role, type: 1, permission: false },
    ]);
  } finally {
    emu.control.clearFaults();
  }
});

test("a secret in a definition stays secret at its path in every scope's commands in the state (issue 50)", async () => {
  prog.write({ "Pulumi.yaml": program("\n            fn::secret: Kick quietly") });
  await prog.up();
  expect(liveCommand(emu, "kick", A)["description"]).toBe("Kick quietly");
  expect(liveCommand(emu, "kick")["description"]).toBe("Kick quietly");
  const exported = (await prog.ok(["stack", "export"])).stdout;
  expect(exported).not.toContain("Kick quietly");
  const scopes = (
    JSON.parse(exported) as {
      deployment: { resources: { type: string; inputs?: Record<string, unknown> }[] };
    }
  ).deployment.resources.filter((r) => r.type === "discord-commands:index:ScopeCommands");
  expect(scopes).toHaveLength(2);
  const mark = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
  for (const scope of scopes) {
    // The description alone: the map, its keys (the names) and kick's name stay readable.
    const commands = scope.inputs?.["commands"] as Record<string, Record<string, unknown>>;
    expect(commands).not.toMatchObject(mark);
    expect(commands["kick"]?.["name"]).toBe("kick");
    expect(commands["kick"]?.["description"]).toMatchObject(mark);
  }
});

test("destroy removes the set's commands and keeps the others", async () => {
  prog.write({ "Pulumi.yaml": program("Kick someone out") });
  await prog.destroy();
  expect(commandKeys(emu)).toEqual([`${A} 1 not-ours`]);
});
