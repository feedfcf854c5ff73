/**
 * The pure half of `discord-commands import`: live commands (and permission overwrites)
 * as the service returns them -> declarations in the SDK's shape -> the text of a Pulumi
 * TypeScript program, or the declarations as data. No I/O here (cli/import.ts reads the
 * service), so every rule below is tested on plain values.
 *
 * A declaration is the live command in SDK keys (the one mapping, `wireToSdk`) with
 * every field left out whose absence means the same in the canonical form (the one
 * normalizer): `nsfw: false`, `type: CHAT_INPUT`, `description: ""` of a context menu,
 * null localizations... So the program is short, and equal to the live command: the
 * first `up` adopts every command without a write (provider/resources/liveTwin.ts).
 */
import type { WireCommand, WireGuildCommandPermissions, WirePermission } from "../provider/schema";
import {
  allChannels,
  CHOICE_FIELDS,
  ChannelType,
  COMMAND_FIELDS,
  CommandType,
  canonicalOf,
  deepEqual,
  diffCommandFields,
  EntryPointHandler,
  everyone,
  formatPath,
  IntegrationType,
  InteractionContextType,
  isRecord,
  OPTION_FIELDS,
  OptionType,
  PermissionFlags,
  PermissionType,
  validateSdkCommand,
  wireToSdk,
} from "../provider/schema";

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

export interface CommandDeclaration {
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

export interface PermissionsDeclaration {
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

// ---- declarations ---------------------------------------------------------------------

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
  const live = source.scopes.flatMap((scope) =>
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
  const commands = live.map(({ command, guildId }, i): CommandDeclaration => {
    const wire = withoutNeutral(command as unknown as Json, "command");
    const sdk = wireToSdk(wire as unknown as WireCommand) as unknown as Json;
    const args: Json = guildId === undefined ? sdk : { guildId, ...sdk };
    return {
      resourceName: names[i] ?? command.name,
      variable: variables[i] ?? "command",
      resource: guildId === undefined ? "GlobalCommand" : "GuildCommand",
      commandId: command.id,
      args,
      problems: problemsOf(sdk, command, guildId === undefined ? "global" : "guild"),
    };
  });

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
  const permNames = uniqueNames(
    found.map((p) => ({
      base: `${byId.get(p.commandId)?.resourceName ?? "default"}-permissions`,
      distinct: p.guildId,
    })),
  );
  const permissions = found.map((p, i): PermissionsDeclaration => ({
    resourceName: permNames[i] ?? "permissions",
    guildId: p.guildId,
    commandId: p.commandId,
    command: byId.get(p.commandId)?.resourceName,
    permissions: p.list,
  }));
  return {
    applicationId: source.applicationId,
    protect: source.protect ?? false,
    commands,
    permissions,
    skipped,
  };
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

// ---- TypeScript ---------------------------------------------------------------------

/** Source text inserted as it is (an enum member, a call). */
class Code {
  constructor(readonly text: string) {}
}

/** A call, printed on one line when it fits, otherwise one argument a line. */
class Call {
  constructor(
    readonly callee: string,
    readonly args: readonly Printable[],
  ) {}
}

type Printable =
  Code | Call | string | number | boolean | null | Printable[] | { [k: string]: Printable };

/** The enums a program uses, by the name the program destructures from the package. */
const ENUMS = {
  CommandType,
  OptionType,
  ChannelType,
  InteractionContextType,
  IntegrationType,
  EntryPointHandler,
  PermissionType,
} as const;
type EnumName = keyof typeof ENUMS;

class Printer {
  readonly used = new Set<string>();

  member(table: EnumName, value: unknown): Printable {
    const entry = Object.entries(ENUMS[table]).find(([, v]) => v === value);
    if (entry === undefined) return value as Printable; // a value newer than this package
    this.used.add(table);
    return new Code(`${table}.${entry[0]}`);
  }

  members(table: EnumName, value: unknown): Printable {
    return Array.isArray(value) ? value.map((v) => this.member(table, v)) : (value as Printable);
  }

  /** `"32"` -> `discord.permissions(PermissionFlags.MANAGE_GUILD)`; unknown bits stay a string. */
  memberPermissions(value: unknown): Printable {
    if (typeof value !== "string" || !/^\d+$/.test(value)) return value as Printable;
    let rest = BigInt(value);
    const flags: string[] = [];
    for (const [name, bit] of Object.entries(PermissionFlags)) {
      if ((rest & bit) !== 0n) {
        flags.push(`PermissionFlags.${name}`);
        rest &= ~bit;
      }
    }
    if (rest !== 0n) return value;
    if (flags.length > 0) this.used.add("PermissionFlags");
    return new Call(
      "discord.permissions",
      flags.map((f) => new Code(f)),
    );
  }

  option(o: Json): Printable {
    const out: { [k: string]: Printable } = {};
    for (const [k, v] of Object.entries(o)) {
      if (k === "type") out[k] = this.member("OptionType", v);
      else if (k === "channelTypes") out[k] = this.members("ChannelType", v);
      else if (k === "options" && Array.isArray(v)) out[k] = v.map((x) => this.option(x as Json));
      else out[k] = v as Printable;
    }
    return out;
  }

  command(args: Json): Printable {
    const out: { [k: string]: Printable } = {};
    for (const [k, v] of Object.entries(args)) {
      if (k === "type") out[k] = this.member("CommandType", v);
      else if (k === "contexts") out[k] = this.members("InteractionContextType", v);
      else if (k === "integrationTypes") out[k] = this.members("IntegrationType", v);
      else if (k === "handler") out[k] = this.member("EntryPointHandler", v);
      else if (k === "defaultMemberPermissions") out[k] = this.memberPermissions(v);
      else if (k === "options" && Array.isArray(v)) out[k] = v.map((x) => this.option(x as Json));
      else out[k] = v as Printable;
    }
    return out;
  }

  overwrite(p: WirePermission, guildId: string): Printable {
    const id =
      p.type === PermissionType.ROLE && p.id === everyone(guildId)
        ? new Call("discord.everyone", [guildId])
        : p.type === PermissionType.CHANNEL && p.id === allChannels(guildId)
          ? new Call("discord.allChannels", [guildId])
          : p.id;
    return { id, type: this.member("PermissionType", p.type), permission: p.permission };
  }
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const WIDTH = 100;

/** Prints a value as TypeScript: on one line when it fits, otherwise one entry a line. */
function print(value: Printable, indent: string, room: number): string {
  if (value instanceof Code) return value.text;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const inner = `${indent}  `;
  // Room for an entry on its own line: the indent before it and the comma after it.
  const entryRoom = WIDTH - inner.length - 1;
  let entries: string[];
  let open: string;
  let close: string;
  let flat: string;
  if (value instanceof Call) {
    entries = value.args.map((v) => print(v, inner, entryRoom));
    [open, close] = [`${value.callee}(`, ")"];
    flat = `${open}${entries.join(", ")}${close}`;
  } else if (Array.isArray(value)) {
    entries = value.map((v) => print(v, inner, entryRoom));
    [open, close] = ["[", "]"];
    flat = `[${entries.join(", ")}]`;
  } else {
    entries = Object.entries(value).map(([k, v]) => {
      const key = IDENTIFIER.test(k) ? k : JSON.stringify(k);
      return `${key}: ${print(v, inner, entryRoom - key.length - 2)}`;
    });
    [open, close] = ["{", "}"];
    flat = entries.length === 0 ? "{}" : `{ ${entries.join(", ")} }`;
  }
  if (entries.length === 0 || (displayWidth(flat) <= room && !flat.includes("\n"))) return flat;
  return `${open}\n${entries.map((e) => `${inner}${e},`).join("\n")}\n${indent}${close}`;
}

/** Columns a string takes in an editor, as Prettier counts them: wide characters take two. */
function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) {
    width +=
      /[\p{Extended_Pictographic}\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u.test(
        ch,
      )
        ? 2
        : 1;
  }
  return width;
}

/**
 * `new discord.X(name, args, opts);`, assigned to a variable only when another resource
 * uses it; the arguments object hugs the call, as Prettier prints it.
 */
function construct(
  variable: string | undefined,
  resource: string,
  name: string,
  args: Printable,
  protect: boolean,
): string {
  const head = `${variable === undefined ? "" : `const ${variable} = `}new discord.${resource}(`;
  const tail = `${protect ? ", { protect: true }" : ""});`;
  const prefix = `${head}${JSON.stringify(name)}, `;
  return `${prefix}${print(args, "", WIDTH - prefix.length - tail.length)}${tail}`;
}

/** Where the commands came from, for the program's header. */
function scopesText(decls: ImportDeclarations): string {
  const guilds = [
    ...new Set(
      decls.commands.flatMap((c) => (c.resource === "GuildCommand" ? [c.args["guildId"]] : [])),
    ),
  ];
  const parts = decls.commands.some((c) => c.resource === "GlobalCommand") ? ["global"] : [];
  for (const g of guilds) parts.push(`guild ${String(g)}`);
  return parts.length > 0 ? parts.join(", ") : "no commands";
}

/** The Pulumi TypeScript program (an `index.ts`) that declares the imported commands. */
export function renderProgram(decls: ImportDeclarations): string {
  const printer = new Printer();
  const body: string[] = [];
  const referenced = new Set(decls.permissions.map((p) => p.command));
  for (const c of decls.commands) {
    for (const p of c.problems) body.push(`// NOTE ${c.resourceName}: ${p}`);
    const args = printer.command(c.args);
    const variable = referenced.has(c.resourceName) ? c.variable : undefined;
    body.push(construct(variable, c.resource, c.resourceName, args, decls.protect));
  }
  const byName = new Map(decls.commands.map((c) => [c.resourceName, c]));
  for (const p of decls.permissions) {
    const command = p.command === undefined ? undefined : byName.get(p.command);
    const args: { [k: string]: Printable } = {
      guildId: p.guildId,
      commandId: command === undefined ? p.commandId : new Code(`${command.variable}.commandId`),
      permissions: p.permissions.map((o) => printer.overwrite(o, p.guildId)),
    };
    if (command === undefined)
      body.push("// The app-wide defaults: commandId is the application id.");
    body.push(construct(undefined, "GuildCommandPermissions", p.resourceName, args, decls.protect));
  }
  const used = [...printer.used].sort();
  const header = [
    "/**",
    ` * Generated by \`discord-commands import\` from application ${decls.applicationId}`,
    ` * (${scopesText(decls)}). Review it, then \`pulumi preview\` and \`pulumi up\`: each`,
    " * command is adopted as it is (its id kept, no write to the service).",
    ` * The stack needs: pulumi config set discord:applicationId ${decls.applicationId}`,
    " */",
    'import * as discord from "pulumi-discord-commands";',
    "",
  ];
  if (used.length > 0) {
    const names = print(Object.fromEntries(used.map((u) => [u, new Code(u)])), "", WIDTH - 18);
    header.push(`const ${names.replace(/: \w+/g, "")} = discord;`, "");
  }
  return `${[...header, ...body.flatMap((b) => (b.startsWith("//") ? [b] : [b, ""]))].join("\n").trimEnd()}\n`;
}

/** The declarations as data (`--format json`). */
export function renderJson(decls: ImportDeclarations): string {
  return `${JSON.stringify(decls, null, 2)}\n`;
}

/**
 * Pulumi's bulk import file (`--format pulumi-import`, for `pulumi import --file`): every
 * declaration as a resource of the plugin, by the import id its Read takes
 * (provider/plugin/resources.ts), so Pulumi itself writes the code in the project's
 * language and records the state. Ids name the application, so they hold whatever the
 * provider's default application is.
 */
export function renderPulumiImport(decls: ImportDeclarations): string {
  const app = decls.applicationId;
  const resources = [
    ...decls.commands.map((c) => {
      const guildId = (c.args as Record<string, unknown>)["guildId"];
      const id =
        c.resource === "GuildCommand" && typeof guildId === "string"
          ? `${app}/${guildId}/${c.commandId}`
          : `${app}/${c.commandId}`;
      return { type: `discord-commands:index:${c.resource}`, name: c.resourceName, id };
    }),
    ...decls.permissions.map((p) => ({
      type: "discord-commands:index:GuildCommandPermissions",
      name: p.resourceName,
      id: `${app}/${p.guildId}/${p.commandId}`,
    })),
  ];
  return `${JSON.stringify({ resources }, null, 2)}\n`;
}
