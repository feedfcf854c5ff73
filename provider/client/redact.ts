/**
 * `text` with each of `secrets` replaced by `marker`, the longest first, so that a secret
 * holding another is replaced whole. Empty strings are skipped. One mechanism for the
 * client's credentials (auth.ts) and the plugin's secret inputs (propertyBags.ts).
 */
export function replaceSecrets(text: string, secrets: Iterable<string>, marker: string): string {
  return [...secrets]
    .filter((s) => s !== "")
    .sort((a, b) => b.length - a.length)
    .reduce((out, s) => out.split(s).join(marker), text);
}
