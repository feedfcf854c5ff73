/**
 * The plugin process's entry (plugin/index.js): one provider runtime, served over
 * Pulumi's provider protocol; the port goes to stdout, which the engine reads.
 */
import { ProviderRuntime } from "../resources/runtime";
import { flushCompileCache } from "./compileCache";
import { servePlugin } from "./server";

export async function main(): Promise<void> {
  const { port } = await servePlugin(new ProviderRuntime());
  // Before the port: once the engine has it, it may stop this process at any time.
  flushCompileCache();
  // As a string: a number would be colourized on a terminal.
  console.log(String(port));
}
