/**
 * `discord-commands import` against the emulator: the declarations reproduce every live
 * command of the corpus (equal in the canonical form), the printed program declares
 * exactly those declarations (run with a recording stand-in of the SDK) and type-checks
 * against the real SDK, and the printing rules (enums by name, neutral fields left out,
 * names, permissions, protect) hold.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import type { RunningEmulator } from "../../emulator";
import type { WireCommand } from "../../provider/schema";
import * as schema from "../../provider/schema";
import { diffCommandFields, validateSdkCommand } from "../../provider/schema";
import { importCommands, parseImportArgs } from "../../cli/import";
import type { ImportDeclarations } from "../../cli/importDeclarations";
import { declarationsOf } from "../../cli/importDeclarations";
import { renderProgram } from "../../cli/importProgram";
import { scratchDir } from "../../scripts/pulumiProgram";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import { corpusEmulator, importEnv, seedCorpus } from "./importFixtures";

let emu: RunningEmulator;
const COUNTS = { chatInput: 40, user: 6, message: 6 };

beforeAll(async () => {
  emu = await corpusEmulator();
  await seedCorpus(emu, COUNTS);
});
afterAll(() => emu.close());

async function runImport(...argv: string[]): Promise<{ output: string; notes: string[] }> {
  return importCommands(parseImportArgs(argv), importEnv(emu));
}

interface Constructed {
  readonly resource: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
  readonly opts: unknown;
}

/**
 * Runs a printed program with a stand-in for the package that records each resource it
 * constructs (the enums and helpers are the real ones).
 */
function evaluate(program: string): Constructed[] {
  const out: Constructed[] = [];
  const recorder = (resource: string) =>
    class {
      readonly commandId: string;
      constructor(name: string, args: Record<string, unknown>, opts?: unknown) {
        out.push({ resource, name, args, opts });
        this.commandId = `commandId of ${name}`;
      }
    };
  const fake = {
    ...schema,
    GlobalCommand: recorder("GlobalCommand"),
    GuildCommand: recorder("GuildCommand"),
    GuildCommandPermissions: recorder("GuildCommandPermissions"),
  };
  const js = ts.transpileModule(program, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const requireFake = (id: string): unknown => {
    if (id !== "pulumi-discord-commands") throw new Error(`unexpected import ${id}`);
    return fake;
  };
  new Function("require", "exports", js)(requireFake, {});
  return out;
}

describe("import of the corpus", () => {
  let decls: ImportDeclarations;
  let program: string;
  let notes: string[];

  beforeAll(async () => {
    const json = await runImport("--global", "--guild", emu.guildId, "--format", "json");
    decls = JSON.parse(json.output) as ImportDeclarations;
    const ts = await runImport("--global", "--guild", emu.guildId);
    program = ts.output;
    notes = ts.notes;
  });

  test("every live command is declared once, equal to it in the canonical form", () => {
    const live = emu.control.commands() as unknown as WireCommand[];
    expect(decls.commands).toHaveLength(live.length);
    expect(live.length).toBe(2 * (COUNTS.chatInput + COUNTS.user + COUNTS.message) + 1);
    for (const d of decls.commands) {
      const twin = live.find((c) => c.id === d.commandId);
      expect(twin).toBeDefined();
      const { guildId, ...args } = d.args;
      expect(guildId).toBe(twin?.guild_id);
      const body = validateSdkCommand(args, { scope: guildId === undefined ? "global" : "guild" });
      if (!body.ok) throw new Error(`${d.resourceName}: ${JSON.stringify(body.issues)}`);
      expect([d.resourceName, diffCommandFields(body.value, twin ?? {})]).toEqual([
        d.resourceName,
        [],
      ]);
      expect(d.problems).toEqual([]);
    }
    expect(new Set(decls.commands.map((d) => d.resourceName)).size).toBe(decls.commands.length);
    expect(notes.at(-1)).toBe(
      `imported ${live.length} command(s), 0 permission set(s) of application ${emu.applicationId}`,
    );
  });

  test("the printed program constructs exactly the declarations", () => {
    const built = evaluate(program);
    expect(built).toEqual(
      decls.commands.map((d) => ({
        resource: d.resource,
        name: d.resourceName,
        args: d.args,
        opts: undefined,
      })),
    );
  });

  test("the printed program type-checks against the SDK (strict)", () => {
    const dir = scratchDir("import-typecheck");
    try {
      const file = path.join(dir, "index.ts");
      fs.writeFileSync(file, program);
      const tsProgram = ts.createProgram([file], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.CommonJS,
        moduleResolution: ts.ModuleResolutionKind.Node10,
        skipLibCheck: true,
        types: ["node"],
        typeRoots: [path.join(PROJECT_ROOT, "node_modules", "@types")],
        baseUrl: PROJECT_ROOT,
        paths: { "pulumi-discord-commands": ["./index.ts"] },
      });
      const diagnostics = ts
        .getPreEmitDiagnostics(tsProgram)
        .filter((d) => d.file?.fileName === file)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      expect(diagnostics).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  test("enums by name, never their numbers", () => {
    expect(program).toMatch(/type: OptionType\.STRING,/);
    expect(program).toMatch(/type: OptionType\.SUB_COMMAND_GROUP,/);
    expect(program).toMatch(/type: CommandType\.USER,/);
    expect(program).toMatch(/handler: EntryPointHandler\.(APP_HANDLER|DISCORD_LAUNCH_ACTIVITY)/);
    expect(program).toMatch(/ChannelType\.GUILD_\w+/);
    expect(program).toMatch(/InteractionContextType\.\w+/);
    expect(program).toMatch(/IntegrationType\.\w+_INSTALL/);
    expect(program).toMatch(/nameLocalizations: \{/);
    expect(program).toMatch(/descriptionLocalizations: \{/);
    expect(program).not.toMatch(/\btype: \d/);
    expect(program).not.toMatch(/(channelTypes|contexts|integrationTypes): \[\d/);
  });
});

describe("printing rules", () => {
  const live = (fields: Partial<WireCommand> & { name: string }): WireCommand =>
    ({
      id: "1400000000000000001",
      application_id: "1300000000000000001",
      version: "1400000000000000002",
      type: 1,
      description: "",
      default_member_permissions: null,
      nsfw: false,
      ...fields,
    }) as WireCommand;

  test("neutral fields are left out; permission bits by name; unknown bits stay a string", () => {
    const decls = declarationsOf({
      applicationId: "1300000000000000001",
      scopes: [
        {
          commands: [
            live({
              name: "ping",
              description: "Ping",
              name_localizations: null,
              description_localizations: {},
              default_member_permissions: "268435488",
              contexts: null,
              dm_permission: true,
            }),
            live({ id: "1400000000000000003", name: "raw", description: "x" }),
            live({
              id: "1400000000000000004",
              name: "odd",
              description: "x",
              default_member_permissions: String(1n << 60n),
            }),
          ],
        },
      ],
    });
    expect(decls.commands.find((c) => c.resourceName === "ping")?.args).toEqual({
      name: "ping",
      description: "Ping",
      defaultMemberPermissions: "268435488",
    });
    const text = renderProgram(decls);
    expect(text).toMatch(
      /defaultMemberPermissions: discord\.permissions\(\s*PermissionFlags\.MANAGE_GUILD,\s*PermissionFlags\.MANAGE_ROLES,?\s*\)/,
    );
    expect(text).toContain(`defaultMemberPermissions: "${String(1n << 60n)}"`);
    expect(text).toContain('new discord.GlobalCommand("raw", { name: "raw", description: "x" });');
    expect(text).not.toMatch(/nsfw|dmPermission|contexts|Localizations/);
  });

  test("names: readable, by type, the scope added where two scopes share one", () => {
    const decls = declarationsOf({
      applicationId: "1300000000000000001",
      scopes: [
        {
          commands: [
            live({ name: "ping", description: "p" }),
            live({ id: "1400000000000000005", type: 2, name: "Report User" }),
            live({ id: "1400000000000000006", type: 3, name: "Report User" }),
          ],
        },
        {
          guildId: "1300000000000000002",
          commands: [live({ id: "1400000000000000007", name: "ping", description: "p" })],
        },
      ],
    });
    expect(decls.commands.map((c) => c.resourceName)).toEqual([
      "ping-global",
      "report-user-user",
      "report-user-message",
      "ping-1300000000000000002",
    ]);
  });

  test("--protect and permissions: protect on every resource, commandId by reference, everyone() and allChannels()", async () => {
    const { output, notes } = await runImport("--guild", emu.guildId, "--permissions", "--protect");
    const built = evaluate(output);
    expect(built.every((b) => JSON.stringify(b.opts) === '{"protect":true}')).toBe(true);
    const perms = built.filter((b) => b.resource === "GuildCommandPermissions");
    expect(perms).toHaveLength(3);
    const commandNames = new Set(built.map((b) => b.name));
    for (const p of perms) {
      const commandId = String(p.args["commandId"]);
      if (commandId === emu.applicationId) continue; // the app-wide defaults
      expect(commandId).toMatch(/^commandId of /);
      expect(commandNames.has(commandId.replace("commandId of ", ""))).toBe(true);
    }
    expect(output).toContain(`id: discord.everyone("${emu.guildId}"), type: PermissionType.ROLE`);
    expect(output).toContain(`id: discord.allChannels("${emu.guildId}")`);
    expect(output).toContain("type: PermissionType.USER");
    expect(notes.at(-1)).toMatch(/imported \d+ command\(s\), 3 permission set\(s\)/);
  });

  test("--permissions without a Bearer token fails, naming the variable and no token", async () => {
    const env = { ...importEnv(emu) };
    delete env["DISCORD_BEARER_TOKEN"];
    await expect(
      importCommands(parseImportArgs(["--guild", emu.guildId, "--permissions"]), env),
    ).rejects.toThrow(/DISCORD_BEARER_TOKEN/);
  });
});

describe("the command line", () => {
  const tsNode = path.join(PROJECT_ROOT, "node_modules", ".bin", "ts-node");
  // Asynchronous: the emulator answers from this process, so it must not be blocked.
  const run = (env: Record<string, string>, ...args: string[]) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        tsNode,
        ["--transpile-only", "cli/main.ts", ...args],
        { cwd: PROJECT_ROOT, encoding: "utf8", env: { ...process.env, ...env } },
        (err, stdout, stderr) =>
          resolve({ status: err === null ? 0 : (err.code as number | null), stdout, stderr }),
      );
    });

  test("`discord-commands import --global` prints the program; stderr says what was imported", async () => {
    const res = await run(importEnv(emu), "import", "--global");
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(/^\/\*\*\n \* Generated by `discord-commands import`/);
    expect(res.stdout).toMatch(/new discord\.GlobalCommand\("launch-entry-point", \{/);
    expect(res.stderr).toMatch(/imported \d+ command\(s\), 0 permission set\(s\)/);
    expect(res.stdout + res.stderr).not.toContain(emu.botToken);
  }, 60_000);

  test("no scope is a usage error (exit 2); a bad token is exit 1 without the token", async () => {
    const usage = await run(importEnv(emu), "import");
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/--global and\/or --guild <id>/);
    const bad = await run(
      { ...importEnv(emu), DISCORD_BOT_TOKEN: "wrong-token-value" },
      "import",
      "--global",
    );
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/401/);
    expect(bad.stderr).not.toContain("wrong-token-value");
  }, 60_000);
});
