/**
 * Which parts of a value the program marked secret, by path: the one way a message may
 * quote a value. Secrecy is decided by where a value sits (the engine's marks through the
 * plugin, the program's secret Outputs through the dynamic resources), never by searching
 * a message for a secret's text, so a value quoted in any form (as given, lowercased, cut,
 * or as a suggestion built from it) is `[secret]` wherever it is secret.
 */

export type PathSegment = string | number;
export type Path = PathSegment[];

/** What a message shows in place of a secret value. */
export const SECRET_MARK = "[secret]";

/** A value as messages quote it: strings quoted (cut at 40 characters), containers named. */
export function describeValue(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "string") return `"${v.length > 40 ? v.slice(0, 40) + "..." : v}"`;
  if (typeof v === "object") return "an object";
  return String(v);
}

/** True when `prefix` is `path` or one of its ancestors (segments compared as text). */
function startsWith(path: readonly PathSegment[], prefix: readonly PathSegment[]): boolean {
  if (prefix.length > path.length) return false;
  for (let i = 0; i < prefix.length; i++) if (String(path[i]) !== String(prefix[i])) return false;
  return true;
}

export class Secrecy {
  /** Nothing secret. */
  static readonly NONE = new Secrecy([]);
  /** Everything secret: the value as a whole is. */
  static readonly ALL = new Secrecy([[]]);

  /** The paths of the secret values (each covers everything below it). */
  constructor(readonly paths: readonly (readonly PathSegment[])[]) {}

  /** True when some value is secret. */
  get any(): boolean {
    return this.paths.length > 0;
  }

  /** True when the value at `path` is secret, or lies inside a secret value. */
  covers(path: readonly PathSegment[]): boolean {
    return this.paths.some((p) => startsWith(path, p));
  }

  /** True when the value at `path` is secret or holds a secret somewhere inside. */
  touches(path: readonly PathSegment[]): boolean {
    return this.paths.some((p) => startsWith(path, p) || startsWith(p, path));
  }

  /**
   * True when the program marked a value at or inside the top-level key `key` secret. Unlike
   * `touches`, a value secret as a whole (`ALL`: the secrecy unknown) does not count.
   */
  marks(key: string): boolean {
    return this.paths.some((p) => p.length > 0 && String(p[0]) === key);
  }

  /** The secrecy of the value at `prefix`, with paths relative to it. */
  within(prefix: readonly PathSegment[]): Secrecy {
    if (prefix.length === 0) return this;
    if (this.covers(prefix)) return Secrecy.ALL;
    const inside = this.paths
      .filter((p) => startsWith(p, prefix))
      .map((p) => p.slice(prefix.length));
    return inside.length === 0 ? Secrecy.NONE : new Secrecy(inside);
  }

  /** The secrecy of the same values with `prefix` in front of their paths. */
  under(prefix: readonly PathSegment[]): Secrecy {
    return this.any ? new Secrecy(this.paths.map((p) => [...prefix, ...p])) : this;
  }

  /** Every key of the paths renamed (a value's SDK keys to its wire keys). */
  renamed(rename: (key: string) => string): Secrecy {
    if (!this.any) return this;
    return new Secrecy(
      this.paths.map((p) => p.map((s) => (typeof s === "string" ? rename(s) : s))),
    );
  }

  /** What is secret here or in `other`. */
  union(other: Secrecy): Secrecy {
    if (!other.any) return this;
    if (!this.any) return other;
    return new Secrecy([...this.paths, ...other.paths]);
  }

  /**
   * `value` as a message may quote it: `[secret]` when the value at any of `paths` (where
   * this value sits, and where any value it equals sits) is secret.
   */
  quote(value: unknown, ...paths: (readonly PathSegment[])[]): string {
    return paths.some((p) => this.covers(p)) ? SECRET_MARK : describeValue(value);
  }

  /** `text` as it is (an id, a name in a resource's label), or `[secret]` (as `quote`). */
  text(text: string, ...paths: (readonly PathSegment[])[]): string {
    return paths.some((p) => this.covers(p)) ? SECRET_MARK : text;
  }
}
