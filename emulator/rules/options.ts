/**
 * Options and choices of a command request, by the service's rules: the spec's
 * ("Application Command Option", "Option Choice", "Subcommand structure rules", "Limits")
 * and the service's OpenAPI description where the spec is silent (every optional option
 * field is nullable there: `null` is accepted and means "not given").
 */
import { LOCALES } from "../schema";
import { ServiceLimits as L } from "./limits";
import type { Issues, Path } from "./issues";
import { FieldCode, describe, isObject } from "./issues";

type Json = Record<string, unknown>;

const OptionKind = {
  SUB_COMMAND: 1,
  SUB_COMMAND_GROUP: 2,
  STRING: 3,
  INTEGER: 4,
  BOOLEAN: 5,
  USER: 6,
  CHANNEL: 7,
  ROLE: 8,
  MENTIONABLE: 9,
  NUMBER: 10,
  ATTACHMENT: 11,
} as const;
const OPTION_TYPES: readonly number[] = Object.values(OptionKind);
const SUBCOMMANDS: readonly number[] = [OptionKind.SUB_COMMAND, OptionKind.SUB_COMMAND_GROUP];
const WITH_CHOICES: readonly number[] = [OptionKind.STRING, OptionKind.INTEGER, OptionKind.NUMBER];
const WITH_RANGE: readonly number[] = [OptionKind.INTEGER, OptionKind.NUMBER];
/**
 * Channel types an option may restrict to: 0-5 and 10-16, as the service takes them (the
 * spec gives no numbers). Its OpenAPI description (test/contract/openapi.json) lists 0-5
 * and 10-15: GUILD_MEDIA (16) is newer than its enum and the service takes it
 * (discord-api-docs, Channel Types; test/contract/README.md).
 */
const CHANNEL_TYPES: readonly number[] = [0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15, 16];

const LOCALE_SET: ReadonlySet<string> = new Set<string>(LOCALES);

/** spec "Naming rules": CHAT_INPUT command names and every option name. */
const CHAT_INPUT_NAME = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

/** A name: 1-32 characters; for CHAT_INPUT and options also the regex and lowercase. */
export function checkName(out: Issues, v: unknown, path: Path, chatInput: boolean): v is string {
  if (!out.string(v, path, L.NAME_MIN, L.NAME_MAX)) return false;
  if (chatInput && (!CHAT_INPUT_NAME.test(v) || v.toLowerCase() !== v)) {
    out.add(path, FieldCode.INVALID_NAME, `Invalid name ${describe(v)}.`);
    return false;
  }
  return true;
}

/**
 * A localization dictionary (null = none): keys are locales, values follow `check`. The
 * valid entries are returned for the rules that compare localized names.
 */
export function checkLocalizations(
  out: Issues,
  v: unknown,
  path: Path,
  check: (value: unknown, at: Path) => boolean,
): Record<string, string> {
  const valid: Record<string, string> = {};
  if (v === undefined || v === null) return valid;
  if (!isObject(v)) {
    out.add(path, FieldCode.DICT_TYPE, `Must be an object keyed by locale, got ${describe(v)}.`);
    return valid;
  }
  for (const key of Object.keys(v)) {
    const value = v[key];
    if (!LOCALE_SET.has(key)) out.add([...path, key], FieldCode.LOCALE_INVALID, "Invalid locale.");
    else if (check(value, [...path, key]) && typeof value === "string") valid[key] = value;
  }
  return valid;
}

function given(o: Json, key: string): boolean {
  return o[key] !== undefined && o[key] !== null;
}

function notAllowed(out: Issues, path: Path, field: string, type: number): void {
  out.add(
    path,
    FieldCode.OPTION_FIELD_NOT_ALLOWED,
    `"${field}" is not allowed on option type ${type}.`,
  );
}

interface Checked {
  readonly value: Json | undefined;
  readonly type: number | undefined;
  readonly name: string | undefined;
  readonly localized: Record<string, string>;
  readonly required: boolean;
}

type Parent = "command" | "subcommand" | "group";

/**
 * An options array (spec: at most 25; required before optional; unique names; nesting one
 * level deep; a localized name differs from the names of the array). Returns the cleaned
 * options (nulls and unknown keys dropped) when there were no issues.
 */
export function checkOptions(out: Issues, v: unknown, path: Path, parent: Parent): Json[] {
  const cleaned: Json[] = [];
  if (!out.array(v, path, L.OPTIONS_MAX)) return cleaned;
  const checked = v.map((o, i) => checkOption(out, o, [...path, i]));
  let kind: "subcommands" | "plain" | undefined;
  let optionalSeen = false;
  const names = new Map<string, number>();
  checked.forEach((c, i) => {
    const at = [...path, i];
    if (c.type !== undefined) {
      const sub = SUBCOMMANDS.includes(c.type);
      if (parent === "group" && c.type !== OptionKind.SUB_COMMAND) {
        out.add([...at, "type"], FieldCode.OPTIONS_TYPE_INVALID, "A group holds subcommands only.");
      } else if (parent === "subcommand" && sub) {
        out.add([...at, "type"], FieldCode.OPTIONS_TYPE_INVALID, "Nesting is one level deep.");
      } else if (parent === "command") {
        const k = sub ? "subcommands" : "plain";
        kind ??= k;
        if (k !== kind) {
          out.add(
            [...at, "type"],
            FieldCode.OPTIONS_TYPE_INVALID,
            "Subcommands and plain options cannot be mixed.",
          );
        }
      }
      if (!sub) {
        if (c.required && optionalSeen) {
          out.add(
            [...at, "required"],
            FieldCode.REQUIRED_ORDER,
            "Required options must be placed before optional options.",
          );
        }
        if (!c.required) optionalSeen = true;
      }
    }
    if (c.name !== undefined) {
      if (names.has(c.name)) {
        out.add([...at, "name"], FieldCode.DUPLICATE_NAME, "Option names must be unique.");
      } else names.set(c.name, i);
    }
    if (c.value !== undefined) cleaned.push(c.value);
  });
  const perLocale = new Map<string, Set<string>>();
  checked.forEach((c, i) => {
    for (const [locale, value] of Object.entries(c.localized)) {
      if (value === c.name) continue;
      const seen = perLocale.get(locale) ?? new Set<string>();
      perLocale.set(locale, seen);
      if (names.has(value) || seen.has(value)) {
        out.add(
          [...path, i, "name_localizations", locale],
          FieldCode.DUPLICATE_LOCALIZED_NAME,
          "Localized option names must be unique.",
        );
      }
      seen.add(value);
    }
  });
  return cleaned;
}

function checkDescription(out: Issues, v: unknown, path: Path): boolean {
  return out.string(v, path, L.DESCRIPTION_MIN, L.DESCRIPTION_MAX);
}

const NONE: Checked = {
  value: undefined,
  type: undefined,
  name: undefined,
  localized: {},
  required: false,
};

/**
 * What each rule of an option's fields reads and writes: the issues, the option as sent,
 * its path, its type when valid, and the cleaned option (the fields that passed).
 */
interface OptionFields {
  readonly out: Issues;
  readonly o: Json;
  readonly p: Path;
  readonly type: number | undefined;
  readonly value: Json;
}

function checkOption(out: Issues, o: unknown, p: Path): Checked {
  if (!isObject(o)) {
    out.add(p, FieldCode.DICT_TYPE, `Each option must be an object, got ${describe(o)}.`);
    return NONE;
  }
  const before = out.list.length;
  const value: Json = {};
  const { type, name, localized } = checkNaming(out, o, p, value);
  const fields: OptionFields = { out, o, p, type, value };
  const required = checkRequired(fields);
  checkChoices(fields);
  checkNestedOptions(fields);
  checkChannelTypes(fields);
  checkBounds(
    fields,
    ["min_value", "max_value"],
    (t) => WITH_RANGE.includes(t),
    (v, at) => checkRangeValue(out, v, at, type),
  );
  checkBounds(
    fields,
    ["min_length", "max_length"],
    (t) => t === OptionKind.STRING,
    (v, at, field): v is number =>
      field === "min_length"
        ? out.number(v, at, L.MIN_LENGTH_MIN, L.MIN_LENGTH_MAX, true)
        : out.number(v, at, L.MAX_LENGTH_MIN, L.MAX_LENGTH_MAX, true),
  );
  return {
    value: out.list.length === before ? value : undefined,
    type,
    name,
    localized,
    required,
  };
}

/** type, name, description (required and not nullable: document) and their localizations. */
function checkNaming(
  out: Issues,
  o: Json,
  p: Path,
  value: Json,
): Pick<Checked, "type" | "name" | "localized"> {
  let type: number | undefined;
  if (o["type"] === undefined)
    out.add([...p, "type"], FieldCode.REQUIRED, "This field is required");
  else if (out.oneOf(o["type"], [...p, "type"], OPTION_TYPES)) type = o["type"];
  let name: string | undefined;
  if (o["name"] === undefined)
    out.add([...p, "name"], FieldCode.REQUIRED, "This field is required");
  else if (checkName(out, o["name"], [...p, "name"], true)) name = o["name"];
  const localized = checkLocalizations(
    out,
    o["name_localizations"],
    [...p, "name_localizations"],
    (x, at) => checkName(out, x, at, true),
  );
  if (o["description"] === undefined) {
    out.add([...p, "description"], FieldCode.REQUIRED, "This field is required");
  } else checkDescription(out, o["description"], [...p, "description"]);
  checkLocalizations(
    out,
    o["description_localizations"],
    [...p, "description_localizations"],
    (x, at) => checkDescription(out, x, at),
  );
  for (const k of [
    "type",
    "name",
    "description",
    "name_localizations",
    "description_localizations",
  ]) {
    if (given(o, k)) value[k] = o[k];
  }
  return { type, name, localized };
}

/** `required`: spec: not for subcommands and groups; `false` changes nothing there. */
function checkRequired({ out, o, p, type, value }: OptionFields): boolean {
  if (!given(o, "required") || !out.boolean(o["required"], [...p, "required"])) return false;
  const sub = type !== undefined && SUBCOMMANDS.includes(type);
  if (o["required"] && sub && type !== undefined) {
    notAllowed(out, [...p, "required"], "required", type);
    return false;
  }
  value["required"] = o["required"];
  return o["required"];
}

/** `choices` and `autocomplete`: STRING, INTEGER and NUMBER only, and not both. */
function checkChoices({ out, o, p, type, value }: OptionFields): void {
  let hasChoices = false;
  if (given(o, "choices")) {
    const choices = o["choices"];
    if (type !== undefined && !WITH_CHOICES.includes(type)) {
      if (!(Array.isArray(choices) && choices.length === 0)) {
        notAllowed(out, [...p, "choices"], "choices", type);
      }
    } else if (out.array(choices, [...p, "choices"], L.CHOICES_MAX)) {
      hasChoices = choices.length > 0;
      value["choices"] = choices
        .map((c, j) => checkChoice(out, c, [...p, "choices", j], type))
        .filter((c): c is Json => c !== undefined);
    }
  }
  if (given(o, "autocomplete") && out.boolean(o["autocomplete"], [...p, "autocomplete"])) {
    const on = o["autocomplete"];
    if (on && type !== undefined && !WITH_CHOICES.includes(type)) {
      notAllowed(out, [...p, "autocomplete"], "autocomplete", type);
    } else if (on && hasChoices) {
      out.add(
        [...p, "autocomplete"],
        FieldCode.AUTOCOMPLETE_WITH_CHOICES,
        "Autocomplete and choices are mutually exclusive.",
      );
    } else value["autocomplete"] = on;
  }
}

/** `options`: only subcommands and groups hold options (an empty list is tolerated). */
function checkNestedOptions({ out, o, p, type, value }: OptionFields): void {
  if (!given(o, "options")) return;
  const nested = o["options"];
  if (type === OptionKind.SUB_COMMAND) {
    value["options"] = checkOptions(out, nested, [...p, "options"], "subcommand");
  } else if (type === OptionKind.SUB_COMMAND_GROUP) {
    value["options"] = checkOptions(out, nested, [...p, "options"], "group");
  } else if (type !== undefined && !(Array.isArray(nested) && nested.length === 0)) {
    out.add(
      [...p, "options"],
      FieldCode.OPTIONS_NOT_ALLOWED,
      "Only subcommands and groups hold options.",
    );
  }
}

/** `channel_types`: CHANNEL options only; known channel types, each once. */
function checkChannelTypes({ out, o, p, type, value }: OptionFields): void {
  if (!given(o, "channel_types")) return;
  const list = o["channel_types"];
  if (type !== undefined && type !== OptionKind.CHANNEL) {
    notAllowed(out, [...p, "channel_types"], "channel_types", type);
  } else if (out.array(list, [...p, "channel_types"], Number.MAX_SAFE_INTEGER)) {
    list.forEach((t, j) => out.oneOf(t, [...p, "channel_types", j], CHANNEL_TYPES));
    out.unique(list, [...p, "channel_types"]);
    value["channel_types"] = list;
  }
}

/**
 * A pair of bounds (`min_value`/`max_value`, `min_length`/`max_length`): each allowed on
 * the option types `applies` to and valid by `valid`; the minimum not above the maximum.
 */
function checkBounds<Min extends string, Max extends string>(
  { out, o, p, type, value }: OptionFields,
  [minField, maxField]: readonly [Min, Max],
  applies: (type: number) => boolean,
  valid: (v: unknown, at: Path, field: Min | Max) => v is number,
): void {
  const bounds: Partial<Record<Min | Max, number>> = {};
  for (const field of [minField, maxField]) {
    if (!given(o, field)) continue;
    const v = o[field];
    if (type !== undefined && !applies(type)) notAllowed(out, [...p, field], field, type);
    else if (valid(v, [...p, field], field)) {
      bounds[field] = v;
      value[field] = v;
    }
  }
  const min = bounds[minField];
  const max = bounds[maxField];
  if (min !== undefined && max !== undefined && min > max) {
    out.add(
      [...p, minField],
      FieldCode.MIN_ABOVE_MAX,
      `${minField} must not be greater than ${maxField}.`,
    );
  }
}

/** spec "Option Type": INTEGER an integer in ±(2^53-1), NUMBER a double in ±2^53. */
function checkRangeValue(
  out: Issues,
  v: unknown,
  path: Path,
  type: number | undefined,
): v is number {
  if (type === OptionKind.INTEGER) return out.number(v, path, L.INTEGER_MIN, L.INTEGER_MAX, true);
  return out.number(v, path, L.NUMBER_MIN, L.NUMBER_MAX, false);
}

function checkChoice(out: Issues, c: unknown, p: Path, type: number | undefined): Json | undefined {
  if (!isObject(c)) {
    out.add(p, FieldCode.DICT_TYPE, `Each choice must be an object, got ${describe(c)}.`);
    return undefined;
  }
  const choiceName = (v: unknown, at: Path) =>
    out.string(v, at, L.CHOICE_NAME_MIN, L.CHOICE_NAME_MAX);
  if (c["name"] === undefined)
    out.add([...p, "name"], FieldCode.REQUIRED, "This field is required");
  else choiceName(c["name"], [...p, "name"]);
  checkLocalizations(out, c["name_localizations"], [...p, "name_localizations"], choiceName);
  const v = c["value"];
  const at = [...p, "value"];
  if (v === undefined) out.add(at, FieldCode.REQUIRED, "This field is required");
  else if (type === OptionKind.STRING) {
    if (typeof v !== "string") out.add(at, FieldCode.CHOICE_VALUE_TYPE, "Must be a string.");
    else out.string(v, at, 0, L.CHOICE_STRING_VALUE_MAX);
  } else if (type === OptionKind.INTEGER) {
    if (typeof v !== "number" || !Number.isInteger(v)) {
      out.add(at, FieldCode.CHOICE_VALUE_TYPE, "Must be an integer.");
    } else checkRangeValue(out, v, at, type);
  } else if (type === OptionKind.NUMBER) {
    if (typeof v !== "number") out.add(at, FieldCode.CHOICE_VALUE_TYPE, "Must be a number.");
    else checkRangeValue(out, v, at, type);
  }
  const value: Json = {};
  for (const k of ["name", "name_localizations", "value"]) if (given(c, k)) value[k] = c[k];
  return value;
}
