/**
 * Response shapes like the service's, walked from the one field description
 * (provider/schema fields.ts, `presence`): empty and false fields omitted (`options`
 * absent rather than `[]`, `required` and `autocomplete` only when true), `description:
 * ""` for USER and MESSAGE, `nsfw` and `default_member_permissions` always present,
 * `dm_permission`, `contexts` and `integration_types` on global commands only.
 *
 * Localizations: `full` gives the `*_localizations` dictionaries, `null` when empty (the
 * service sends `null` at command, option and choice level on single GETs, write answers
 * and `with_localizations=true` lists; slash-create's sync compares against exactly
 * that, so an absent key would make it write on every run); `localized` gives `name_localized` / `description_localized` for one locale instead
 * (in options and choices too), omitted when the locale has no value.
 */
import { localizedValue } from "./localize";
import type { StoredCommand } from "./commandRecord";
import type { StoredPermissions } from "./store";
import type { FieldSpec } from "./schema";
import {
  CHOICE_FIELDS,
  COMMAND_FIELDS,
  deepEqual,
  isRecord,
  neutralValue,
  OPTION_FIELDS,
} from "./schema";

export type LocalizationMode =
  { readonly kind: "full" } | { readonly kind: "localized"; readonly locale: string | undefined };

export const FULL: LocalizationMode = { kind: "full" };

type Json = Record<string, unknown>;
type Table = Readonly<
  Record<
    string,
    Pick<FieldSpec, "presence" | "localizes" | "children"> & {
      canonical: FieldSpec["canonical"] | undefined;
    }
  >
>;

const CHILD_TABLES: Readonly<Record<"option" | "choice", Table>> = {
  option: OPTION_FIELDS,
  choice: CHOICE_FIELDS,
};

interface PresentContext {
  readonly mode: LocalizationMode;
  readonly global: boolean;
}

/** One object of a level (command, option, choice), from its stored (canonical) form. */
function presentLevel(table: Table, value: Json, ctx: PresentContext): Json {
  const out: Json = {};
  for (const [key, spec] of Object.entries(table)) {
    const canonical = spec.canonical;
    if (canonical === undefined) continue;
    const v = value[key];
    switch (spec.presence) {
      case "always":
        out[key] = structuredClone(v);
        break;
      case "globalOnly":
        if (ctx.global) out[key] = structuredClone(v);
        break;
      case "unlessNeutral":
        if (deepEqual(v, neutralValue({ canonical }))) break;
        out[key] =
          spec.children !== undefined && Array.isArray(v)
            ? v.map((item: unknown) =>
                presentLevel(CHILD_TABLES[spec.children as "option" | "choice"], item as Json, ctx),
              )
            : structuredClone(v);
        break;
      case "localizations": {
        const dict =
          isRecord(v) && Object.keys(v).length > 0 ? (v as Record<string, string>) : undefined;
        if (ctx.mode.kind === "full") {
          out[key] = dict ? { ...dict } : null;
        } else {
          const localized = localizedValue(dict, ctx.mode.locale);
          if (localized !== undefined) out[`${spec.localizes ?? key}_localized`] = localized;
        }
        break;
      }
    }
  }
  return out;
}

/** The wire form of a stored command. */
export function presentCommand(c: StoredCommand, mode: LocalizationMode = FULL): Json {
  const out: Json = { id: c.id, application_id: c.application_id, version: c.version };
  if (c.guild_id !== undefined) out["guild_id"] = c.guild_id;
  return {
    ...out,
    ...presentLevel(COMMAND_FIELDS, c as unknown as Json, {
      mode,
      global: c.guild_id === undefined,
    }),
  };
}

export function presentPermissions(p: StoredPermissions): Json {
  return {
    id: p.id,
    application_id: p.application_id,
    guild_id: p.guild_id,
    permissions: p.permissions.map((x) => ({ id: x.id, type: x.type, permission: x.permission })),
  };
}
