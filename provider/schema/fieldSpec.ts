/**
 * What a row of a field table (fields.ts) says of a field: its meaning, its canonical
 * value, whether it is compared, how the service presents it, and for a command's fields
 * where the service accepts, tolerates and keeps it; and the canonical form a table gives
 * an object (`canonicalOf`).
 */
import type { Code } from "./issues";
import type { Scope, WriteMode } from "./shapes";

/** A write endpoint: the scope and the kind of write. */
export type Where = `${Scope}:${WriteMode}`;

/** An object as given (a command, an option or a choice), its fields not yet checked. */
export type Raw = Record<string, unknown>;

/**
 * How the service presents a field in a returned object:
 * - `always`: every object carries it;
 * - `unlessNeutral`: left out when it holds its neutral value (false, [], null: the
 *   service omits empty and false fields);
 * - `localizations`: the dictionary (when not empty), or on list endpoints without
 *   `with_localizations` the one value for the requester's locale (`<base>_localized`);
 * - `globalOnly`: carried by global commands only (guild commands have no such field).
 */
export type Presence = "always" | "unlessNeutral" | "localizations" | "globalOnly";

export interface FieldSpec<C = unknown> {
  /**
   * What the field means, for people who write programs (the package schema and the
   * reference generated from it): from the spec's field tables, other fields named by
   * their SDK (camelCase) names.
   */
  readonly description: string;
  /** For fields the service deprecates: what to use instead (SDKs warn when it is set). */
  readonly deprecated?: string;
  /** The canonical value, given the field's raw value and the whole raw object. */
  readonly canonical: (value: unknown, whole: Raw) => C;
  /**
   * `always`; or `whenDeclared` for fields whose default the service fills from the
   * application's settings, which the provider cannot know: left undeclared, the live
   * value is the service's to manage, neither compared nor restored.
   */
  readonly compared: "always" | "whenDeclared";
  readonly presence: Presence;
  /** For `localizations`: the field it localizes. */
  readonly localizes?: "name" | "description";
  /** For lists of nested objects: the level of the items. */
  readonly children?: "option" | "choice";
}

/**
 * What the real service does with a field in a body where the spec's table leaves it
 * blank, when real clients are known to send it there (evidence: emulator/README.md,
 * "Fields the spec leaves blank"): `kept`, it is accepted and applied; `ignored`, it is
 * accepted and dropped. The provider's checks stay with the spec (`acceptedIn`), so a
 * program never declares a field the service would drop; the emulator accepts it; and the
 * bulk writer carries a `kept` field in the list it builds (`carriedIn`), so that a
 * command the batch does not touch keeps it without a second write.
 */
export type Tolerance = "kept" | "ignored";

export interface CommandFieldSpec<C = unknown> extends FieldSpec<C> {
  /** The write endpoints whose body accepts the field (spec: "Body fields per write endpoint"). */
  readonly acceptedIn: readonly Where[];
  /**
   * Endpoints outside `acceptedIn` where the service tolerates the field (read by the
   * emulator's answers and by the bulk writer's `carriedIn`).
   */
  readonly tolerated?: Readonly<Partial<Record<Where, Tolerance>>>;
  /**
   * What a PATCH sends when the program no longer declares the field (the service keeps
   * any field a PATCH leaves out); `undefined`: never sent in a PATCH (a change of it is
   * a replacement, or the field is always declared).
   */
  readonly reset: unknown;
  /** The scopes whose commands keep the field (the service drops it elsewhere). */
  readonly keptIn: readonly Scope[];
  /**
   * The command types whose body may carry the field (absent: every type), and the code
   * the service answers when another type carries it with more than its neutral value
   * (false, []). The provider's checks and the emulator's rules both read it
   * (endpointFields.ts `typeRefusal`), so the two report one code and one wording.
   */
  readonly onlyFor?: { readonly types: readonly number[]; readonly code: Code };
}

// ---- the canonical form a table gives ----------------------------------------------

/** What `canonicalOf` needs of a row: its canonical value, if the field has one. */
type AnySpec = { readonly canonical: ((v: unknown, whole: Raw) => unknown) | undefined };

/** The canonical form a table describes: one key per field that has a canonical value. */
export type CanonicalOf<T> = {
  -readonly [
    K in keyof T as T[K] extends { canonical: (...args: never[]) => unknown } ? K : never
  ]: T[K] extends { canonical: (...args: never[]) => infer C } ? C : never;
};

/** The canonical form of a raw object at one level (commands, options or choices). */
export function canonicalOf(table: Readonly<Record<string, AnySpec>>, raw: Raw): Raw {
  const out: Raw = {};
  for (const [key, spec] of Object.entries(table)) {
    if (spec.canonical !== undefined) out[key] = spec.canonical(raw[key], raw);
  }
  return out;
}

/** The value a field holds when it is not given: what the service omits when presenting. */
export function neutralValue(
  spec: AnySpec & { canonical: (v: unknown, w: Raw) => unknown },
): unknown {
  return spec.canonical(undefined, {});
}
