/**
 * The 32 locales the service knows (discord-api-docs, "Locales"; the same list as
 * discord-api-types' `Locale`). Localization dictionaries may only use these keys.
 */

export const LOCALES = [
  "id",
  "da",
  "de",
  "en-GB",
  "en-US",
  "es-ES",
  "es-419",
  "fr",
  "hr",
  "it",
  "lt",
  "hu",
  "nl",
  "no",
  "pl",
  "pt-BR",
  "ro",
  "fi",
  "sv-SE",
  "vi",
  "tr",
  "cs",
  "el",
  "bg",
  "ru",
  "uk",
  "hi",
  "th",
  "zh-CN",
  "ja",
  "zh-TW",
  "ko",
] as const;

export type Locale = (typeof LOCALES)[number];

/** Named access to the locales, e.g. `Locale.French === "fr"`. */
export const Locale = {
  Indonesian: "id",
  Danish: "da",
  German: "de",
  EnglishGB: "en-GB",
  EnglishUS: "en-US",
  SpanishES: "es-ES",
  SpanishLATAM: "es-419",
  French: "fr",
  Croatian: "hr",
  Italian: "it",
  Lithuanian: "lt",
  Hungarian: "hu",
  Dutch: "nl",
  Norwegian: "no",
  Polish: "pl",
  PortugueseBR: "pt-BR",
  Romanian: "ro",
  Finnish: "fi",
  Swedish: "sv-SE",
  Vietnamese: "vi",
  Turkish: "tr",
  Czech: "cs",
  Greek: "el",
  Bulgarian: "bg",
  Russian: "ru",
  Ukrainian: "uk",
  Hindi: "hi",
  Thai: "th",
  ChineseCN: "zh-CN",
  Japanese: "ja",
  ChineseTW: "zh-TW",
  Korean: "ko",
} as const satisfies Record<string, Locale>;

const LOCALE_SET: ReadonlySet<string> = new Set(LOCALES);

export function isLocale(key: string): key is Locale {
  return LOCALE_SET.has(key);
}

/** A localization dictionary: partial, keyed by locale (spec: "Localization"). */
export type Localizations = Partial<Record<Locale, string>>;
