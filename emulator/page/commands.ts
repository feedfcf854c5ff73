/**
 * The commands of one scope as the client's command picker lists them: by type, then by
 * name in the chosen locale (the service's fallbacks: the locale's value, else en-US <->
 * en-GB or es-419 -> es-ES, else the default), with everything the picker and the
 * permission rules read, and the scope's permission overwrites.
 */
import type { GuildConfig } from "../config";
import type { StoredCommand } from "../commandRecord";
import { FALLBACK_LOCALES } from "../localize";
import {
  ChannelType,
  CommandType,
  EntryPointHandler,
  IntegrationType,
  InteractionContextType,
  OptionType,
  PermissionFlags,
  PermissionType,
  allChannels,
} from "../schema";
import type { Application, StoredPermissions, Store } from "../store";
import { esc } from "./html";

type StoredOption = StoredCommand["options"][number];

/** Longer texts are cut on the page (a command set by drift can hold any length). */
const MAX_SHOWN_CHARS = 400;

export function nameOf<T extends Record<string, number | bigint>>(
  table: T,
  value: unknown,
): string {
  for (const [name, v] of Object.entries(table)) if (v === value) return name;
  return String(value);
}

const TYPE_TITLES: Readonly<Record<number, string>> = {
  [CommandType.CHAT_INPUT]: "Slash commands",
  [CommandType.USER]: "User commands (Apps menu on a member)",
  [CommandType.MESSAGE]: "Message commands (Apps menu on a message)",
  [CommandType.PRIMARY_ENTRY_POINT]: "Entry point (App Launcher)",
};

interface LocalizedText {
  readonly text: string;
  /** Where the text came from when a locale is chosen: its own value, a fallback, the default. */
  readonly source: "default" | "locale" | "fallback";
  readonly from?: string | undefined;
}

function dictOf(v: unknown): Readonly<Record<string, string>> | undefined {
  return typeof v === "object" && v !== null ? (v as Record<string, string>) : undefined;
}

/** The client's choice of text for a locale (localize.ts's rules), and where it came from. */
export function localize(
  defaultValue: string,
  localizations: unknown,
  locale: string | undefined,
): LocalizedText {
  const dict = dictOf(localizations);
  if (locale === undefined || !dict) return { text: defaultValue, source: "default" };
  const own = Object.hasOwn(dict, locale) ? dict[locale] : undefined;
  if (own !== undefined) return { text: own, source: "locale", from: locale };
  const fallback = FALLBACK_LOCALES[locale];
  const viaFallback =
    fallback !== undefined && Object.hasOwn(dict, fallback) ? dict[fallback] : undefined;
  if (viaFallback !== undefined) return { text: viaFallback, source: "fallback", from: fallback };
  return { text: defaultValue, source: "default" };
}

function shown(text: string): string {
  if (text.length <= MAX_SHOWN_CHARS) return esc(text);
  return `${esc(text.slice(0, MAX_SHOWN_CHARS))}… <span class="muted">(${text.length.toLocaleString("en-US")} characters)</span>`;
}

function localizedHtml(value: LocalizedText, locale: string | undefined): string {
  const note =
    locale === undefined || value.text === ""
      ? ""
      : value.source === "locale"
        ? ""
        : value.source === "fallback"
          ? `<span class="loc" data-source="fallback">${esc(value.from)} fallback</span>`
          : `<span class="loc" data-source="default">default</span>`;
  return `${shown(value.text)}${note}`;
}

function permissionNames(bits: string): string {
  let value: bigint;
  try {
    value = BigInt(bits);
  } catch {
    return esc(bits);
  }
  if (value === 0n) return '"0": administrators only';
  const names = Object.entries(PermissionFlags)
    .filter(([, bit]) => (value & bit) !== 0n)
    .map(([name]) => name);
  return `${esc(bits)} <span class="muted">(${esc(names.join(" | "))})</span>`;
}

function contextsText(c: StoredCommand): string {
  if (c.guild_id !== undefined) return "this guild only";
  if (c.contexts === null) {
    return `default (GUILD, PRIVATE_CHANNEL${c.dm_permission ? ", BOT_DM" : ""})`;
  }
  return c.contexts.map((x) => nameOf(InteractionContextType, x)).join(", ");
}

function optionLine(o: StoredOption, locale: string | undefined): string {
  const name = localize(o.name, o.name_localizations, locale);
  const description = localize(o.description, o.description_localizations, locale);
  const facts: string[] = [];
  if (o.required) facts.push("required");
  if (o.autocomplete) facts.push("autocomplete");
  if (o.min_value !== null && o.min_value !== undefined) facts.push(`min ${esc(o.min_value)}`);
  if (o.max_value !== null && o.max_value !== undefined) facts.push(`max ${esc(o.max_value)}`);
  if (o.min_length !== null && o.min_length !== undefined)
    facts.push(`min length ${esc(o.min_length)}`);
  if (o.max_length !== null && o.max_length !== undefined)
    facts.push(`max length ${esc(o.max_length)}`);
  if (Array.isArray(o.channel_types) && o.channel_types.length > 0) {
    facts.push(`channels: ${o.channel_types.map((t) => esc(nameOf(ChannelType, t))).join(", ")}`);
  }
  const choices = Array.isArray(o.choices)
    ? `<ul class="tree">${o.choices
        .map((ch) => {
          const chName = localize(ch.name, ch.name_localizations, locale);
          return `<li>${localizedHtml(chName, locale)} <span class="muted">→ ${esc(JSON.stringify(ch.value))}</span></li>`;
        })
        .join("")}</ul>`
    : "";
  const children =
    Array.isArray(o.options) && o.options.length > 0 ? optionsTree(o.options, locale) : "";
  return `<li><span class="type">${esc(nameOf(OptionType, o.type))}</span><span class="name">${localizedHtml(name, locale)}</span> <span class="desc">${localizedHtml(description, locale)}</span>${facts.length > 0 ? ` <span class="muted">· ${facts.join(" · ")}</span>` : ""}${choices}${children}</li>`;
}

function optionsTree(options: readonly StoredOption[], locale: string | undefined): string {
  return `<ul class="tree">${options.map((o) => optionLine(o, locale)).join("")}</ul>`;
}

/** The entries the picker offers: one per subcommand path, else the command itself. */
function pickerEntries(c: StoredCommand, locale: string | undefined): string[] {
  const base = localize(c.name, c.name_localizations, locale).text;
  if (c.type !== CommandType.CHAT_INPUT) return [base];
  const out: string[] = [];
  for (const o of c.options) {
    const oName = localize(o.name, o.name_localizations, locale).text;
    if (o.type === OptionType.SUB_COMMAND) out.push(`/${base} ${oName}`);
    else if (o.type === OptionType.SUB_COMMAND_GROUP) {
      for (const sub of o.options ?? []) {
        const subName = localize(sub.name, sub.name_localizations, locale).text;
        out.push(`/${base} ${oName} ${subName}`);
      }
    }
  }
  return out.length > 0 ? out : [`/${base}`];
}

/** A target of an overwrite, named from the configuration where it can be. */
function targetName(
  store: Store,
  guild: GuildConfig | undefined,
  type: number,
  id: string,
): string {
  if (!guild) return esc(id);
  if (type === PermissionType.ROLE) {
    if (id === guild.id) return `@everyone <span class="muted">(${esc(id)})</span>`;
    const role = guild.roles.find((r) => r.id === id);
    return role ? `@${esc(role.name)} <span class="muted">(${esc(id)})</span>` : esc(id);
  }
  if (type === PermissionType.CHANNEL) {
    if (id === allChannels(guild.id)) return `All Channels <span class="muted">(${esc(id)})</span>`;
    const channel = guild.channels.find((c) => c.id === id);
    return channel ? `#${esc(channel.name)} <span class="muted">(${esc(id)})</span>` : esc(id);
  }
  const user = store.user(id);
  return user ? `${esc(user.username)} <span class="muted">(${esc(id)})</span>` : esc(id);
}

function overwritesTable(store: Store, p: StoredPermissions): string {
  const guild = store.guild(p.guild_id);
  const rows = p.permissions
    .map(
      (o) =>
        `<tr><td>${esc(nameOf(PermissionType, o.type))}</td><td>${targetName(store, guild, o.type, o.id)}</td><td class="${o.permission ? "yes" : "no"}">${o.permission ? "allow" : "deny"}</td></tr>`,
    )
    .join("");
  return `<table class="overwrites"><thead><tr><th>type</th><th>target</th><th></th></tr></thead><tbody>${rows}</tbody></table>`;
}

function commandOverwrites(store: Store, c: StoredCommand): string {
  const guildIds = c.guild_id !== undefined ? [c.guild_id] : store.config.guilds.map((g) => g.id);
  const parts: string[] = [];
  for (const guildId of guildIds) {
    const p = store.permissions(c.application_id, guildId, c.id);
    if (!p) continue;
    const label = c.guild_id === undefined ? ` in guild ${esc(guildId)}` : "";
    parts.push(
      `<div><span class="muted">Overwrites${label}:</span>${overwritesTable(store, p)}</div>`,
    );
  }
  return parts.length > 0
    ? parts.join("")
    : '<div class="muted">No overwrites of its own (the application-wide ones apply, if any).</div>';
}

function commandCard(store: Store, c: StoredCommand, locale: string | undefined): string {
  const name = localize(c.name, c.name_localizations, locale);
  const description = localize(c.description, c.description_localizations, locale);
  const slash = c.type === CommandType.CHAT_INPUT ? "/" : "";
  const facts: [string, string][] = [["id", esc(c.id)]];
  if (locale !== undefined && name.source !== "default") facts.push(["default name", esc(c.name)]);
  facts.push(["type", esc(nameOf(CommandType, c.type))]);
  facts.push(["contexts", esc(contextsText(c))]);
  if (c.guild_id === undefined) {
    const types = c.integration_types ?? [IntegrationType.GUILD_INSTALL];
    facts.push(["integration types", esc(types.map((t) => nameOf(IntegrationType, t)).join(", "))]);
  }
  facts.push([
    "default member permissions",
    c.default_member_permissions === null
      ? "null (everyone)"
      : permissionNames(c.default_member_permissions),
  ]);
  facts.push(["nsfw", c.nsfw ? '<span class="no">age-restricted</span>' : "no"]);
  if (c.type === CommandType.PRIMARY_ENTRY_POINT && c.handler !== null) {
    facts.push(["handler", esc(nameOf(EntryPointHandler, c.handler))]);
  }
  facts.push(["version", esc(c.version)]);
  const entries = pickerEntries(c, locale);
  const picker =
    c.type === CommandType.CHAT_INPUT && entries.length > 1
      ? `<div class="muted">In the picker: ${entries.map((e) => `<span class="chip">${esc(e)}</span>`).join(" ")}</div>`
      : "";
  const options = c.options.length > 0 ? optionsTree(c.options, locale) : "";
  return `<details class="cmd" id="cmd-${esc(c.id)}" data-command="${esc(c.name)}">
<summary><span class="type">${esc(nameOf(CommandType, c.type))}</span><span class="name">${slash}${localizedHtml(name, locale)}</span>${c.nsfw ? ' <span class="chip no">NSFW</span>' : ""} <span class="desc">${localizedHtml(description, locale)}</span></summary>
<dl class="facts">${facts.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join("")}</dl>
${picker}${options}${commandOverwrites(store, c)}
</details>`;
}

/** Matches the finder's text against every name and description the picker could show. */
function matches(c: StoredCommand, find: string, locale: string | undefined): boolean {
  if (find === "") return true;
  const needle = find.toLowerCase();
  const texts = [
    c.name,
    c.description,
    localize(c.name, c.name_localizations, locale).text,
    localize(c.description, c.description_localizations, locale).text,
    ...pickerEntries(c, locale),
  ];
  return texts.some((t) => t.toLowerCase().includes(needle));
}

/** The picker's order: by type, then by the shown name in the locale's collation. */
export function inPickerOrder(
  commands: readonly StoredCommand[],
  locale: string | undefined,
): StoredCommand[] {
  let collator: Intl.Collator;
  try {
    collator = new Intl.Collator(locale ?? "en-US", { sensitivity: "base", numeric: true });
  } catch {
    collator = new Intl.Collator("en-US", { sensitivity: "base", numeric: true });
  }
  const keyed = commands.map((c) => ({
    c,
    key: localize(c.name, c.name_localizations, locale).text,
  }));
  keyed.sort((a, b) => a.c.type - b.c.type || collator.compare(a.key, b.key));
  return keyed.map((k) => k.c);
}

interface ScopeView {
  readonly app: Application;
  /** undefined = the global scope. */
  readonly guildId: string | undefined;
  readonly locale: string | undefined;
  readonly find: string;
}

export function renderScope(store: Store, view: ScopeView): string {
  const all = store.commandsIn(view.app.id, view.guildId);
  const shownCommands = inPickerOrder(
    all.filter((c) => matches(c, view.find, view.locale)),
    view.locale,
  );
  const groups = new Map<number, StoredCommand[]>();
  for (const c of shownCommands) {
    const list = groups.get(c.type) ?? [];
    list.push(c);
    groups.set(c.type, list);
  }
  const parts: string[] = [];
  const count =
    view.find === ""
      ? `${all.length} command${all.length === 1 ? "" : "s"}`
      : `${shownCommands.length} of ${all.length} commands match`;
  parts.push(`<p class="muted" id="scope-count">${esc(count)}</p>`);
  for (const [type, list] of groups) {
    parts.push(
      `<h3>${esc(TYPE_TITLES[type] ?? `Type ${type}`)} <span class="muted">(${list.length})</span></h3>`,
    );
    parts.push(list.map((c) => commandCard(store, c, view.locale)).join("\n"));
  }
  if (view.guildId !== undefined) {
    const appWide = store.permissions(view.app.id, view.guildId, view.app.id);
    parts.push(
      `<h3>Application-wide overwrites</h3>${appWide ? overwritesTable(store, appWide) : '<p class="muted">None: each command follows its own overwrites or its default member permissions.</p>'}`,
    );
  } else {
    const appWide = store.config.guilds
      .map((g) => store.permissions(view.app.id, g.id, view.app.id))
      .filter((p): p is StoredPermissions => p !== undefined);
    if (appWide.length > 0) {
      parts.push(
        `<h3>Application-wide overwrites</h3>${appWide.map((p) => `<div class="muted">In guild ${esc(p.guild_id)}:</div>${overwritesTable(store, p)}`).join("")}`,
      );
    }
  }
  return parts.join("\n");
}
