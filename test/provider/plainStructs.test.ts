/**
 * The plugin's plain decoding of the engine's Struct values (provider/plainStructs.ts)
 * against google-protobuf's own: the same values, keys in the same order, for fixed cases
 * and 300 random ones; a request decoded with it still reads and re-serializes as a Struct.
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { BinaryWriter } from "google-protobuf";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import { prng } from "../../emulator/faults";
import type { PlainValue } from "../../provider/plainStructs";
import {
  decodePlainStruct,
  encodePlainStruct,
  plainStruct,
  withPlainStructs,
  withPlainStructWriter,
} from "../../provider/plainStructs";

type PlainObject = Record<string, PlainValue>;

function reference(value: PlainObject): { bytes: Uint8Array; plain: unknown } {
  const bytes = structproto.Struct.fromJavaScript(value).serializeBinary();
  return { bytes, plain: structproto.Struct.deserializeBinary(bytes).toJavaScript() };
}

/** Equal values with the same key order at every level. */
function expectSame(actual: unknown, expected: unknown): void {
  expect(actual).toEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };

describe("decodePlainStruct gives what google-protobuf's Struct.toJavaScript() gives", () => {
  test.each<[string, PlainObject]>([
    ["empty", {}],
    [
      "scalars",
      { s: "text", e: "", n: 42, f: -1.5, z: -0, big: 2 ** 60, t: true, b: false, nil: null },
    ],
    ["unicode keys and values", { ñame: "コマンド 🎉", "": "empty key" }],
    [
      "keys out of order, integer-like keys",
      { zeta: 1, alpha: 2, "10": 3, "9": 4, Beta: 5, "a.b[0]": 6 },
    ],
    [
      "nested lists and objects",
      {
        commands: [
          {
            name: "kick",
            options: [{ type: 6, name: "member", required: true, choices: [] }],
            name_localizations: { fr: "expulser" },
          },
          [],
          [[1, [2, [3]]], {}],
        ],
      },
    ],
    [
      "a secret and an unknown",
      {
        botToken: { ...SECRET, value: "token" },
        guildId: "04da6b54-80e4-46f7-96ec-b56ff0331ba9",
      },
    ],
  ])("%s", (_label, value) => {
    const { bytes, plain } = reference(value);
    expectSame(decodePlainStruct(bytes), plain);
    // And the other way: the very bytes google-protobuf writes.
    expect(Buffer.from(encodePlainStruct(value))).toEqual(Buffer.from(bytes));
  });

  test("300 random values", () => {
    const random = prng(7);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
    const keys = ["a", "b", "name", "description", "options", "10", "2", "ß", "é", "Z", "__x"];
    const value = (depth: number): PlainValue => {
      const kind = depth > 3 ? Math.floor(random() * 4) : Math.floor(random() * 6);
      switch (kind) {
        case 0:
          return null;
        case 1:
          return pick([0, 1, -7, 3.25, 1e21, -1e-7, Number.MAX_SAFE_INTEGER]);
        case 2:
          return pick(["", "x", "kick", "☃", "a\nb"]);
        case 3:
          return random() < 0.5;
        case 4:
          return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
        default:
          return object(depth + 1);
      }
    };
    const object = (depth: number): PlainObject => {
      const out: PlainObject = {};
      for (let i = Math.floor(random() * 5); i > 0; i--) out[pick(keys)] = value(depth);
      return out;
    };
    for (let i = 0; i < 300; i++) {
      const value = object(0);
      const { bytes, plain } = reference(value);
      expectSame(decodePlainStruct(bytes), plain);
      expect(Buffer.from(encodePlainStruct(value))).toEqual(Buffer.from(bytes));
    }
  });

  test("a key named __proto__ stays a key", () => {
    // google-protobuf's own map cannot hold this key, so the bytes are written by hand.
    const writer = new BinaryWriter();
    writer.writeMessage(1, {}, (_entry: unknown, w: BinaryWriter) => {
      w.writeString(1, "__proto__");
      w.writeMessage(2, {}, (_value: unknown, v: BinaryWriter) => {
        v.writeMessage(5, {}, (_struct: unknown, st: BinaryWriter) => {
          st.writeMessage(1, {}, (_e: unknown, e: BinaryWriter) => {
            e.writeString(1, "polluted");
            e.writeMessage(2, {}, (_b: unknown, b: BinaryWriter) => b.writeBool(4, true));
          });
        });
      });
    });
    const decoded = decodePlainStruct(writer.getResultBuffer());
    expect(Object.keys(decoded)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  test("a Value with no kind fails, as toJavaScript() does", () => {
    const struct = new structproto.Struct();
    struct.getFieldsMap().set("x", new structproto.Value());
    const bytes = struct.serializeBinary();
    expect(() => structproto.Struct.deserializeBinary(bytes).toJavaScript()).toThrow(
      "Unexpected struct type",
    );
    expect(() => decodePlainStruct(bytes)).toThrow("Unexpected struct type");
  });
});

describe("withPlainStructs: a request decoded with plain Structs", () => {
  const olds = { name: "kick", options: [{ type: 6, name: "member" }] };
  const news = { name: "kick", description: "Kick", secret: { ...SECRET, value: "s" } };
  function request(): Uint8Array {
    const req = new provproto.CheckRequest();
    req.setUrn("urn:pulumi:dev::p::discord-commands:index:GuildCommand::kick");
    req.setOlds(structproto.Struct.fromJavaScript(olds));
    req.setNews(structproto.Struct.fromJavaScript(news));
    req.setRandomseed(new Uint8Array([1, 2, 3]));
    return req.serializeBinary();
  }
  const decode = withPlainStructs((b: Buffer) => provproto.CheckRequest.deserializeBinary(b));

  test("reads every field as google-protobuf's decoding does", () => {
    const bytes = request();
    const plain = decode(Buffer.from(bytes));
    // Decoded into plain values: google-protobuf's fields map was never built.
    const map = structproto.Struct.prototype.getFieldsMap as (
      this: structproto.Struct,
      noLazyCreate?: boolean,
    ) => unknown;
    expect(map.call(plain.getNews() as structproto.Struct, true)).toBeUndefined();
    const real = provproto.CheckRequest.deserializeBinary(bytes);
    expect(plain.getUrn()).toBe(real.getUrn());
    expect(plain.hasNews()).toBe(true);
    expectSame(plain.getOlds()?.toJavaScript(), real.getOlds()?.toJavaScript());
    expectSame(plain.getNews()?.toJavaScript(), real.getNews()?.toJavaScript());
    expect(plain.getRandomseed_asU8()).toEqual(real.getRandomseed_asU8());
  });

  test("re-serializes to the same message, and leaves google-protobuf's decoding as it was", () => {
    const bytes = request();
    const plain = decode(Buffer.from(bytes));
    const again = provproto.CheckRequest.deserializeBinary(plain.serializeBinary());
    const real = provproto.CheckRequest.deserializeBinary(bytes);
    expectSame(again.getNews()?.toJavaScript(), real.getNews()?.toJavaScript());
    expectSame(again.getOlds()?.toJavaScript(), real.getOlds()?.toJavaScript());
    expect(again.getNews()?.toJavaScript()).toEqual(news);
    expect(plain.getNews()?.getFieldsMap().get("name")?.getStringValue()).toBe("kick");
    // Outside the wrapper, Structs decode as google-protobuf's again.
    expect(Object.prototype.hasOwnProperty.call(real.getNews(), "toJavaScript")).toBe(false);
  });
});

describe("plainStruct and withPlainStructWriter: a response's properties written from plain values", () => {
  const inputs = { name: "kick", options: [{ type: 6, name: "member", required: true }], n: null };
  const serialize = withPlainStructWriter((res: provproto.CheckResponse) =>
    Buffer.from(res.serializeBinary()),
  );

  test("the same bytes as a response built with Struct.fromJavaScript", () => {
    const struct = plainStruct(inputs);
    const plain = new provproto.CheckResponse();
    plain.setInputs(struct);
    const real = new provproto.CheckResponse();
    real.setInputs(structproto.Struct.fromJavaScript(inputs));
    expect(serialize(plain)).toEqual(Buffer.from(real.serializeBinary()));
    // Written from the plain values: google-protobuf's fields map was never built.
    const map = structproto.Struct.prototype.getFieldsMap as (
      this: structproto.Struct,
      noLazyCreate?: boolean,
    ) => unknown;
    expect(map.call(struct, true)).toBeUndefined();
    // Without the writer (any other serializer), it still serializes as a Struct.
    expect(Buffer.from(plain.serializeBinary())).toEqual(Buffer.from(real.serializeBinary()));
  });

  test("a fields map changed after the Struct was made is what it serializes", () => {
    const struct = plainStruct({ ...inputs });
    struct.getFieldsMap().set("description", structproto.Value.fromJavaScript("Kick"));
    const res = new provproto.CheckResponse();
    res.setInputs(struct);
    const back = provproto.CheckResponse.deserializeBinary(serialize(res));
    expect(back.getInputs()?.toJavaScript()).toEqual({ ...inputs, description: "Kick" });
  });
});
