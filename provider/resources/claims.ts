/**
 * The program-wide rules no single resource can check: two resources claiming one
 * (application, scope, type, name) (create is an upsert by name, so they would silently
 * overwrite each other); more than 100 CHAT_INPUT, 15 USER, 15 MESSAGE or 1
 * PRIMARY_ENTRY_POINT commands in one scope; an entry point in a guild.
 *
 * One mechanism for both front doors: `DeploymentClaims`, the claims one provider process
 * sees in its `check` calls, whatever the program's language. The plugin keeps one
 * (provider/plugin/resources.ts), and so does the dynamic-provider host, which runs every
 * dynamic resource of a deployment in one process (dynamicProviders.ts). Each door turns a
 * resource's checked inputs into claims with `commandClaim` / `scopeClaims`, keyed by the
 * resource's URN. One process sees only its own resources: each explicit provider of the
 * plugin is a process of its own (docs/concepts.md, "One provider process, one view").
 */
import { COMMAND_TYPE_NAMES, CommandType, commandsPerScope, isRecord, Secrecy } from "../schema";
import type { Bag } from "./propertyBags";
import { secrecyOf, UNKNOWN } from "./propertyBags";
import { scopeKind, scopeName } from "./scopeName";

export interface Claim {
  /**
   * The URN of the resource that declares the command: what tells two resources apart
   * (two of one name under different parents are two resources).
   */
  readonly urn: string;
  /** The command's key in the resource's list (a `ScopeCommands`); undefined for a single command. */
  readonly key?: string | undefined;
  readonly applicationId: string;
  /** Guild id, or undefined for the global scope. */
  readonly guildId: string | undefined;
  readonly type: number;
  readonly name: string;
  /** The program marked the name secret: problems say `[secret]` instead. */
  readonly secret?: boolean;
}

/** The secrecy of the name the claims share: all of it when any of them marks it secret. */
function secrecyOfClaims(claims: readonly Claim[]): Secrecy {
  return claims.some((c) => c.secret === true) ? Secrecy.ALL : Secrecy.NONE;
}

/** The resource's name: the last part of its URN (`urn:pulumi:stack::project::parent$type::name`). */
export function urnName(urn: string): string {
  const parts = urn.split("::");
  return parts.length < 4 ? urn : parts.slice(3).join("::");
}

/** The types of a resource's parents, outermost first (none at the program's top level). */
function parentTypes(urn: string): string[] {
  return (urn.split("::")[2] ?? "").split("$").slice(0, -1);
}

/**
 * How messages name the claims' resources, quoted, one per claim: the resource's name
 * (with the command's key in a list), and where two resources among them share a name
 * (under different parents), the types of its parents too.
 */
export function claimLabels(claims: readonly Claim[]): string[] {
  const urnsByName = new Map<string, Set<string>>();
  for (const c of claims) {
    const name = urnName(c.urn);
    urnsByName.set(name, (urnsByName.get(name) ?? new Set()).add(c.urn));
  }
  return claims.map((c) => {
    const name = urnName(c.urn);
    const key = secrecyOfClaims([c]).text(`["${c.key}"]`, []);
    const quoted = `'${c.key === undefined ? name : `${name} commands${key}`}'`;
    if ((urnsByName.get(name)?.size ?? 0) < 2) return quoted;
    const parents = parentTypes(c.urn);
    return `${quoted} (${parents.length === 0 ? "at the top level" : `under ${parents.join(" > ")}`})`;
  });
}

/**
 * The resources that declare `claims`, each once and in order, with how many commands when
 * more than one: `'mods-guild' (90 commands), 'kick', 'ban'`.
 */
export function declarers(claims: readonly Claim[]): string {
  const byUrn = new Map<string, Claim[]>();
  for (const c of claims) byUrn.set(c.urn, [...(byUrn.get(c.urn) ?? []), c]);
  const holders = [...byUrn.values()];
  const labels = claimLabels(holders.map((list) => ({ ...(list[0] as Claim), key: undefined })));
  return holders
    .map((list, i) => (list.length > 1 ? `${labels[i]} (${list.length} commands)` : labels[i]))
    .join(", ");
}

/**
 * Who fills a scope, for the message of a cap it would pass: the commands the stack's
 * resources checked so far declare (`declared`, by resource), and the live ones none of them
 * declares (`undeclared`, by id, the first 10: a live name no resource checked so far
 * declares may be the secret name of a resource checked later, so none is shown). Empty
 * when both are.
 */
export function whoFills(declared: readonly Claim[], undeclared: readonly string[]): string {
  const parts: string[] = [];
  if (declared.length > 0) {
    parts.push(
      `the stack's resources checked so far declare ${declared.length} of them: ${declarers(declared)}`,
    );
  }
  if (undeclared.length > 0) {
    const shown = undeclared.slice(0, 10).join(", ");
    parts.push(
      `${undeclared.length} live ${undeclared.length === 1 ? "command" : "commands"} no resource ` +
        `checked so far declares, by id: ${shown}${undeclared.length > 10 ? ", ..." : ""}`,
    );
  }
  return parts.join("; ");
}

/** The key of the claims that count toward one cap: application, scope and type. */
const capKey = (c: Pick<Claim, "applicationId" | "guildId" | "type">): string =>
  `${c.applicationId}/${c.guildId ?? ""}/${c.type}`;

/**
 * The problems each of `claims` takes part in, given every claim known so far (`all`,
 * which includes them), once each. One pass over `all`: a 1,100-command program checks
 * its claims in milliseconds, not in the quadratic time of comparing every pair.
 */
export function problemsOfClaims(claims: readonly Claim[], all: readonly Claim[]): string[] {
  const wanted = new Set(claims.map(capKey));
  const sameType = new Map<string, Claim[]>();
  for (const c of all) {
    const key = capKey(c);
    if (!wanted.has(key)) continue;
    const group = sameType.get(key);
    if (group === undefined) sameType.set(key, [c]);
    else group.push(c);
  }
  const problems = new Set<string>();
  for (const claim of claims) {
    for (const p of problemsIn(claim, sameType.get(capKey(claim)) ?? [])) problems.add(p);
  }
  return [...problems];
}

/** The problems one claim takes part in, given every claim known so far. */
export function problemsOf(claim: Claim, all: readonly Claim[]): string[] {
  return problemsOfClaims([claim], all);
}

/** The problems of one claim, given the claims of its application, scope and type. */
function problemsIn(claim: Claim, sameType: readonly Claim[]): string[] {
  const problems: string[] = [];
  const typeName = COMMAND_TYPE_NAMES[claim.type] ?? `type ${claim.type}`;
  const where = scopeName(claim.applicationId, claim.guildId);
  if (claim.guildId !== undefined && claim.type === CommandType.PRIMARY_ENTRY_POINT) {
    problems.push(
      `resource ${claimLabels([claim]).join("")} declares a PRIMARY_ENTRY_POINT command in guild ${claim.guildId}: ` +
        "entry points exist only in the global scope",
    );
  }
  const twins = sameType.filter((c) => c.name === claim.name);
  if (twins.length > 1) {
    const name = secrecyOfClaims(twins).text(`'${claim.name}'`, []);
    problems.push(
      `resources ${claimLabels(twins).join(", ")} all declare the ${typeName} command ` +
        `${name} in ${where}: names are unique per application, type and scope, ` +
        "and creating an existing name overwrites it",
    );
  }
  // The one limits table; a guild's 0 entry points is the problem reported above.
  const limit = commandsPerScope(claim.type, scopeKind(claim.guildId));
  if (limit > 0 && sameType.length > limit) {
    problems.push(
      `${sameType.length} ${typeName} commands in ${where} (the limit is ${limit}): ` +
        claimLabels(sameType).join(", "),
    );
  }
  return problems;
}

const known = (v: unknown): v is string => typeof v === "string" && v !== UNKNOWN && v !== "";

/**
 * The claim of a `GlobalCommand` or `GuildCommand` (its URN `urn`), from its checked inputs
 * (the application resolved); undefined while a part of it is unknown (a preview), when it
 * is checked again at `up`.
 */
export function commandClaim(
  urn: string,
  scope: "global" | "guild",
  inputs: Bag,
): Claim | undefined {
  const type = inputs["type"] ?? CommandType.CHAT_INPUT;
  const applicationId = inputs["applicationId"];
  const name = inputs["name"];
  const guildId = inputs["guildId"];
  if (!known(applicationId) || !known(name) || typeof type !== "number") return undefined;
  if (scope === "guild" && !known(guildId)) return undefined;
  const secrecy = secrecyOf(inputs);
  // Secret ids are refused by the resource's check: nothing to claim with.
  if (secrecy.marks("applicationId") || secrecy.marks("guildId")) return undefined;
  return {
    urn,
    applicationId,
    guildId: scope === "guild" ? (guildId as string) : undefined,
    type,
    name,
    secret: secrecy.covers(["name"]) || secrecy.covers(["type"]),
  };
}

/**
 * The claims of a `ScopeCommands` (its URN `urn`; one per command of its list, by key),
 * from its checked inputs; undefined while its scope or its list is unknown. A command
 * whose name is unknown claims nothing.
 */
export function scopeClaims(urn: string, inputs: Bag): Claim[] | undefined {
  const applicationId = inputs["applicationId"];
  const guildId = inputs["guildId"];
  const commands = inputs["commands"];
  if (!known(applicationId) || (guildId !== undefined && !known(guildId))) return undefined;
  if (!isRecord(commands)) return undefined;
  const secrecy = secrecyOf(inputs);
  if (secrecy.marks("applicationId") || secrecy.marks("guildId")) return undefined;
  const list: Claim[] = [];
  for (const [key, def] of Object.entries(commands)) {
    if (!isRecord(def) || !known(def["name"])) continue;
    const type = def["type"] ?? CommandType.CHAT_INPUT;
    if (typeof type !== "number") continue;
    // The key is the name respelt (scopeCommandsLifecycle.ts `keyIsSecret`).
    const secret =
      secrecy.covers(["commands", key, "name"]) || secrecy.covers(["commands", key, "type"]);
    list.push({
      urn,
      key,
      applicationId,
      guildId: guildId as string | undefined,
      type,
      name: def["name"],
      secret,
    });
  }
  return list;
}

/**
 * The claims of one deployment as a provider process's `check` calls see them, by
 * resource URN (the plugin is handed it; a dynamic resource computes its own in the
 * program): a resource checked again replaces its claim. Each check is judged against
 * every claim seen so far, so a problem fails at least the later resource of each pair,
 * naming all. Part of the provider runtime (runtime.ts): the scope caps' messages and the
 * bulk overwrite's warnings ask it which resource declares a command.
 */
export class DeploymentClaims {
  private readonly byUrn = new Map<string, Claim>();

  /** Records the resource's claim; returns the problems it takes part in. */
  claim(urn: string, claim: Claim): string[] {
    this.byUrn.set(urn, claim);
    return problemsOf(claim, [...this.byUrn.values()]);
  }

  /**
   * Records the claims of a resource that holds many commands (`ScopeCommands`), replacing
   * its earlier ones; returns every problem they take part in, once each.
   */
  claimAll(urn: string, claims: readonly Claim[]): string[] {
    this.release(urn);
    claims.forEach((c, i) => this.byUrn.set(`${urn}#${i}`, c));
    return problemsOfClaims(claims, [...this.byUrn.values()]);
  }

  /**
   * Records a command resource's claim from its checked inputs (releases it while unknown);
   * returns the problems it takes part in.
   */
  checkCommand(urn: string, scope: "global" | "guild", inputs: Bag): string[] {
    const claim = commandClaim(urn, scope, inputs);
    if (claim === undefined) {
      this.release(urn); // unknown until `up`: checked again then
      return [];
    }
    return this.claim(urn, claim);
  }

  /** The same for a `ScopeCommands`, every command of its list. */
  checkScope(urn: string, inputs: Bag): string[] {
    const claims = scopeClaims(urn, inputs);
    if (claims === undefined) {
      this.release(urn);
      return [];
    }
    return this.claimAll(urn, claims);
  }

  /** The resource no longer claims a command (its check failed before a claim). */
  release(urn: string): void {
    this.byUrn.delete(urn);
    for (const key of [...this.byUrn.keys()]) {
      if (key.startsWith(`${urn}#`)) this.byUrn.delete(key);
    }
  }

  /** The claims of one application, scope and type, in the order they were made. */
  claimsIn(applicationId: string, guildId: string | undefined, type: number): Claim[] {
    const key = capKey({ applicationId, guildId, type });
    return [...this.byUrn.values()].filter((c) => capKey(c) === key);
  }

  /**
   * Who declares `commands` (live ones with their ids, planned ones by name), of one
   * application, scope and type, for the message of a cap they fill: the resources checked
   * so far that declare them, and the live rest by id (whoFills).
   */
  whoDeclares(
    applicationId: string,
    guildId: string | undefined,
    type: number,
    commands: readonly { readonly name: string; readonly id?: string | undefined }[],
  ): string {
    const wanted = new Set(commands.map((c) => c.name));
    const declared = this.claimsIn(applicationId, guildId, type).filter((c) => wanted.has(c.name));
    const claimed = new Set(declared.map((c) => c.name));
    const ids = new Set<string>();
    for (const c of commands) if (!claimed.has(c.name) && c.id !== undefined) ids.add(c.id);
    return whoFills(declared, [...ids]);
  }

  /** The claim of one command (application, scope, type, name), if a resource declares it. */
  declaring(
    applicationId: string,
    guildId: string | undefined,
    type: number,
    name: string,
  ): Claim | undefined {
    return this.claimsIn(applicationId, guildId, type).find((c) => c.name === name);
  }
}
