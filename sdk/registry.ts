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
 * Each resource registers a claim when it is constructed (synchronously, so every
 * resource of the program's top level is registered before any value resolves); a
 * claim is checked once every claim registered so far has settled: its application
 * id, guild id, type and name known (Outputs included), or known to be unknown. No
 * timer: a guild id that resolves late is still compared with every sibling. A
 * resource declared later (after an `await` in the program) is compared with all
 * earlier ones, so each problem still fails at least the later resource, naming all.
 * The problems reach the user as the provider's `check` failure of every resource
 * involved (see `claimCommand`). Values still unknown at preview (a guild id from a
 * resource not yet created) are checked at `up`, when they are known.
 */
import * as pulumi from "./pulumi";
import { CommandType } from "../provider/schema";
import type { Claim } from "../provider/resources/claims";
import { problemsOf, problemsOfClaims } from "../provider/resources/claims";

export type { Claim } from "../provider/resources/claims";
export { problemsOf } from "../provider/resources/claims";
import type { WriteMode } from "../provider/writeMode";
import { WRITE_MODE_SETTING } from "../provider/writeMode";

/** The program's claims, and how many registered claims have not settled yet. */
interface Registry {
  claims: Claim[];
  unsettled: number;
  /** How many claims were ever registered: each claim's place in the program's order. */
  registered: number;
  /** Claims waiting for `unsettled` to reach 0. */
  waiters: Waiter[];
}

interface Waiter {
  /** The claim's place in the program (construction order). */
  readonly seq: number;
  /** The claim's scope: application and guild. */
  readonly scope: string;
  readonly wake: () => void;
}

function emptyRegistry(): Registry {
  return { claims: [], unsettled: 0, registered: 0, waiters: [] };
}

/**
 * The program's registry: one per copy of the SDK the program loads (a program with two
 * copies in node_modules checks each copy's resources apart).
 */
let current: Registry = emptyRegistry();

function registry(): Registry {
  return current;
}

/**
 * Registers a claim that has not settled: its place in the program, and the function
 * that settles it (once).
 */
function register(): { seq: number; settle: () => void } {
  const reg = registry();
  reg.unsettled++;
  const seq = reg.registered++;
  let settled = false;
  const settle = (): void => {
    if (settled) return;
    settled = true;
    reg.unsettled--;
    if (reg.unsettled === 0) release(reg.waiters.splice(0));
  };
  return { seq, settle };
}

/** Resolves once every claim registered so far has settled (see `release` for the order). */
function everyClaimSettled(seq: number, scope: string): Promise<void> {
  const reg = registry();
  return reg.unsettled === 0
    ? Promise.resolve()
    : new Promise((wake) => reg.waiters.push({ seq, scope, wake }));
}

/**
 * Wakes the waiting claims in the order the engine should get them. Woken all at once,
 * the registrations reach the engine in the order their inputs happen to resolve (every
 * global command before any guild command, seen), and the engine's parallel slots
 * (`--parallel`, 8 on a 2-core machine) take them in that order.
 * - Per-command mode: one claim per macrotask (each woken resource sends its registration
 *   before the next is woken), the scopes in turn, so the slots hold creates of every
 *   scope at once. One scope at a time, every slot waited on that scope's create limit
 *   (5 per 20 s) while the others' went unused: 50 global and 50 guild commands took
 *   344 s, and take 184 s in turn (the limit allows 180 s).
 * - Bulk mode: as many claims of one scope as the engine has slots, per macrotask, the
 *   scopes in turn: the operations of a group reach the provider together, so one PUT
 *   carries as many as the slots hold, and while one scope's PUTs wait for their rate
 *   limit (5 per 5 s) the next group is another scope's. A scope at a time instead, the
 *   slots left over by a scope whose PUT waited went to the other scope in small PUTs,
 *   which spent its own limit: 100 new commands in 2 scopes with 8 slots took 11.5-15.0 s
 *   a scope at a time, and take 9.0-9.8 s in turn (`npm run bench`, three runs each, with
 *   the provider's batching of bulkWriter.ts).
 */
function release(waiters: readonly Waiter[]): void {
  const groups = releaseGroups(waiters, bulkMode() ? "bulk" : "per-command", engineSlots());
  const next = (i: number): void => {
    const group = groups[i];
    if (group === undefined) return;
    for (const w of group) w.wake();
    setImmediate(() => next(i + 1));
  };
  next(0);
}

/**
 * The engine's parallel slots (`--parallel`, default 4 per CPU), which the Node.js
 * language host hands the program as `PULUMI_NODEJS_PARALLEL`; undefined when unknown.
 */
function engineSlots(): number | undefined {
  const n = Number(process.env["PULUMI_NODEJS_PARALLEL"]);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/** Whether the provider batches writes (`discord:writeMode`, as the provider reads it). */
function bulkMode(): boolean {
  const [namespace, key] = WRITE_MODE_SETTING.key.split(":") as [string, string];
  const mode = new pulumi.Config(namespace).get(key) ?? process.env[WRITE_MODE_SETTING.env];
  return mode === "bulk";
}

/** The claims by scope, in program order, each scope placed by its first claim. */
function scopeGroups<W extends { readonly seq: number; readonly scope: string }>(
  waiters: readonly W[],
): W[][] {
  const byScope = new Map<string, W[]>();
  for (const w of [...waiters].sort((a, b) => a.seq - b.seq)) {
    const list = byScope.get(w.scope) ?? [];
    list.push(w);
    byScope.set(w.scope, list);
  }
  return [...byScope.values()];
}

/**
 * Whether an Output's value will be known. `isKnown` is not in the Output type, but
 * every Output has it (sdk/nodejs/output.ts); it is the only way to learn, in a preview,
 * that an apply callback will never run, and so that the claim must not be waited for.
 */
function isKnownOf(o: pulumi.Output<unknown>): Promise<boolean> {
  const isKnown = (o as unknown as { isKnown?: unknown }).isKnown;
  return isKnown instanceof Promise ? (isKnown as Promise<boolean>) : Promise.resolve(true);
}

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
  const { seq, settle } = register();
  const values = pulumi.all([applicationId, guildId, type, name]);
  // Unknown (preview) or failed values: this claim will never be checked, so it must
  // not hold the others back.
  isKnownOf(values).then(
    (known) => known || settle(),
    () => settle(),
  );
  return values.apply(async ([app, guild, t, n]) => {
    const claim: Claim = {
      resource,
      applicationId: app ?? "(default application)",
      guildId: guild,
      type: t ?? CommandType.CHAT_INPUT,
      name: n,
    };
    const reg = registry();
    reg.claims.push(claim);
    // Waits before it settles, so that the last claim to settle is released in its turn too.
    const settledAll = everyClaimSettled(
      seq,
      `${claim.applicationId}/${claim.guildId ?? "global"}`,
    );
    settle();
    await settledAll;
    const problems = problemsOf(claim, reg.claims);
    return { name: n, problems: problems.length > 0 ? problems.join("\n") : undefined };
  });
}

/**
 * The claims of a resource that holds many commands of one scope (`ScopeCommands`): one
 * registration for all, so the registry waits for the list as it waits for one name. The
 * problems of every command of the list, one per line; undefined when all pass.
 */
export function claimCommands(
  resource: string,
  applicationId: pulumi.Input<string | undefined>,
  guildId: pulumi.Input<string | undefined>,
  commands: pulumi.Input<
    readonly { readonly key: string; readonly type: number; readonly name: string }[]
  >,
): pulumi.Output<string | undefined> {
  const { seq, settle } = register();
  const values = pulumi.all([applicationId, guildId, commands]);
  isKnownOf(values).then(
    (known) => known || settle(),
    () => settle(),
  );
  return values.apply(async ([app, guild, list]) => {
    const reg = registry();
    const mine: Claim[] = list.map((c) => ({
      resource: `${resource} commands["${c.key}"]`,
      applicationId: app ?? "(default application)",
      guildId: guild,
      type: c.type,
      name: c.name,
    }));
    reg.claims.push(...mine);
    const settledAll = everyClaimSettled(seq, `${app ?? ""}/${guild ?? "global"}`);
    settle();
    await settledAll;
    const problems = problemsOfClaims(mine, reg.claims);
    return problems.length > 0 ? problems.join("\n") : undefined;
  });
}

/**
 * The groups `release` wakes, in order: program order within a scope, the scopes in
 * turn, each scope's place in a turn given by its first claim in the program. A group
 * is one claim in per-command mode; in bulk mode, `slots` claims of one scope (a whole
 * scope when the slots are unknown).
 */
export function releaseGroups<W extends { readonly seq: number; readonly scope: string }>(
  waiters: readonly W[],
  mode: WriteMode,
  slots?: number,
): W[][] {
  const size = mode === "per-command" ? 1 : (slots ?? Number.POSITIVE_INFINITY);
  const queues = scopeGroups(waiters).map((q) => chunks(q, size));
  const order: W[][] = [];
  for (let i = 0; queues.some((q) => i < q.length); i++) {
    for (const q of queues) {
      const group = q[i];
      if (group !== undefined) order.push(group);
    }
  }
  return order;
}

function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
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
  current = emptyRegistry();
}
