/**
 * Who may use a command where (spec: "Permission behavior", "Interaction context
 * types", "Installation contexts", rule 10 on age-restricted commands, the USER command
 * rule of "Interaction payload"). One evaluation serves `can-use` and every invocation.
 *
 * Order, first decisive rule wins:
 *  1. scope and context: a guild command only in its guild; in a guild, a global command
 *     needs GUILD in its contexts and an installation there (GUILD_INSTALL with the app
 *     authorized in the guild, or USER_INSTALL); outside guilds, BOT_DM (global commands
 *     only) and PRIVATE_CHANNEL (only for commands with USER_INSTALL);
 *  2. age restriction: an nsfw command only for age-verified users, and in a guild only
 *     in an nsfw channel (a thread follows its parent);
 *  3. the guild owner and members with Administrator: always;
 *  4. the overwrites in the guild: the command's own, or the application-wide object
 *     (id = application id) when the command has none ("synced" in the client):
 *     channel (the channel itself, a thread's parent, then All Channels = guild id - 1)
 *     must not deny; then user, then roles (an allowing role wins over a denying one),
 *     then @everyone (id = guild id) decide when present;
 *  5. with no user/role/@everyone overwrite: `default_member_permissions` against the
 *     member's permissions in the channel (null = everyone; "0" = admins only);
 *  6. a USER command needs permission to send messages in the channel (in a thread:
 *     SEND_MESSAGES_IN_THREADS): without it the command is visible, but invoking it
 *     ends in Permission Denied.
 */
import type { ChannelConfig, GuildConfig, UserConfig } from "../config";
import type { StoredCommand } from "../commandRecord";
import type { StoredPermission, Store } from "../store";
import {
  allChannels,
  ChannelType,
  CommandType,
  IntegrationType,
  InteractionContextType,
  PermissionFlags,
  PermissionType,
} from "../schema";

const ALL_BITS = (1n << 64n) - 1n;
const THREAD_TYPES: ReadonlySet<number> = new Set([
  ChannelType.ANNOUNCEMENT_THREAD,
  ChannelType.PUBLIC_THREAD,
  ChannelType.PRIVATE_THREAD,
]);

/** Where a command is used: a guild channel, or outside guilds (DM with the app, group DM). */
export type Place =
  | {
      readonly kind: "guild";
      readonly guild: GuildConfig;
      readonly channel: ChannelConfig;
      /** The channel whose overwrites and nsfw flag apply (a thread's parent). */
      readonly parent: ChannelConfig | undefined;
    }
  | {
      readonly kind: "private";
      readonly context:
        typeof InteractionContextType.BOT_DM | typeof InteractionContextType.PRIVATE_CHANNEL;
      readonly channelId: string;
    };

export interface Access {
  /** Shown in the user's command picker. */
  readonly visible: boolean;
  /** Invoking it reaches the application. */
  readonly usable: boolean;
  /** Which rule decided, in words. */
  readonly reason: string;
}

export function isThread(channel: ChannelConfig): boolean {
  return THREAD_TYPES.has(channel.type);
}

/** The interaction context type of a place. */
export function contextOf(place: Place): number {
  return place.kind === "guild" ? InteractionContextType.GUILD : place.context;
}

/**
 * A member's permissions in a channel, as the service computes them: the guild-level bits
 * (owner and Administrator: all), then the channel's overwrites (a thread: its parent's)
 * for @everyone, then the member's roles together, then the member.
 */
export function channelPermissions(
  store: Store,
  guild: GuildConfig,
  userId: string,
  channel: ChannelConfig | undefined,
): bigint {
  const base = store.memberPermissions(guild.id, userId) ?? 0n;
  if (base === ALL_BITS || channel === undefined) return base;
  const member = guild.members.find((m) => m.userId === userId);
  let bits = base;
  const apply = (allow: bigint, deny: bigint) => {
    bits = (bits & ~deny) | allow;
  };
  const overwrites = channel.permissionOverwrites;
  const everyone = overwrites.find((o) => o.type === 0 && o.id === guild.id);
  if (everyone) apply(BigInt(everyone.allow), BigInt(everyone.deny));
  let allow = 0n;
  let deny = 0n;
  for (const o of overwrites) {
    if (o.type === 0 && o.id !== guild.id && member?.roles.includes(o.id)) {
      allow |= BigInt(o.allow);
      deny |= BigInt(o.deny);
    }
  }
  apply(allow, deny);
  const own = overwrites.find((o) => o.type === 1 && o.id === userId);
  if (own) apply(BigInt(own.allow), BigInt(own.deny));
  return bits;
}

const allow = (reason: string): Access => ({ visible: true, usable: true, reason });
const hidden = (reason: string): Access => ({ visible: false, usable: false, reason });

/** Contexts in force: a global command's `contexts`, or without them GUILD, BOT_DM (unless `dm_permission` is false) and PRIVATE_CHANNEL. */
function contextsOf(command: StoredCommand): readonly number[] {
  if (command.contexts !== null) return command.contexts;
  const all: number[] = [InteractionContextType.GUILD, InteractionContextType.PRIVATE_CHANNEL];
  if (command.dm_permission) all.push(InteractionContextType.BOT_DM);
  return all;
}

function scopeAndContext(store: Store, command: StoredCommand, place: Place): Access | undefined {
  const global = command.guild_id === undefined;
  const integrationTypes = command.integration_types ?? [IntegrationType.GUILD_INSTALL];
  const userInstall = integrationTypes.includes(IntegrationType.USER_INSTALL);
  if (place.kind === "guild") {
    if (!global) {
      if (command.guild_id !== place.guild.id) {
        return hidden(`the command belongs to guild ${command.guild_id}, not to this one`);
      }
      return undefined;
    }
    if (!contextsOf(command).includes(InteractionContextType.GUILD)) {
      return hidden("the command's contexts leave out GUILD (0)");
    }
    const guildInstall =
      integrationTypes.includes(IntegrationType.GUILD_INSTALL) &&
      store.isAuthorized(command.application_id, place.guild.id);
    if (!guildInstall && !userInstall) {
      return hidden(
        "the application is not installed here: not authorized in the guild with GUILD_INSTALL, and the command has no USER_INSTALL",
      );
    }
    return undefined;
  }
  if (!global) return hidden("guild commands exist only in their guild, never in DMs");
  if (place.context === InteractionContextType.BOT_DM) {
    if (!contextsOf(command).includes(InteractionContextType.BOT_DM)) {
      return hidden("the command's contexts leave out BOT_DM (1) (or dm_permission is false)");
    }
    return undefined;
  }
  if (!userInstall) {
    return hidden(
      "PRIVATE_CHANNEL (2) needs a command installed to users: its integration_types lack USER_INSTALL (1)",
    );
  }
  if (!contextsOf(command).includes(InteractionContextType.PRIVATE_CHANNEL)) {
    return hidden("the command's contexts leave out PRIVATE_CHANNEL (2)");
  }
  return undefined;
}

/** The overwrites that apply: the command's own in the guild, else the application-wide ones. */
function overwritesFor(
  store: Store,
  command: StoredCommand,
  guildId: string,
): { list: readonly StoredPermission[]; source: string } | undefined {
  const own = store.permissions(command.application_id, guildId, command.id);
  if (own) return { list: own.permissions, source: "the command's overwrites" };
  const appWide = store.permissions(command.application_id, guildId, command.application_id);
  if (appWide) return { list: appWide.permissions, source: "the application-wide overwrites" };
  return undefined;
}

function find(
  list: readonly StoredPermission[],
  type: number,
  id: string,
): StoredPermission | undefined {
  return list.find((p) => p.type === type && BigInt(p.id) === BigInt(id));
}

/** Evaluates every rule for one user, command and place. */
export function evaluateAccess(
  store: Store,
  command: StoredCommand,
  user: UserConfig,
  place: Place,
): Access {
  const scoped = scopeAndContext(store, command, place);
  if (scoped) return scoped;

  if (command.nsfw) {
    if (!user.ageVerified) {
      return hidden("age-restricted (nsfw) command: the user is not age-verified");
    }
    if (place.kind === "guild" && !(place.parent ?? place.channel).nsfw) {
      return hidden("age-restricted (nsfw) command: the channel is not age-restricted");
    }
  }
  if (place.kind === "private") return allow("allowed outside guilds (contexts permit it)");

  const { guild, channel, parent } = place;
  const member = guild.members.find((m) => m.userId === user.id);
  if (guild.ownerId !== user.id && !member) {
    return hidden(`user ${user.id} is not a member of guild ${guild.id}`);
  }
  const guildBits = store.memberPermissions(guild.id, user.id) ?? 0n;
  const bits = channelPermissions(store, guild, user.id, parent ?? channel);
  const canSend = (): boolean => {
    const needed = isThread(channel)
      ? PermissionFlags.SEND_MESSAGES_IN_THREADS
      : PermissionFlags.SEND_MESSAGES;
    return (bits & needed) === needed;
  };
  const finish = (reason: string): Access => {
    if (command.type === CommandType.USER && !canSend()) {
      return {
        visible: true,
        usable: false,
        reason: `Permission Denied: a USER command needs permission to send messages in the channel (${reason})`,
      };
    }
    return allow(reason);
  };

  if (guild.ownerId === user.id) return finish("the guild owner can use every command");
  if ((guildBits & PermissionFlags.ADMINISTRATOR) !== 0n) {
    return finish("members with Administrator can use every command");
  }

  const overwrites = overwritesFor(store, command, guild.id);
  if (overwrites) {
    const { list, source } = overwrites;
    const channelIds: [string, string][] = [[channel.id, "the channel"]];
    if (parent) channelIds.push([parent.id, "the thread's parent channel"]);
    channelIds.push([allChannels(guild.id), "All Channels"]);
    for (const [id, what] of channelIds) {
      const o = find(list, PermissionType.CHANNEL, id);
      if (!o) continue;
      if (!o.permission) return hidden(`${source} deny ${what} (${id})`);
      break;
    }
    const userOverwrite = find(list, PermissionType.USER, user.id);
    if (userOverwrite) {
      return userOverwrite.permission
        ? finish(`${source} allow the user`)
        : hidden(`${source} deny the user`);
    }
    const roleOverwrites = list.filter(
      (p) =>
        p.type === PermissionType.ROLE &&
        BigInt(p.id) !== BigInt(guild.id) &&
        (member?.roles.some((r) => BigInt(r) === BigInt(p.id)) ?? false),
    );
    if (roleOverwrites.some((p) => p.permission)) {
      return finish(`${source} allow one of the user's roles`);
    }
    if (roleOverwrites.length > 0) return hidden(`${source} deny the user's roles`);
    const everyone = find(list, PermissionType.ROLE, guild.id);
    if (everyone) {
      return everyone.permission
        ? finish(`${source} allow @everyone`)
        : hidden(`${source} deny @everyone`);
    }
  }

  const required = command.default_member_permissions;
  if (required === null)
    return finish("no overwrite applies and default_member_permissions is null (everyone)");
  const needed = BigInt(required);
  if (needed === 0n) {
    return hidden(
      'default_member_permissions "0": only admins and users with an allowing overwrite',
    );
  }
  if ((bits & needed) !== needed) {
    return hidden(
      `default_member_permissions ${required} requires permissions the member lacks in the channel (has ${bits})`,
    );
  }
  return finish(`the member has the default_member_permissions ${required}`);
}
