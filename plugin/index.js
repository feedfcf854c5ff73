// The resource plugin's entry, which the launcher pulumi-resource-discord-commands requires
// (and the Node.js language host runs, as package.json's main, where the engine goes
// through PulumiPlugin.yaml): the package's built provider, served over Pulumi's provider
// protocol. `npm run build` (run by `npm run setup`) builds dist/.
"use strict";
// Node's on-disk compile cache (module.enableCompileCache, Node >= 22.8), before anything
// loads: the engine starts this process for every deployment, and it compiles the same
// modules each time (gRPC, protobuf, zod, undici, the provider). The cache lives in
// NODE_COMPILE_CACHE or the system's temporary folder; NODE_DISABLE_COMPILE_CACHE=1 turns
// it off. Measured: the provider's modules load in 0.23-0.30 s instead of 0.37-0.42 s.
// DISCORD_COMMANDS_PUBLIC_PATHS=compile-cache (or all) leaves it off (provider/publicPaths.ts).
const nodeModule = require("node:module");
const publicPaths = (process.env.DISCORD_COMMANDS_PUBLIC_PATHS || "")
  .split(",")
  .map((s) => s.trim());
if (
  typeof nodeModule.enableCompileCache === "function" &&
  !publicPaths.includes("compile-cache") &&
  !publicPaths.includes("all")
) {
  nodeModule.enableCompileCache();
}
// A damaged installation (a module missing, an archive published under another version)
// is answered with one clear line, not a stack trace (installCheck.js says how).
const installCheck = require("./installCheck.js");
const pluginRoot = require("node:path").resolve(__dirname, "..");
const problem = installCheck.installProblem(pluginRoot);
let provider;
if (problem === undefined) {
  try {
    provider = require("../dist/provider/plugin/main.js");
  } catch (err) {
    if (!err || err.code !== "MODULE_NOT_FOUND") throw err;
    installCheck.serveRefusal(installCheck.missingModuleProblem(pluginRoot, err));
  }
} else {
  installCheck.serveRefusal(problem);
}
if (provider !== undefined) {
  provider.main().catch((err) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
}
