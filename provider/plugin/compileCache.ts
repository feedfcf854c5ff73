/**
 * Node's on-disk compile cache for the plugin process (plugin/index.js turns it on before
 * anything loads). Node writes the cache only when a process exits normally, and the
 * engine kills its plugins, so the plugin writes it itself once a set of modules has
 * loaded: at start, and after the first construct loads its modules (commandSet.ts and
 * the monitor's protocol). Writing costs
 * about 17 ms when the cache is cold and under 1 ms once it holds these modules.
 */
import * as nodeModule from "node:module";
import { publicPath } from "../publicPaths";

/**
 * Writes what the compile cache holds of the modules loaded so far (a no-op when it is off,
 * as with `DISCORD_COMMANDS_PUBLIC_PATHS=compile-cache`: provider/publicPaths.ts).
 */
export function flushCompileCache(): void {
  if (publicPath("compile-cache")) return;
  const flush = (nodeModule as { flushCompileCache?: () => void }).flushCompileCache;
  if (typeof flush === "function") flush();
}
