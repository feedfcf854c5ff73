/**
 * The interaction payloads the application receives (spec: "Interaction payload received
 * by the app"): type 2 for an invocation, type 4 for autocomplete, built from what a
 * user does in a client, after the checks the client makes before it sends anything
 * (required options, choices, min/max values and lengths, channel types, option types,
 * a base command that has subcommands). Names are always the defaults, whatever the
 * user's locale. Shapes beyond the spec's table (the `user` and `member` objects, the
 * `resolved` maps, `context`, `authorizing_integration_owners`) follow the service's
 * documentation (discord/discord-api-docs, "Receiving and Responding") and
 * discord-api-types' `APIChatInputApplicationCommandInteraction`; in autocomplete
 * payloads INTEGER and NUMBER values are strings, as discord-api-types types them
 * (`Type extends ApplicationCommandAutocomplete ? string : number`).
 */
import crypto from "node:crypto";
import type { GuildConfig, UserConfig } from "../config";
import type { StoredCommand } from "../commandRecord";
import type { CanonicalOption } from "../../provider/schema";
import type { Store } from "../store";
import {
  charLength,
  CommandType,
  InteractionContextType,
  IntegrationType,
  Limits,
  OptionType,
} from "../schema";
import type { Place } from "./access";
import { channelPermissions, contextOf } from "./access";
import type { OptionValue, ParsedInvokeRequest } from "./requests";

/** A check the client makes failed: nothing is sent (outcome "invalid"). */
export class ClientCheckError extends Error {}

export const InteractionType = { PING: 1, APPLICATION_COMMAND: 2, AUTOCOMPLETE: 4 } as const;

/** A fixed join date: members in the configuration have no history. */
const JOINED_AT = "2024-01-01T00:00:00.000000+00:00";

type Json = Record<string, unknown>;

interface Resolved {
  users: Record<string, Json>;
  members: Record<string, Json>;
  roles: Record<string, Json>;
  channels: Record<string, Json>;
  messages: Record<string, Json>;
  attachments: Record<string, Json>;
}

export interface PayloadInput {
  readonly store: Store;
  readonly command: StoredCommand;
  readonly user: UserConfig;
  readonly place: Place;
  readonly request: ParsedInvokeRequest;
  /** Present for an autocomplete interaction. */
  readonly autocomplete?: { readonly focused: string; readonly value: string };
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

function memberObject(store: Store, guild: GuildConfig, userId: string, place: Place): Json {
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

function roleObject(guild: GuildConfig, roleId: string): Json | undefined {
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

/** The subcommand path of a request, and the declared options the values belong to. */
function leafOf(
  command: StoredCommand,
  subcommand: ParsedInvokeRequest["subcommand"],
): { path: CanonicalOption[]; declared: CanonicalOption[] } {
  const names =
    subcommand === undefined
      ? []
      : Array.isArray(subcommand)
        ? subcommand
        : subcommand.split(/\s+/).filter((s) => s !== "");
  const path: CanonicalOption[] = [];
  let level = command.options;
  for (const name of names) {
    const next = level.find(
      (o) =>
        o.name === name &&
        (o.type === OptionType.SUB_COMMAND || o.type === OptionType.SUB_COMMAND_GROUP),
    );
    if (!next) {
      throw new ClientCheckError(
        `/${[command.name, ...path.map((p) => p.name)].join(" ")} has no subcommand or group "${name}"`,
      );
    }
    if (path.length === 1 && next.type === OptionType.SUB_COMMAND_GROUP) {
      throw new ClientCheckError("groups may not contain groups");
    }
    path.push(next);
    level = next.options;
  }
  const last = path[path.length - 1];
  if (last?.type === OptionType.SUB_COMMAND_GROUP) {
    throw new ClientCheckError(`"${last.name}" is a subcommand group: name one of its subcommands`);
  }
  if (
    last === undefined &&
    command.options.some(
      (o) => o.type === OptionType.SUB_COMMAND || o.type === OptionType.SUB_COMMAND_GROUP,
    )
  ) {
    throw new ClientCheckError(
      `/${command.name} has subcommands: it cannot be invoked as the base command`,
    );
  }
  return { path, declared: level };
}

function fail(option: string, problem: string): never {
  throw new ClientCheckError(`option "${option}": ${problem}`);
}

function checkNumber(o: CanonicalOption, v: number): void {
  const integer = o.type === OptionType.INTEGER;
  if (!Number.isFinite(v)) fail(o.name, "not a number");
  if (integer && !Number.isInteger(v)) fail(o.name, `${v} is not an integer`);
  const lo = integer ? Limits.INTEGER_MIN : Limits.NUMBER_MIN;
  const hi = integer ? Limits.INTEGER_MAX : Limits.NUMBER_MAX;
  if (v < lo || v > hi) fail(o.name, `${v} is outside ${lo}..${hi}`);
  if (o.min_value !== null && v < o.min_value)
    fail(o.name, `${v} is below min_value ${o.min_value}`);
  if (o.max_value !== null && v > o.max_value)
    fail(o.name, `${v} is above max_value ${o.max_value}`);
}

function checkChoices(o: CanonicalOption, v: string | number): void {
  if (o.choices.length > 0 && !o.choices.some((c) => c.value === v)) {
    fail(o.name, `${JSON.stringify(v)} is not one of its choices`);
  }
}

/** One option's wire value after the client's checks; fills `resolved`. */
function optionValue(
  input: PayloadInput,
  o: CanonicalOption,
  raw: OptionValue,
  resolved: Resolved,
): string | number | boolean {
  const { store, place } = input;
  const guild = place.kind === "guild" ? place.guild : undefined;
  const resolveUser = (id: string): boolean => {
    const user = store.user(id);
    if (!user) return false;
    resolved.users[id] = userObject(user);
    if (guild && (guild.members.some((m) => m.userId === id) || guild.ownerId === id)) {
      resolved.members[id] = memberObject(store, guild, id, place);
    }
    return true;
  };
  const resolveRole = (id: string): boolean => {
    const role = guild && roleObject(guild, id);
    if (!role) return false;
    resolved.roles[id] = role;
    return true;
  };
  switch (o.type) {
    case OptionType.STRING: {
      if (typeof raw !== "string") fail(o.name, "a STRING option takes a string");
      const n = charLength(raw);
      if (o.min_length !== null && n < o.min_length)
        fail(o.name, `shorter than min_length ${o.min_length}`);
      if (o.max_length !== null && n > o.max_length)
        fail(o.name, `longer than max_length ${o.max_length}`);
      checkChoices(o, raw);
      return raw;
    }
    case OptionType.INTEGER:
    case OptionType.NUMBER: {
      if (typeof raw !== "number") fail(o.name, "a number is expected");
      checkNumber(o, raw);
      checkChoices(o, raw);
      return raw;
    }
    case OptionType.BOOLEAN:
      if (typeof raw !== "boolean") fail(o.name, "a BOOLEAN option takes true or false");
      return raw;
    case OptionType.USER:
      if (typeof raw !== "string" || !resolveUser(raw)) fail(o.name, `no user ${String(raw)}`);
      return raw;
    case OptionType.ROLE:
      if (typeof raw !== "string" || !resolveRole(raw))
        fail(o.name, `no role ${String(raw)} in the guild`);
      return raw;
    case OptionType.MENTIONABLE:
      if (typeof raw !== "string" || !(resolveUser(raw) || resolveRole(raw))) {
        fail(o.name, `no user or role ${String(raw)}`);
      }
      return raw;
    case OptionType.CHANNEL: {
      const channel =
        typeof raw === "string" ? guild?.channels.find((c) => c.id === raw) : undefined;
      if (!guild || !channel) fail(o.name, `no channel ${String(raw)} in the guild`);
      if (o.channel_types.length > 0 && !o.channel_types.includes(channel.type)) {
        fail(
          o.name,
          `channel type ${channel.type} is not one of channel_types ${o.channel_types.join(", ")}`,
        );
      }
      resolved.channels[channel.id] = {
        id: channel.id,
        name: channel.name,
        type: channel.type,
        permissions: channelPermissions(store, guild, input.user.id, channel).toString(),
        ...(channel.parentId === undefined ? {} : { parent_id: channel.parentId }),
      };
      return channel.id;
    }
    case OptionType.ATTACHMENT: {
      const file =
        typeof raw === "string"
          ? { filename: raw, size: 0 }
          : typeof raw === "object"
            ? raw
            : undefined;
      if (!file || file.filename === "")
        fail(o.name, "an ATTACHMENT option takes a file name or {filename}");
      const id = store.ids.next();
      const url = `https://cdn.emulator.invalid/attachments/${input.request.channelId}/${id}/${encodeURIComponent(file.filename)}`;
      resolved.attachments[id] = {
        id,
        filename: file.filename,
        size: file.size,
        url,
        proxy_url: url,
        ...("contentType" in file && file.contentType !== undefined
          ? { content_type: file.contentType }
          : {}),
      };
      return id;
    }
    default:
      return fail(o.name, `option type ${o.type} takes no value`);
  }
}

/** The focused option's partial value: what the client lets through while typing. */
function partialValue(o: CanonicalOption, value: string): string {
  if (!o.autocomplete) fail(o.name, "autocomplete is not enabled for this option");
  if (o.type === OptionType.STRING) {
    if (o.max_length !== null && charLength(value) > o.max_length) {
      fail(o.name, `longer than max_length ${o.max_length}`);
    }
    return value;
  }
  const pattern = o.type === OptionType.INTEGER ? /^-?\d*$/ : /^-?\d*\.?\d*$/;
  if (!pattern.test(value)) fail(o.name, `${JSON.stringify(value)} is not a partial number`);
  return value;
}

function emptyResolved(): Resolved {
  return { users: {}, members: {}, roles: {}, channels: {}, messages: {}, attachments: {} };
}

/** `data.options` and `data.resolved` for a CHAT_INPUT command. */
function chatInputData(input: PayloadInput): { options: Json[]; resolved: Resolved } {
  const { command, request, autocomplete } = input;
  const { path, declared } = leafOf(command, request.subcommand);
  const resolved = emptyResolved();
  const given = { ...request.options };
  for (const name of Object.keys(given)) {
    if (!declared.some((o) => o.name === name)) {
      throw new ClientCheckError(`no option "${name}" here (default names only)`);
    }
  }
  if (autocomplete && !declared.some((o) => o.name === autocomplete.focused)) {
    throw new ClientCheckError(`no option "${autocomplete.focused}" to focus`);
  }
  const leaf: Json[] = [];
  for (const o of declared) {
    if (autocomplete?.focused === o.name) {
      leaf.push({
        type: o.type,
        name: o.name,
        value: partialValue(o, autocomplete.value),
        focused: true,
      });
      continue;
    }
    const raw = given[o.name];
    if (raw === undefined) {
      // While typing, required options may still be empty.
      if (o.required && !autocomplete) throw new ClientCheckError(`option "${o.name}" is required`);
      continue;
    }
    const value = optionValue(input, o, raw, resolved);
    const numeric = o.type === OptionType.INTEGER || o.type === OptionType.NUMBER;
    leaf.push({
      type: o.type,
      name: o.name,
      value: autocomplete && numeric ? String(value) : value,
    });
  }
  let options = leaf;
  for (const p of [...path].reverse()) {
    options = [{ type: p.type, name: p.name, ...(options.length > 0 ? { options } : {}) }];
  }
  return { options, resolved };
}

function withoutEmpty(resolved: Resolved): Json {
  const out: Json = {};
  for (const [key, map] of Object.entries(resolved))
    if (Object.keys(map).length > 0) out[key] = map;
  return out;
}

/** `data.target_id` and `data.resolved` of a USER or MESSAGE command. */
function targetData(input: PayloadInput): Json {
  const { command, request, store, place, user } = input;
  if (Object.keys(request.options).length > 0 || request.subcommand !== undefined) {
    throw new ClientCheckError("USER and MESSAGE commands take no arguments");
  }
  const targetId = request.targetId;
  if (targetId === undefined) {
    throw new ClientCheckError(
      `a ${command.type === CommandType.USER ? "USER" : "MESSAGE"} command needs targetId (the clicked ${command.type === CommandType.USER ? "user" : "message"})`,
    );
  }
  const resolved = emptyResolved();
  if (command.type === CommandType.USER) {
    const target = store.user(targetId);
    if (!target) throw new ClientCheckError(`no user ${targetId}`);
    resolved.users[targetId] = userObject(target);
    if (place.kind === "guild" && place.guild.members.some((m) => m.userId === targetId)) {
      resolved.members[targetId] = memberObject(store, place.guild, targetId, place);
    }
  } else {
    const authorId = request.targetMessage?.authorId ?? user.id;
    const author = store.user(authorId);
    if (!author) throw new ClientCheckError(`no user ${authorId} (the message's author)`);
    resolved.messages[targetId] = {
      id: targetId,
      type: 0,
      channel_id: request.channelId,
      content: request.targetMessage?.content ?? "",
      author: userObject(author),
      timestamp: new Date(store.clock.now()).toISOString(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      attachments: [],
      embeds: [],
      pinned: false,
      flags: 0,
      components: [],
    };
  }
  return { target_id: targetId, resolved: withoutEmpty(resolved) };
}

/** The whole interaction (type 2, or type 4 with `autocomplete`). */
export function buildInteraction(input: PayloadInput): Json {
  const { store, command, user, place, request, autocomplete } = input;
  const data: Json = { id: command.id, name: command.name, type: command.type };
  if (command.guild_id !== undefined) data["guild_id"] = command.guild_id;
  if (command.type === CommandType.CHAT_INPUT) {
    const { options, resolved } = chatInputData(input);
    if (options.length > 0) data["options"] = options;
    const r = withoutEmpty(resolved);
    if (Object.keys(r).length > 0) data["resolved"] = r;
  } else if (command.type === CommandType.USER || command.type === CommandType.MESSAGE) {
    if (autocomplete) throw new ClientCheckError("only CHAT_INPUT options autocomplete");
    Object.assign(data, targetData(input));
  } else if (autocomplete) {
    throw new ClientCheckError("only CHAT_INPUT options autocomplete");
  }
  if (autocomplete) data["version"] = command.version;

  const locale = request.locale ?? user.locale;
  const base: Json = {
    id: store.ids.next(),
    application_id: command.application_id,
    type: autocomplete ? InteractionType.AUTOCOMPLETE : InteractionType.APPLICATION_COMMAND,
    data,
    channel_id: request.channelId,
    token: crypto.randomBytes(32).toString("base64url"),
    version: 1,
    locale,
    entitlements: [],
    context: contextOf(place),
  };
  if (place.kind === "guild") {
    const { guild, channel } = place;
    base["guild_id"] = guild.id;
    base["guild"] = { id: guild.id, locale: guild.preferredLocale, features: [] };
    base["guild_locale"] = guild.preferredLocale;
    base["channel"] = {
      id: channel.id,
      name: channel.name,
      type: channel.type,
      nsfw: (place.parent ?? channel).nsfw,
      ...(channel.parentId === undefined ? {} : { parent_id: channel.parentId }),
    };
    base["member"] = {
      user: userObject(user),
      ...memberObject(store, guild, user.id, place),
      mute: false,
      deaf: false,
      is_pending: false,
    };
    base["app_permissions"] = appPermissions(guild, place);
    base["authorizing_integration_owners"] = { [IntegrationType.GUILD_INSTALL]: guild.id };
  } else {
    base["user"] = userObject(user);
    base["channel"] = {
      id: request.channelId,
      type: place.context === InteractionContextType.BOT_DM ? 1 : 3,
    };
    base["app_permissions"] = "0";
    base["authorizing_integration_owners"] = { [IntegrationType.USER_INSTALL]: user.id };
  }
  return base;
}

/**
 * What the application may do in the channel: an application without a bot user in the
 * guild acts with @everyone's permissions there (the channel's @everyone overwrite
 * applied).
 */
function appPermissions(guild: GuildConfig, place: Place): string {
  const everyone = BigInt(guild.roles.find((r) => r.id === guild.id)?.permissions ?? "0");
  const channel = place.kind === "guild" ? (place.parent ?? place.channel) : undefined;
  const overwrite = channel?.permissionOverwrites.find((o) => o.type === 0 && o.id === guild.id);
  return overwrite
    ? ((everyone & ~BigInt(overwrite.deny)) | BigInt(overwrite.allow)).toString()
    : everyone.toString();
}

/** A PING (type 1), as sent to verify an interactions endpoint URL. */
export function pingInteraction(store: Store, applicationId: string): Json {
  return {
    id: store.ids.next(),
    application_id: applicationId,
    type: InteractionType.PING,
    token: crypto.randomBytes(32).toString("base64url"),
    version: 1,
    user: { id: "0", username: "discord", discriminator: "0000", avatar: null, public_flags: 0 },
  };
}
