/**
 * The command body on the wire (spec: "Application Command", "Body fields per write
 * endpoint") and its validator. Every rule lives here or in option.ts, names.ts, size.ts
 * or snowflake.ts; the SDK shape is validated by mapping it to this one (mapping.ts).
 *
 * Choices written down here:
 * - PRIMARY_ENTRY_POINT: names follow the USER/MESSAGE rules (mixed case and spaces: the
 *   service's own entry point is named "Launch"); it has a description, required on
 *   create and bulk, 1-100 like CHAT_INPUT; `handler` (1 or 2) is allowed and optional;
 *   no options; global only (rule 13).
 * - USER and MESSAGE: description absent or "" (what the service returns); a non-empty
 *   description or description_localizations is rejected.
 * - Scopes and write modes follow the spec's table. Global bulk (endpoint 6, fields "not
 *   shown") is taken as global create plus `id`. Guild bulk (endpoint 12) accepts `id`,
 *   `dm_permission`, `integration_types` and `contexts` (marked R in the table, but each
 *   has a stated default, so they are accepted and not required) and rejects `nsfw`
 *   (blank in the table). Guild create and edit reject `dm_permission`,
 *   `integration_types` and `contexts`. That is the provider's (strict) reading; the
 *   emulator passes `tolerant` to accept, as the real service does, the blank cells
 *   that real clients fill (fields.ts, `tolerated`). `description` is required on create and bulk
 *   for the types that have one (CHAT_INPUT, PRIMARY_ENTRY_POINT).
 * - Edit (PATCH) accepts every field as optional except `type`; rules that depend on the
 *   type use `ctx.existingType` (CHAT_INPUT when not given). The size rule counts the
 *   fields given; to check the size of the result, validate the merged command in
 *   create mode.
 * - `required: false` on a subcommand or group is accepted (it changes nothing); `true`
 *   is rejected.
 */
import { z } from "zod";
import {
  COMMAND_TYPES,
  CONTEXT_TYPES,
  COMMAND_TYPE_NAMES,
  CommandType,
  ENTRY_POINT_HANDLERS,
  INTEGRATION_TYPES,
  InteractionContextType,
  Limits,
} from "./constants";
import type { Path, SchemaIssue, Validation } from "./issues";
import {
  Codes,
  IssueCollector,
  checkArray,
  checkBoolean,
  checkOneOf,
  checkString,
  isRecord,
} from "./issues";
import { checkLocalizations, checkName } from "./names";
import type { Secrecy } from "./secrecy";
import { checkOptionArray } from "./option";
import { oversize } from "./size";
import { checkSnowflake } from "./snowflake";
import type { Where } from "./fieldSpec";
import { COMMAND_FIELDS } from "./fields";
import { acceptedIn, toleratedIn, typeRefusal } from "./endpointFields";
import type { CommandField, Scope, WireCommandBody, WireCommandPatch, WriteMode } from "./shapes";
import { wireCommandBodySchema, wireCommandPatchSchema } from "./shapes";

export type { Scope, WireCommand, WireCommandBody, WireCommandPatch, WriteMode } from "./shapes";
export interface WireContext {
  scope: Scope;
  mode: WriteMode;
  /** For `edit`: the type of the command being edited (type-dependent rules need it). */
  existingType?: number;
  /**
   * The emulator's reading: fields the service tolerates where the spec's table is blank
   * (fields.ts, `tolerated`) pass, their values still checked. The provider leaves it
   * off: what a program declares follows the spec.
   */
  tolerant?: boolean;
  /** The body's secret values, in its wire keys: messages quote them as `[secret]`. */
  secrecy?: Secrecy;
}

// ---------------------------------------------------------------- rules ----------------

const WHERE_TEXT: Record<Where, string> = {
  "global:create": "creating a global command",
  "global:edit": "editing a global command",
  "global:bulk": "a global bulk overwrite",
  "guild:create": "creating a guild command",
  "guild:edit": "editing a guild command",
  "guild:bulk": "a guild bulk overwrite",
};

const PERMISSION_BITS = /^\d+$/;

/**
 * What each rule of a command reads: the issues, the body, the endpoint, whether it creates
 * (create and bulk) rather than edits, the command's type (undefined when the body's is
 * invalid) as messages name it, and whether a field is given and accepted at the endpoint
 * (a rejected field is reported once, by `checkAcceptedFields`, and its rules are skipped).
 */
interface CommandCheck {
  readonly out: IssueCollector;
  readonly body: Record<string, unknown>;
  readonly ctx: WireContext;
  readonly creating: boolean;
  readonly type: number | undefined;
  readonly typeText: string;
  readonly given: (field: string) => boolean;
}

/** Checks a command body against every rule; issues and warnings go to `out`. */
export function checkCommand(out: IssueCollector, body: unknown, ctx: WireContext): void {
  if (!isRecord(body)) {
    out.add([], Codes.DICT_TYPE, `The command must be an object, got ${out.quote(body, [])}.`);
    return;
  }
  const rejected = checkAcceptedFields(out, body, ctx);
  const given = (field: string) => body[field] !== undefined && !rejected.has(field);
  const type = checkCommandType(out, body, ctx, given);
  const typeText = type === undefined ? "this" : (COMMAND_TYPE_NAMES[type] ?? String(type));
  if (type !== undefined) checkTypeFields(out, body, type, typeText, rejected);
  const c: CommandCheck = { out, body, ctx, creating: ctx.mode !== "edit", type, typeText, given };
  if (given("id")) checkSnowflake(out, body["id"], ["id"]);
  checkCommandName(c);
  if (type === CommandType.USER || type === CommandType.MESSAGE) checkNoDescription(c);
  else checkDescription(c);
  checkCommandOptions(c);
  checkMemberPermissions(c);
  checkDeprecatedFields(c);
  if (given("nsfw")) checkBoolean(out, body["nsfw"], ["nsfw"]);
  checkInstallation(c);
  checkHandler(c);
  checkCommandSize(out, body);
}

/** The fields the endpoint does not take (spec: "Body fields per write endpoint"). */
function checkAcceptedFields(
  out: IssueCollector,
  body: Record<string, unknown>,
  ctx: WireContext,
): Set<string> {
  const where: Where = `${ctx.scope}:${ctx.mode}`;
  const rejected = new Set<string>();
  for (const field of Object.keys(COMMAND_FIELDS) as CommandField[]) {
    if (body[field] === undefined) continue;
    if (!acceptedIn(field, where) && !(ctx.tolerant === true && toleratedIn(field, where))) {
      rejected.add(field);
      out.add(
        [field],
        Codes.FIELD_NOT_ALLOWED,
        `"${field}" is not accepted when ${WHERE_TEXT[where]}.`,
      );
    }
  }
  return rejected;
}

/** The fields the command's type does not take (fields.ts `onlyFor`); their rules are skipped. */
function checkTypeFields(
  out: IssueCollector,
  body: Record<string, unknown>,
  type: number,
  typeText: string,
  rejected: Set<string>,
): void {
  for (const field of Object.keys(COMMAND_FIELDS) as CommandField[]) {
    if (body[field] === undefined || rejected.has(field)) continue;
    const refusal = typeRefusal(field, type, body[field]);
    if (refusal === undefined) continue;
    rejected.add(field);
    out.add([field], refusal.code, `${refusal.rule}, not on ${typeText}.`);
  }
}

/**
 * The command's type: on create and bulk the body's (CHAT_INPUT when absent), on edit the
 * edited command's. Rule 13: never PRIMARY_ENTRY_POINT in a guild.
 */
function checkCommandType(
  out: IssueCollector,
  body: Record<string, unknown>,
  ctx: WireContext,
  given: (field: string) => boolean,
): number | undefined {
  let type: number | undefined = CommandType.CHAT_INPUT;
  if (ctx.mode === "edit") {
    type = ctx.existingType ?? CommandType.CHAT_INPUT;
    // Tolerated on edit (and ignored): still a command type, or the service says so.
    if (given("type")) checkOneOf(out, body["type"], ["type"], COMMAND_TYPES, "a command type");
  } else if (given("type")) {
    type = checkOneOf(out, body["type"], ["type"], COMMAND_TYPES, "a command type")
      ? body["type"]
      : undefined;
  }
  if (type === CommandType.PRIMARY_ENTRY_POINT && ctx.scope === "guild") {
    out.add(
      ["type"],
      Codes.ENTRY_POINT_IN_GUILD,
      "A PRIMARY_ENTRY_POINT command cannot be a guild command: register it globally.",
    );
  }
  return type;
}

/** Rules 1, 2: the name and its localizations; CHAT_INPUT names are the strict kind. */
function checkCommandName({ out, body, type, creating, given }: CommandCheck): void {
  const style = type === CommandType.CHAT_INPUT ? "chat_input" : "free";
  if (given("name")) checkName(out, body["name"], ["name"], style);
  else if (creating) out.add(["name"], Codes.REQUIRED, "This field is required.");
  checkLocalizations(out, body["name_localizations"], ["name_localizations"], (v, at, locale) =>
    checkName(out, v, at, style, locale),
  );
}

/** Rule 3, USER and MESSAGE: no description (absent or ""), so no localizations of one. */
function checkNoDescription({ out, body, typeText }: CommandCheck): void {
  const d = body["description"];
  if (d !== undefined && d !== "") {
    if (typeof d !== "string") {
      const got = out.quote(d, ["description"]);
      out.add(["description"], Codes.STRING_TYPE, `Must be a string, got ${got}.`);
    } else {
      out.add(
        ["description"],
        Codes.DESCRIPTION_NOT_ALLOWED,
        `A ${typeText} command has no description: leave it out or use "".`,
      );
    }
  }
  const dl = body["description_localizations"];
  if (dl !== undefined && dl !== null && !(isRecord(dl) && Object.keys(dl).length === 0)) {
    out.add(
      ["description_localizations"],
      Codes.DESCRIPTION_NOT_ALLOWED,
      `A ${typeText} command has no description, so no description_localizations.`,
    );
  }
}

/** Rule 3, the other types: 1-100 characters, required on create and bulk. */
function checkDescription({ out, body, type, typeText, creating, given }: CommandCheck): void {
  const checkText = (v: unknown, at: Path, locale?: string) =>
    checkString(out, v, at, Limits.DESCRIPTION_MIN, Limits.DESCRIPTION_MAX, locale);
  if (given("description")) checkText(body["description"], ["description"]);
  else if (creating && type !== undefined) {
    out.add(["description"], Codes.REQUIRED, `A ${typeText} command needs a description.`);
  }
  checkLocalizations(
    out,
    body["description_localizations"],
    ["description_localizations"],
    checkText,
  );
}

/** Rules 3-10: options only on CHAT_INPUT (fields.ts `onlyFor`, checked before). */
function checkCommandOptions({ out, body, type, given }: CommandCheck): void {
  if (given("options") && type === CommandType.CHAT_INPUT) {
    checkOptionArray(out, body["options"], ["options"], "command");
  }
}

/** Rule 12: a permission bit set as a decimal string, or null. */
function checkMemberPermissions({ out, body, given }: CommandCheck): void {
  const dmp = body["default_member_permissions"];
  if (!given("default_member_permissions") || dmp === null) return;
  if (typeof dmp !== "string" || !PERMISSION_BITS.test(dmp)) {
    out.add(
      ["default_member_permissions"],
      Codes.PERMISSIONS_INVALID,
      `Must be a permission bit set as a decimal string (e.g. "32"), or null; got ${out.quote(dmp, ["default_member_permissions"])}.`,
    );
  }
}

/** The fields the service deprecates: booleans, each with a warning naming its successor. */
function checkDeprecatedFields({ out, body, given }: CommandCheck): void {
  if (given("dm_permission") && checkBoolean(out, body["dm_permission"], ["dm_permission"])) {
    out.warn(
      ["dm_permission"],
      Codes.DEPRECATED,
      "dm_permission is deprecated: use contexts (include BOT_DM, 1, to allow DMs with the app).",
    );
  }
  if (given("default_permission") && body["default_permission"] !== null) {
    if (checkBoolean(out, body["default_permission"], ["default_permission"])) {
      out.warn(
        ["default_permission"],
        Codes.DEPRECATED,
        'default_permission is deprecated: use default_member_permissions ("0" disables the command for everyone but admins).',
      );
    }
  }
}

/**
 * Where the command is installed and used: `integration_types` and `contexts` are lists of
 * known values, or null; BOT_DM in a guild command's contexts has no effect (a warning).
 */
function checkInstallation({ out, body, ctx, given }: CommandCheck): void {
  for (const [field, allowed, what] of [
    ["integration_types", INTEGRATION_TYPES, "an integration type"],
    ["contexts", CONTEXT_TYPES, "an interaction context type"],
  ] as const) {
    const list = body[field];
    if (!given(field) || list === null) continue;
    if (checkArray(out, list, [field], allowed.length)) {
      for (let i = 0; i < list.length; i++) checkOneOf(out, list[i], [field, i], allowed, what);
    }
  }
  const contexts = body["contexts"];
  if (ctx.scope === "guild" && given("contexts") && Array.isArray(contexts)) {
    if (contexts.includes(InteractionContextType.BOT_DM)) {
      out.warn(
        ["contexts"],
        Codes.CONTEXT_IGNORED,
        "Guild commands do not support BOT_DM (1): it has no effect here.",
      );
    }
  }
}

/** Rule 13: `handler` (only on PRIMARY_ENTRY_POINT, fields.ts `onlyFor`) is an entry point handler. */
function checkHandler({ out, body, given }: CommandCheck): void {
  if (given("handler")) {
    checkOneOf(out, body["handler"], ["handler"], ENTRY_POINT_HANDLERS, "an entry point handler");
  }
}

/** Rule 11: the command's size. */
function checkCommandSize(out: IssueCollector, body: Record<string, unknown>): void {
  const size = oversize(body);
  if (size !== undefined) {
    out.add(
      [],
      Codes.TOO_LARGE,
      `The command is ${size} characters long; at most ${Limits.COMMAND_SIZE_MAX} are allowed (names, descriptions and choice values, longest localization of each).`,
    );
  }
}

function fromZod(issues: readonly z.core.$ZodIssue[]): SchemaIssue[] {
  return issues.map((i) => ({
    path: i.path.filter((s): s is string | number => typeof s !== "symbol"),
    code: "BASE_TYPE_INVALID",
    message: "Invalid value.",
  }));
}

/** Validates a wire command body for one write endpoint; collects every issue. */
export function validateWireCommand(
  body: unknown,
  ctx: WireContext & { mode: "edit" },
): Validation<WireCommandPatch>;
export function validateWireCommand(body: unknown, ctx: WireContext): Validation<WireCommandBody>;
export function validateWireCommand(
  body: unknown,
  ctx: WireContext,
): Validation<WireCommandBody> | Validation<WireCommandPatch> {
  const out = new IssueCollector(ctx.secrecy);
  checkCommand(out, body, ctx);
  if (out.issues.length > 0) return { ok: false, issues: out.issues };
  // The shape parse strips unknown keys; it cannot fail after the rules passed (a safety net).
  const parsed =
    ctx.mode === "edit"
      ? wireCommandPatchSchema.safeParse(body)
      : wireCommandBodySchema.safeParse(body);
  if (!parsed.success) return { ok: false, issues: fromZod(parsed.error.issues) };
  return { ok: true, value: parsed.data, warnings: out.warnings };
}

/**
 * A zod schema that enforces every rule for one write endpoint: issues carry the
 * service's code in `params.code`. For code that prefers zod (e.g. the emulator's router).
 */
export function wireCommandSchemaFor(ctx: WireContext) {
  return z
    .unknown()
    .superRefine((value, zctx) => {
      const out = new IssueCollector();
      checkCommand(out, value, ctx);
      for (const issue of out.issues) {
        zctx.addIssue({
          code: "custom",
          path: issue.path,
          message: issue.message,
          params: { code: issue.code },
        });
      }
    })
    .pipe(ctx.mode === "edit" ? wireCommandPatchSchema : wireCommandBodySchema);
}
