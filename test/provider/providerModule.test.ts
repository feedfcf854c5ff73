/**
 * The `__provider` each resource stores: small, free of secrets, portable (a relative
 * path), and loading the installed provider module at call time.
 */
import Module from "node:module";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import type * as ProviderModule from "../../sdk/providerModule";
import type { ProviderKind } from "../../sdk/providerModule";
import { providerLoader, providerModulePath, serializedProvider } from "../../sdk/providerModule";

const KINDS: ProviderKind[] = ["globalCommand", "guildCommand", "guildCommandPermissions"];
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
      const text = await serializedProvider(kind);
      expect(text.length).toBeLessThanOrEqual(1536);
      for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
      expect(text).not.toContain(process.cwd());
      expect(text).toContain(`provider/resources/${kind}`);
      // The same text through the public serializer the issue names.
      const direct = await pulumi.runtime.serializeFunction(
        providerLoader(providerModulePath(kind)),
      );
      expect(direct.text).toBe(text);
    },
  );

  test("the module path is relative to the project directory", () => {
    const rel = providerModulePath("globalCommand", "/some/project");
    expect(path.isAbsolute(rel)).toBe(false);
    expect(rel).toMatch(/provider\/resources\/globalCommand$/);
  });

  test.each(KINDS)(
    "%s's loader, evaluated as the engine's host does, returns the installed provider",
    async (kind) => {
      // The host evaluates the text as a module and calls `handler()`; load the built
      // package's provider (the one the engine runs).
      const dist = path.join(__dirname, "..", "..", "dist", "sdk", "providerModule.js");
      const built = (await import(dist)) as typeof ProviderModule;
      const text = (
        await pulumi.runtime.serializeFunction(built.providerLoader(built.providerModulePath(kind)))
      ).text;
      // The host uses require-from-string, i.e. Module#_compile on the text.
      const m = new Module("provider-under-test") as Module & {
        _compile(code: string, file: string): void;
      };
      m._compile(text, path.join(process.cwd(), "__provider.js"));
      const provider = (m.exports as { handler: () => Record<string, unknown> }).handler();
      for (const method of ["configure", "check", "diff", "create", "read", "update", "delete"]) {
        expect(typeof provider[method]).toBe("function");
      }
    },
  );
});
