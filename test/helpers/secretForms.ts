/**
 * Every form a secret could take in a message, to search output for: the secret as given,
 * lowercased, cut, or any piece of it. A secret of 4 characters or more is found by each of
 * its substrings of 3 characters or more, whatever the case (which covers its lowercased
 * and cut forms, and a suggestion built from it); one of 1 to 3 characters by its quoted
 * forms (`"ab"`, `'ab'`, whatever the case), since a bare "ab" is in too many words.
 *
 * Secrets searched this way must have no piece that output holds anyway: letters such as
 * q, x, z, j, w, v, k (no hexadecimal digit, no English word); digits only for an id, which
 * is searched by pieces of 10 digits.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/**
 * Base64 that is not text, left out of a search (random base64 holds any 3 letters): the
 * passphrase secrets manager's ciphertexts (`v1:<nonce>:<data>`) and the MD5 digests in the
 * file backend's `.attrs` files.
 */
const NOT_TEXT = /v1:[A-Za-z0-9+/=]+(?::[A-Za-z0-9+/=]+)*|"md5":"[A-Za-z0-9+/=]*"/g;

/**
 * The repository's own directory, left out of a search as a path the machine chose (a CI
 * clone's is `mktemp`'s, e.g. `/tmp/tmp.1xmockvxzz`, which the state, the history and the
 * workspace files name): random letters hold any 3 letters, a secret's pieces among them
 * (a CI run failed on "kvx" in its clone's name). Callers add their own temporary
 * directories.
 */
export const REPOSITORY_DIR = path.resolve(__dirname, "..", "..");

/** The text with the paths the machine chose (`machinePaths`) left out. */
function withoutMachinePaths(text: string, machinePaths: readonly string[]): string {
  let out = text;
  for (const p of [...machinePaths].sort((a, b) => b.length - a.length)) {
    out = out.split(p).join("(path)");
  }
  return out;
}

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
  machinePaths: readonly string[] = [REPOSITORY_DIR],
): string[] {
  const plain = withoutMachinePaths(text.replace(NOT_TEXT, "(base64)"), machinePaths);
  const lower = plain.toLowerCase();
  const found: string[] = [];
  for (const [label, secret] of Object.entries(secrets)) {
    const piece = secretPieces(secret).find((p) => lower.includes(p));
    if (piece !== undefined) {
      const at = lower.indexOf(piece);
      const context = lower.slice(Math.max(0, at - 40), at + piece.length + 40);
      found.push(`${label}: "${piece}" in ${where}: ...${context}...`);
    }
  }
  return found;
}

/** Every file below `dir`; symbolic links are not followed (a program links the repository). */
function filesBelow(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesBelow(full);
    return entry.isFile() ? [full] : [];
  });
}

/**
 * A file's text without what the CLI recorded of the repository the program sits in: an
 * update's `message` (by default the git HEAD's commit message) and its `environment` (git
 * metadata, the runtime's path) in the file backend's `.history.json`. Not the program's
 * values: a commit message that quoted a piece of a test secret failed a CI run.
 */
function withoutRepositoryFacts(file: string, text: string): string {
  if (!file.endsWith(".history.json")) return text;
  try {
    const update = JSON.parse(text) as Record<string, unknown>;
    delete update["message"];
    delete update["environment"];
    return JSON.stringify(update);
  } catch {
    return text;
  }
}

/**
 * Where pieces of the secrets show in the files under `root` (the state, its backups and
 * history, the timing log), except `skip` (the program's source holds its own secrets).
 * Text files: the CLI's automatic log of an engine run is encrypted (random bytes hold any
 * 3 letters).
 */
export function secretLeaksInFiles(
  root: string,
  secrets: Readonly<Record<string, string>>,
  skip: readonly string[],
  machinePaths: readonly string[] = [REPOSITORY_DIR],
): string[] {
  return filesBelow(root)
    .filter((file) => !skip.includes(file))
    .flatMap((file) => {
      const text = withoutRepositoryFacts(file, fs.readFileSync(file, "latin1"));
      return secretLeaks(text, secrets, path.relative(root, file), machinePaths);
    });
}

/**
 * Secrets for the tests, no two of which share a piece of 3 letters (so a search finds
 * each one alone): the tests put each where it breaks a rule (a name breaking the lowercase
 * rule, a value over 40 characters, a 2-character value, a choice's value, a localization, a
 * permissions entry's id), and a secret command name and description where none is broken.
 */
export const SECRETS = {
  name: "VqKzWvQw",
  long: "JkWjWvWxZvJkVxQwZxQkVqVjWkVjQvQxQzXkQwJvWzKxKjWq",
  short: "Zq",
  choice: "KzVqZqZwQw",
  localized: "JvJzQkXj",
  permission: "ZqWvXvQjXk",
  commandName: "wxjwjkqv",
  description: "JxQjKzQxJv",
} as const;
