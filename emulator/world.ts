/**
 * The emulator's static world: the applications, users and guilds of the configuration,
 * looked up by id and by credential, and the two changes the control API makes to it (an
 * application's bot token rotated, the user who consents). Neither change is persisted;
 * `resetChanges` undoes both.
 */
import type { ApplicationConfig, GuildConfig, ResolvedConfig, UserConfig } from "./config";
import { PermissionFlags } from "./schema";

export type Application = ApplicationConfig & { clientId: string };

interface UserTokenMatch {
  readonly user: UserConfig;
  readonly scopes: readonly string[];
  readonly applicationId: string | undefined;
}

/** Every permission bit of the 64 the service knows. */
const ALL_PERMISSIONS = ~0n & ((1n << 64n) - 1n);

export class World {
  private readonly apps = new Map<string, Application>();
  private readonly appsByBotToken = new Map<string, Application>();
  private readonly appsByClientId = new Map<string, Application>();
  private readonly userTokens = new Map<string, UserTokenMatch>();
  /**
   * Every bot token a rotation set or replaced, kept after a later rotation or a reset:
   * the request log still holds the requests made with it, and the page redacts it.
   */
  private readonly formerBotTokens = new Set<string>();
  private readonly users = new Map<string, UserConfig>();
  private readonly guilds = new Map<string, GuildConfig>();
  /** Consent set through the control API: user id, or null for "denied". */
  private readonly consent = new Map<string, string | null>();

  constructor(readonly config: ResolvedConfig) {
    for (const app of config.applications) {
      this.apps.set(app.id, app);
      this.appsByBotToken.set(app.botToken, app);
      this.appsByClientId.set(app.clientId, app);
    }
    for (const user of config.users) {
      this.users.set(user.id, user);
      for (const t of user.tokens) {
        this.userTokens.set(t.token, {
          user,
          scopes: t.scopes,
          applicationId: t.applicationId,
        });
      }
    }
    for (const guild of config.guilds) this.guilds.set(guild.id, guild);
  }

  /**
   * The configured secrets (bot tokens, rotated ones included, client secrets, signing keys,
   * users' tokens): with the grants', what the page redacts.
   */
  configuredSecrets(): string[] {
    const found = [
      ...this.appsByBotToken.keys(),
      ...this.formerBotTokens,
      ...this.userTokens.keys(),
    ];
    for (const app of this.apps.values()) {
      found.push(app.botToken, app.clientSecret);
      if (app.interactionsPrivateKey !== undefined) found.push(app.interactionsPrivateKey);
    }
    return found;
  }

  application(id: string): Application | undefined {
    return this.apps.get(id);
  }

  applications(): Application[] {
    return [...this.apps.values()];
  }

  applicationByBotToken(token: string): Application | undefined {
    return this.appsByBotToken.get(token);
  }

  /**
   * Rotates an application's bot token (as "Reset Token" in the developer portal does):
   * the old token is rejected from now on, the new one accepted.
   */
  rotateBotToken(applicationId: string, token: string): boolean {
    const app = this.apps.get(applicationId);
    if (!app) return false;
    for (const [old, owner] of this.appsByBotToken) {
      if (owner !== app) continue;
      this.appsByBotToken.delete(old);
      this.formerBotTokens.add(old);
    }
    this.formerBotTokens.add(token);
    this.appsByBotToken.set(token, app);
    return true;
  }

  applicationByClientId(clientId: string): Application | undefined {
    return this.appsByClientId.get(clientId);
  }

  userToken(token: string): UserTokenMatch | undefined {
    return this.userTokens.get(token);
  }

  user(id: string): UserConfig | undefined {
    return this.users.get(id);
  }

  guild(id: string): GuildConfig | undefined {
    return this.guilds.get(id);
  }

  isAuthorized(applicationId: string, guildId: string): boolean {
    return this.guilds.get(guildId)?.authorizedApplications.includes(applicationId) ?? false;
  }

  /** A member's permission bits in a guild (all bits for the owner), or undefined. */
  memberPermissions(guildId: string, userId: string): bigint | undefined {
    const guild = this.guilds.get(guildId);
    if (!guild) return undefined;
    if (guild.ownerId === userId) return ALL_PERMISSIONS;
    const member = guild.members.find((m) => m.userId === userId);
    if (!member) return undefined;
    let bits = BigInt(member.permissions);
    for (const role of guild.roles) {
      if (role.id === guild.id || member.roles.includes(role.id)) bits |= BigInt(role.permissions);
    }
    if (bits & PermissionFlags.ADMINISTRATOR) bits = ALL_PERMISSIONS;
    return bits;
  }

  /** Who consents for an application: the control API's choice, else the configured user. */
  consentingUser(applicationId: string): string | undefined {
    const set = this.consent.get(applicationId);
    if (set !== undefined) return set ?? undefined;
    return this.apps.get(applicationId)?.consentUserId;
  }

  setConsent(applicationId: string, userId: string | null): void {
    this.consent.set(applicationId, userId);
  }

  /** Back to the configuration: the configured bot tokens, the configured consent. */
  resetChanges(): void {
    this.consent.clear();
    this.appsByBotToken.clear();
    for (const app of this.apps.values()) this.appsByBotToken.set(app.botToken, app);
  }
}
