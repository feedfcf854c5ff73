/**
 * Why a resource of this package is constructed with `Error.stackTraceLimit` at 0.
 *
 * Pulumi's SDK wraps each of the four promises behind every output property, and those
 * behind `urn` and `id`, in `debuggablePromise` (runtime/debuggable.ts), which stores
 * `new Error().stack` on the promise. That stack is read only to report leaked promises
 * when `PULUMI_DEBUG_PROMISE_LEAKS` is set, but it is built, and mapped frame by frame
 * by the language host's source-map-support, for every property of every resource: 36
 * stacks per command. `npm run bench` measured `up` of 100 commands 4.6 s -> 4.0 s with
 * them suppressed (the no-op baseline 3.6 s).
 *
 * The limit is lowered only for the synchronous constructor call and restored after it,
 * so nothing else runs under it. The SDK's own source positions (`Resource.callsites`,
 * the resource's place in the program kept in state) raise the limit to Infinity
 * themselves and are unaffected. With `PULUMI_DEBUG_PROMISE_LEAKS` set, nothing changes.
 */
import { publicPath } from "../provider/publicPaths";

/**
 * Lowers the limit; the returned function restores it (and may be called twice).
 * `DISCORD_COMMANDS_PUBLIC_PATHS=stacks` leaves it alone (provider/publicPaths.ts).
 */
export function suspendPromiseStacks(): () => void {
  if (process.env["PULUMI_DEBUG_PROMISE_LEAKS"] || publicPath("stacks")) return () => undefined;
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  return () => {
    Error.stackTraceLimit = limit;
  };
}

/**
 * An error thrown by the SDK's constructor while the limit was 0 (a transformation of
 * the user's, an invalid option) has no frames: give it the stack of where it surfaced,
 * which still names the user's declaration.
 */
export function withStack(err: unknown, restore: () => void): unknown {
  restore();
  if (err instanceof Error && !/\n\s+at /.test(err.stack ?? "")) Error.captureStackTrace(err);
  return err;
}
