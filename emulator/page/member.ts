/**
 * "As a member": a guild, a member and a channel picked in the page's form, and for every
 * command the picker could hold there (the guild's own and the global ones) whether the
 * member sees it and may use it, with the rule that decided: the evaluation every
 * invocation goes through (interactions/access.ts), not a copy of it.
 */
import type { UserConfig } from "../config";
import { evaluateAccess, isThread } from "../interactions/access";
import type { Place } from "../interactions/access";
import { CommandType } from "../schema";
import type { Application, Store } from "../store";
import { inPickerOrder, localize, nameOf } from "./commands";
import { esc } from "./html";

interface MemberQuery {
  readonly guildId: string;
  readonly userId: string;
  readonly channelId: string;
  readonly locale: string | undefined;
}

/** A form's value: trimmed, and cut so that a pasted novel is not echoed whole. */
export function formValue(query: URLSearchParams, name: string): string {
  return (query.get(name) ?? "").trim().slice(0, 100);
}

function problem(text: string): string {
  return `<p class="error" id="member-error">${esc(text)}</p>`;
}

/** A member without an entry in `users`: the evaluation needs only its id and defaults. */
function memberUser(store: Store, userId: string): UserConfig {
  return (
    store.user(userId) ?? {
      id: userId,
      username: "(member without a user entry)",
      locale: "en-US",
      tokens: [],
      ageVerified: false,
    }
  );
}

export function renderMemberForm(store: Store, app: Application, query: URLSearchParams): string {
  const guildId = formValue(query, "mguild");
  const userId = formValue(query, "member");
  const channelId = formValue(query, "channel");
  const keep = ["app", "scope", "locale"]
    .map((k) => {
      const v = query.get(k);
      return v === null
        ? ""
        : `<input type="hidden" name="${esc(k)}" value="${esc(v.slice(0, 100))}">`;
    })
    .join("");
  const guilds = store.config.guilds;
  const members = new Map<string, string>();
  const channels = new Map<string, string>();
  for (const g of guilds) {
    for (const m of g.members) members.set(m.userId, store.user(m.userId)?.username ?? m.userId);
    if (g.ownerId !== undefined)
      members.set(g.ownerId, store.user(g.ownerId)?.username ?? g.ownerId);
    for (const c of g.channels) channels.set(c.id, `#${c.name} in ${g.name}`);
  }
  const options = (map: Map<string, string>) =>
    [...map].map(([id, label]) => `<option value="${esc(id)}">${esc(label)}</option>`).join("");
  return `<form class="inline" method="get" action="/#member" id="member-form">${keep}
<input type="hidden" name="app" value="${esc(app.id)}">
<label>Guild<input name="mguild" list="guild-ids" value="${esc(guildId)}" size="22" autocomplete="off"></label>
<datalist id="guild-ids">${guilds.map((g) => `<option value="${esc(g.id)}">${esc(g.name)}</option>`).join("")}</datalist>
<label>Member<input name="member" list="member-ids" value="${esc(userId)}" size="22" autocomplete="off"></label>
<datalist id="member-ids">${options(members)}</datalist>
<label>Channel<input name="channel" list="channel-ids" value="${esc(channelId)}" size="22" autocomplete="off"></label>
<datalist id="channel-ids">${options(channels)}</datalist>
<button type="submit" id="evaluate">Evaluate</button>
</form>`;
}

/** The evaluation's table, or what is wrong with the form's ids. */
export function renderMemberResult(store: Store, app: Application, query: MemberQuery): string {
  const guild = store.guild(query.guildId);
  if (!guild) return problem(`No guild ${query.guildId} in the emulator's configuration.`);
  const member = guild.members.find((m) => m.userId === query.userId);
  if (!member && guild.ownerId !== query.userId) {
    return problem(`No member ${query.userId} in guild ${guild.name} (${guild.id}).`);
  }
  const channel =
    query.channelId === ""
      ? guild.channels.find((c) => !isThread(c))
      : guild.channels.find((c) => c.id === query.channelId);
  if (!channel) {
    return problem(
      query.channelId === ""
        ? `Guild ${guild.id} has no channel configured.`
        : `No channel ${query.channelId} in guild ${guild.name} (${guild.id}).`,
    );
  }
  let parent;
  if (isThread(channel)) {
    parent = guild.channels.find((c) => c.id === channel.parentId);
    if (!parent) return problem(`Thread ${channel.id} has no parent channel in the guild.`);
  }
  const place: Place = { kind: "guild", guild, channel, parent };
  const user = memberUser(store, query.userId);
  const commands = inPickerOrder(
    [...store.commandsIn(app.id, guild.id), ...store.commandsIn(app.id, undefined)],
    query.locale,
  );
  const roleNames = (member?.roles ?? [])
    .map((r) => guild.roles.find((x) => x.id === r)?.name ?? r)
    .map((n) => `@${n}`);
  const who = `${user.username} (${user.id})${guild.ownerId === user.id ? ", the owner" : ""}${roleNames.length > 0 ? `, roles ${roleNames.join(", ")}` : ""}`;
  let visible = 0;
  let usable = 0;
  const rows = commands.map((c) => {
    const access = evaluateAccess(store, c, user, place);
    if (access.visible) visible++;
    if (access.usable) usable++;
    const name = localize(c.name, c.name_localizations, query.locale).text;
    const prefix = c.type === CommandType.CHAT_INPUT ? "/" : "";
    return `<tr data-command="${esc(c.name)}"><td>${esc(prefix + name)}</td><td>${esc(nameOf(CommandType, c.type))}</td><td>${c.guild_id === undefined ? "global" : "guild"}</td><td class="${access.visible ? "yes" : "no"}">${access.visible ? "shown" : "hidden"}</td><td class="${access.usable ? "yes" : "no"}">${access.usable ? "yes" : "no"}</td><td>${esc(access.reason)}</td></tr>`;
  });
  return `<p id="member-summary">${esc(who)} in #${esc(channel.name)} of ${esc(guild.name)}: <strong>${visible}</strong> of ${commands.length} commands shown in the picker, <strong>${usable}</strong> usable.</p>
<table id="member-table"><thead><tr><th>command</th><th>type</th><th>scope</th><th>picker</th><th>may use</th><th>decided by</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}
