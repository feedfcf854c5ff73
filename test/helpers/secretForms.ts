/**
 * Every form a secret could take in a message, to search output for: the secret as given,
 * lowercased, cut, or any piece of it. A secret of 4 characters or more is found by each of
 * its substrings of 3 characters or more, whatever the case (which covers its lowercased
 * and cut forms, and a suggestion built from it); one of 1 to 3 characters by its quoted
 * forms (`"ab"`, `'ab'`, whatever the case), since a bare "ab" is in too many words.
 *
 * Secrets searched this way must have no piece that output holds anyway: letters such as
 * q, x, z, j, w, v, k (no hexadecimal digit, no English word); digits only for an id, which
 * is searched by pieces of 10 digits (`digitPiece`).
 */

/** The shortest piece of a secret that is searched for. */
const PIECE = 3;
/** The shortest piece of an all-digits secret (ids) searched for: shorter ones are in every id. */
const DIGIT_PIECE = 10;

/** The pieces of `secret` that must not show (lowercase: the text is searched lowercased). */
export function secretPieces(secret: string): string[] {
  const lower = secret.toLowerCase();
  if (lower.length <= PIECE) return [`"${lower}"`, `'${lower}'`];
  const size = /^\d+$/.test(lower) ? Math.min(DIGIT_PIECE, lower.length) : PIECE;
  const pieces = new Set<string>();
  for (let i = 0; i + size <= lower.length; i++) pieces.add(lower.slice(i, i + size));
  return [...pieces];
}

/**
 * Where pieces of the secrets show in `text`: one entry per secret found, naming it and
 * the first piece found, e.g. `name: "qzj" in the preview`. Empty when none shows.
 */
export function secretLeaks(
  text: string,
  secrets: Readonly<Record<string, string>>,
  where: string,
): string[] {
  const lower = text.toLowerCase();
  const found: string[] = [];
  for (const [label, secret] of Object.entries(secrets)) {
    const piece = secretPieces(secret).find((p) => lower.includes(p));
    if (piece !== undefined) {
      const at = lower.indexOf(piece);
      const context = text.slice(Math.max(0, at - 40), at + piece.length + 40);
      found.push(`${label}: "${piece}" in ${where}: ...${context}...`);
    }
  }
  return found;
}
