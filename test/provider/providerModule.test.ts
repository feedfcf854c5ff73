/**
 * The `__provider` each resource stores: small, free of secrets, portable (a relative
 * path), and loading the installed provider module at call time.
 */
import Module from "node:module";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import type * as ProviderModule from "../../sdk/providerModule";
import type { ProviderKind } from "../../sdk/providerModule";
import {
  providerLoader,
  providerModulePath,
  providerPackagePath,
  providerText,
  serializedProvider,
} from "../../sdk/providerModule";

const KINDS: ProviderKind[] = [
  "globalCommand",
  "guildCommand",
  "guildCommandPermissions",
  "userAuthorization",
  "scopeCommands",
];
const SECRETS = {
  DISCORD_BOT_TOKEN: "bot-token-SECRET-0123456789",
  DISCORD_CLIENT_SECRET: "client-secret-SECRET-abcdef",
  DISCORD_BEARER_TOKEN: "bearer-SECRET-fedcba",
};

describe("serialized providers", () => {
  beforeAll(() => Object.assign(process.env, SECRETS));
  afterAll(() => {
    for (const k of Object.keys(SECRETS)) delete process.env[k];
  });

  test.each(KINDS)(
    "%s serializes to at most 1.5 KB with no secret and no absolute path",
    async (kind) => {
      const text = serializedProvider(kind);
      expect(text.length).toBeLessThanOrEqual(1536);
      for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
      expect(text).not.toContain(process.cwd());
      expect(text).toContain(`provider/resources/${kind}`);
      // The same text through the public serializer the issue names.
      const direct = await pulumi.runtime.serializeFunction(
        providerLoader(providerModulePath(kind), providerPackagePath(kind)),
      );
      expect(direct.text).toBe(text);
    },
  );

  test.each([
    ["./dist/provider/resources/globalCommand", "pulumi-discord-commands/x"],
    ["./a folder/with spaces", "@scope/pkg/dist/y"],
    ["./odd 'quote' \"double\" back\\slash", "ünïcode/päth"],
  ])(
    "the text built without the serializer is the serializer's, byte for byte (%s)",
    async (m, p) => {
      const direct = await pulumi.runtime.serializeFunction(providerLoader(m, p));
      expect(providerText(m, p)).toBe(direct.text);
    },
  );

  test("the module path is relative to the project directory", () => {
    const rel = providerModulePath("globalCommand", "/some/project");
    expect(path.isAbsolute(rel)).toBe(false);
    expect(rel).toMatch(/provider\/resources\/globalCommand$/);
  });

  /** Evaluates a loader's text as the engine's host does (require-from-string, i.e.
   * Module#_compile) and calls `handler()`. */
  function hostEvaluate(text: string): Record<string, unknown> {
    const m = new Module("provider-under-test") as Module & {
      _compile(code: string, file: string): void;
    };
    m._compile(text, path.join(process.cwd(), "__provider.js"));
    return (m.exports as { handler: () => Record<string, unknown> }).handler();
  }

  async function builtLoaderText(kind: ProviderKind, modulePath?: string): Promise<string> {
    // The built package's loader: the one the engine runs.
    const dist = path.join(__dirname, "..", "..", "dist", "sdk", "providerModule.js");
    const built = (await import(dist)) as typeof ProviderModule;
    const loader = built.providerLoader(
      modulePath ?? built.providerModulePath(kind),
      built.providerPackagePath(kind),
    );
    return (await pulumi.runtime.serializeFunction(loader)).text;
  }

  const METHODS = ["configure", "check", "diff", "create", "read", "update", "delete"];

  test.each(KINDS)(
    "%s's loader, evaluated as the engine's host does, returns the installed provider",
    async (kind) => {
      const provider = hostEvaluate(await builtLoaderText(kind));
      for (const method of METHODS) expect(typeof provider[method]).toBe("function");
    },
  );

  test("the package path names the built module inside the package", () => {
    expect(providerPackagePath("guildCommand")).toMatch(
      /^pulumi-discord-commands\/(dist\/)?provider\/resources\/guildCommand$/,
    );
  });

  test("when the relative path leads nowhere (packages hoisted differently), the loader resolves the package from the project directory", async () => {
    const text = await builtLoaderText("globalCommand", "./node_modules/gone/dist/provider/x");
    const provider = hostEvaluate(text);
    for (const method of METHODS) expect(typeof provider[method]).toBe("function");
  });
});
