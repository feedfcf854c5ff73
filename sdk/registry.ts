/**
 * Program-wide checks. A single resource cannot see its siblings, so the SDK keeps a
 * registry in the program process and fails the preview, naming every resource
 * involved, on:
 *  - two resources claiming one (application, scope, type, name): create is an upsert by
 *    name, so they would silently overwrite each other;
 *  - more than 100 CHAT_INPUT, 15 USER, 15 MESSAGE or 1 PRIMARY_ENTRY_POINT commands in
 *    one scope;
 *  - an entry point in a guild.
 *
 * Each resource's claim resolves when its application id, guild id, type and name are
 * known (Outputs included); a claim is checked once the program's other claims have had
 * a moment to resolve. The problems reach the user as the provider's `check` failure of
 * every resource involved (see `claimCommand`). Values still unknown at preview (a guild id from a resource not yet
 * created) are checked at `up`, when they are known.
 */
import * as pulumi from "@pulumi/pulumi";
import { CommandType } from "../provider/schema";

export interface Claim {
  readonly resource: string;
  readonly applicationId: string;
  /** Guild id, or undefined for the global scope. */
  readonly guildId: string | undefined;
  readonly type: number;
  readonly name: string;
}

const TYPE_NAMES: Record<number, string> = Object.fromEntries(
  Object.entries(CommandType).map(([k, v]) => [v, k]),
);

/** Commands per type and scope (spec: "Limits"); guilds hold no entry point at all. */
export const COMMANDS_PER_SCOPE: Readonly<Record<number, number>> = {
  [CommandType.CHAT_INPUT]: 100,
  [CommandType.USER]: 15,
  [CommandType.MESSAGE]: 15,
  [CommandType.PRIMARY_ENTRY_POINT]: 1,
};

function scopeLabel(c: Claim): string {
  return c.guildId === undefined
    ? `the global scope of application ${c.applicationId}`
    : `guild ${c.guildId} of application ${c.applicationId}`;
}

const sameScope = (a: Claim, b: Claim): boolean =>
  a.applicationId === b.applicationId && a.guildId === b.guildId;

/** The problems one claim takes part in, given every claim known so far. */
export function problemsOf(claim: Claim, all: readonly Claim[]): string[] {
  const problems: string[] = [];
  const typeName = TYPE_NAMES[claim.type] ?? `type ${claim.type}`;
  if (claim.guildId !== undefined && claim.type === CommandType.PRIMARY_ENTRY_POINT) {
    problems.push(
      `resource '${claim.resource}' declares a PRIMARY_ENTRY_POINT command in guild ${claim.guildId}: ` +
        "entry points exist only in the global scope",
    );
  }
  const twins = all.filter(
    (c) => sameScope(c, claim) && c.type === claim.type && c.name === claim.name,
  );
  if (twins.length > 1) {
    problems.push(
      `resources ${twins.map((c) => `'${c.resource}'`).join(", ")} all declare the ${typeName} command ` +
        `'${claim.name}' in ${scopeLabel(claim)}: names are unique per application, type and scope, ` +
        "and creating an existing name overwrites it",
    );
  }
  const limit = COMMANDS_PER_SCOPE[claim.type];
  const sameType = all.filter((c) => sameScope(c, claim) && c.type === claim.type);
  if (limit !== undefined && sameType.length > limit) {
    problems.push(
      `${sameType.length} ${typeName} commands in ${scopeLabel(claim)} (the limit is ${limit}): ` +
        sameType.map((c) => `'${c.resource}'`).join(", "),
    );
  }
  return problems;
}

const KEY = Symbol.for("pulumi-discord-commands.registry");
type GlobalWithRegistry = typeof globalThis & { [KEY]?: Claim[] };

function claims(): Claim[] {
  const g = globalThis as GlobalWithRegistry;
  g[KEY] ??= [];
  return g[KEY];
}

/** How long a claim waits for its siblings' values to resolve before it is checked. */
const SETTLE_MS = 50;

/** A claim's outcome: the name, and the program-wide problems it takes part in, if any. */
export interface ClaimResult {
  readonly name: string;
  /** The problems, one per line; undefined when the claim passes. */
  readonly problems: string | undefined;
}

/**
 * Registers a command's claim and checks it once the program's other claims have had a
 * moment to resolve. Never rejects: a rejected resource input makes the Node.js runtime
 * (3.259) hang instead of failing the preview (verified: `preview` printed nothing and
 * never returned). The resource passes `problems` to its provider as the hidden input
 * `__programProblems`, whose `check` fails the resource with the message, before any
 * request; a passing claim adds no input, so nothing reaches the state.
 */
export function claimCommand(
  resource: string,
  applicationId: pulumi.Input<string | undefined>,
  guildId: pulumi.Input<string> | undefined,
  type: pulumi.Input<number | undefined>,
  name: pulumi.Input<string>,
): pulumi.Output<ClaimResult> {
  return pulumi.all([applicationId, guildId, type, name]).apply(async ([app, guild, t, n]) => {
    const claim: Claim = {
      resource,
      applicationId: app ?? "(default application)",
      guildId: guild,
      type: t ?? CommandType.CHAT_INPUT,
      name: n,
    };
    claims().push(claim);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const problems = problemsOf(claim, claims());
    return { name: n, problems: problems.length > 0 ? problems.join("\n") : undefined };
  });
}

/** `claimCommand`'s name, rejected with the problems (for callers that want an error). */
export function claimName(
  resource: string,
  applicationId: pulumi.Input<string | undefined>,
  guildId: pulumi.Input<string> | undefined,
  type: pulumi.Input<number | undefined>,
  name: pulumi.Input<string>,
): pulumi.Output<string> {
  return claimCommand(resource, applicationId, guildId, type, name).apply((c) => {
    if (c.problems !== undefined) throw new pulumi.RunError(c.problems);
    return c.name;
  });
}

/** For unit tests of the registry. */
export function resetRegistry(): void {
  claims().length = 0;
}
