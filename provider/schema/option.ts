/**
 * Command options and choices (spec: "Application Command Option", "Option Type",
 * "Option Choice", "Subcommand structure rules").
 *
 * Two parts, one job each: the zod shapes declare the wire types (the SDK's input types
 * are derived from them), and `checkOptionArray` enforces every rule of the spec on an
 * unknown value, collecting all issues with wire paths.
 */
import { CHANNEL_TYPES, Limits, OPTION_TYPE_NAMES, OPTION_TYPES, OptionType } from "./constants";
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
function typeName(t: number | undefined): string {
  return t === undefined ? "this option type" : (OPTION_TYPE_NAMES[t] ?? String(t));
}

/** Where an options array sits: on the command, in a subcommand, or in a group. */
export type OptionsParent = "command" | "subcommand" | "group";

interface OptionInfo {
  type: number | undefined;
  name: string | undefined;
  nameLocalizations: Record<string, string> | undefined;
  required: boolean;
}

/** An option as given: an object whose fields are still unchecked. */
type Option = Record<string, unknown>;

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
  let firstKind: ArrayKind | undefined;
  let seenOptional = false;
  const defaultNames = new Map<string, number>();
  for (let i = 0; i < v.length; i++) {
    const p = [...path, i];
    const info = checkOption(out, v[i], p);
    infos.push(info);
    if (info.type !== undefined) {
      firstKind = checkPlacement(out, p, info.type, parent, firstKind);
      seenOptional = checkRequiredOrder(out, p, info, seenOptional);
    }
    if (info.name !== undefined) checkUniqueName(out, path, i, info.name, defaultNames);
  }
  checkLocalizedNames(out, path, infos, defaultNames);
}

/** What a command's options array holds: subcommands and groups, or plain options. */
type ArrayKind = "subcommands" | "plain";

/**
 * Rule 6: a group holds subcommands, a subcommand plain options, a command one kind or the
 * other (the kind of its first option). Returns the command's kind so far.
 */
function checkPlacement(
  out: IssueCollector,
  p: Path,
  t: number,
  parent: OptionsParent,
  firstKind: ArrayKind | undefined,
): ArrayKind | undefined {
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
    if (firstKind === undefined) return kind;
    if (kind !== firstKind) {
      out.add(
        [...p, "type"],
        Codes.OPTIONS_TYPE_INVALID,
        "A command holds either subcommands and groups, or plain options, never both.",
      );
    }
  }
  return firstKind;
}

/** Rule 5: required plain options before optional ones. Returns whether one was optional. */
function checkRequiredOrder(
  out: IssueCollector,
  p: Path,
  info: OptionInfo,
  seenOptional: boolean,
): boolean {
  if (info.type === undefined || SUBCOMMAND_TYPES.includes(info.type)) return seenOptional;
  if (info.required && seenOptional) {
    out.add(
      [...p, "required"],
      Codes.REQUIRED_ORDER,
      "Required options must be placed before optional options.",
    );
  }
  return seenOptional || !info.required;
}

/** Rule 5: unique names in the array; `defaultNames` records each name's first index. */
function checkUniqueName(
  out: IssueCollector,
  path: Path,
  i: number,
  name: string,
  defaultNames: Map<string, number>,
): void {
  const first = defaultNames.get(name);
  if (first === undefined) {
    defaultNames.set(name, i);
    return;
  }
  const at = [...path, i, "name"];
  out.add(
    at,
    Codes.DUPLICATE_NAME,
    `Option name ${out.quote(name, at, [...path, first, "name"])} is already used by ${formatIndex(path, first)}.`,
  );
}

/**
 * Rule 10: localized names against the default names and the same-locale names of the
 * array (a localized name equal to the option's own default is ignored).
 */
function checkLocalizedNames(
  out: IssueCollector,
  path: Path,
  infos: readonly OptionInfo[],
  defaultNames: ReadonlyMap<string, number>,
): void {
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

/** One option: its own fields, each rule in turn; what the array's rules need of it. */
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
  checkOptionName(out, o, p, info);
  checkOptionDescription(out, o, p);
  info.required = checkRequired(out, o, p, t);
  const hasChoices = checkChoices(out, o, p, t);
  checkAutocomplete(out, o, p, t, hasChoices);
  checkNestedOptions(out, o, p, t);
  checkChannelTypes(out, o, p, t);
  checkValueRange(out, o, p, t);
  checkLengthRange(out, o, p, t);
  return info;
}

/** The option's name and its localizations, by the rules of CHAT_INPUT names; kept in `info`. */
function checkOptionName(out: IssueCollector, o: Option, p: Path, info: OptionInfo): void {
  if (o["name"] === undefined) out.add([...p, "name"], Codes.REQUIRED, "This field is required.");
  else if (checkName(out, o["name"], [...p, "name"], "chat_input")) info.name = o["name"] as string;
  info.nameLocalizations = checkLocalizations(
    out,
    o["name_localizations"],
    [...p, "name_localizations"],
    (value, at, locale) => checkName(out, value, at, "chat_input", locale),
  );
}

/** The option's description (required, 1-100) and its localizations. */
function checkOptionDescription(out: IssueCollector, o: Option, p: Path): void {
  if (o["description"] === undefined) {
    out.add([...p, "description"], Codes.REQUIRED, "This field is required.");
  } else checkDescription(out, o["description"], [...p, "description"]);
  checkLocalizations(
    out,
    o["description_localizations"],
    [...p, "description_localizations"],
    (value, at, locale) => checkDescription(out, value, at, locale),
  );
}

/**
 * Rule 5: `required` is a boolean, not allowed (true) on SUB_COMMAND and
 * SUB_COMMAND_GROUP (false is harmless). Returns whether the option is required.
 */
function checkRequired(out: IssueCollector, o: Option, p: Path, t: number | undefined): boolean {
  const required = o["required"];
  if (!isPresent(required) || !checkBoolean(out, required, [...p, "required"])) return false;
  if (required && t !== undefined && SUBCOMMAND_TYPES.includes(t)) {
    notAllowed(out, [...p, "required"], "required", t);
    return false;
  }
  return required;
}

/** Rule 7: choices only on STRING, INTEGER and NUMBER. Returns whether there are any. */
function checkChoices(out: IssueCollector, o: Option, p: Path, t: number | undefined): boolean {
  const choices = o["choices"];
  if (!isPresent(choices)) return false;
  if (t !== undefined && !CHOICE_TYPES.includes(t)) {
    if (isNonEmptyOrNotArray(choices)) notAllowed(out, [...p, "choices"], "choices", t);
    return false;
  }
  if (!checkArray(out, choices, [...p, "choices"], Limits.CHOICES_MAX)) return false;
  for (let j = 0; j < choices.length; j++) checkChoice(out, choices[j], [...p, "choices", j], t);
  return choices.length > 0;
}

/** Rule 7: autocomplete likewise only on STRING, INTEGER and NUMBER, never with choices. */
function checkAutocomplete(
  out: IssueCollector,
  o: Option,
  p: Path,
  t: number | undefined,
  hasChoices: boolean,
): void {
  const autocomplete = o["autocomplete"];
  if (!isPresent(autocomplete) || !checkBoolean(out, autocomplete, [...p, "autocomplete"])) return;
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

/** Rule 6: nested options only in subcommands and groups. */
function checkNestedOptions(out: IssueCollector, o: Option, p: Path, t: number | undefined): void {
  const nested = o["options"];
  if (!isPresent(nested)) return;
  if (t === OptionType.SUB_COMMAND) checkOptionArray(out, nested, [...p, "options"], "subcommand");
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

/** Rule 9: channel_types only on CHANNEL, each a channel type. */
function checkChannelTypes(out: IssueCollector, o: Option, p: Path, t: number | undefined): void {
  const channelTypes = o["channel_types"];
  if (!isPresent(channelTypes)) return;
  if (t !== undefined && t !== OptionType.CHANNEL) {
    notAllowed(out, [...p, "channel_types"], "channel_types", t);
  } else if (checkArray(out, channelTypes, [...p, "channel_types"], CHANNEL_TYPES.length)) {
    for (let j = 0; j < channelTypes.length; j++) {
      checkOneOf(out, channelTypes[j], [...p, "channel_types", j], CHANNEL_TYPES, "a channel type");
    }
  }
}

/**
 * Rule 8: min_value/max_value on INTEGER (integers) and NUMBER;
 * the minimum not above the maximum.
 */
function checkValueRange(out: IssueCollector, o: Option, p: Path, t: number | undefined): void {
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
}

/**
 * Rule 8: min_length/max_length on STRING, within their limits; the minimum not above the
 * maximum.
 */
function checkLengthRange(out: IssueCollector, o: Option, p: Path, t: number | undefined): void {
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
