/**
 * The plugin process's entry (plugin/index.js): one provider runtime, served over
 * Pulumi's provider protocol; the port goes to stdout, which the engine reads.
 */
import { ProviderRuntime } from "../resources/runtime";
import { flushCompileCache } from "./compileCache";
import { servePlugin } from "./server";

/** The engine's address: the first argument that is not a logging flag (as the engine passes them). */
export function engineAddressOf(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "--tracing") {
      i++;
      continue;
    }
    if (a === "--logtostderr" || a.startsWith("-v=")) continue;
    return a;
  }
  return undefined;
}

export async function main(): Promise<void> {
  const { port } = await servePlugin(new ProviderRuntime(), engineAddressOf(process.argv.slice(2)));
  // Before the port: once the engine has it, it may stop this process at any time.
  flushCompileCache();
  // As a string: a number would be colourized on a terminal.
  console.log(String(port));
}
