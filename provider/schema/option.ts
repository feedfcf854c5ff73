/**
 * Command options and choices (spec: "Application Command Option", "Option Type",
 * "Option Choice", "Subcommand structure rules").
 *
 * Two parts, one job each: the zod shapes declare the wire types (the SDK's input types
 * are derived from them), and `checkOptionArray` enforces every rule of the spec on an
 * unknown value, collecting all issues with wire paths.
 */
import { CHANNEL_TYPES, Limits, OPTION_TYPES, OptionType } from "./constants";
import type { IssueCollector, Path } from "./issues";
import {
  Codes,
  checkArray,
  checkBoolean,
  checkNumber,
  checkOneOf,
  checkString,
  isRecord,
} from "./issues";
import { checkLocalizations, checkName } from "./names";

// ---------------------------------------------------------------- rules ----------------

const SUBCOMMAND_TYPES: readonly number[] = [OptionType.SUB_COMMAND, OptionType.SUB_COMMAND_GROUP];
const CHOICE_TYPES: readonly number[] = [OptionType.STRING, OptionType.INTEGER, OptionType.NUMBER];
const RANGE_TYPES: readonly number[] = [OptionType.INTEGER, OptionType.NUMBER];
const TYPE_NAMES: Record<number, string> = Object.fromEntries(
  Object.entries(OptionType).map(([k, v]) => [v, k]),
);

function typeName(t: number | undefined): string {
  return t === undefined ? "this option type" : (TYPE_NAMES[t] ?? String(t));
}

/** Where an options array sits: on the command, in a subcommand, or in a group. */
export type OptionsParent = "command" | "subcommand" | "group";

interface OptionInfo {
  type: number | undefined;
  name: string | undefined;
  nameLocalizations: Record<string, string> | undefined;
  required: boolean;
}

function isPresent(v: unknown): boolean {
  return v !== undefined;
}

function isNonEmptyOrNotArray(v: unknown): boolean {
  return !(Array.isArray(v) && v.length === 0);
}

function notAllowed(out: IssueCollector, path: Path, field: string, type: number | undefined) {
  out.add(
    path,
    Codes.OPTION_FIELD_NOT_ALLOWED,
    `"${field}" is not allowed on a ${typeName(type)} option.`,
  );
}

/**
 * One options array. Rules (numbers as in the schema's issue list):
 * 4: at most 25 options; 5: required before optional, unique names; 6: nesting;
 * 10: a localized option name must differ from the default names of the options in the
 * same array and from their names in the same locale.
 *
 * Scope of rule 10 ("of that command"): one options array, the options a user sees
 * together while typing one command line (the command's own options, or one
 * subcommand's options, or one group's subcommands). Options of two different
 * subcommands never appear together, so they may share a localized name.
 */
export function checkOptionArray(
  out: IssueCollector,
  v: unknown,
  path: Path,
  parent: OptionsParent,
): void {
  if (!checkArray(out, v, path, Limits.OPTIONS_MAX)) return;
  const infos: OptionInfo[] = [];
  let firstKind: "subcommands" | "plain" | undefined;
  let seenOptional = false;
  const defaultNames = new Map<string, number>();
  for (let i = 0; i < v.length; i++) {
    const p = [...path, i];
    const info = checkOption(out, v[i], p);
    infos.push(info);
    const t = info.type;
    if (t !== undefined) {
      const isSub = SUBCOMMAND_TYPES.includes(t);
      if (parent === "group" && t !== OptionType.SUB_COMMAND) {
        out.add(
          [...p, "type"],
          Codes.OPTIONS_TYPE_INVALID,
          `A subcommand group may only contain subcommands (type 1), not ${typeName(t)}.`,
        );
      } else if (parent === "subcommand" && isSub) {
        out.add(
          [...p, "type"],
          Codes.OPTIONS_TYPE_INVALID,
          `A subcommand may only contain plain options, not ${typeName(t)}: nesting is one level deep.`,
        );
      } else if (parent === "command") {
        const kind = isSub ? "subcommands" : "plain";
        if (firstKind === undefined) firstKind = kind;
        else if (kind !== firstKind) {
          out.add(
            [...p, "type"],
            Codes.OPTIONS_TYPE_INVALID,
            "A command holds either subcommands and groups, or plain options, never both.",
          );
        }
      }
      if (!isSub) {
        if (info.required && seenOptional) {
          out.add(
            [...p, "required"],
            Codes.REQUIRED_ORDER,
            "Required options must be placed before optional options.",
          );
        }
        if (!info.required) seenOptional = true;
      }
    }
    if (info.name !== undefined) {
      const first = defaultNames.get(info.name);
      if (first !== undefined) {
        out.add(
          [...p, "name"],
          Codes.DUPLICATE_NAME,
          `Option name ${out.quote(info.name, [...p, "name"], [...path, first, "name"])} is already used by ${formatIndex(path, first)}.`,
        );
      } else defaultNames.set(info.name, i);
    }
  }
  // rule 10: localized names against default names and same-locale names of the array
  const seen = new Map<string, Map<string, number>>();
  for (let i = 0; i < infos.length; i++) {
    const info = infos[i];
    const locs = info?.nameLocalizations;
    if (locs === undefined) continue;
    for (const locale of Object.keys(locs)) {
      const value = locs[locale];
      if (value === undefined || value === info?.name) continue; // equal to default: ignored
      const at = [...path, i, "name_localizations", locale];
      const owner = defaultNames.get(value);
      let perLocale = seen.get(locale);
      if (perLocale === undefined) {
        perLocale = new Map();
        seen.set(locale, perLocale);
      }
      const other = perLocale.get(value);
      if (owner !== undefined) {
        out.add(
          at,
          Codes.DUPLICATE_LOCALIZED_NAME,
          `Localized name ${out.quote(value, at, [...path, owner, "name"])} (${locale}) equals the name of ${formatIndex(path, owner)}.`,
        );
      } else if (other !== undefined) {
        out.add(
          at,
          Codes.DUPLICATE_LOCALIZED_NAME,
          `Localized name ${out.quote(value, at, [...path, other, "name_localizations", locale])} (${locale}) is also the ${locale} name of ${formatIndex(path, other)}.`,
        );
      } else perLocale.set(value, i);
    }
  }
}

function formatIndex(path: Path, i: number): string {
  return `${path.map((s) => (typeof s === "number" ? `[${s}]` : `.${s}`)).join("")}[${i}]`.replace(
    /^\./,
    "",
  );
}

function checkDescription(out: IssueCollector, v: unknown, path: Path, key?: string): boolean {
  return checkString(out, v, path, Limits.DESCRIPTION_MIN, Limits.DESCRIPTION_MAX, key);
}

function checkOption(out: IssueCollector, o: unknown, p: Path): OptionInfo {
  const info: OptionInfo = {
    type: undefined,
    name: undefined,
    nameLocalizations: undefined,
    required: false,
  };
  if (!isRecord(o)) {
    out.add(p, Codes.DICT_TYPE, `Each option must be an object, got ${out.quote(o, p)}.`);
    return info;
  }
  if (o["type"] === undefined) out.add([...p, "type"], Codes.REQUIRED, "This field is required.");
  else if (checkOneOf(out, o["type"], [...p, "type"], OPTION_TYPES, "an option type")) {
    info.type = o["type"];
  }
  const t = info.type;

  if (o["name"] === undefined) out.add([...p, "name"], Codes.REQUIRED, "This field is required.");
  else if (checkName(out, o["name"], [...p, "name"], "chat_input")) info.name = o["name"] as string;
  info.nameLocalizations = checkLocalizations(
    out,
    o["name_localizations"],
    [...p, "name_localizations"],
    (value, at, locale) => checkName(out, value, at, "chat_input", locale),
  );

  if (o["description"] === undefined) {
    out.add([...p, "description"], Codes.REQUIRED, "This field is required.");
  } else checkDescription(out, o["description"], [...p, "description"]);
  checkLocalizations(
    out,
    o["description_localizations"],
    [...p, "description_localizations"],
    (value, at, locale) => checkDescription(out, value, at, locale),
  );

  const isSub = t !== undefined && SUBCOMMAND_TYPES.includes(t);
  // rule 5: required is not allowed on SUB_COMMAND and SUB_COMMAND_GROUP (false is harmless)
  if (isPresent(o["required"]) && checkBoolean(out, o["required"], [...p, "required"])) {
    if (o["required"] && isSub) notAllowed(out, [...p, "required"], "required", t);
    else info.required = o["required"];
  }

  // rule 7: choices only on STRING, INTEGER, NUMBER; autocomplete likewise, never with choices
  const choices = o["choices"];
  let hasChoices = false;
  if (isPresent(choices)) {
    if (t !== undefined && !CHOICE_TYPES.includes(t)) {
      if (isNonEmptyOrNotArray(choices)) notAllowed(out, [...p, "choices"], "choices", t);
    } else if (checkArray(out, choices, [...p, "choices"], Limits.CHOICES_MAX)) {
      hasChoices = choices.length > 0;
      for (let j = 0; j < choices.length; j++) {
        checkChoice(out, choices[j], [...p, "choices", j], t);
      }
    }
  }
  const autocomplete = o["autocomplete"];
  if (isPresent(autocomplete) && checkBoolean(out, autocomplete, [...p, "autocomplete"])) {
    if (autocomplete && t !== undefined && !CHOICE_TYPES.includes(t)) {
      notAllowed(out, [...p, "autocomplete"], "autocomplete", t);
    } else if (autocomplete && hasChoices) {
      out.add(
        [...p, "autocomplete"],
        Codes.AUTOCOMPLETE_WITH_CHOICES,
        "autocomplete may not be true when choices are present.",
      );
    }
  }

  // rule 6: nested options only in subcommands and groups
  const nested = o["options"];
  if (isPresent(nested)) {
    if (t === OptionType.SUB_COMMAND)
      checkOptionArray(out, nested, [...p, "options"], "subcommand");
    else if (t === OptionType.SUB_COMMAND_GROUP) {
      checkOptionArray(out, nested, [...p, "options"], "group");
    } else if (t !== undefined && isNonEmptyOrNotArray(nested)) {
      out.add(
        [...p, "options"],
        Codes.OPTIONS_NOT_ALLOWED,
        `A ${typeName(t)} option cannot hold options: only subcommands and groups can.`,
      );
    }
  }

  // rule 9: channel_types only on CHANNEL
  const channelTypes = o["channel_types"];
  if (isPresent(channelTypes)) {
    if (t !== undefined && t !== OptionType.CHANNEL) {
      notAllowed(out, [...p, "channel_types"], "channel_types", t);
    } else if (checkArray(out, channelTypes, [...p, "channel_types"], CHANNEL_TYPES.length)) {
      for (let j = 0; j < channelTypes.length; j++) {
        checkOneOf(
          out,
          channelTypes[j],
          [...p, "channel_types", j],
          CHANNEL_TYPES,
          "a channel type",
        );
      }
    }
  }

  // rule 8: min_value/max_value on INTEGER (integers) and NUMBER; min_length/max_length on STRING
  let min: number | undefined;
  let max: number | undefined;
  for (const field of ["min_value", "max_value"] as const) {
    const value = o[field];
    if (!isPresent(value)) continue;
    if (t !== undefined && !RANGE_TYPES.includes(t)) notAllowed(out, [...p, field], field, t);
    else if (checkRangeValue(out, value, [...p, field], t)) {
      if (field === "min_value") min = value;
      else max = value;
    }
  }
  if (min !== undefined && max !== undefined && min > max) {
    out.add(
      [...p, "min_value"],
      Codes.MIN_ABOVE_MAX,
      `min_value (${out.quote(min, [...p, "min_value"])}) must not be greater than max_value (${out.quote(max, [...p, "max_value"])}).`,
    );
  }
  let minLength: number | undefined;
  let maxLength: number | undefined;
  for (const field of ["min_length", "max_length"] as const) {
    const value = o[field];
    if (!isPresent(value)) continue;
    if (t !== undefined && t !== OptionType.STRING) notAllowed(out, [...p, field], field, t);
    else {
      const low = field === "min_length" ? Limits.MIN_LENGTH_MIN : Limits.MAX_LENGTH_MIN;
      const high = field === "min_length" ? Limits.MIN_LENGTH_MAX : Limits.MAX_LENGTH_MAX;
      if (checkNumber(out, value, [...p, field], low, high, true)) {
        if (field === "min_length") minLength = value;
        else maxLength = value;
      }
    }
  }
  if (minLength !== undefined && maxLength !== undefined && minLength > maxLength) {
    out.add(
      [...p, "min_length"],
      Codes.MIN_ABOVE_MAX,
      `min_length (${out.quote(minLength, [...p, "min_length"])}) must not be greater than max_length (${out.quote(maxLength, [...p, "max_length"])}).`,
    );
  }
  return info;
}

/** rule 8: an INTEGER value is an integer in ±(2^53-1), a NUMBER value a double in ±2^53. */
function checkRangeValue(
  out: IssueCollector,
  v: unknown,
  path: Path,
  t: number | undefined,
): v is number {
  if (t === OptionType.INTEGER) {
    return checkNumber(out, v, path, Limits.INTEGER_MIN, Limits.INTEGER_MAX, true);
  }
  return checkNumber(out, v, path, Limits.NUMBER_MIN, Limits.NUMBER_MAX, false);
}

/** rule 7: choice name 1-100; the value's type matches the option's type. */
function checkChoice(out: IssueCollector, c: unknown, p: Path, t: number | undefined): void {
  if (!isRecord(c)) {
    out.add(p, Codes.DICT_TYPE, `Each choice must be an object, got ${out.quote(c, p)}.`);
    return;
  }
  const checkChoiceName = (value: unknown, at: Path, locale?: string) =>
    checkString(out, value, at, Limits.CHOICE_NAME_MIN, Limits.CHOICE_NAME_MAX, locale);
  if (c["name"] === undefined) out.add([...p, "name"], Codes.REQUIRED, "This field is required.");
  else checkChoiceName(c["name"], [...p, "name"]);
  checkLocalizations(out, c["name_localizations"], [...p, "name_localizations"], checkChoiceName);

  const value = c["value"];
  const at = [...p, "value"];
  if (value === undefined) {
    out.add(at, Codes.REQUIRED, "This field is required.");
  } else if (t === OptionType.STRING) {
    if (typeof value !== "string") {
      out.add(at, Codes.CHOICE_VALUE_TYPE, `Must be a string for a STRING option.`);
    } else checkString(out, value, at, 0, Limits.CHOICE_STRING_VALUE_MAX);
  } else if (t === OptionType.INTEGER) {
    if (typeof value !== "number" || !Number.isInteger(value)) {
      out.add(
        at,
        Codes.CHOICE_VALUE_TYPE,
        `Must be an integer for an INTEGER option, got ${out.quote(value, at)}.`,
      );
    } else checkRangeValue(out, value, at, t);
  } else if (t === OptionType.NUMBER) {
    if (typeof value !== "number") {
      out.add(
        at,
        Codes.CHOICE_VALUE_TYPE,
        `Must be a number for a NUMBER option, got ${out.quote(value, at)}.`,
      );
    } else checkRangeValue(out, value, at, t);
  } else if (typeof value !== "string" && typeof value !== "number") {
    out.add(at, Codes.CHOICE_VALUE_TYPE, `Must be a string or a number.`);
  }
}
