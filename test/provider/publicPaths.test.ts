/**
 * Each reliance on Pulumi's internals and its switch to Pulumi's public path
 * (DISCORD_COMMANDS_PUBLIC_PATHS, provider/publicPaths.ts), both paths side by side: the
 * plugin's Struct coders, its compile cache, the dynamic resources' registration order and
 * their promise stacks. The engine test test/engine/public-paths.test.ts runs a deployment
 * with every switch on.
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as pulumi from "@pulumi/pulumi";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import { flushCompileCache } from "../../provider/plugin/compileCache";
import { plainStruct, withPlainStructs } from "../../provider/plainStructs";
import { PUBLIC_PATHS_ENV, publicPath } from "../../provider/publicPaths";
import { suspendPromiseStacks } from "../../sdk/debugStacks";
import { inTurn } from "../../sdk/registrationOrder";
import { useEchoMocks } from "../helpers/pulumiMocks";

useEchoMocks();

const APP = "1300000000000000001";
const GUILD = "1300000000000000002";

/** Runs `fn` with DISCORD_COMMANDS_PUBLIC_PATHS set to `value` (unset for undefined). */
async function withSwitch<T>(value: string | undefined, fn: () => T | Promise<T>): Promise<T> {
  const before = process.env[PUBLIC_PATHS_ENV];
  if (value === undefined) delete process.env[PUBLIC_PATHS_ENV];
  else process.env[PUBLIC_PATHS_ENV] = value;
  try {
    return await fn();
  } finally {
    if (before === undefined) delete process.env[PUBLIC_PATHS_ENV];
    else process.env[PUBLIC_PATHS_ENV] = before;
  }
}

test("the switch takes a list of reliances, or all", async () => {
  await withSwitch(undefined, () => expect(publicPath("structs")).toBe(false));
  await withSwitch("ordering, structs", () => {
    expect(publicPath("structs")).toBe(true);
    expect(publicPath("ordering")).toBe(true);
    expect(publicPath("stacks")).toBe(false);
  });
  await withSwitch("all", () => expect(publicPath("compile-cache")).toBe(true));
});

describe.each([
  ["our Struct coders", undefined],
  ["google-protobuf's (structs)", "structs"],
])("a check request and a response's properties with %s", (_label, setting) => {
  const news = { name: "ping", options: [{ type: 3, name: "who", required: true }], n: null };

  test("decode and encode the same values and bytes", async () => {
    await withSwitch(setting, () => {
      const req = new provproto.CheckRequest();
      req.setUrn("urn:pulumi:dev::p::discord-commands:index:GlobalCommand::ping");
      req.setNews(structproto.Struct.fromJavaScript(news));
      const bytes = Buffer.from(req.serializeBinary());
      const decoded = withPlainStructs((b: Buffer) => provproto.CheckRequest.deserializeBinary(b))(
        bytes,
      );
      expect(decoded.getNews()?.toJavaScript()).toEqual(news);
      const struct = plainStruct(news);
      expect(Buffer.from(struct.serializeBinary())).toEqual(
        Buffer.from(structproto.Struct.fromJavaScript(news).serializeBinary()),
      );
      // On the public path the Struct is google-protobuf's own, fields and all.
      if (setting) expect(struct.getFieldsMap().getLength()).toBe(3);
    });
  });
});

describe.each([
  ["written by the plugin", undefined, 1],
  ["left to Node (compile-cache)", "compile-cache", 0],
])("the compile cache %s", (_label, setting, flushes) => {
  test("flushCompileCache writes it only on our path", async () => {
    // The module object itself: an import's namespace has getters only (they read it).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require("node:module") as { flushCompileCache?: (() => void) | undefined };
    const original = mod.flushCompileCache;
    let calls = 0;
    mod.flushCompileCache = () => void calls++;
    try {
      await withSwitch(setting, () => flushCompileCache());
    } finally {
      mod.flushCompileCache = original;
    }
    expect(calls).toBe(flushes);
  });
});

describe.each([
  ["held for its turn", undefined, true],
  ["not held (ordering)", "ordering", false],
])("a command's registration %s", (_label, setting, held) => {
  test("waits for a sibling whose guild id resolves late only on our path", async () => {
    await withSwitch(setting, async () => {
      let lateResolved = false;
      const late = pulumi.output(
        new Promise<string>((resolve) =>
          setTimeout(() => {
            lateResolved = true;
            resolve(GUILD);
          }, 200),
        ),
      );
      const early = inTurn("early", APP, GUILD, pulumi.all([1, "ping"]));
      inTurn("slow", APP, late, pulumi.all([1, "pong"]));
      const value = await (early as unknown as { promise(): Promise<string> }).promise();
      expect(value).toBe("early");
      expect(lateResolved).toBe(held);
      await new Promise((r) => setTimeout(r, 250));
    });
  });
});

describe.each([
  ["lowered while constructed", undefined, 0],
  ["left alone (stacks)", "stacks", 10],
])("Error.stackTraceLimit %s", (_label, setting, during) => {
  test("suspendPromiseStacks", async () => {
    await withSwitch(setting, () => {
      const before = Error.stackTraceLimit;
      Error.stackTraceLimit = 10;
      const restore = suspendPromiseStacks();
      expect(Error.stackTraceLimit).toBe(during);
      restore();
      expect(Error.stackTraceLimit).toBe(10);
      Error.stackTraceLimit = before;
    });
  });
});
