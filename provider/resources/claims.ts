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
 * resource's checked inputs into claims with `commandClaim` / `scopeClaims`.
 */
import { CommandType, commandsPerScope, isRecord, SECRET_MARK } from "../schema";
import type { Bag } from "./propertyBags";
import { secrecyOf, UNKNOWN } from "./propertyBags";

/**
 * The hidden input each dynamic resource names itself with (the host's `check` gets no
 * URN): dynamicProviders.ts takes it out of the inputs, so the state never holds it.
 */
export const CLAIMANT_KEY = "__claimant";

export interface Claim {
  readonly resource: string;
  readonly applicationId: string;
  /** Guild id, or undefined for the global scope. */
  readonly guildId: string | undefined;
  readonly type: number;
  readonly name: string;
  /** The program marked the name secret: problems say `[secret]` instead. */
  readonly secret?: boolean;
}

const TYPE_NAMES: Record<number, string> = Object.fromEntries(
  Object.entries(CommandType).map(([k, v]) => [v, k]),
);

function scopeLabel(c: Claim): string {
  return c.guildId === undefined
    ? `the global scope of application ${c.applicationId}`
    : `guild ${c.guildId} of application ${c.applicationId}`;
}

/** The key of the claims that count toward one cap: application, scope and type. */
const capKey = (c: Claim): string => `${c.applicationId}/${c.guildId ?? ""}/${c.type}`;

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
  const typeName = TYPE_NAMES[claim.type] ?? `type ${claim.type}`;
  if (claim.guildId !== undefined && claim.type === CommandType.PRIMARY_ENTRY_POINT) {
    problems.push(
      `resource '${claim.resource}' declares a PRIMARY_ENTRY_POINT command in guild ${claim.guildId}: ` +
        "entry points exist only in the global scope",
    );
  }
  const twins = sameType.filter((c) => c.name === claim.name);
  if (twins.length > 1) {
    const name = twins.some((c) => c.secret === true) ? SECRET_MARK : `'${claim.name}'`;
    problems.push(
      `resources ${twins.map((c) => `'${c.resource}'`).join(", ")} all declare the ${typeName} command ` +
        `${name} in ${scopeLabel(claim)}: names are unique per application, type and scope, ` +
        "and creating an existing name overwrites it",
    );
  }
  // The one limits table; a guild's 0 entry points is the problem reported above.
  const limit = commandsPerScope(claim.type, claim.guildId === undefined ? "global" : "guild");
  if (limit > 0 && sameType.length > limit) {
    problems.push(
      `${sameType.length} ${typeName} commands in ${scopeLabel(claim)} (the limit is ${limit}): ` +
        sameType.map((c) => `'${c.resource}'`).join(", "),
    );
  }
  return problems;
}

const known = (v: unknown): v is string => typeof v === "string" && v !== UNKNOWN && v !== "";

/**
 * The claim of a `GlobalCommand` or `GuildCommand`, from its checked inputs (the
 * application resolved); undefined while a part of it is unknown (a preview), when it is
 * checked again at `up`.
 */
export function commandClaim(
  resource: string,
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
    resource,
    applicationId,
    guildId: scope === "guild" ? (guildId as string) : undefined,
    type,
    name,
    secret: secrecy.covers(["name"]) || secrecy.covers(["type"]),
  };
}

/**
 * The claims of a `ScopeCommands` (one per command of its list, named
 * `<resource> commands["<key>"]`), from its checked inputs; undefined while its scope or
 * its list is unknown. A command whose name is unknown claims nothing.
 */
export function scopeClaims(resource: string, inputs: Bag): Claim[] | undefined {
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
      resource: `${resource} commands${secret ? SECRET_MARK : `["${key}"]`}`,
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
 * resource (its URN in the plugin; its type and name in the dynamic-provider host): a
 * resource checked again replaces its claim. Each check is judged against every claim
 * seen so far, so a problem fails at least the later resource of each pair, naming all.
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
  checkCommand(key: string, resource: string, scope: "global" | "guild", inputs: Bag): string[] {
    const claim = commandClaim(resource, scope, inputs);
    if (claim === undefined) {
      this.release(key); // unknown until `up`: checked again then
      return [];
    }
    return this.claim(key, claim);
  }

  /** The same for a `ScopeCommands`, every command of its list. */
  checkScope(key: string, resource: string, inputs: Bag): string[] {
    const claims = scopeClaims(resource, inputs);
    if (claims === undefined) {
      this.release(key);
      return [];
    }
    return this.claimAll(key, claims);
  }

  /** The resource no longer claims a command (its check failed before a claim). */
  release(urn: string): void {
    this.byUrn.delete(urn);
    for (const key of [...this.byUrn.keys()]) {
      if (key.startsWith(`${urn}#`)) this.byUrn.delete(key);
    }
  }
}
