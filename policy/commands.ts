/**
 * The package's resources as the policies see them, whichever door declared them: the
 * commands each one holds (a `GlobalCommand` or `GuildCommand` one, a `ScopeCommands` its
 * map, and so each scope of a `CommandSet`, whose children they are; a packed set's
 * `CommandSetScopes` each of its definitions in each of its scopes), with where each
 * lives and how a message names it; and the permissions entries of `GuildCommandPermissions`.
 *
 * A message names the resource (its kind and Pulumi name) and the command by its name,
 * unless the name is secret (secretMarks.ts): then by its place.
 */
import type { PropertyPath } from "./secretMarks";
import { isSecretAt, marksOf } from "./secretMarks";

/** The resource kinds the policies read, by their type in either door. */
export type Kind =
  | "GlobalCommand"
  | "GuildCommand"
  | "ScopeCommands"
  | "CommandSetScopes"
  | "GuildCommandPermissions"
  | "CommandSet";

const KINDS: readonly Kind[] = [
  "GlobalCommand",
  "GuildCommand",
  "ScopeCommands",
  "CommandSetScopes",
  "GuildCommandPermissions",
  "CommandSet",
];

const TYPE_PREFIXES = ["pulumi-nodejs:dynamic/discord:", "discord-commands:index:"];

/** The kind of a resource type of this package (dynamic or plugin), or undefined. */
export function kindOf(type: string): Kind | undefined {
  for (const prefix of TYPE_PREFIXES) {
    if (!type.startsWith(prefix)) continue;
    const kind = KINDS.find((k) => k === type.slice(prefix.length));
    if (kind !== undefined) return kind;
  }
  return undefined;
}

/** What the policies are handed of one resource (a resource or a stack policy's). */
export interface SeenResource {
  readonly type: string;
  readonly name: string;
  readonly urn: string;
  readonly props: Record<string, unknown>;
}

/** One command as the rules read it. */
export interface SeenCommand {
  /** `GuildCommand "mod-ban"`: the resource that declares it. */
  readonly resource: string;
  /** `command "ban"`, or `command #2 (its name is secret)`. */
  readonly label: string;
  readonly applicationId: unknown;
  /** Undefined: the global scope. */
  readonly guildId: unknown;
  /** The definition: the SDK's keys (`name`, `nameLocalizations`, `options`...). */
  readonly body: Record<string, unknown>;
  /** Whether the value at a path of the definition is secret. */
  secretAt(path: PropertyPath): boolean;
}

/** The stack a resource's URN names (`urn:pulumi:<stack>::<project>::...`). */
export function stackOf(urn: string): string {
  return /^urn:pulumi:([^:]+)::/.exec(urn)?.[1] ?? "";
}

export function resourceLabel(r: SeenResource): string {
  return `${kindOf(r.type) ?? r.type} "${r.name}"`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The commands a resource declares ([] for other resources). */
export function commandsOf(r: SeenResource): SeenCommand[] {
  const kind = kindOf(r.type);
  const marks = marksOf(r.props);
  const resource = resourceLabel(r);
  const { props } = r;
  if (kind === "GlobalCommand" || kind === "GuildCommand") {
    const secretName = isSecretAt(marks, ["name"]);
    return [
      {
        resource,
        label: secretName ? "command (its name is secret)" : `command "${String(props["name"])}"`,
        applicationId: props["applicationId"],
        guildId: kind === "GuildCommand" ? props["guildId"] : undefined,
        body: props,
        secretAt: (path) => isSecretAt(marks, path),
      },
    ];
  }
  if (kind === "CommandSetScopes") return packedCommandsOf(r, resource, marks);
  if (kind !== "ScopeCommands") return [];
  const commands = props["commands"];
  if (!isObject(commands)) return [];
  return Object.keys(commands).flatMap((key, i) => {
    const body = commands[key];
    if (!isObject(body)) return [];
    const at = ["commands", key];
    // The key is the name (prefixed by its type): as secret as the name.
    const secretName = isSecretAt(marks, [...at, "name"]) || isSecretAt(marks, [...at, "type"]);
    return [
      {
        resource,
        label: secretName ? `command #${i + 1} (its name is secret)` : `command "${key}"`,
        applicationId: props["applicationId"],
        guildId: props["guildId"],
        body: { name: key.replace(/^\w+:/, ""), ...body },
        secretAt: (path: PropertyPath) => isSecretAt(marks, [...at, ...path]),
      },
    ];
  });
}

/** A packed set's commands: each definition (by its place in the list) in each scope. */
function packedCommandsOf(
  r: SeenResource,
  resource: string,
  marks: ReturnType<typeof marksOf>,
): SeenCommand[] {
  const { commands, scopes } = r.props;
  if (!Array.isArray(commands) || !Array.isArray(scopes)) return [];
  return scopes.filter(isObject).flatMap((scope) =>
    commands.flatMap((body: unknown, i) => {
      if (!isObject(body)) return [];
      const at = ["commands", i];
      const secretName = isSecretAt(marks, [...at, "name"]) || isSecretAt(marks, [...at, "type"]);
      return [
        {
          resource,
          label: secretName
            ? `command #${i + 1} (its name is secret)`
            : `command "${String(body["name"])}"`,
          applicationId: scope["applicationId"] ?? r.props["applicationId"],
          guildId: scope["guildId"],
          body,
          secretAt: (path: PropertyPath) => isSecretAt(marks, [...at, ...path]),
        },
      ];
    }),
  );
}

/** A scope's key: `<application>/<guild or "global">`. */
export function scopeKeyOf(c: Pick<SeenCommand, "applicationId" | "guildId">): string {
  return `${String(c.applicationId)}/${c.guildId === undefined ? "global" : String(c.guildId)}`;
}

/** How a message names a scope. */
export function scopeLabel(c: Pick<SeenCommand, "applicationId" | "guildId">): string {
  return c.guildId === undefined
    ? `the global scope of application ${String(c.applicationId)}`
    : `guild ${String(c.guildId)}`;
}
