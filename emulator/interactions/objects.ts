/**
 * The objects an interaction payload carries about the people and roles it names (the
 * `user` and `member` objects, the `resolved` maps), shaped as the service's documentation
 * (discord/discord-api-docs, "Receiving and Responding") and discord-api-types describe
 * them.
 */
import type { GuildConfig, UserConfig } from "../config";
import type { Store } from "../store";
import type { Place } from "./access";
import { channelPermissions } from "./access";

/** A fixed join date: members in the configuration have no history. */
const JOINED_AT = "2024-01-01T00:00:00.000000+00:00";

export type Json = Record<string, unknown>;

/** `data.resolved`: the objects the options and the target name, by id. */
export interface Resolved {
  users: Record<string, Json>;
  members: Record<string, Json>;
  roles: Record<string, Json>;
  channels: Record<string, Json>;
  messages: Record<string, Json>;
  attachments: Record<string, Json>;
}

export function emptyResolved(): Resolved {
  return { users: {}, members: {}, roles: {}, channels: {}, messages: {}, attachments: {} };
}

/** The resolved maps that name something (the service leaves empty ones out). */
export function withoutEmpty(resolved: Resolved): Json {
  const out: Json = {};
  for (const [key, map] of Object.entries(resolved))
    if (Object.keys(map).length > 0) out[key] = map;
  return out;
}

export function userObject(user: UserConfig): Json {
  return {
    id: user.id,
    username: user.username,
    global_name: user.username,
    avatar: null,
    discriminator: "0",
    public_flags: 0,
  };
}

export function memberObject(store: Store, guild: GuildConfig, userId: string, place: Place): Json {
  const member = guild.members.find((m) => m.userId === userId);
  const channel = place.kind === "guild" ? (place.parent ?? place.channel) : undefined;
  return {
    roles: [...(member?.roles ?? [])],
    permissions: channelPermissions(store, guild, userId, channel).toString(),
    nick: null,
    avatar: null,
    joined_at: JOINED_AT,
    premium_since: null,
    pending: false,
    flags: 0,
  };
}

export function roleObject(guild: GuildConfig, roleId: string): Json | undefined {
  const role = guild.roles.find((r) => r.id === roleId);
  if (!role && roleId !== guild.id) return undefined;
  return {
    id: roleId,
    name: role?.name ?? "@everyone",
    color: 0,
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position: 0,
    permissions: role?.permissions ?? "0",
    managed: false,
    mentionable: false,
    flags: 0,
  };
}
