/**
 * google.protobuf.Struct coded straight from and into plain values, for both doors.
 *
 * The engine's requests to the plugin carry resource properties as google.protobuf.Struct
 * values, which google-protobuf decodes into one message object per value (a Value, its
 * oneof wrapper, a map entry) before `toJavaScript()` walks them again. For a scope of 100
 * commands that was most of the plugin's CPU in an `up` of a command set (profiled: the
 * Struct decoding of check and diff requests 0.4 s, and the garbage collection after it).
 *
 * So the requests whose properties the plugin only reads (check, diff, create, read,
 * update, delete, construct) decode each Struct straight into plain values with google-protobuf's own
 * BinaryReader: the same wire format, the same values, keys in the same (sorted) order as
 * `Struct.toJavaScript()`. The message still behaves as a Struct: its fields map is built
 * from the plain values on first use (to re-serialize it, or read it field by field).
 *
 * It relies on google-protobuf's generated code looking Struct's static coders up at each
 * call. `DISCORD_COMMANDS_PUBLIC_PATHS=structs` (provider/publicPaths.ts) turns it off:
 * every Struct is then google-protobuf's own, decoded and encoded by its coders.
 */
import { BinaryReader, BinaryWriter } from "google-protobuf";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import { publicPath } from "./publicPaths";

/** A value as `Struct.toJavaScript()` gives it. */
export type PlainValue =
  null | number | string | boolean | PlainValue[] | { [key: string]: PlainValue };

export type PlainObject = { [key: string]: PlainValue };

/** `readMessage` takes the message it reads into; these readers keep their own results. */
const NO_MESSAGE = undefined as unknown as Parameters<BinaryReader["readMessage"]>[0];

function readStruct(reader: BinaryReader): PlainObject {
  const entries: [string, PlainValue][] = [];
  while (reader.nextField()) {
    if (reader.isEndGroup()) break;
    if (reader.getFieldNumber() !== 1) {
      reader.skipField();
      continue;
    }
    // One map entry: key = 1, value = 2 (a missing value is a Value with no kind).
    let key = "";
    let value: PlainValue | undefined;
    reader.readMessage(NO_MESSAGE, (_m, entry) => {
      while (entry.nextField()) {
        if (entry.isEndGroup()) break;
        const field = entry.getFieldNumber();
        if (field === 1) key = entry.readString();
        else if (field === 2) entry.readMessage(NO_MESSAGE, (_v, r) => (value = readValue(r)));
        else entry.skipField();
      }
    });
    if (value === undefined) throw new Error("Unexpected struct type");
    entries.push([key, value]);
  }
  // google-protobuf's map iterates its keys sorted (jspb.Map), and so does toJavaScript().
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const out: PlainObject = {};
  for (const [key, value] of entries) {
    // A key named __proto__ stays a key (an assignment would set the prototype).
    if (key === "__proto__") {
      Object.defineProperty(out, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      out[key] = value;
    }
  }
  return out;
}

function readList(reader: BinaryReader): PlainValue[] {
  const values: PlainValue[] = [];
  while (reader.nextField()) {
    if (reader.isEndGroup()) break;
    if (reader.getFieldNumber() !== 1) {
      reader.skipField();
      continue;
    }
    let value: PlainValue | undefined;
    reader.readMessage(NO_MESSAGE, (_m, r) => (value = readValue(r)));
    if (value === undefined) throw new Error("Unexpected struct type");
    values.push(value);
  }
  return values;
}

/** One Value: the last kind on the wire wins, as in a oneof; none is an error, as in toJavaScript(). */
function readValue(reader: BinaryReader): PlainValue {
  let value: PlainValue | undefined;
  while (reader.nextField()) {
    if (reader.isEndGroup()) break;
    switch (reader.getFieldNumber()) {
      case 1:
        reader.readEnum();
        value = null;
        break;
      case 2:
        value = reader.readDouble();
        break;
      case 3:
        value = reader.readString();
        break;
      case 4:
        value = reader.readBool();
        break;
      case 5:
        reader.readMessage(NO_MESSAGE, (_m, r) => (value = readStruct(r)));
        break;
      case 6:
        reader.readMessage(NO_MESSAGE, (_m, r) => (value = readList(r)));
        break;
      default:
        reader.skipField();
    }
  }
  if (value === undefined) throw new Error("Unexpected struct type");
  return value;
}

/** The plain values of one serialized Struct (what `Struct.deserializeBinary(b).toJavaScript()` gives). */
export function decodePlainStruct(bytes: Uint8Array): PlainObject {
  return readStruct(new BinaryReader(bytes));
}

/** The generated accessor takes `noLazyCreate` (undefined then when no map exists yet). */
const realGetFieldsMap = structproto.Struct.prototype.getFieldsMap as (
  this: structproto.Struct,
  noLazyCreate?: boolean,
) => ReturnType<structproto.Struct["getFieldsMap"]> | undefined;

/** google-protobuf's own `Struct.fromJavaScript`, as loaded (`installPlainStructs` replaces it). */
const realFromJavaScript = structproto.Struct.fromJavaScript;

/** The plain values of the Structs made or decoded here, until their fields map is used. */
const plainValues = new WeakMap<structproto.Struct, PlainObject>();

/**
 * Makes `message` answer `toJavaScript()` with `plain` (the same object each time: callers
 * read it, never change it), and fill its fields map from it on first use (after which
 * the map, which may be changed, is what it serializes).
 */
function asPlainStruct(message: structproto.Struct, plain: PlainObject): structproto.Struct {
  let filled = false;
  plainValues.set(message, plain);
  Object.defineProperties(message, {
    toJavaScript: { value: () => plain },
    getFieldsMap: {
      value: (noLazyCreate?: boolean) => {
        if (filled) return realGetFieldsMap.call(message, noLazyCreate);
        filled = true;
        plainValues.delete(message);
        const map = realGetFieldsMap.call(message, false);
        realFromJavaScript(plain)
          .getFieldsMap()
          .forEach((value, key) => map?.set(key, value));
        return map;
      },
    },
  });
  return message;
}

/** A Struct of plain values (JSON values: no undefined), serialized straight from them. */
export function plainStruct(plain: PlainObject): structproto.Struct {
  if (publicPath("structs")) return realFromJavaScript(plain);
  return asPlainStruct(new structproto.Struct(), plain);
}

/** `writeMessage` skips a null message: each value goes in a box. */
interface Box {
  readonly value: PlainValue;
}

function writeStruct(plain: PlainObject, writer: BinaryWriter): void {
  // Sorted, as google-protobuf's map writes its entries.
  for (const key of Object.keys(plain).sort()) {
    const value = plain[key] as PlainValue;
    writer.writeMessage(1, { value }, (_entry: Box, entry: BinaryWriter) => {
      entry.writeString(1, key);
      entry.writeMessage(2, { value }, writeValue);
    });
  }
}

function writeValue(box: Box, writer: BinaryWriter): void {
  const value = box.value;
  if (value === null) writer.writeEnum(1, 0);
  else if (typeof value === "number") writer.writeDouble(2, value);
  else if (typeof value === "string") writer.writeString(3, value);
  else if (typeof value === "boolean") writer.writeBool(4, value);
  else if (Array.isArray(value)) {
    writer.writeMessage(6, box, (_list: Box, list: BinaryWriter) => {
      for (const item of value) list.writeMessage(1, { value: item }, writeValue);
    });
  } else if (typeof value === "object") {
    writer.writeMessage(5, box, (_s: Box, struct: BinaryWriter) => writeStruct(value, struct));
  } else {
    throw new Error("Unexpected struct type.");
  }
}

/** The bytes of a Struct of these plain values, as `Struct.fromJavaScript(plain).serializeBinary()`. */
export function encodePlainStruct(plain: PlainObject): Uint8Array {
  const writer = new BinaryWriter();
  writeStruct(plain, writer);
  return writer.getResultBuffer();
}

/** google-protobuf's own Struct writer, as loaded. */
const realWriteStruct = structproto.Struct.serializeBinaryToWriter;

/** Writes a Struct made or decoded here from its plain values, any other as google-protobuf does. */
function writePlainOrRealStruct(message: structproto.Struct, writer: BinaryWriter): void {
  const plain = plainValues.get(message);
  if (plain === undefined) realWriteStruct(message, writer);
  else writeStruct(plain, writer);
}

/**
 * Runs `fn` with one of Struct's static coders replaced: the generated message code looks
 * them up at each call, and `fn` is synchronous, so nothing else sees the swap.
 */
function withStructCoder<K extends "deserializeBinaryFromReader" | "serializeBinaryToWriter", R>(
  coder: K,
  replacement: (typeof structproto.Struct)[K],
  fn: () => R,
): R {
  const original = structproto.Struct[coder];
  structproto.Struct[coder] = replacement;
  try {
    return fn();
  } finally {
    structproto.Struct[coder] = original;
  }
}

/** A response serializer that writes the Structs made by `plainStruct` straight from their values. */
export function withPlainStructWriter<T>(serialize: (value: T) => Buffer): (value: T) => Buffer {
  if (publicPath("structs")) return serialize;
  return (value) =>
    withStructCoder("serializeBinaryToWriter", writePlainOrRealStruct, () => serialize(value));
}

function readPlainStructInto(
  message: structproto.Struct,
  reader: BinaryReader,
): structproto.Struct {
  return asPlainStruct(message, readStruct(reader));
}

/** A request deserializer whose Struct fields decode to plain values (see above). */
export function withPlainStructs<T>(deserialize: (bytes: Buffer) => T): (bytes: Buffer) => T {
  if (publicPath("structs")) return deserialize;
  return (bytes) =>
    withStructCoder("deserializeBinaryFromReader", readPlainStructInto, () => deserialize(bytes));
}

/** Throws as `Struct.fromJavaScript` does on a value a Struct cannot hold (undefined, a function). */
function assertPlain(value: unknown): void {
  if (value === null || ["number", "string", "boolean"].includes(typeof value)) return;
  if (Array.isArray(value)) return value.forEach(assertPlain);
  if (typeof value !== "object") throw new Error("Unexpected struct type.");
  for (const v of Object.values(value)) assertPlain(v);
}

/** The process's Structs, once `installPlainStructs` ran in it. */
let installedIn: string | undefined;

/**
 * In the processes Pulumi's Node.js SDK runs, the dynamic-provider host
 * (`@pulumi/pulumi/cmd/dynamic-provider`, where the dynamic resources' providers run) and
 * the program (`cmd/run`), google-protobuf decodes every request's Struct into one message
 * object per value and encodes every answer and registration from them: at 10,100 commands
 * most of both processes' CPU (profiled, issue 49: the host 55 % protobuf and 31 % garbage
 * collection, the program 43 % and 29 %). This makes that process's google-protobuf decode
 * and encode Structs with the coders above for the rest of its life: the same wire format
 * and values. It takes the instance the SDK's generated code uses (resolved from the
 * process's main module), and only when it is this module's own (one copy in
 * `node_modules`, as npm installs it); anywhere else, or with
 * `DISCORD_COMMANDS_PUBLIC_PATHS=structs`, it changes nothing. Answers where it installed.
 */
export function installPlainStructs(): string | undefined {
  if (installedIn !== undefined || publicPath("structs")) return installedIn;
  const main = require.main;
  const role = /[\\/]@pulumi[\\/]pulumi[\\/]cmd[\\/](dynamic-provider|run)[\\/]index\.js$/.exec(
    main?.filename ?? "",
  )?.[1];
  if (main === undefined || role === undefined) return undefined;
  let theirs: { Struct?: unknown };
  try {
    theirs = main.require("google-protobuf/google/protobuf/struct_pb") as { Struct?: unknown };
  } catch {
    return undefined;
  }
  // Another copy of google-protobuf: its messages are not ours.
  if (theirs.Struct !== structproto.Struct) return undefined;
  structproto.Struct.deserializeBinaryFromReader = readPlainStructInto;
  structproto.Struct.serializeBinaryToWriter = writePlainOrRealStruct;
  structproto.Struct.fromJavaScript = (value: Parameters<typeof realFromJavaScript>[0]) => {
    assertPlain(value);
    return asPlainStruct(new structproto.Struct(), value as PlainObject);
  };
  installedIn = role;
  return role;
}

/** Where `installPlainStructs` installed the coders in this process (`dynamic-provider`, `run`). */
export function plainStructsInstalled(): string | undefined {
  return installedIn;
}
