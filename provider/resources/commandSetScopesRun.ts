/**
 * How a packed set (commandSetScopesLifecycle.ts) runs one operation on each of its scopes:
 * a few at once, each scope's outcome kept, and the failures named per scope.
 */
import type { ProviderMethod } from "./engineErrors";
import { engineFailure, ProviderFailure } from "./engineErrors";
import type { Bag } from "./propertyBags";
import { secrecyOf } from "./propertyBags";
import type { ProviderRuntime } from "./runtime";

/**
 * How many scopes are in flight at once. The client keeps the service's pace (50 requests a
 * second) whatever the number; more in flight only wait in its limiter, and 1,001 waiting
 * reads cost the provider 27 s of CPU in a 1,000-guild preview (measured).
 */
const SCOPES_IN_FLIGHT = 16;

/** `run` on every item, at most `SCOPES_IN_FLIGHT` at once, each one's outcome in order. */
export async function settleInPool<I, T>(
  items: readonly I[],
  run: (item: I) => Promise<T>,
): Promise<PromiseSettledResult<T>[]> {
  const out: PromiseSettledResult<T>[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      try {
        out[i] = { status: "fulfilled", value: await run(items[i] as I) };
      } catch (reason) {
        out[i] = { status: "rejected", reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(SCOPES_IN_FLIGHT, items.length) }, worker));
  return out;
}

/** What `eachScope` names a failure with: the operation, and the set's secret values. */
export interface FailureContext {
  readonly rt: ProviderRuntime;
  readonly method: ProviderMethod;
  readonly bag: Bag;
}

/**
 * Runs `run` on every scope at once (the client keeps the global pace). When some fail,
 * the others' writes are done: the failure names each failed scope with its reason, and
 * says the next `up` finishes them (a scope's write takes its commands over by name).
 */
export async function eachScope<I, T>(
  items: readonly I[],
  where: (s: I) => string,
  run: (s: I) => Promise<T>,
  ctx: FailureContext,
): Promise<T[]> {
  const settled = await settleInPool(items, run);
  const failed = settled.flatMap((r, i) => (r.status === "rejected" ? [i] : []));
  if (failed.length === 0) return settled.map((r) => (r as PromiseFulfilledResult<T>).value);
  const lines = failed.slice(0, 10).map((i) => {
    const reason = (settled[i] as PromiseRejectedResult).reason as unknown;
    const what = `the commands of ${where(items[i] as I)}`;
    return engineFailure(ctx.method, what, reason, ctx.rt.settings, secrecyOf(ctx.bag)).message;
  });
  if (failed.length > 10) lines.push(`(and ${failed.length - 10} more scopes)`);
  const done = items.length - failed.length;
  if (done > 0 && ctx.method !== "read") {
    lines.push(
      `${failed.length} of the set's ${items.length} scopes failed; the other ${done} were ` +
        "written, and the next `up` finishes these",
    );
  }
  throw new ProviderFailure(lines.join("\n"));
}
