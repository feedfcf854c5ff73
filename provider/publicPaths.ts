/**
 * Switches from the package's reliances on Pulumi's internals to Pulumi's public paths
 * (issue 37): `DISCORD_COMMANDS_PUBLIC_PATHS` holds a comma-separated list of the
 * reliances to turn off, or `all`. Each reliance keeps its reason where it lives; the
 * switch exists so that the day a Pulumi release breaks one, a user can step around it,
 * and so that the tests run both paths.
 *
 * - `structs`: the plugin, and in the dynamic door the dynamic-provider host and the
 *   program, decode and encode google.protobuf.Struct with the package's own coders
 *   (provider/plainStructs.ts) instead of google-protobuf's;
 * - `compile-cache`: the plugin turns on Node's compile cache and writes it itself
 *   (plugin/index.js, provider/plugin/compileCache.ts; Node's own
 *   `NODE_DISABLE_COMPILE_CACHE=1` turns it off as well);
 * - `ordering`: the dynamic resources hold each registration for its turn
 *   (sdk/registrationOrder.ts: `PULUMI_NODEJS_PARALLEL`, the private `Output.isKnown`,
 *   `setImmediate`);
 * - `stacks`: the dynamic resources lower `Error.stackTraceLimit` while a resource is
 *   constructed (sdk/debugStacks.ts);
 * - `policy-secrets`: the policy pack keeps the engine's secret marks by wrapping
 *   `@pulumi/policy`'s deserialization (policy/secretMarks.ts); without it, the pack's
 *   messages quote no command name.
 *
 * Read at each use (a cheap environment lookup), so tests may set it per run.
 */
export const PUBLIC_PATHS_ENV = "DISCORD_COMMANDS_PUBLIC_PATHS";

export const RELIANCES = [
  "structs",
  "compile-cache",
  "ordering",
  "stacks",
  "policy-secrets",
] as const;
export type Reliance = (typeof RELIANCES)[number];

/** Whether `reliance` is switched to Pulumi's public path. */
export function publicPath(reliance: Reliance): boolean {
  const raw = process.env[PUBLIC_PATHS_ENV];
  if (!raw) return false;
  const names = raw.split(",").map((s) => s.trim());
  return names.includes("all") || names.includes(reliance);
}
