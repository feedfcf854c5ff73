/**
 * A command request body (create, edit, bulk item) by the service's rules: the spec's
 * explicit rules ("Application Command", "Naming rules", "Body fields per write
 * endpoint", "Limits") and, where the spec is silent, the service's OpenAPI description
 * (test/contract/openapi.json: `ApplicationCommandCreateRequest`,
 * `ApplicationCommandPatchRequestPartial`, `ApplicationCommandUpdateRequest`). The
 * conflicts between the two and the choice made are listed in emulator/README.md.
 *
 * What the document adds to the spec's tables: every optional field is nullable (`null`
 * means "not given": the default on create and bulk, the neutral value on edit), and
 * `default_member_permissions` may be a JSON integer as well as a decimal string.
 */
import { ServiceLimits as L } from "./limits";
import type { Issue, Path } from "./issues";
import { FieldCode, Issues, codePoints, describe, isObject } from "./issues";
import { checkLocalizations, checkName, checkOptions } from "./options";
import type { CommandField } from "../schema";
import { COMMAND_FIELDS, endpointTreatment, typeRefusal } from "../schema";

type Json = Record<string, unknown>;
type Scope = "global" | "guild";
export type Mode = "create" | "edit" | "bulk";
type Where = `${Scope}:${Mode}`;

const COMMAND_TYPES: readonly number[] = [1, 2, 3, 4];
const CONTEXTS: readonly number[] = [0, 1, 2];
const INTEGRATION_TYPES: readonly number[] = [0, 1];
const HANDLERS: readonly number[] = [1, 2];
const PERMISSION_BITS = /^\d+$/;

/**
 * What each endpoint does with a body field, from the field table (provider/schema
 * fields.ts, read through emulator/schema.ts `endpointTreatment`): `keep` (accepted and
 * applied) or `drop` (accepted and ignored: named in the warning header). Fields the table
 * does not take at an endpoint are ignored silently, as the service ignores unknown keys.
 * What a kept field's value must be is checked below, by the service's rules; a kept field
 * that no rule below copies into the command is dropped (test/emulator/fieldKeeping.test.ts
 * fails naming it).
 */
const FIELDS = Object.keys(COMMAND_FIELDS) as CommandField[];

interface CommandRequestContext {
  readonly scope: Scope;
  readonly mode: Mode;
  /** For edit: the type of the command being edited. */
  readonly existingType?: number;
}

type CommandValidation =
  { ok: true; value: Json; ignored: string[] } | { ok: false; issues: Issue[] };

function given(o: Json, key: string): boolean {
  return o[key] !== undefined && o[key] !== null;
}

/** The size rule (spec "Limits"): the longest variant of each name and description, values. */
function size(body: unknown): number {
  const longest = (v: unknown, locs: unknown): number => {
    let n = typeof v === "string" ? codePoints(v) : 0;
    if (isObject(locs)) {
      for (const x of Object.values(locs))
        if (typeof x === "string") n = Math.max(n, codePoints(x));
    }
    return n;
  };
  const options = (list: unknown): number => {
    if (!Array.isArray(list)) return 0;
    let total = 0;
    for (const o of list) {
      if (!isObject(o)) continue;
      total += longest(o["name"], o["name_localizations"]);
      total += longest(o["description"], o["description_localizations"]);
      if (Array.isArray(o["choices"])) {
        for (const c of o["choices"]) {
          if (!isObject(c)) continue;
          total += longest(c["name"], c["name_localizations"]);
          const v = c["value"];
          total +=
            typeof v === "string" ? codePoints(v) : typeof v === "number" ? String(v).length : 0;
        }
      }
      total += options(o["options"]);
    }
    return total;
  };
  if (!isObject(body)) return 0;
  return (
    longest(body["name"], body["name_localizations"]) +
    longest(body["description"], body["description_localizations"]) +
    options(body["options"])
  );
}

/** Whether a stored or merged command breaks the size rule (the edit's result is checked too). */
export function oversize(command: object): boolean {
  return size(command) > L.COMMAND_SIZE_MAX;
}

/** A permission bit set: a decimal string (spec) or a JSON integer (document), at most 2^54. */
function permissionBits(out: Issues, v: unknown, path: Path): string | undefined {
  let bits: bigint | undefined;
  if (typeof v === "string" && PERMISSION_BITS.test(v)) bits = BigInt(v);
  else if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) bits = BigInt(v);
  // JSON numbers past 2^53 lose digits; the document's maximum, 2^54, is exact.
  else if (typeof v === "number" && v === 2 ** 54) bits = BigInt(v);
  if (bits === undefined || bits > L.PERMISSIONS_MAX) {
    out.add(path, FieldCode.PERMISSIONS_INVALID, `Invalid permission bit set ${describe(v)}.`);
    return undefined;
  }
  return bits.toString();
}

/**
 * What each rule of a command's fields reads and writes: the issues, the body as sent, the
 * command's type (undefined when the body's is invalid), whether the endpoint creates (create
 * and bulk) rather than edits, and the cleaned command (the fields that passed).
 */
interface CommandFields {
  readonly out: Issues;
  readonly body: Json;
  readonly type: number | undefined;
  readonly creating: boolean;
  readonly value: Json;
}

export function validateCommandRequest(
  body: unknown,
  ctx: CommandRequestContext,
): CommandValidation {
  const out = new Issues();
  if (!isObject(body)) {
    out.add([], FieldCode.DICT_TYPE, "Only dictionaries may be used in a DictType");
    return { ok: false, issues: out.list };
  }
  const creating = ctx.mode !== "edit";
  const fields: CommandFields = {
    out,
    body,
    type: commandType(out, body, ctx),
    creating,
    value: {},
  };
  checkTypeFields(fields);
  checkId(fields);
  checkCommandName(fields);
  if (fields.type === 2 || fields.type === 3) checkNoDescription(fields);
  else checkDescription(fields);
  checkCommandOptions(fields);
  checkAccess(fields);
  checkHandler(fields);
  if (size(body) > L.COMMAND_SIZE_MAX) {
    out.add([], FieldCode.TOO_LARGE, `Command exceeds maximum size (${L.COMMAND_SIZE_MAX})`);
  }
  if (!out.empty) return { ok: false, issues: out.list };
  return { ok: true, ...applied(body, fields.value, `${ctx.scope}:${ctx.mode}`) };
}

/**
 * The command's type: on create and bulk the body's (1 when absent), on edit the edited
 * command's (the body's is ignored but still checked to be a command type). An entry point
 * is global only.
 */
function commandType(out: Issues, body: Json, ctx: CommandRequestContext): number | undefined {
  let type: number | undefined = 1;
  const creating = ctx.mode !== "edit";
  if (given(body, "type")) {
    const ok = out.oneOf(body["type"], ["type"], COMMAND_TYPES);
    if (creating) type = ok ? (body["type"] as number) : undefined;
  }
  if (!creating) type = ctx.existingType ?? 1;
  if (type === 4 && ctx.scope === "guild") {
    out.add(
      ["type"],
      FieldCode.ENTRY_POINT_IN_GUILD,
      "Entry point commands cannot be guild commands.",
    );
  }
  return type;
}

/** The fields the command's type does not take (the field table's `onlyFor`). */
function checkTypeFields({ out, body, type }: CommandFields): void {
  if (type === undefined) return;
  for (const field of FIELDS) {
    const refusal = given(body, field) ? typeRefusal(field, type, body[field]) : undefined;
    if (refusal !== undefined) out.add([field], refusal.code, `${refusal.rule}.`);
  }
}

/** `id` (bulk items): a snowflake. */
function checkId({ out, body }: CommandFields): void {
  if (!given(body, "id")) return;
  const id = body["id"];
  if (typeof id !== "string" || !/^\d{1,20}$/.test(id) || BigInt(id) >= 2n ** 64n) {
    out.add(["id"], FieldCode.NUMBER_COERCE, `Value ${describe(id)} is not snowflake.`);
  }
}

/** `name`: required on create and bulk, never null (document: not nullable). */
function checkCommandName({ out, body, type, creating }: CommandFields): void {
  const chatInput = type === 1;
  if (body["name"] !== undefined) checkName(out, body["name"], ["name"], chatInput);
  else if (creating) out.add(["name"], FieldCode.REQUIRED, "This field is required");
  checkLocalizations(out, body["name_localizations"], ["name_localizations"], (v, at) =>
    checkName(out, v, at, chatInput),
  );
}

/** USER and MESSAGE commands: a description absent, null or "" only. */
function checkNoDescription({ out, body }: CommandFields): void {
  const d = body["description"];
  if (d !== undefined && d !== null && d !== "") {
    if (typeof d !== "string") out.add(["description"], FieldCode.STRING_TYPE, "Must be a string.");
    else
      out.add(
        ["description"],
        FieldCode.DESCRIPTION_NOT_ALLOWED,
        "USER and MESSAGE commands have no description.",
      );
  }
  const dl = body["description_localizations"];
  if (dl !== undefined && dl !== null && !(isObject(dl) && Object.keys(dl).length === 0)) {
    out.add(
      ["description_localizations"],
      FieldCode.DESCRIPTION_NOT_ALLOWED,
      "USER and MESSAGE commands have no description.",
    );
  }
}

/**
 * CHAT_INPUT and entry point commands: a description of 1-100 (spec), so also required on
 * create and bulk and never null.
 */
function checkDescription({ out, body, type, creating }: CommandFields): void {
  const check = (v: unknown, at: Path) => out.string(v, at, L.DESCRIPTION_MIN, L.DESCRIPTION_MAX);
  const d = body["description"];
  if (d === null) out.add(["description"], FieldCode.REQUIRED, "This field is required");
  else if (d !== undefined) check(d, ["description"]);
  else if (creating && type !== undefined)
    out.add(["description"], FieldCode.REQUIRED, "This field is required");
  checkLocalizations(out, body["description_localizations"], ["description_localizations"], check);
}

/** `options`: CHAT_INPUT commands only (refused on the others by `checkTypeFields`). */
function checkCommandOptions({ out, body, type, value }: CommandFields): void {
  if (given(body, "options") && type === 1) {
    value["options"] = checkOptions(out, body["options"], ["options"], "command");
  }
}

/** Who may see and use the command: permissions, the boolean switches, installs, contexts. */
function checkAccess({ out, body, value }: CommandFields): void {
  if (given(body, "default_member_permissions")) {
    const bits = permissionBits(out, body["default_member_permissions"], [
      "default_member_permissions",
    ]);
    if (bits !== undefined) value["default_member_permissions"] = bits;
  }
  for (const field of ["dm_permission", "default_permission", "nsfw"]) {
    if (given(body, field) && out.boolean(body[field], [field])) value[field] = body[field];
  }
  for (const [field, allowed] of [
    ["integration_types", INTEGRATION_TYPES],
    ["contexts", CONTEXTS],
  ] as const) {
    if (!given(body, field)) continue;
    const list = body[field];
    // document: minItems 1, uniqueItems.
    if (out.array(list, [field], allowed.length)) {
      if (list.length === 0) out.add([field], FieldCode.MIN_LENGTH, "Must be 1 or more in length.");
      list.forEach((x, i) => out.oneOf(x, [field, i], allowed));
      out.unique(list, [field]);
      value[field] = list;
    }
  }
}

/** `handler`: PRIMARY_ENTRY_POINT commands only (refused on the others by `checkTypeFields`). */
function checkHandler({ out, body, type, value }: CommandFields): void {
  if (!given(body, "handler") || (type !== undefined && type !== 4)) return;
  if (out.oneOf(body["handler"], ["handler"], HANDLERS)) value["handler"] = body["handler"];
}

/**
 * The valid command as the endpoint applies it: the fields taken as sent added to the
 * cleaned ones, less what the endpoint ignores (named in the warning header).
 */
function applied(body: Json, value: Json, where: Where): { value: Json; ignored: string[] } {
  const ignored: string[] = [];
  for (const field of ["name", "name_localizations", "description", "description_localizations"]) {
    if (given(body, field)) value[field] = body[field];
  }
  if (given(body, "type")) value["type"] = body["type"];
  if (given(body, "id")) value["id"] = body["id"];
  for (const field of FIELDS) {
    if (endpointTreatment(field, where) === "drop" && body[field] !== undefined) {
      delete value[field];
      ignored.push(field);
    }
  }
  return { value, ignored };
}
