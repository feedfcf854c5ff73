/**
 * The interaction payloads the application receives (spec: "Interaction payload received
 * by the app"): type 2 for an invocation, type 4 for autocomplete, built from what a
 * user does in a client (a CHAT_INPUT command's options: optionValues.ts). Shapes beyond
 * the spec's table (the `user` and `member` objects, the `resolved` maps, `context`,
 * `authorizing_integration_owners`) follow the service's documentation
 * (discord/discord-api-docs, "Receiving and Responding") and discord-api-types'
 * `APIChatInputApplicationCommandInteraction`.
 */
import crypto from "node:crypto";
import type { GuildConfig } from "../config";
import type { Store } from "../store";
import { CommandType, InteractionContextType, IntegrationType } from "../schema";
import type { Place } from "./access";
import { contextOf } from "./access";
import { ClientCheckError, type Invocation } from "./invocation";
import type { Json } from "./objects";
import { emptyResolved, memberObject, userObject, withoutEmpty } from "./objects";
import { chatInputData } from "./optionValues";

const InteractionType = { PING: 1, APPLICATION_COMMAND: 2, AUTOCOMPLETE: 4 } as const;

/** `data.target_id` and `data.resolved` of a USER or MESSAGE command. */
function targetData(input: Invocation): Json {
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
export function buildInteraction(input: Invocation): Json {
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
