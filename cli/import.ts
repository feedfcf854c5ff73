/**
 * `discord-commands import`: reads the live commands of the given scopes and prints a
 * Pulumi TypeScript program that declares them (cli/importDeclarations.ts makes the
 * declarations, cli/importProgram.ts writes the program, cli/importData.ts the data).
 *
 * The service's URL and credentials are the provider's environment variables
 * (provider/resources/settings.ts `readSettings`), so the one configuration that
 * runs `pulumi up` runs the import too. Only reads are made: list endpoints, one per
 * scope (and one per guild for `--permissions`).
 */
import util from "node:util";
import type { CommandsApi } from "../provider/client";
import { ConfigurationError, createCommandsClient } from "../provider/client";
import { readSettings } from "../provider/resources/settings";
import { isSnowflake, notSnowflake } from "../provider/schema";
import { renderJson, renderPulumiImport } from "./importData";
import type { ImportDeclarations, ImportSource, LiveScope } from "./importDeclarations";
import { declarationsOf } from "./importDeclarations";
import { renderProgram } from "./importProgram";

const USAGE = `usage: discord-commands import (--global | --guild <id>)... [options]
  --global              import the application's global commands
  --guild <id>          import a guild's commands (repeat for several guilds)
  --permissions         also import, per --guild, the commands' permission overwrites
                        (needs DISCORD_BEARER_TOKEN, as GuildCommandPermissions do)
  --protect             declare every resource with { protect: true }
  --format ts|json|pulumi-import
                        a Pulumi TypeScript program on the dynamic resources (default),
                        the declarations as data, or Pulumi's bulk import file of the
                        plugin's resources (\`pulumi import --file <file>\` then writes the
                        code in the project's language and adopts them by id)
  --application <id>    the application (default: DISCORD_APPLICATION_ID)
  --help                this text

The service and credentials come from the provider's environment variables:
DISCORD_API_URL, DISCORD_BOT_TOKEN (or DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET),
DISCORD_BEARER_TOKEN. The program is printed on stdout; notes go to stderr.`;

interface ImportArgs {
  readonly global: boolean;
  readonly guilds: readonly string[];
  readonly permissions: boolean;
  readonly protect: boolean;
  readonly format: "ts" | "json" | "pulumi-import";
  readonly applicationId: string | undefined;
  readonly help: boolean;
}

class UsageError extends Error {}

export function parseImportArgs(argv: readonly string[]): ImportArgs {
  let parsed;
  try {
    parsed = util.parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        global: { type: "boolean" },
        guild: { type: "string", multiple: true },
        permissions: { type: "boolean" },
        protect: { type: "boolean" },
        format: { type: "string" },
        application: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const v = parsed.values;
  const format = v.format ?? "ts";
  if (format !== "ts" && format !== "json" && format !== "pulumi-import") {
    throw new UsageError(`--format must be ts, json or pulumi-import, not ${format}`);
  }
  const guilds = [...new Set(v.guild ?? [])];
  for (const id of [...guilds, ...(v.application === undefined ? [] : [v.application])]) {
    if (!isSnowflake(id)) throw new UsageError(notSnowflake(id));
  }
  const args: ImportArgs = {
    global: v.global ?? false,
    guilds,
    permissions: v.permissions ?? false,
    protect: v.protect ?? false,
    format,
    applicationId: v.application,
    help: v.help ?? false,
  };
  if (!args.help && !args.global && guilds.length === 0) {
    throw new UsageError("say which scopes to import: --global and/or --guild <id>");
  }
  return args;
}

/** Reads the service and returns the printed output and the notes for stderr. */
export async function importCommands(
  args: ImportArgs,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ output: string; notes: string[] }> {
  const settings = readSettings(undefined, env);
  const applicationId = args.applicationId ?? settings.applicationId;
  if (applicationId === undefined) {
    throw new ConfigurationError(
      "no application id: pass --application <id> or set DISCORD_APPLICATION_ID",
    );
  }
  if (args.permissions && settings.client.bearerToken === undefined) {
    throw new ConfigurationError(
      "--permissions: the overwrites are applied with a user's Bearer token " +
        "(GuildCommandPermissions); set DISCORD_BEARER_TOKEN, or leave out --permissions",
    );
  }
  const notes: string[] = [];
  if (args.permissions && args.guilds.length === 0) {
    notes.push("--permissions: overwrites are per guild; name the guilds with --guild <id>");
  }
  const api = createCommandsClient(settings.client);
  let source: ImportSource;
  try {
    source = await readLive(api, applicationId, args);
  } finally {
    await api.close();
  }
  const decls = declarationsOf(source);
  notes.push(...decls.skipped.map((s) => `skipped: ${s}`));
  for (const c of decls.commands) {
    for (const p of c.problems) notes.push(`${c.resourceName}: ${p}`);
  }
  const counts = `${decls.commands.length} command(s), ${decls.permissions.length} permission set(s)`;
  notes.push(`imported ${counts} of application ${applicationId}`);
  return { output: rendered(decls, args.format), notes };
}

/** The live commands of the scopes asked for and, with --permissions, each guild's overwrites. */
async function readLive(
  api: CommandsApi,
  applicationId: string,
  args: ImportArgs,
): Promise<ImportSource> {
  const scopes: LiveScope[] = [];
  if (args.global) {
    scopes.push({
      commands: await api.listGlobalCommands(applicationId, { withLocalizations: true }),
    });
  }
  for (const guildId of args.guilds) {
    const commands = await api.listGuildCommands(applicationId, guildId, {
      withLocalizations: true,
    });
    scopes.push({ guildId, commands });
  }
  if (!args.permissions) return { applicationId, scopes, protect: args.protect };
  const permissions = await Promise.all(
    args.guilds.map(async (guildId) => ({
      guildId,
      list: await api.listGuildCommandPermissions(applicationId, guildId),
    })),
  );
  return { applicationId, scopes, protect: args.protect, permissions };
}

function rendered(decls: ImportDeclarations, format: ImportArgs["format"]): string {
  if (format === "json") return renderJson(decls);
  if (format === "pulumi-import") return renderPulumiImport(decls);
  return renderProgram(decls);
}

/** The subcommand's entry (cli/main.ts). Exit 2 on a usage error, 1 on any other. */
export async function runImportCli(argv: readonly string[]): Promise<void> {
  let args: ImportArgs;
  try {
    args = parseImportArgs(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`discord-commands import: ${err.message}\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  try {
    const { output, notes } = await importCommands(args);
    process.stdout.write(output);
    for (const n of notes) process.stderr.write(`${n}\n`);
  } catch (err) {
    // Client errors never carry a credential (provider/client/errors.ts).
    process.stderr.write(
      `discord-commands import: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    process.exitCode = 1;
  }
}
