/**
 * Every token redacted on the page: the configured secrets (bot tokens, client secrets,
 * signing keys, users' tokens) wherever they occur in a shown string, values under keys
 * that name a credential (an interaction's `token`, `access_token`...), and the token
 * segment of webhook and interaction callback paths.
 */
import type { ResolvedConfig } from "../config";

export const REDACTED = "[redacted]";

const SECRET_KEY = /token|secret|authorization|password|private_?key|^code$/i;
const TOKEN_IN_PATH = /\/(webhooks|interactions)\/(\d+)\/[^/?#]+/g;

export class Redactor {
  private readonly secrets: readonly string[];

  constructor(config: ResolvedConfig) {
    const found = new Set<string>();
    for (const app of config.applications) {
      found.add(app.botToken);
      found.add(app.clientSecret);
      if (app.interactionsPrivateKey !== undefined) found.add(app.interactionsPrivateKey);
    }
    for (const user of config.users) for (const t of user.tokens) found.add(t.token);
    // Longest first, so that a secret that contains another is replaced whole.
    this.secrets = [...found].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
  }

  text(value: string): string {
    let out = value.replace(TOKEN_IN_PATH, `/$1/$2/${REDACTED}`);
    for (const secret of this.secrets) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    }
    return out;
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
