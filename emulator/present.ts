/**
 * Response shapes like the service's: empty and false fields omitted (`options` absent
 * rather than `[]`, `required` and `autocomplete` only when true), `description: ""`
 * for USER and MESSAGE, `nsfw` and `default_member_permissions` always present,
 * `dm_permission`, `contexts` and `integration_types` on global commands only.
 *
 * Localizations: `full` gives the `*_localizations` dictionaries (when not empty);
 * `localized` gives `name_localized` / `description_localized` for one locale instead
 * (in options and choices too), omitted when the locale has no value.
 */
import { localizedValue } from "./localize";
import type { StoredCommand, StoredPermissions } from "./store";
import { isRecord } from "./schema";

export type LocalizationMode =
  { readonly kind: "full" } | { readonly kind: "localized"; readonly locale: string | undefined };

export const FULL: LocalizationMode = { kind: "full" };

type Json = Record<string, unknown>;

function dictOf(v: unknown): Record<string, string> | undefined {
  if (!isRecord(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) if (typeof x === "string") out[k] = x;
  return Object.keys(out).length > 0 ? out : undefined;
}

function putLocalized(
  out: Json,
  field: "name" | "description",
  dict: unknown,
  mode: LocalizationMode,
): void {
  const d = dictOf(dict);
  if (mode.kind === "full") {
    if (d) out[`${field}_localizations`] = { ...d };
    return;
  }
  const value = localizedValue(d, mode.locale);
  if (value !== undefined) out[`${field}_localized`] = value;
}

function presentChoice(choice: unknown, mode: LocalizationMode): unknown {
  if (!isRecord(choice)) return choice;
  const out: Json = { name: choice["name"] };
  putLocalized(out, "name", choice["name_localizations"], mode);
  out["value"] = choice["value"];
  return out;
}

const OPTION_SCALARS = ["min_value", "max_value", "min_length", "max_length"] as const;

function presentOption(option: unknown, mode: LocalizationMode): unknown {
  if (!isRecord(option)) return option;
  const out: Json = { type: option["type"], name: option["name"] };
  putLocalized(out, "name", option["name_localizations"], mode);
  out["description"] = option["description"] ?? "";
  putLocalized(out, "description", option["description_localizations"], mode);
  if (option["required"] === true) out["required"] = true;
  const choices = option["choices"];
  if (Array.isArray(choices) && choices.length > 0) {
    out["choices"] = choices.map((c) => presentChoice(c, mode));
  }
  const options = option["options"];
  if (Array.isArray(options) && options.length > 0) {
    out["options"] = options.map((o) => presentOption(o, mode));
  }
  const channelTypes = option["channel_types"];
  if (Array.isArray(channelTypes) && channelTypes.length > 0) {
    out["channel_types"] = [...channelTypes];
  }
  for (const key of OPTION_SCALARS) {
    const v = option[key];
    if (typeof v === "number") out[key] = v;
  }
  if (option["autocomplete"] === true) out["autocomplete"] = true;
  return out;
}

/** The wire form of a stored command. */
export function presentCommand(c: StoredCommand, mode: LocalizationMode = FULL): Json {
  const out: Json = { id: c.id, application_id: c.application_id, version: c.version };
  out["default_member_permissions"] = c.default_member_permissions;
  out["type"] = c.type;
  out["name"] = c.name;
  putLocalized(out, "name", c.name_localizations, mode);
  out["description"] = c.type === 2 || c.type === 3 ? "" : c.description;
  putLocalized(out, "description", c.description_localizations, mode);
  if (c.guild_id !== undefined) out["guild_id"] = c.guild_id;
  else {
    out["dm_permission"] = c.dm_permission ?? true;
    out["contexts"] = c.contexts ?? null;
    out["integration_types"] = [...(c.integration_types ?? [0])];
  }
  if (c.default_permission === false) out["default_permission"] = false;
  out["nsfw"] = c.nsfw;
  if (c.options && c.options.length > 0)
    out["options"] = c.options.map((o) => presentOption(o, mode));
  if (c.type === 4 && c.handler !== undefined) out["handler"] = c.handler;
  return out;
}

export function presentPermissions(p: StoredPermissions): Json {
  return {
    id: p.id,
    application_id: p.application_id,
    guild_id: p.guild_id,
    permissions: p.permissions.map((x) => ({ id: x.id, type: x.type, permission: x.permission })),
  };
}
