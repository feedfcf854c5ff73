/**
 * Every token redacted on the page: the secrets the emulator has ever held (configured
 * ones, and those learned at run time: bot tokens rotated in or away, access and refresh
 * tokens and authorization codes issued, expired or revoked since, interaction tokens:
 * the request log keeps the requests made with them) wherever they occur in a shown
 * string, values under keys that name a credential (an interaction's `token`,
 * `access_token`...), and the token segment of webhook and interaction callback paths.
 * A Redactor is made for each rendering, so a token learned a moment ago is known.
 */
export const REDACTED = "[redacted]";

const SECRET_KEY = /token|secret|authorization|password|private_?key|^code$/i;
const TOKEN_IN_PATH = /\/(webhooks|interactions)\/(\d+)\/[^/?#]+/g;

/** Shorter strings are not taken for secrets (they would blank out ordinary words). */
const MIN_SECRET = 4;

export class Redactor {
  /** The secrets by their first MIN_SECRET characters, longest first. */
  private readonly byPrefix = new Map<string, string[]>();

  constructor(secrets: Iterable<string>) {
    const longestFirst = [...new Set(secrets)]
      .filter((s) => s.length >= MIN_SECRET)
      .sort((a, b) => b.length - a.length);
    for (const secret of longestFirst) {
      const prefix = secret.slice(0, MIN_SECRET);
      const list = this.byPrefix.get(prefix);
      if (list) list.push(secret);
      else this.byPrefix.set(prefix, [secret]);
    }
  }

  /**
   * The text with each secret replaced, leftmost and longest first. One pass over the
   * text, whatever the number of secrets (thousands of issued tokens in a long session).
   */
  text(value: string): string {
    const text = value.replace(TOKEN_IN_PATH, `/$1/$2/${REDACTED}`);
    let out = "";
    let kept = 0;
    for (let i = 0; i + MIN_SECRET <= text.length;) {
      const candidates = this.byPrefix.get(text.slice(i, i + MIN_SECRET));
      const secret = candidates?.find((s) => text.startsWith(s, i));
      if (secret === undefined) {
        i++;
        continue;
      }
      out += text.slice(kept, i) + REDACTED;
      i += secret.length;
      kept = i;
    }
    return out + text.slice(kept);
  }

  /** A JSON value with credentials replaced (a copy). */
  json(value: unknown): unknown {
    if (typeof value === "string") return this.text(value);
    if (Array.isArray(value)) return value.map((v) => this.json(v));
    if (typeof value === "object" && value !== null) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        out[k] = SECRET_KEY.test(k) && v !== null && v !== "" ? REDACTED : this.json(v);
      }
      return out;
    }
    return value;
  }
}
