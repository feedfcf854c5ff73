/**
 * The emulator's validation results: issues with the request body's path, the service's
 * field-error code (a string on the wire) and a message; and the service's error tree.
 */
export type Path = (string | number)[];

export interface Issue {
  readonly path: Path;
  readonly code: string;
  readonly message: string;
}

/** Field-error codes as the service sends them (discord-api-docs, "Error Messages"). */
export const FieldCode = {
  REQUIRED: "BASE_TYPE_REQUIRED",
  BAD_LENGTH: "BASE_TYPE_BAD_LENGTH",
  MAX_LENGTH: "BASE_TYPE_MAX_LENGTH",
  MIN_LENGTH: "BASE_TYPE_MIN_LENGTH",
  CHOICES: "BASE_TYPE_CHOICES",
  NUMBER_MIN: "NUMBER_TYPE_MIN",
  NUMBER_MAX: "NUMBER_TYPE_MAX",
  NUMBER_COERCE: "NUMBER_TYPE_COERCE",
  STRING_TYPE: "STRING_TYPE_CONVERT",
  BOOLEAN_TYPE: "BOOLEAN_TYPE_CONVERT",
  LIST_TYPE: "LIST_TYPE_CONVERT",
  DICT_TYPE: "DICT_TYPE_CONVERT",
  LIST_DUPLICATES: "LIST_ITEM_VALUE_DUPLICATE",
  LOCALE_INVALID: "LOCALE_INVALID",
  INVALID_NAME: "APPLICATION_COMMAND_INVALID_NAME",
  REQUIRED_ORDER: "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
  DUPLICATE_NAME: "APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME",
  DUPLICATE_LOCALIZED_NAME: "APPLICATION_COMMAND_OPTIONS_DUPLICATE_LOCALIZED_NAME",
  TOO_LARGE: "APPLICATION_COMMAND_TOO_LARGE",
  DESCRIPTION_NOT_ALLOWED: "APPLICATION_COMMAND_DESCRIPTION_NOT_ALLOWED",
  OPTIONS_NOT_ALLOWED: "APPLICATION_COMMAND_OPTIONS_NOT_ALLOWED",
  OPTIONS_TYPE_INVALID: "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
  OPTION_FIELD_NOT_ALLOWED: "APPLICATION_COMMAND_OPTION_FIELD_NOT_ALLOWED",
  CHOICE_VALUE_TYPE: "APPLICATION_COMMAND_OPTION_CHOICE_VALUE_INVALID",
  AUTOCOMPLETE_WITH_CHOICES: "APPLICATION_COMMAND_AUTOCOMPLETE_WITH_CHOICES",
  MIN_ABOVE_MAX: "APPLICATION_COMMAND_OPTION_MIN_ABOVE_MAX",
  ENTRY_POINT_IN_GUILD: "APPLICATION_COMMAND_ENTRY_POINT_GUILD_INVALID",
  PERMISSIONS_INVALID: "PERMISSIONS_BITFIELD_INVALID",
  DUPLICATE_OVERWRITE: "APPLICATION_COMMAND_PERMISSIONS_DUPLICATE",
} as const;

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "string") return `"${v.length > 40 ? v.slice(0, 40) + "..." : v}"`;
  if (typeof v === "object") return "an object";
  return String(v);
}

/** Length in Unicode code points, as the service counts characters. */
export function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * The service's error tree: the body's JSON path with array indices as keys and
 * `{_errors: [{code, message}]}` leaves. Built from null-prototype objects: a body key
 * such as `__proto__` is a path segment like any other, never the prototype.
 */
export function errorTree(issues: readonly Issue[]): Record<string, unknown> {
  const root: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const issue of issues) {
    let node = root;
    for (const seg of issue.path) {
      const key = String(seg);
      const next = Object.hasOwn(node, key) ? node[key] : undefined;
      if (isObject(next)) node = next;
      else {
        const created = Object.create(null) as Record<string, unknown>;
        node[key] = created;
        node = created;
      }
    }
    const entry = { code: issue.code, message: issue.message };
    const errors = Object.hasOwn(node, "_errors") ? node["_errors"] : undefined;
    if (Array.isArray(errors)) errors.push(entry);
    else node["_errors"] = [entry];
  }
  return root;
}

/** Collects the issues of one request body, with small checks that report as the service does. */
export class Issues {
  readonly list: Issue[] = [];

  add(path: Path, code: string, message: string): void {
    this.list.push({ path, code, message });
  }

  get empty(): boolean {
    return this.list.length === 0;
  }

  string(v: unknown, path: Path, min: number, max: number): v is string {
    if (typeof v !== "string") {
      this.add(path, FieldCode.STRING_TYPE, `Must be a string, got ${describe(v)}.`);
      return false;
    }
    const n = codePoints(v);
    if (n < min || n > max) {
      this.add(path, FieldCode.BAD_LENGTH, `Must be between ${min} and ${max} in length.`);
      return false;
    }
    return true;
  }

  boolean(v: unknown, path: Path): v is boolean {
    if (typeof v !== "boolean") {
      this.add(path, FieldCode.BOOLEAN_TYPE, `Must be true or false, got ${describe(v)}.`);
      return false;
    }
    return true;
  }

  oneOf(v: unknown, path: Path, allowed: readonly number[]): v is number {
    if (typeof v !== "number" || !allowed.includes(v)) {
      this.add(
        path,
        FieldCode.CHOICES,
        `Value must be one of (${allowed.join(", ")}), got ${describe(v)}.`,
      );
      return false;
    }
    return true;
  }

  array(v: unknown, path: Path, max: number): v is unknown[] {
    if (!Array.isArray(v)) {
      this.add(path, FieldCode.LIST_TYPE, `Must be a list, got ${describe(v)}.`);
      return false;
    }
    if (v.length > max) {
      this.add(path, FieldCode.MAX_LENGTH, `Must be ${max} or fewer in length.`);
      return false;
    }
    return true;
  }

  /** The document's `uniqueItems`: a set sent as a list holds each value once. */
  unique(list: readonly unknown[], path: Path): boolean {
    const dup = list.findIndex((x, i) => list.indexOf(x) !== i);
    if (dup >= 0) {
      this.add([...path, dup], FieldCode.LIST_DUPLICATES, "List items must be unique.");
      return false;
    }
    return true;
  }

  number(v: unknown, path: Path, min: number, max: number, integer: boolean): v is number {
    if (typeof v !== "number" || !Number.isFinite(v) || (integer && !Number.isInteger(v))) {
      this.add(
        path,
        FieldCode.NUMBER_COERCE,
        `Value ${describe(v)} is not ${integer ? "an integer" : "a number"}.`,
      );
      return false;
    }
    if (v < min) {
      this.add(path, FieldCode.NUMBER_MIN, `Must be greater than or equal to ${min}.`);
      return false;
    }
    if (v > max) {
      this.add(path, FieldCode.NUMBER_MAX, `Must be less than or equal to ${max}.`);
      return false;
    }
    return true;
  }
}
