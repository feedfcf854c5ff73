/**
 * The `__provider` of every resource of this package: a serialized function that only
 * `require()`s the installed provider module, by a path relative to the Pulumi project's
 * directory, at call time.
 *
 * Why not `pulumi.dynamic.Resource` with a provider object: the engine serializes the
 * provider into state once per resource, twice (inputs and outputs), and freezes it there,
 * so `delete` and refresh's `read` would run the code of the last update, and seven
 * methods cost about 2.2 KB each time. This function captures one string and serializes
 * to a few hundred bytes; upgrading the package changes what every later operation runs.
 *
 * Two traps (both verified): the path must not be absolute, because state
 * outlives the machine; and a bare `require("pulumi-discord-commands/...")` fails in the
 * dynamic-provider host, which resolves modules from its own place in `node_modules`.
 * The host runs in the project directory, as the program does, so a relative path
 * computed here resolves there.
 */
import * as fs from "node:fs";
import * as path from "node:path";

export type ProviderKind =
  | "globalCommand"
  | "guildCommand"
  | "guildCommandPermissions"
  | "userAuthorization"
  | "scopeCommands"
  | "commandSetScopes";

/** The type token of a resource kind: `pulumi-nodejs:dynamic/discord:<Type>`. */
export function typeToken(type: string): string {
  return `pulumi-nodejs:dynamic/discord:${type}`;
}

/** The provider module of a kind, relative to the current (project) directory, `/`-separated. */
export function providerModulePath(kind: ProviderKind, cwd = process.cwd()): string {
  const target = path.join(__dirname, "..", "provider", "resources", kind);
  const rel = path.relative(cwd, target).split(path.sep).join("/");
  return rel.startsWith(".") ? rel : `./${rel}`;
}

/**
 * The same module as a package subpath (`pulumi-discord-commands/dist/provider/...`), for
 * when the relative path no longer leads to it: an `npm install` that hoists packages
 * differently, a workspace that moved the package. Resolved from the project directory
 * (never from the host's own place in `node_modules`, where the package is absent).
 */
export function providerPackagePath(kind: ProviderKind): string {
  const target = path.join(__dirname, "..", "provider", "resources", kind);
  let root = path.dirname(target);
  while (!fs.existsSync(path.join(root, "package.json")) && path.dirname(root) !== root) {
    root = path.dirname(root);
  }
  const rel = path.relative(root, target).split(path.sep).join("/");
  return `${PACKAGE_NAME}/${rel}`;
}

const PACKAGE_NAME = "pulumi-discord-commands";

/**
 * The function the engine's host calls to get the provider: it loads the module by its
 * path relative to the project directory, or, if nothing is there any more, by its
 * package subpath resolved from the project directory.
 */
export function providerLoader(modulePath: string, packagePath: string): () => unknown {
  // Plain `require`s on purpose: this text runs in the engine's host, not here. Only the
  // lookups fall back (a failure inside the module is never masked); the text stays short
  // because the engine stores it twice per resource.
  /* eslint-disable @typescript-eslint/no-require-imports */
  return () => {
    let file: string;
    try {
      file = require.resolve(require("path").resolve(modulePath));
    } catch {
      file = require.resolve(packagePath, { paths: [process.cwd()] });
    }
    return require(file).provider;
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}

/**
 * The text `pulumi.runtime.serializeFunction(providerLoader(modulePath, packagePath))`
 * gives, built here: the serializer opens an inspector session and walks every built-in
 * module the first time it runs, 0.15-0.6 s measured, on the way to the program's first
 * resource (the dynamic-provider host starts only once that resource is registered).
 * The text is a module whose `handler()` returns the loader (what the host calls); the
 * loader captures its two strings and nothing else. providerModule.test.ts checks that
 * this is the serializer's text, byte for byte, so stacks see the same `__provider`.
 */
export function providerText(modulePath: string, packagePath: string): string {
  const captured =
    `modulePath: ${JSON.stringify(modulePath)}, packagePath: ${JSON.stringify(packagePath)}, ` +
    "this: undefined, arguments: undefined";
  return [
    "exports.handler = __f0;",
    "",
    "function __f0() {",
    "  return (function() {",
    `    with({ ${captured} }) {`,
    "",
    `return ${providerLoader(modulePath, packagePath).toString()};`,
    "",
    "    }",
    "  }).apply(undefined, undefined).apply(this, arguments);",
    "}",
    "",
  ].join("\n");
}

const serialized = new Map<string, string>();

/** The serialized `__provider` of a kind (computed once per program run). */
export function serializedProvider(kind: ProviderKind): string {
  const modulePath = providerModulePath(kind);
  let text = serialized.get(modulePath);
  if (text === undefined) {
    text = providerText(modulePath, providerPackagePath(kind));
    serialized.set(modulePath, text);
  }
  return text;
}
