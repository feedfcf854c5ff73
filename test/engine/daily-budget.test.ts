/**
 * The daily create budget across deployments (provider/resources/dailyBudget.ts) through
 * the real CLI, against the emulator's daily limit (200 per scope) and its clock: a set
 * whose 49 commands are all renamed again and again, and a command renamed, in one guild,
 * over five deployments (49: a set renamed whole must fit the scope's 100 beside its old
 * names at check). The state keeps the creation times of what was renamed; a preview warns
 * from 160 creates in 24 hours, and fails past 200, naming the scope, the counts and when
 * the oldest counted create leaves the window, before any write (where the service would
 * answer 30034). A day later on the emulator's clock, the same preview passes. Both
 * doors: a TypeScript program on the dynamic resources, and a YAML one on the plugin.
 */
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import { PulumiProgram } from "../../scripts/pulumiProgram";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import { configurePluginStack, IDS, programAgainst } from "./lifecycle.helpers";

jest.setTimeout(600_000);

const G = IDS.guild;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The command first: its state is read (diffed) before the set's, which plans creates. */
function typescript(prefix: string, solo: string): string {
  return `import * as discord from "pulumi-discord-commands";
new discord.GuildCommand("solo", { guildId: "${G}", name: "${solo}", description: "Alone" });
new discord.CommandSet("set", {
  commands: Array.from({ length: 49 }, (_, i) => ({ name: \`${prefix}\${i}\`, description: "A command" })),
  scopes: [{ guildId: "${G}" }],
});
`;
}

function yaml(prefix: string, solo: string): string {
  const commands = Array.from(
    { length: 49 },
    (_, i) => `        - name: ${prefix}${i}\n          description: A command`,
  );
  return `name: daily-budget-yaml
runtime: yaml
packages:
  discord-commands: ${PROJECT_ROOT}/plugin
resources:
  solo:
    type: discord-commands:GuildCommand
    properties:
      guildId: "${G}"
      name: ${solo}
      description: Alone
  set:
    type: discord-commands:CommandSet
    properties:
      commands:
${commands.join("\n")}
      scopes:
        - guildId: "${G}"
`;
}

interface Door {
  readonly name: string;
  start(emu: RunningEmulator): Promise<PulumiProgram>;
  write(prog: PulumiProgram, prefix: string, solo: string): void;
}

const doors: Door[] = [
  {
    name: "TypeScript, dynamic resources",
    start: (emu) => programAgainst(emu, "daily-budget", typescript("a", "s1")),
    write: (prog, prefix, solo) => prog.write({ "index.ts": typescript(prefix, solo) }),
  },
  {
    name: "YAML, the plugin",
    start: async (emu) => {
      const prog = new PulumiProgram("daily-budget-yaml", { "Pulumi.yaml": yaml("a", "s1") });
      await prog.stack("dev");
      await configurePluginStack(prog, emu);
      return prog;
    },
    write: (prog, prefix, solo) => prog.write({ "Pulumi.yaml": yaml(prefix, solo) }),
  },
];

const output = (r: { stdout: string; stderr: string }): string => `${r.stdout}\n${r.stderr}`;

describe.each(doors)("$name", (door) => {
  let emu: RunningEmulator;
  let prog: PulumiProgram;

  beforeAll(async () => {
    emu = await startEmulator({ port: 0, rateLimits: false }); // the service's 200 a day
    prog = await door.start(emu);
  });

  afterAll(async () => {
    prog?.cleanup();
    await emu?.close();
  });

  test("renames spend the budget across deployments: a warning from 80 %, a failed preview past 200", async () => {
    await prog.up(); // 50 creates
    for (const prefix of ["b", "c"]) {
      door.write(prog, prefix, "s1");
      await prog.up(); // 49 more each: 148
    }
    door.write(prog, "d", "s1");
    const warned = await prog.ok(["up", "--yes", "--non-interactive"]); // 197
    expect(output(warned)).toContain(
      `guild ${G} of application ${emu.applicationId}: 197 of the daily budget of 200 command creates`,
    );
    door.write(prog, "d", "s2");
    await prog.up(); // 198: the command's rename keeps its old command's creation

    // 49 more would make 247: the preview fails, and nothing is written.
    door.write(prog, "e", "s2");
    emu.control.resetLog();
    const over = await prog.run(["preview", "--non-interactive"]);
    const text = output(over);
    expect(over.code).not.toBe(0);
    // Whichever of the resources the engine diffs first with the planned creates fails it,
    // counting what it has read of the state so far: the set's 147, and the command's 1.
    const counted = /: (\d+) command creates in 24 hours/.exec(text)?.[1];
    const replaced = /, (\d+) created by this stack and since deleted or renamed/.exec(text)?.[1];
    expect(text).toContain(
      `guild ${G} of application ${emu.applicationId}: ${counted} command creates`,
    );
    expect([147, 148]).toContain(Number(replaced));
    expect(Number(counted)).toBe(50 + Number(replaced) + 49);
    expect(text).toContain("more than the service's daily budget of 200 (code 30034)");
    expect(text).toContain("50 live commands created in the last 24 hours");
    expect(text).toContain("and 49 this deployment creates");
    expect(text).toMatch(/leaves the 24-hour window at \d{4}-\d\d-\d\dT/);
    expect(emu.requestLog().filter((e) => e.method !== "GET")).toEqual([]);

    // The state: one compact list per resource that renamed, 147 times in the set's scope
    // child, 1 in the command's (its first command's creation).
    const exported = JSON.parse((await prog.ok(["stack", "export"])).stdout) as {
      deployment: { resources: { urn: string; outputs?: Record<string, unknown> }[] };
    };
    const kept = (name: string): unknown =>
      exported.deployment.resources.find((r) => r.urn.endsWith(`::${name}`))?.outputs?.[
        "replacedCreates"
      ];
    expect(kept(`set-${G}`)).toHaveLength(147);
    expect(kept("solo")).toHaveLength(1);

    // A day later on the service's clock, nothing of that is in the window.
    emu.control.advanceClock(DAY_MS + 60_000);
    const later = await prog.run(["preview", "--non-interactive"]);
    expect(later.code).toBe(0);
    expect(output(later)).not.toContain("daily budget");
  });
});
