/**
 * The pure half of `discord-commands import`: live commands (and permission overwrites)
 * as the service returns them -> declarations in the SDK's shape, which the import prints
 * as a Pulumi TypeScript program (cli/importProgram.ts) or as data (cli/importData.ts). No
 * I/O here (cli/import.ts reads the service), so every rule below is tested on plain values.
 *
 * A declaration is the live command in SDK keys (the one mapping, `wireToSdk`) with
 * every field left out whose absence means the same in the canonical form (the one
 * normalizer): `nsfw: false`, `type: CHAT_INPUT`, `description: ""` of a context menu,
 * null localizations... So the program is short, and equal to the live command: the
 * first `up` adopts every command without a write (provider/resources/liveTwin.ts).
 */
import type { WireCommand, WireGuildCommandPermissions, WirePermission } from "../provider/schema";
import {
  canonicalOf,
  CHOICE_FIELDS,
  COMMAND_FIELDS,
  CommandType,
  deepEqual,
  diffCommandFields,
  formatPath,
  isRecord,
  OPTION_FIELDS,
  validateSdkCommand,
  wireToSdk,
} from "../provider/schema";
import { scopeKind } from "../provider/resources/scopeName";

type Json = Record<string, unknown>;

/** The commands of one scope, as the list endpoint returns them (with localizations). */
export interface LiveScope {
  /** Absent: the global scope. */
  readonly guildId?: string;
  readonly commands: readonly WireCommand[];
}

export interface ImportSource {
  readonly applicationId: string;
  readonly scopes: readonly LiveScope[];
  /** Per guild, the permission objects the service holds (read with `--permissions`). */
  readonly permissions?: readonly {
    readonly guildId: string;
    readonly list: readonly WireGuildCommandPermissions[];
  }[];
  /** Declare every resource with `protect: true` (`pulumi destroy` refuses to delete it). */
  readonly protect?: boolean;
}

interface CommandDeclaration {
  /** The Pulumi resource name (the URN's last part): readable and unique. */
  readonly resourceName: string;
  /** The program's variable for it. */
  readonly variable: string;
  readonly resource: "GlobalCommand" | "GuildCommand";
  /** The live command this declaration adopts. */
  readonly commandId: string;
  /** The resource's arguments, in the SDK's keys (`guildId` included for a guild command). */
  readonly args: Json;
  /** Problems the preview would report (a live command the schema refuses); normally none. */
  readonly problems: readonly string[];
}

interface PermissionsDeclaration {
  readonly resourceName: string;
  readonly guildId: string;
  /** A command's id, or the application id for the app-wide defaults. */
  readonly commandId: string;
  /** The resource name of the declared command whose `commandId` this takes, if any. */
  readonly command: string | undefined;
  readonly permissions: readonly WirePermission[];
}

export interface ImportDeclarations {
  readonly applicationId: string;
  readonly protect: boolean;
  readonly commands: readonly CommandDeclaration[];
  readonly permissions: readonly PermissionsDeclaration[];
  /** What was read but is not declared, and why (said on stderr by the CLI). */
  readonly skipped: readonly string[];
}

type Level = "command" | "option" | "choice";
const TABLES = { command: COMMAND_FIELDS, option: OPTION_FIELDS, choice: CHOICE_FIELDS };
const NESTED: Record<string, Level> = { options: "option", choices: "choice" };

/**
 * The wire object without the fields whose absence is canonically the same, level by
 * level; `id`, `application_id`, `guild_id` and `version` go too (they identify).
 */
function withoutNeutral(raw: Json, level: Level): Json {
  const table = TABLES[level] as Parameters<typeof canonicalOf>[0];
  const full = canonicalOf(table, raw);
  const out: Json = {};
  // In the table's order (type, name, ..., options last but the flags): the same in
  // every declaration, whatever order the service sent.
  for (const key of Object.keys(table)) {
    const value = raw[key];
    if (key === "id" || value === undefined) continue;
    const rest = { ...raw };
    delete rest[key];
    if (deepEqual(canonicalOf(table, rest)[key], full[key])) continue;
    const child = NESTED[key];
    out[key] =
      child !== undefined && Array.isArray(value)
        ? value.map((item) => (isRecord(item) ? withoutNeutral(item, child) : item))
        : value;
  }
  return out;
}

const TYPE_SUFFIX: Record<number, string> = {
  [CommandType.USER]: "user",
  [CommandType.MESSAGE]: "message",
  [CommandType.PRIMARY_ENTRY_POINT]: "entry-point",
};

/** `Report Message` -> `report-message`; letters of any script are kept. */
function slug(text: string): string {
  const s = text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_-]+/gu, "-")
    .replace(/^-+|-+$/g, "");
  return s === "" ? "command" : s;
}

/** `report-message-user` -> `reportMessageUser` (ASCII), with a suffix saying what it is. */
function variableName(resourceName: string, suffix: string): string {
  const words = resourceName.split(/[^A-Za-z0-9]+/).filter((w) => w !== "");
  const camel = words
    .map((w, i) => (i === 0 ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1)))
    .join("");
  const base = camel === "" || /^\d/.test(camel) ? `c${camel}` : camel;
  return `${base}${suffix}`;
}

/**
 * Unique names: a base shared by several candidates gets its distinguishing part
 * (`-global`, `-<guildId>`), and any clash left a counter.
 */
function uniqueNames(candidates: readonly { base: string; distinct: string }[]): string[] {
  const count = new Map<string, number>();
  for (const c of candidates) count.set(c.base, (count.get(c.base) ?? 0) + 1);
  const taken = new Set<string>();
  return candidates.map((c) => {
    let name = (count.get(c.base) ?? 0) > 1 ? `${c.base}-${c.distinct}` : c.base;
    for (let i = 2; taken.has(name); i++) name = `${c.base}-${c.distinct}-${i}`;
    taken.add(name);
    return name;
  });
}

function uniqueVariables(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((n) => {
    let v = n;
    for (let i = 2; taken.has(v); i++) v = `${n}${i}`;
    taken.add(v);
    return v;
  });
}

/** The declarations that reproduce the live commands (and overwrites) of the given scopes. */
export function declarationsOf(source: ImportSource): ImportDeclarations {
  const commands = commandDeclarations(source.scopes);
  const { permissions, skipped } = permissionsDeclarations(source, commands);
  return {
    applicationId: source.applicationId,
    protect: source.protect ?? false,
    commands,
    permissions,
    skipped,
  };
}

/**
 * A declaration per live command, scope by scope, in each by type then name: the same
 * program whatever order the service listed them in.
 */
function commandDeclarations(scopes: readonly LiveScope[]): CommandDeclaration[] {
  const live = scopes.flatMap((scope) =>
    [...scope.commands]
      .sort(
        (a, b) => (a.type ?? 1) - (b.type ?? 1) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
      )
      .map((command) => ({ command, guildId: scope.guildId })),
  );
  const names = uniqueNames(
    live.map(({ command, guildId }) => {
      const suffix = TYPE_SUFFIX[command.type ?? 1];
      return {
        base: suffix === undefined ? slug(command.name) : `${slug(command.name)}-${suffix}`,
        distinct: guildId ?? "global",
      };
    }),
  );
  const variables = uniqueVariables(names.map((n) => variableName(n, "Command")));
  return live.map(({ command, guildId }, i): CommandDeclaration => {
    const wire = withoutNeutral(command as unknown as Json, "command");
    const sdk = wireToSdk(wire as unknown as WireCommand) as unknown as Json;
    const args: Json = guildId === undefined ? sdk : { guildId, ...sdk };
    return {
      resourceName: names[i] ?? command.name,
      variable: variables[i] ?? "command",
      resource: guildId === undefined ? "GlobalCommand" : "GuildCommand",
      commandId: command.id,
      args,
      problems: problemsOf(sdk, command, scopeKind(guildId)),
    };
  });
}

/** What the preview would say about the declaration, and whether it equals the live command. */
function problemsOf(sdk: Json, live: WireCommand, scope: "global" | "guild"): string[] {
  const checked = validateSdkCommand(sdk, { scope });
  if (!checked.ok) {
    return checked.issues.map((i) => `${formatPath(i.path) || "(command)"}: ${i.message}`);
  }
  const differ = diffCommandFields(checked.value, live);
  return differ.length === 0 ? [] : [`differs from the live command in: ${differ.join(", ")}`];
}

/**
 * A declaration per permission object read: a declared command's, or the app-wide
 * defaults (the application id). Those of a command outside the imported scopes are
 * skipped, and said.
 */
function permissionsDeclarations(
  source: ImportSource,
  commands: readonly CommandDeclaration[],
): { permissions: PermissionsDeclaration[]; skipped: string[] } {
  const byId = new Map(commands.map((c) => [c.commandId, c]));
  const skipped: string[] = [];
  const found: { guildId: string; commandId: string; list: readonly WirePermission[] }[] = [];
  for (const { guildId, list } of source.permissions ?? []) {
    for (const p of list) {
      if (p.id !== source.applicationId && !byId.has(p.id)) {
        skipped.push(
          `guild ${guildId}: the overwrites of command ${p.id}, which is not in the imported scopes`,
        );
        continue;
      }
      found.push({ guildId, commandId: p.id, list: p.permissions });
    }
  }
  const names = uniqueNames(
    found.map((p) => ({
      base: `${byId.get(p.commandId)?.resourceName ?? "default"}-permissions`,
      distinct: p.guildId,
    })),
  );
  const permissions = found.map((p, i): PermissionsDeclaration => ({
    resourceName: names[i] ?? "permissions",
    guildId: p.guildId,
    commandId: p.commandId,
    command: byId.get(p.commandId)?.resourceName,
    permissions: p.list,
  }));
  return { permissions, skipped };
}
