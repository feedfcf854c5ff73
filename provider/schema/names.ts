/**
 * Naming rules (spec: "Naming rules") and localization dictionaries (spec: "Localization").
 */
import type { IssueCollector, Path } from "./issues";
import { Codes, checkString, isRecord } from "./issues";
import { Limits } from "./constants";
import { isLocale } from "./locales";

/** The spec's regular expression for CHAT_INPUT command names and all option names. */
export const CHAT_INPUT_NAME_REGEX = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

/**
 * Why a CHAT_INPUT or option name breaks the naming rules, or `undefined` when it is fine.
 * Length is checked separately. A letter with a lowercase variant must be lowercase:
 * `toLowerCase()` leaves lowercase and uncased letters (Devanagari, Thai, CJK, digits)
 * unchanged and changes every other letter, so an unchanged string is the rule. A secret
 * name gets no suggestion: the suggestion is the secret, lowercased.
 */
export function chatInputNameProblem(name: string, secret = false): string | undefined {
  if (!CHAT_INPUT_NAME_REGEX.test(name)) {
    return "Must contain only letters, numbers, '-', '_' and \"'\" (no spaces or symbols).";
  }
  if (name.toLowerCase() !== name) {
    const suggestion = secret ? undefined : lowercaseSuggestion(name);
    return suggestion === undefined
      ? "Must be lowercase."
      : `Must be lowercase: use "${suggestion}".`;
  }
  return undefined;
}

/** Characters outside the name rule's set (a lowercase form may add some: "İ" is "i" + U+0307). */
const OUTSIDE_NAME_SET = /[^-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]/gu;

/**
 * A valid lowercase name to suggest for `name`, or undefined: its lowercase form, less any
 * character the lowercasing added outside the rule's set, when that is itself a valid name.
 */
function lowercaseSuggestion(name: string): string | undefined {
  const lower = name.toLowerCase().replace(OUTSIDE_NAME_SET, "");
  const valid =
    CHAT_INPUT_NAME_REGEX.test(lower) &&
    lower.toLowerCase() === lower &&
    [...lower].length <= Limits.NAME_MAX;
  return valid ? lower : undefined;
}

/** How a name is checked: CHAT_INPUT commands and options, or USER/MESSAGE/entry point. */
export type NameStyle = "chat_input" | "free";

/** A name (or a localized name): 1-32 characters, plus the regex for the chat-input style. */
export function checkName(
  out: IssueCollector,
  v: unknown,
  path: Path,
  style: NameStyle,
  key?: string,
): boolean {
  if (!checkString(out, v, path, Limits.NAME_MIN, Limits.NAME_MAX, key)) return false;
  if (style === "chat_input") {
    const at = key === undefined ? path : [...path, key];
    const problem = chatInputNameProblem(v, out.secrecy.covers(at));
    if (problem !== undefined) {
      out.add(at, Codes.INVALID_NAME, `Invalid name ${out.quote(v, at)}. ${problem}`);
      return false;
    }
  }
  return true;
}

/**
 * A localization dictionary: absent or null is fine; otherwise an object whose keys are
 * known locales and whose values pass `checkValue` (the rules of the field it localizes).
 * `checkValue` gets the dictionary's path and the locale (it builds the full path only
 * when it reports). Returns the valid entries, for the rules that compare localized values.
 */
export function checkLocalizations(
  out: IssueCollector,
  v: unknown,
  path: Path,
  checkValue: (value: unknown, path: Path, key: string) => boolean,
): Record<string, string> | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isRecord(v)) {
    out.add(path, Codes.DICT_TYPE, `Must be an object keyed by locale, got ${out.quote(v, path)}.`);
    return undefined;
  }
  const valid: Record<string, string> = {};
  for (const key of Object.keys(v)) {
    const value = v[key];
    if (!isLocale(key)) {
      const at = [...path, key];
      out.add(at, Codes.LOCALE_INVALID, `${out.quote(key, at)} is not a valid locale.`);
      continue;
    }
    if (checkValue(value, path, key) && typeof value === "string") valid[key] = value;
  }
  return valid;
}
