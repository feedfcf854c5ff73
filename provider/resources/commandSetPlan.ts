/**
 * What a `CommandSet` deploys, as pure functions of its (known) arguments: one
 * `ScopeCommands` per scope, named after the set and the scope, each holding the set's
 * definitions keyed by command (`commandKey`), and one `GuildCommandPermissions` per
 * permissions entry; and the set's structural checks, the one set of rules of both doors:
 * a scope or a permissions entry listed twice, permissions in a guild the set does not reach
 * (`setStructureProblems`, which fail the set when it is declared), a definition declared
 * twice or permissions naming a command the set does not declare (`definitionProblems`,
 * which fail every scope's `check`, before any request). Shared by the TypeScript SDK's component (sdk/commandSet.ts) and the
 * plugin's (provider/plugin/commandSet.ts), so every language gets the same children.
 */
import type { Path, Scope } from "../schema";
import {
  camelCase,
  COMMAND_FIELDS,
  CommandType,
  isRecord,
  isSnowflake,
  notSnowflake,
  Secrecy,
} from "../schema";
import { commandKey } from "./commandKeys";
import { scopeName } from "./scopeName";

export interface SetScope {
  /** Absent: the application's global scope. */
  readonly guildId?: string | undefined;
  readonly applicationId?: string | undefined;
}

export interface SetPermissions {
  readonly guildId: string;
  /** The command's name. */
  readonly command: string;
  /** The command's type when not CHAT_INPUT (a user and a slash command may share a name). */
  readonly type?: number | undefined;
  readonly applicationId?: string | undefined;
}

/**
 * A scope's key in the children's names and the set's `commandIds` output: `global` or the
 * guild id, application-prefixed when given (messages name a scope with `scopeName`).
 */
export function scopeLabel(scope: SetScope): string {
  const where = scope.guildId ?? "global";
  return scope.applicationId === undefined ? where : `${scope.applicationId}-${where}`;
}

/** The child names: `<set>-<scope>` and `<set>-<guild>-<command key>`. */
export function scopeChildName(set: string, scope: SetScope): string {
  return `${set}-${scopeLabel(scope)}`;
}

export function permissionsChildName(set: string, p: SetPermissions): string {
  const app = p.applicationId === undefined ? "" : `${p.applicationId}-`;
  return `${set}-${app}${p.guildId}-${commandKey(p.type, p.command)}`;
}

/** SDK keys of the fields a guild does not keep (contexts, integrationTypes, dmPermission). */
const GLOBAL_ONLY: readonly string[] = Object.entries(COMMAND_FIELDS)
  .filter(([, f]) => !(f.keptIn as readonly Scope[]).includes("guild"))
  .map(([k]) => camelCase(k));

/**
 * A scope's `commands` input: the definitions by key, without the fields the scope does
 * not keep (a guild's copy of a set leaves out contexts, integration types and the DM
 * permission, as the service would; the global copy keeps them), the problems of the
 * definitions (`definitionProblems`), the same for every scope of the set, and the paths
 * of the map's secret values (`secretPaths`, from `secrecy`: the definitions' own, by
 * index). A key is the command's name: when a name (or type) is secret, so is the key,
 * and then the whole map is.
 */
export function scopeCommandMap(
  set: string,
  definitions: readonly unknown[],
  scope: SetScope,
  permissions: readonly SetPermissions[] = [],
  secrecy: Secrecy = Secrecy.NONE,
): { commands: Record<string, Record<string, unknown>>; problems: string[]; secretPaths: Path[] } {
  const commands: Record<string, Record<string, unknown>> = {};
  const secretPaths: Path[] = [];
  definitions.forEach((def, i) => {
    if (!isRecord(def) || typeof def["name"] !== "string") return;
    const key = commandKey(typeOf(def), def["name"]);
    if (commands[key] !== undefined) return; // the first one; the second is a problem
    const entry: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(def)) {
      if (v === undefined) continue;
      if (scope.guildId !== undefined && GLOBAL_ONLY.includes(k)) continue;
      entry[k] = v;
    }
    commands[key] = entry;
    if (secrecy.covers([i, "name"]) || secrecy.covers([i, "type"])) secretPaths.push(["commands"]);
    else
      secretPaths.push(
        ...secrecy
          .within([i])
          .under(["commands", key])
          .paths.map((p) => [...p]),
      );
  });
  const whole = secretPaths.some((p) => p.length === 1);
  return {
    commands,
    problems: definitionProblems(set, definitions, permissions, secrecy),
    secretPaths: whole ? [["commands"]] : secretPaths,
  };
}

const typeOf = (def: Record<string, unknown>): number =>
  typeof def["type"] === "number" ? def["type"] : CommandType.CHAT_INPUT;

/**
 * The problems a set's definitions take part in, known once the definitions are (at
 * preview, unless they come from another resource's outputs): a definition that is not
 * an object with a name, two definitions with one key (name and type), and a permissions
 * entry naming a command the set does not declare (its child would get no command id, and
 * fail only after the scope was written). Both doors hand them to each scope's child, whose
 * `check` fails with them before any request.
 */
export function definitionProblems(
  set: string,
  definitions: readonly unknown[],
  permissions: readonly SetPermissions[],
  secrecy: Secrecy = Secrecy.NONE,
): string[] {
  const problems: string[] = [];
  /** Each key's first definition. */
  const keys = new Map<string, number>();
  let unnamed = false;
  definitions.forEach((def, i) => {
    if (!isRecord(def) || typeof def["name"] !== "string") {
      problems.push(`command set '${set}': commands[${i}] needs a name`);
      unnamed = true;
      return;
    }
    const type = typeOf(def);
    const key = commandKey(type, def["name"]);
    const first = keys.get(key);
    if (first !== undefined) {
      // The name as the definitions give it, unless either of the two marks it secret.
      const name = secrecy.text(`'${def["name"]}'`, [i, "name"], [first, "name"]);
      const typeText = secrecy.text(String(type), [i, "type"], [first, "type"]);
      problems.push(
        `command set '${set}': commands[${i}] declares ${name} (type ${typeText}) a second ` +
          "time: a name is unique per type in a scope",
      );
    } else keys.set(key, i);
  });
  // A definition without a name could be any command: its own problem says enough.
  if (unnamed) return problems;
  for (const p of permissions) {
    const declared = keys.get(commandKey(p.type, p.command));
    if (declared !== undefined) {
      if (secrecy.covers([declared, "name"]) || secrecy.covers([declared, "type"])) {
        problems.push(secretCommandNamed(set, p, declared));
      }
      continue;
    }
    const type = p.type === undefined ? "" : ` (type ${p.type})`;
    problems.push(
      `command set '${set}': permissions in guild ${p.guildId} name the command '${p.command}'${type}, ` +
        "which the set does not declare",
    );
  }
  return problems;
}

/**
 * A permissions entry that names, in plain text, a command whose name (or type) the
 * definitions mark secret: its child's resource name, URN and command reference would
 * hold the name in clear, so it is refused, as a secret id is (lifecycle.ts `idFailures`),
 * without quoting it.
 */
function secretCommandNamed(set: string, p: SetPermissions, definition: number): string {
  return (
    `command set '${set}': permissions in guild ${p.guildId} name commands[${definition}], ` +
    "whose name is secret: a permissions entry's command names its child resource (its " +
    "name and URN, never secret), so it cannot name a secret command; keep that name " +
    "plain, or give the command's permissions with a GuildCommandPermissions resource on its id"
  );
}

/** Problems of the scopes and permissions lists (known when the program declares the set). */
export function setStructureProblems(
  set: string,
  scopes: readonly SetScope[],
  permissions: readonly SetPermissions[],
): string[] {
  const problems: string[] = [];
  if (scopes.length === 0) problems.push(`command set '${set}': no scopes to deploy to`);
  const seen = new Set<string>();
  for (const s of scopes) {
    const label = scopeLabel(s);
    if (seen.has(label)) {
      problems.push(
        `command set '${set}': ${scopeName(s.applicationId, s.guildId)} is listed twice`,
      );
    }
    seen.add(label);
    for (const id of [s.guildId, s.applicationId]) {
      if (id !== undefined && !isSnowflake(id)) {
        problems.push(`command set '${set}': ${notSnowflake(`scope id '${id}'`)}`);
      }
    }
  }
  const perms = new Set<string>();
  for (const p of permissions) {
    const name = permissionsChildName(set, p);
    if (perms.has(name)) {
      problems.push(
        `command set '${set}': permissions of '${p.command}' in guild ${p.guildId} are listed twice`,
      );
    }
    perms.add(name);
    if (!isSnowflake(p.guildId)) {
      problems.push(`command set '${set}': ${notSnowflake(`permissions guild '${p.guildId}'`)}`);
    }
    if (permissionsScope(scopes, p) === undefined) {
      problems.push(
        `command set '${set}': permissions of '${p.command}' in guild ${p.guildId}, but the set ` +
          "is deployed neither to that guild nor to the global scope",
      );
    }
  }
  return problems;
}

/**
 * Which scope of the set holds the command a permissions entry targets: the guild's own
 * scope when the set is deployed there (a guild command shadows nothing: both are listed),
 * else the global scope of the same application. Undefined: the set has neither.
 */
export function permissionsScope(
  scopes: readonly SetScope[],
  p: SetPermissions,
): SetScope | undefined {
  const app = (s: { applicationId?: string | undefined }): string => s.applicationId ?? "";
  return (
    scopes.find((s) => s.guildId === p.guildId && app(s) === app(p)) ??
    scopes.find((s) => s.guildId === undefined && app(s) === app(p))
  );
}
