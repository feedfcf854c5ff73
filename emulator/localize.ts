/**
 * The requester's locale and the `*_localized` fields of the list endpoints.
 *
 * Locale: `X-Service-Locale` (the spec's header; `X-Discord-Locale` too), then
 * `Accept-Language` (by q-value), then the user's settings (Bearer user tokens). Values
 * are matched to the service's locales case-insensitively; a region the service lacks
 * falls back to the language (`fr-CA` -> `fr`, `en` -> `en-US`, `pt` -> `pt-BR`). Without
 * any of these there is no requester locale and no `*_localized` field.
 *
 * Lookup: the locale's value, else its fallback (en-US <-> en-GB, es-419 -> es-ES), else
 * the field is omitted.
 */
import type { IncomingHttpHeaders } from "node:http";
import { LOCALES } from "./schema";

const BY_LOWER = new Map<string, string>(LOCALES.map((l: string) => [l.toLowerCase(), l]));

/** Language-only tags that name a regional locale of the service. */
const LANGUAGE_DEFAULTS: Record<string, string> = {
  en: "en-US",
  es: "es-ES",
  pt: "pt-BR",
  sv: "sv-SE",
  zh: "zh-CN",
  nb: "no",
  nn: "no",
};

export const FALLBACK_LOCALES: Readonly<Record<string, string>> = {
  "en-US": "en-GB",
  "en-GB": "en-US",
  "es-419": "es-ES",
};

/** Maps a language tag to one of the service's locales, if any fits. */
export function normalizeLocale(tag: string): string | undefined {
  const t = tag.trim().toLowerCase().replace(/_/g, "-");
  if (t === "" || t.length > 35) return undefined;
  const exact = BY_LOWER.get(t);
  if (exact) return exact;
  const language = t.split("-")[0] ?? "";
  return BY_LOWER.get(language) ?? LANGUAGE_DEFAULTS[language];
}

/** The best locale of an Accept-Language header. */
export function parseAcceptLanguage(header: string): string | undefined {
  const entries = header
    .split(",")
    .slice(0, 50)
    .map((part, index) => {
      const [tag = "", ...params] = part.split(";");
      let q = 1;
      for (const p of params) {
        const m = /^\s*q=([0-9.]+)\s*$/.exec(p);
        if (m) q = Number(m[1]);
      }
      return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((e) => e.tag !== "" && e.tag !== "*" && e.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const e of entries) {
    const locale = normalizeLocale(e.tag);
    if (locale) return locale;
  }
  return undefined;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export function requesterLocale(
  headers: IncomingHttpHeaders,
  userLocale: string | undefined,
): string | undefined {
  for (const name of ["x-service-locale", "x-discord-locale"]) {
    const v = header(headers, name);
    const locale = v === undefined ? undefined : normalizeLocale(v);
    if (locale) return locale;
  }
  const accept = header(headers, "accept-language");
  const fromAccept = accept === undefined ? undefined : parseAcceptLanguage(accept);
  if (fromAccept) return fromAccept;
  return userLocale === undefined ? undefined : normalizeLocale(userLocale);
}

/** The localized value of a dictionary for a locale, with the spec's fallbacks. */
export function localizedValue(
  dict: Readonly<Record<string, string>> | undefined,
  locale: string | undefined,
): string | undefined {
  if (!dict || locale === undefined) return undefined;
  const own = Object.hasOwn(dict, locale) ? dict[locale] : undefined;
  if (own !== undefined) return own;
  const fallback = FALLBACK_LOCALES[locale];
  return fallback !== undefined && Object.hasOwn(dict, fallback) ? dict[fallback] : undefined;
}
