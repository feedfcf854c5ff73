/**
 * The Pulumi TypeScript program (an `index.ts`) that declares the imported commands and
 * permissions (cli/importDeclarations.ts) on the dynamic resources: enum members and
 * permission flags by name, laid out as Prettier would.
 */
import type { WirePermission } from "../provider/schema";
import {
  allChannels,
  ChannelType,
  CommandType,
  EntryPointHandler,
  everyone,
  IntegrationType,
  InteractionContextType,
  OptionType,
  PermissionFlags,
  PermissionType,
} from "../provider/schema";
import type { ImportDeclarations } from "./importDeclarations";

type Json = Record<string, unknown>;

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

/**
 * The program's opening: where it came from, what the stack needs, the import, and the
 * enums it uses (`used`) destructured from the package.
 */
function programHeader(decls: ImportDeclarations, used: readonly string[]): string[] {
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
  return header;
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
  const header = programHeader(decls, [...printer.used].sort());
  return `${[...header, ...body.flatMap((b) => (b.startsWith("//") ? [b] : [b, ""]))].join("\n").trimEnd()}\n`;
}
