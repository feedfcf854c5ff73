/**
 * The policy pack shipped in the package (policy/, docs/policy.md) through the real CLI,
 * `pulumi up --policy-pack node_modules/pulumi-discord-commands/policy
 * --policy-pack-config <file>`, on four programs: TypeScript on the dynamic resources,
 * TypeScript on the generated SDK, YAML and Python (the pack starts from any program's
 * folder). Each: a mandatory violation fails the preview and writes nothing, an advisory
 * one prints a warning and the `up` goes on, a compliant program passes. The messages
 * name the resource and the command, and a secret command name is never quoted. Then
 * docs/policy.md's walk-through: the stack-per-environment example's production rule
 * fails a guild command. The rules one by one are test/policy/rules.test.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import type { ProgramFiles } from "../../scripts/pulumiProgram";
import {
  buildNodeSdk,
  installPythonSdk,
  linkNodeSdk,
  PulumiProgram,
  pythonPluginProject,
  typescriptPluginProject,
} from "../../scripts/pulumiProgram";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import { exampleProgram } from "../examples/helpers";
import { configurePluginStack, IDS, programAgainst } from "./lifecycle.helpers";

jest.setTimeout(600_000);

const PACK = path.join(PROJECT_ROOT, "node_modules", "pulumi-discord-commands", "policy");
const G = IDS.guild;
const SECRET_NAME = "mod-hushhush";

/** The rules of the test: `mod-*` commands must be hidden; the dev stage holds no nsfw. */
function policyConfig(level: "mandatory" | "advisory"): string {
  return JSON.stringify({
    "hidden-commands": { enforcementLevel: level, commands: ["/^mod-/"] },
    "stage-rules": { enforcementLevel: level, stacks: "^dev$", noNsfw: true },
    "everyone-permissions": { enforcementLevel: level },
  });
}

interface Case {
  readonly name: string;
  /** The program's files; `compliant` hides `mod-ban` (and drops what else violates). */
  files(compliant: boolean): ProgramFiles;
  /** The violations the program makes, as the pack words them. */
  readonly violations: readonly string[];
  /** Violations judged only at the end of the advisory `up` (ids known once created). */
  readonly afterUp?: readonly string[];
  start(emu: RunningEmulator, files: ProgramFiles): Promise<PulumiProgram>;
}

const HIDDEN = (resource: string, command: string): string =>
  `${resource} (${command}): must set defaultMemberPermissions (hidden from members unless granted)`;

const dynamicTs: Case = {
  name: "TypeScript, dynamic resources",
  files: (compliant) => ({
    "index.ts": `import * as pulumi from "@pulumi/pulumi";
import * as discord from "pulumi-discord-commands";
new discord.GuildCommand("mod-ban", {
  guildId: "${G}", name: "mod-ban", description: "Ban someone",${compliant ? ` defaultMemberPermissions: "4",` : ""}
});
new discord.GuildCommand("quiet", {
  guildId: "${G}", name: pulumi.secret("${SECRET_NAME}"), description: "Hidden",${compliant ? ` defaultMemberPermissions: "8",` : ""}
});
new discord.CommandSet("mods", {
  commands: [{ name: "mod-kick", description: "Kick someone", defaultMemberPermissions: "2", nsfw: ${compliant ? "false" : "true"} }],
  scopes: [{ guildId: "${G}" }],
  packed: true,
});
`,
  }),
  violations: [
    HIDDEN('GuildCommand "mod-ban"', 'command "mod-ban"'),
    HIDDEN('GuildCommand "quiet"', "command (its name is secret)"),
    // A packed set (its one resource) is seen per scope too.
    `CommandSetScopes "mods-scopes" (command "mod-kick"): stack "dev" holds no nsfw commands`,
  ],
  start: async (emu, files) => programAgainst(emu, "policy-dynamic", files["index.ts"] ?? ""),
};

const yaml: Case = {
  name: "YAML, the plugin",
  files: (compliant) => ({
    "Pulumi.yaml": `name: policy-yaml
runtime: yaml
packages:
  discord-commands: ${PROJECT_ROOT}/plugin
resources:
  mod-ban:
    type: discord-commands:GuildCommand
    properties:
      guildId: "${G}"
      name: mod-ban
      description: Ban someone${compliant ? `\n      defaultMemberPermissions: "4"` : ""}
  quiet:
    type: discord-commands:GuildCommand
    properties:
      guildId: "${G}"
      name:
        fn::secret: ${SECRET_NAME}
      description: Hidden${compliant ? `\n      defaultMemberPermissions: "8"` : ""}
  mods:
    type: discord-commands:CommandSet
    properties:
      commands:
        - name: mod-kick
          description: Kick someone
          defaultMemberPermissions: "2"
          nsfw: ${compliant ? "false" : "true"}
      scopes:
        - guildId: "${G}"
  purge:
    type: discord-commands:GuildCommand
    properties:
      guildId: "${G}"
      name: purge
      description: Delete messages
      defaultMemberPermissions: "8192"
  purge-perms:
    type: discord-commands:GuildCommandPermissions
    properties:
      guildId: "${G}"
      commandId: \${purge.commandId}
      permissions:
        - id: "${compliant ? IDS.role : G}"
          type: 1
          permission: true
`,
  }),
  violations: [
    HIDDEN('GuildCommand "mod-ban"', 'command "mod-ban"'),
    HIDDEN('GuildCommand "quiet"', "command (its name is secret)"),
    `ScopeCommands "mods-${G}" (command "mod-kick"): stack "dev" holds no nsfw commands`,
  ],
  // Judged once the command has an id: when the advisory `up` that creates it ends.
  afterUp: [
    `GuildCommand "purge" (command "purge"): a permissions entry in guild ${G} allows @everyone to use it, though its default member permissions restrict it (GuildCommandPermissions "purge-perms")`,
  ],
  start: async (emu, files) => pluginProgram(emu, "policy-yaml", files),
};

const sdkTs: Case = {
  name: "TypeScript, the generated SDK",
  files: (compliant) => ({
    "Pulumi.yaml": typescriptPluginProject("policy-sdk"),
    "index.ts": `import * as discord from "@pulumi-discord-commands/sdk";
new discord.GuildCommand("mod-ban", {
  guildId: "${G}", name: "mod-ban", description: "Ban someone",${compliant ? ` defaultMemberPermissions: "4",` : ""}
});
`,
  }),
  violations: [HIDDEN('GuildCommand "mod-ban"', 'command "mod-ban"')],
  start: async (emu, files) => {
    const prog = await pluginProgram(emu, "policy-sdk", files);
    linkNodeSdk(prog.dir, sdkBin());
    return prog;
  },
};

const python: Case = {
  name: "Python, the plugin",
  files: (compliant) => ({
    "Pulumi.yaml": pythonPluginProject("policy-python"),
    "__main__.py": `import pulumi_discord_commands as discord

discord.GuildCommand(
    "mod-ban",
    guild_id="${G}",
    name="mod-ban",
    description="Ban someone",${compliant ? `\n    default_member_permissions="4",` : ""}
)
`,
  }),
  violations: [HIDDEN('GuildCommand "mod-ban"', 'command "mod-ban"')],
  start: async (emu, files) => {
    installPythonSdk();
    return pluginProgram(emu, "policy-python", files);
  },
};

async function pluginProgram(
  emu: RunningEmulator,
  name: string,
  files: ProgramFiles,
): Promise<PulumiProgram> {
  const prog = new PulumiProgram(name, files);
  await prog.stack("dev");
  await configurePluginStack(prog, emu);
  return prog;
}

let sdkBuildBin: string | undefined;
function sdkBin(): string {
  sdkBuildBin ??= buildNodeSdk();
  return sdkBuildBin;
}

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, rateLimits: false });
});

afterAll(async () => {
  await emu?.close();
  if (sdkBuildBin !== undefined) {
    fs.rmSync(path.dirname(sdkBuildBin), { recursive: true, force: true });
  }
});

describe.each([dynamicTs, yaml, sdkTs, python])("$name", (c) => {
  let prog: PulumiProgram;
  const config = (level: "mandatory" | "advisory"): string => {
    const file = path.join(prog.root, `${level}.json`);
    fs.writeFileSync(file, policyConfig(level));
    return file;
  };
  const withPack = (command: string[], level: "mandatory" | "advisory") =>
    prog.run([
      ...command,
      "--non-interactive",
      "--policy-pack",
      PACK,
      "--policy-pack-config",
      config(level),
    ]);
  const up = (level: "mandatory" | "advisory") => withPack(["up", "--yes"], level);

  beforeAll(async () => {
    emu.control.reset();
    prog = await c.start(emu, c.files(false));
  });
  afterAll(() => prog?.cleanup());

  test("a mandatory violation fails the preview and writes nothing", async () => {
    emu.control.resetLog();
    const res = await up("mandatory");
    const out = `${res.stdout}\n${res.stderr}`;
    expect(res.code).not.toBe(0);
    for (const v of c.violations) expect(out).toContain(v);
    expect(out).toContain("[mandatory]  hidden-commands");
    expect(out).not.toContain(SECRET_NAME);
    expect(emu.requestLog().filter((e) => e.method !== "GET")).toEqual([]);
    expect(emu.control.commands()).toEqual([]);
  });

  test("an advisory one prints a warning, and the up goes on", async () => {
    const res = await up("advisory");
    const out = `${res.stdout}\n${res.stderr}`;
    expect(res.code).toBe(0);
    for (const v of [...c.violations, ...(c.afterUp ?? [])]) expect(out).toContain(v);
    expect(out).toContain("[advisory]  hidden-commands");
    expect(out).not.toContain(SECRET_NAME);
    expect(emu.control.commands().map((x) => x["name"])).toContain("mod-ban");
  });

  test("a compliant program passes", async () => {
    prog.write(c.files(true));
    const res = await withPack(["preview"], "mandatory");
    const out = `${res.stdout}\n${res.stderr}`;
    expect(res.code).toBe(0);
    expect(out).not.toContain("hidden-commands");
    expect(out).not.toContain("stage-rules");
    expect(out).not.toContain("everyone-permissions");
  });
});

test("docs/policy.md's walk-through: the example's production rule fails a guild command", async () => {
  emu.control.reset();
  const prog = exampleProgram("stack-per-environment");
  try {
    await prog.stack("prod");
    await prog.setConfig(
      {
        "discord:apiUrl": emu.url,
        "discord-stack-per-environment:stage": "dev",
        "discord-stack-per-environment:guildId": G,
      },
      { "discord:botToken": emu.botToken },
    );
    const res = await prog.run([
      "preview",
      "--non-interactive",
      "--policy-pack",
      PACK,
      "--policy-pack-config",
      "policy-config.json",
    ]);
    const out = `${res.stdout}\n${res.stderr}`;
    expect(res.code).not.toBe(0);
    expect(out).toContain("[mandatory]  stage-rules");
    expect(out).toContain(
      `ScopeCommands "commands-${G}" (command "weather"): stack "prod" holds only global commands, not guild ${G}'s`,
    );
    expect(emu.requestLog().filter((e) => e.method !== "GET")).toEqual([]);
  } finally {
    prog.cleanup();
  }
});
