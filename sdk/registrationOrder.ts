/**
 * The order in which the program hands its commands to the engine. The program-wide
 * checks (one name per scope, the caps, no entry point in a guild) are not made here: the
 * dynamic-provider host runs every resource's `check` in one process and checks them there
 * (provider/resources/dynamicProviders.ts, with the plugin's `DeploymentClaims`). What the
 * host cannot do is choose the order the engine sends it operations in: the engine runs
 * them in a few parallel slots, in the order the program's registrations reach it, which
 * for a Node program is the order their inputs resolve. So the program still holds each
 * command resource's registration until every resource registered so far has its scope
 * and name known (or known to be unknown, in a preview), then releases them the scopes in
 * turn (`release`).
 *
 * Each resource registers when it is constructed (synchronously, so every resource of the
 * program's top level is registered before any value resolves); no timer: a guild id that
 * resolves late still takes its turn. A resource declared later (after an `await`) is
 * released with the next group.
 */
import * as pulumi from "./pulumi";
import type { WriteMode } from "../provider/writeMode";
import { WRITE_MODE_SETTING } from "../provider/writeMode";
import { publicPath } from "../provider/publicPaths";

/** How many registered resources have not settled yet, and those waiting for them. */
interface Registry {
  unsettled: number;
  /** How many resources were ever registered: each one's place in the program's order. */
  registered: number;
  /** Resources waiting for `unsettled` to reach 0. */
  waiters: Waiter[];
}

interface Waiter {
  /** The resource's place in the program (construction order). */
  readonly seq: number;
  /** The resource's scope: application and guild. */
  readonly scope: string;
  readonly wake: () => void;
}

function emptyRegistry(): Registry {
  return { unsettled: 0, registered: 0, waiters: [] };
}

/**
 * The program's registrations: one per copy of the SDK the program loads (a program with
 * two copies in node_modules orders each copy's resources apart).
 */
let current: Registry = emptyRegistry();

function registry(): Registry {
  return current;
}

/**
 * Registers a resource that has not settled: its place in the program, and the function
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

/** Resolves once every resource registered so far has settled (see `release` for the order). */
function everyOneSettled(seq: number, scope: string): Promise<void> {
  const reg = registry();
  return reg.unsettled === 0
    ? Promise.resolve()
    : new Promise((wake) => reg.waiters.push({ seq, scope, wake }));
}

/**
 * Wakes the waiting resources in the order the engine should get them. Woken all at once,
 * the registrations reach the engine in the order their inputs happen to resolve (every
 * global command before any guild command, seen), and the engine's parallel slots
 * (`--parallel`, 8 on a 2-core machine) take them in that order.
 * - Per-command mode: one resource per macrotask (each woken resource sends its registration
 *   before the next is woken), the scopes in turn, so the slots hold creates of every
 *   scope at once. One scope at a time, every slot waited on that scope's create limit
 *   (5 per 20 s) while the others' went unused: 50 global and 50 guild commands took
 *   344 s, and take 184 s in turn (the limit allows 180 s).
 * - Bulk mode: as many resources of one scope as the engine has slots, per macrotask, the
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

/** The resources by scope, in program order, each scope placed by its first resource. */
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
 * that an apply callback will never run, and so that the resource must not be waited for.
 */
function isKnownOf(o: pulumi.Output<unknown>): Promise<boolean> {
  const isKnown = (o as unknown as { isKnown?: unknown }).isKnown;
  return isKnown instanceof Promise ? (isKnown as Promise<boolean>) : Promise.resolve(true);
}

/**
 * Holds a command resource's registration for its turn: the result resolves to
 * `claimant` (the resource's URN, its hidden input `CLAIMANT_KEY`) once every resource
 * registered so far has its scope and command known, in the order `release` gives. Never
 * rejects: a rejected resource input makes the Node.js runtime (3.259) hang instead of
 * failing the preview (verified: `preview` printed nothing and never returned). Not a
 * secret, whatever its inputs are: it carries only the resource's URN.
 * `DISCORD_COMMANDS_PUBLIC_PATHS=ordering` holds nothing (provider/publicPaths.ts).
 */
export function inTurn(
  claimant: string | Promise<string>,
  applicationId: pulumi.Input<string | undefined>,
  guildId: pulumi.Input<string | undefined> | undefined,
  command: pulumi.Input<unknown>,
): pulumi.Output<string> {
  // Pulumi's public path: every registration goes when its inputs resolve.
  if (publicPath("ordering")) return pulumi.output(claimant);
  const { seq, settle } = register();
  const values = pulumi.all([applicationId, guildId, command]);
  // Unknown (preview) or failed values: this resource will never settle by its values, so
  // it must not hold the others back.
  isKnownOf(values).then(
    (known) => known || settle(),
    () => settle(),
  );
  return pulumi.unsecret(
    values.apply(async ([app, guild]) => {
      // Waits before it settles, so that the last one to settle is released in its turn too.
      const settledAll = everyOneSettled(seq, `${app ?? ""}/${guild ?? "global"}`);
      settle();
      await settledAll;
      return claimant;
    }),
  );
}

/**
 * The groups `release` wakes, in order: program order within a scope, the scopes in
 * turn, each scope's place in a turn given by its first resource in the program. A group
 * is one resource in per-command mode; in bulk mode, `slots` resources of one scope (a whole
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

/** For unit tests with Pulumi's mocks. */
export function resetRegistrationOrder(): void {
  current = emptyRegistry();
}
