/**
 * Validation results: issues with a path in wire (snake_case) keys, a code and a plain
 * message; formatting of paths for users and of the service's error tree for the emulator.
 */
import type { Path, PathSegment } from "./secrecy";
import { Secrecy } from "./secrecy";

export type { Path };

export interface SchemaIssue {
  /** Path in WIRE (snake_case) keys, except where a function documents otherwise. */
  path: Path;
  /** The service's error code where known, otherwise a consistent UPPER_SNAKE code. */
  code: string;
  message: string;
}

export type Validation<T> =
  { ok: true; value: T; warnings: SchemaIssue[] } | { ok: false; issues: SchemaIssue[] };

/** Every code the schema emits. Codes marked (service) are the real service's. */
export const Codes = {
  /** (service) a required field is missing. */
  REQUIRED: "BASE_TYPE_REQUIRED",
  /** (service) a string is too short or too long. */
  BAD_LENGTH: "BASE_TYPE_BAD_LENGTH",
  /** (service) an array has too many items. */
  MAX_LENGTH: "BASE_TYPE_MAX_LENGTH",
  /** (service) a value is not one of the allowed values. */
  CHOICES: "BASE_TYPE_CHOICES",
  /** (service) a number is below its minimum. */
  NUMBER_MIN: "NUMBER_TYPE_MIN",
  /** (service) a number is above its maximum. */
  NUMBER_MAX: "NUMBER_TYPE_MAX",
  /** (service) a value is not a number, an integer or a snowflake. */
  NUMBER_COERCE: "NUMBER_TYPE_COERCE",
  /** (service) name does not match the naming rules. */
  INVALID_NAME: "APPLICATION_COMMAND_INVALID_NAME",
  /** (service) a required option follows an optional one. */
  REQUIRED_ORDER: "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
  /** (service) two options of one array share a name. */
  DUPLICATE_NAME: "APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME",
  /** (service) the command exceeds the size limit. */
  TOO_LARGE: "APPLICATION_COMMAND_TOO_LARGE",
  /** (service) a localization key is not a known locale. */
  LOCALE_INVALID: "LOCALE_INVALID",
  STRING_TYPE: "STRING_TYPE_CONVERT",
  BOOLEAN_TYPE: "BOOLEAN_TYPE_CONVERT",
  LIST_TYPE: "LIST_TYPE_CONVERT",
  DICT_TYPE: "DICT_TYPE_CONVERT",
  /** A localized option name equals another option name of the same options array. */
  DUPLICATE_LOCALIZED_NAME: "APPLICATION_COMMAND_OPTIONS_DUPLICATE_LOCALIZED_NAME",
  /** USER or MESSAGE command with a description. */
  DESCRIPTION_NOT_ALLOWED: "APPLICATION_COMMAND_DESCRIPTION_NOT_ALLOWED",
  /**
   * (service) options on a command that is not CHAT_INPUT: the service's answer quoted in
   * discord/discord-api-docs#8574 ("Context menu commands cannot have options").
   */
  CONTEXT_MENU_OPTIONS: "APPLICATION_COMMAND_CONTEXT_MENU_OPTIONS_INVALID",
  /** options on a plain option (not a subcommand or group). */
  OPTIONS_NOT_ALLOWED: "APPLICATION_COMMAND_OPTIONS_NOT_ALLOWED",
  /** Subcommand nesting broken (mix of subcommands and plain options, groups in groups...). */
  OPTIONS_TYPE_INVALID: "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
  /** An option field used on an option type that does not take it. */
  OPTION_FIELD_NOT_ALLOWED: "APPLICATION_COMMAND_OPTION_FIELD_NOT_ALLOWED",
  /** A choice value whose type does not match the option's type. */
  CHOICE_VALUE_TYPE: "APPLICATION_COMMAND_OPTION_CHOICE_VALUE_INVALID",
  /** autocomplete together with choices. */
  AUTOCOMPLETE_WITH_CHOICES: "APPLICATION_COMMAND_AUTOCOMPLETE_WITH_CHOICES",
  /** min_value above max_value or min_length above max_length. */
  MIN_ABOVE_MAX: "APPLICATION_COMMAND_OPTION_MIN_ABOVE_MAX",
  /** A field the write mode (create, edit, bulk) or scope (global, guild) does not accept. */
  FIELD_NOT_ALLOWED: "APPLICATION_COMMAND_FIELD_NOT_ALLOWED",
  /** handler on a command that is not PRIMARY_ENTRY_POINT. */
  HANDLER_NOT_ALLOWED: "APPLICATION_COMMAND_HANDLER_NOT_ALLOWED",
  /** PRIMARY_ENTRY_POINT in a guild. */
  ENTRY_POINT_IN_GUILD: "APPLICATION_COMMAND_ENTRY_POINT_GUILD_INVALID",
  /** default_member_permissions that is not a decimal bit set. */
  PERMISSIONS_INVALID: "PERMISSIONS_BITFIELD_INVALID",
  /** Two permission overwrites for the same (id, type). */
  DUPLICATE_OVERWRITE: "APPLICATION_COMMAND_PERMISSIONS_DUPLICATE",
  /** (warning) a deprecated field. */
  DEPRECATED: "FIELD_DEPRECATED",
  /** (warning) contexts other than GUILD on a guild command have no effect. */
  CONTEXT_IGNORED: "GUILD_CONTEXT_IGNORED",
  /** (SDK shape only) a key the SDK does not know, usually a typo or a snake_case key. */
  UNKNOWN_FIELD: "UNKNOWN_FIELD",
} as const;
export type Code = (typeof Codes)[keyof typeof Codes];

/** `["options", 2, "choices", 0, "name"]` -> `"options[2].choices[0].name"`. */
export function formatPath(path: Path): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else out += out === "" ? seg : `.${seg}`;
  }
  return out;
}

/** One line per issue, as users read them: `options[2].name [CODE]: message`. */
export function formatIssues(issues: SchemaIssue[]): string {
  return issues
    .map((i) => `${i.path.length ? formatPath(i.path) : "(body)"} [${i.code}]: ${i.message}`)
    .join("\n");
}

/**
 * The service's error tree: the request body's JSON path with array indices as keys and
 * `{_errors: [{code, message}]}` leaves. Root issues land in the root's `_errors`.
 */
export function toErrorTree(issues: SchemaIssue[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const issue of issues) {
    let node = root;
    for (const seg of issue.path) {
      const key = String(seg);
      // Own keys only, defined (not assigned): a body's `__proto__` key must become a key
      // of the tree, never a way to write on Object.prototype.
      const next = Object.hasOwn(node, key) ? node[key] : undefined;
      if (isRecord(next)) {
        node = next;
      } else {
        const created: Record<string, unknown> = {};
        Object.defineProperty(node, key, {
          value: created,
          enumerable: true,
          writable: true,
          configurable: true,
        });
        node = created;
      }
    }
    const errors = node["_errors"];
    const entry = { code: issue.code, message: issue.message };
    if (Array.isArray(errors)) errors.push(entry);
    else node["_errors"] = [entry];
  }
  return root;
}

/**
 * Collects issues and warnings during one validation. Messages quote values only through
 * `quote`, which says `[secret]` for a value the program marked secret (`secrecy`, in the
 * validated value's own keys).
 */
export class IssueCollector {
  readonly issues: SchemaIssue[] = [];
  readonly warnings: SchemaIssue[] = [];
  constructor(readonly secrecy: Secrecy = Secrecy.NONE) {}
  /** `value` as a message may quote it, given where it sits (secrecy.ts `Secrecy.quote`). */
  quote(value: unknown, ...paths: (readonly PathSegment[])[]): string {
    return this.secrecy.quote(value, ...paths);
  }
  add(path: Path, code: Code, message: string): void {
    this.issues.push({ path, code, message });
  }
  warn(path: Path, code: Code, message: string): void {
    this.warnings.push({ path, code, message });
  }
  result<T>(value: () => T): Validation<T> {
    if (this.issues.length > 0) return { ok: false, issues: this.issues };
    return { ok: true, value: value(), warnings: this.warnings };
  }
}

/** A JSON object (not null, not an array). The one definition the project uses. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Length in characters (Unicode code points), as the service counts. */
const HIGH_SURROGATE = /[\uD800-\uDBFF]/;

export function charLength(s: string): number {
  if (!HIGH_SURROGATE.test(s)) return s.length;
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // a high surrogate followed by a low one is one character
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

// ---- small typed checks shared by the walkers; each returns whether the value passed ----
// `key`, when given, is appended to `path` only if an issue is reported (no allocation on
// the happy path: a maximal command has tens of thousands of localized values).

function at(path: Path, key: string | number | undefined): Path {
  return key === undefined ? path : [...path, key];
}

export function checkString(
  out: IssueCollector,
  v: unknown,
  path: Path,
  min: number,
  max: number,
  key?: string | number,
): v is string {
  if (typeof v !== "string") {
    const p = at(path, key);
    out.add(p, Codes.STRING_TYPE, `Must be a string, got ${out.quote(v, p)}.`);
    return false;
  }
  // charLength(v) <= v.length, and a string of 2*min units has at least min characters
  const n = v.length > max || v.length < 2 * min ? charLength(v) : v.length;
  if (n < min || n > max) {
    out.add(
      at(path, key),
      Codes.BAD_LENGTH,
      `Must be between ${min} and ${max} in length (got ${n} characters).`,
    );
    return false;
  }
  return true;
}

export function checkBoolean(
  out: IssueCollector,
  v: unknown,
  path: Path,
  key?: string | number,
): v is boolean {
  if (typeof v !== "boolean") {
    const p = at(path, key);
    out.add(p, Codes.BOOLEAN_TYPE, `Must be true or false, got ${out.quote(v, p)}.`);
    return false;
  }
  return true;
}

export function checkOneOf(
  out: IssueCollector,
  v: unknown,
  path: Path,
  allowed: readonly number[],
  what: string,
  key?: string | number,
): v is number {
  if (typeof v !== "number" || !allowed.includes(v)) {
    const p = at(path, key);
    out.add(
      p,
      Codes.CHOICES,
      `Value must be one of {${allowed.join(", ")}} (${what}), got ${out.quote(v, p)}.`,
    );
    return false;
  }
  return true;
}

export function checkArray(
  out: IssueCollector,
  v: unknown,
  path: Path,
  max: number,
): v is unknown[] {
  if (!Array.isArray(v)) {
    out.add(path, Codes.LIST_TYPE, `Must be a list, got ${out.quote(v, path)}.`);
    return false;
  }
  if (v.length > max) {
    out.add(path, Codes.MAX_LENGTH, `Must be ${max} or fewer in length (got ${v.length}).`);
  }
  return true;
}

/** A number within [min, max]; with `integer`, also an integer. */
export function checkNumber(
  out: IssueCollector,
  v: unknown,
  path: Path,
  min: number,
  max: number,
  integer: boolean,
): v is number {
  if (typeof v !== "number" || !Number.isFinite(v) || (integer && !Number.isInteger(v))) {
    out.add(
      path,
      Codes.NUMBER_COERCE,
      `Must be ${integer ? "an integer" : "a number"}, got ${out.quote(v, path)}.`,
    );
    return false;
  }
  if (v < min) {
    out.add(path, Codes.NUMBER_MIN, `Must be greater than or equal to ${min}.`);
    return false;
  }
  if (v > max) {
    out.add(path, Codes.NUMBER_MAX, `Must be less than or equal to ${max}.`);
    return false;
  }
  return true;
}
