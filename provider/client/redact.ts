/**
 * `text` with each of `secrets` replaced by `marker`, the longest first, so that a secret
 * holding another is replaced whole. Empty strings are skipped. For the client's
 * credentials only (auth.ts), which the service could echo back in any answer: a value a
 * program marked secret is kept out of messages by its path (provider/schema/secrecy.ts).
 */
export function replaceSecrets(text: string, secrets: Iterable<string>, marker: string): string {
  return [...secrets]
    .filter((s) => s !== "")
    .sort((a, b) => b.length - a.length)
    .reduce((out, s) => out.split(s).join(marker), text);
}
