/**
 * The programs the bench deploys: 100 new commands (PER_SCOPE global + PER_SCOPE in a
 * guild) through each front door (dynamic resources, the plugin from YAML, Python and
 * TypeScript on the generated SDK), and the no-op baselines that show the engine's own cost.
 */
import * as path from "node:path";
import { pythonPluginProject, typescriptPluginProject } from "./pulumiProgram";
import { PROJECT_ROOT } from "./toolchain";

export const PER_SCOPE = 50;

export const commandsProgram = (guildId: string): string => `
import * as discord from "pulumi-discord-commands";
for (let i = 0; i < ${PER_SCOPE}; i++) {
  new discord.GlobalCommand(\`global-\${i}\`, { name: \`global\${i}\`, description: \`Global command \${i}\` });
  new discord.GuildCommand(\`guild-\${i}\`, { guildId: "${guildId}", name: \`guild\${i}\`, description: \`Guild command \${i}\` });
}
`;

export const noopProgram = `
import * as pulumi from "@pulumi/pulumi";
const provider: pulumi.dynamic.ResourceProvider = {
  async create() {
    return { id: "noop", outs: {} };
  },
};
for (let i = 0; i < ${PER_SCOPE * 2}; i++) new pulumi.dynamic.Resource(provider, \`noop-\${i}\`, {}, undefined, "Noop");
`;

/**
 * The no-op resource with the properties a command resource registers (its arguments, the
 * hidden inputs, and the outputs the provider sets): what the engine and the SDK cost for
 * such a resource, without any of this package's code.
 */
export const shapedNoopProgram = `
import * as pulumi from "@pulumi/pulumi";
const provider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    return { id: String(Date.now()), outs: { ...inputs, version: "1", adopted: false } };
  },
};
for (let i = 0; i < ${PER_SCOPE * 2}; i++) {
  new pulumi.dynamic.Resource(
    provider,
    \`noop-\${i}\`,
    {
      name: \`command\${i}\`,
      description: \`Command \${i}\`,
      applicationId: "1300000000000000001",
      __programProblems: undefined,
      version: undefined,
      adopted: undefined,
    },
    undefined,
    "Noop",
  );
}
`;

export type PluginForm = "resources" | "scopes" | "python" | "typescript";

/**
 * The 100 commands as a YAML program of the plugin's resources: one resource per command
 * (bulk mode batches them), or one `ScopeCommands` per scope.
 */
export function pluginProgram(name: string, guildId: string, form: PluginForm): string {
  const lines = [`name: ${name}`, "runtime: yaml", "packages:"];
  lines.push(`  discord-commands: ${path.join(PROJECT_ROOT, "plugin")}`, "resources:");
  if (form === "scopes") {
    for (const [res, where] of [
      ["global", undefined],
      ["guild", guildId],
    ] as const) {
      lines.push(
        `  ${res}-commands:`,
        "    type: discord-commands:ScopeCommands",
        "    properties:",
      );
      if (where !== undefined) lines.push(`      guildId: "${where}"`);
      lines.push("      commands:");
      for (let i = 0; i < PER_SCOPE; i++) {
        lines.push(`        ${res}${i}:`, `          name: ${res}${i}`);
        lines.push(`          description: ${res === "global" ? "Global" : "Guild"} command ${i}`);
      }
    }
    return `${lines.join("\n")}\n`;
  }
  for (let i = 0; i < PER_SCOPE; i++) {
    lines.push(`  global-${i}:`, "    type: discord-commands:GlobalCommand", "    properties:");
    lines.push(`      name: global${i}`, `      description: Global command ${i}`);
  }
  for (let i = 0; i < PER_SCOPE; i++) {
    lines.push(`  guild-${i}:`, "    type: discord-commands:GuildCommand", "    properties:");
    lines.push(`      guildId: "${guildId}"`, `      name: guild${i}`);
    lines.push(`      description: Guild command ${i}`);
  }
  return `${lines.join("\n")}\n`;
}

/** The 100 commands as a TypeScript program on the generated SDK (through the plugin). */
export function typescriptSdkProgramFiles(name: string, guildId: string): Record<string, string> {
  return {
    "Pulumi.yaml": typescriptPluginProject(name),
    "index.ts": [
      'import * as discord from "@pulumi-discord-commands/sdk";',
      `for (let i = 0; i < ${PER_SCOPE}; i++) {`,
      "  new discord.GlobalCommand(`global-${i}`, { name: `global${i}`, description: `Global command ${i}` });",
      "  new discord.GuildCommand(`guild-${i}`, {",
      `    guildId: "${guildId}",`,
      "    name: `guild${i}`,",
      "    description: `Guild command ${i}`,",
      "  });",
      "}",
      "",
    ].join("\n"),
  };
}

/** The 100 commands as a Python program of the plugin's resources (generated SDK). */
export function pythonProgramFiles(name: string, guildId: string): Record<string, string> {
  return {
    "Pulumi.yaml": pythonPluginProject(name),
    "__main__.py": [
      "import pulumi_discord_commands as discord",
      "",
      `for i in range(${PER_SCOPE}):`,
      '    discord.GlobalCommand(f"global-{i}", name=f"global{i}", description=f"Global command {i}")',
      "    discord.GuildCommand(",
      `        f"guild-{i}", guild_id="${guildId}", name=f"guild{i}", description=f"Guild command {i}"`,
      "    )",
      "",
    ].join("\n"),
  };
}
