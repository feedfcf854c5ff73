/**
 * The emulator's state: commands, permission overwrites, issued OAuth2 tokens, daily
 * create counters and Activities switches, over the static world of the configuration
 * (applications, users, guilds). With a state file it persists after every change with
 * an atomic write (temporary file + rename); a corrupt file is an error at start.
 *
 * Stored objects are never mutated in place: an update replaces the object. That makes
 * `transaction()` cheap (a shallow copy of the maps) and every change all-or-nothing.
 */
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { Clock } from "./clock";
import type { ApplicationConfig, GuildConfig, ResolvedConfig, UserConfig } from "./config";
import { formatIssues } from "./config";
import { PermissionFlags, SNOWFLAKE_PATTERN } from "./schema";
import { SnowflakeGenerator } from "./snowflake";
import type { StoredCommand } from "./commandRecord";
import { commandRecord } from "./commandRecord";
import { EventFeed } from "./interactions/events";

export type { StoredCommand } from "./commandRecord";

export interface StoredPermission {
  readonly id: string;
  readonly type: number;
  readonly permission: boolean;
}

/** A guild application command permissions object (target = command id or app id). */
export interface StoredPermissions {
  readonly id: string;
  readonly application_id: string;
  readonly guild_id: string;
  readonly permissions: readonly StoredPermission[];
}

export interface IssuedToken {
  readonly token: string;
  readonly applicationId: string;
  readonly scopes: readonly string[];
  /** Emulator-clock milliseconds. */
  readonly expiresAt: number;
  /** The consenting user and the authorization, for tokens of the authorization-code flow. */
  readonly userId?: string | undefined;
  readonly grantId?: string | undefined;
}

/** An authorization code: single use, bound to its redirect URI and PKCE challenge. */
export interface AuthorizationCode {
  readonly code: string;
  readonly grantId: string;
  readonly applicationId: string;
  readonly userId: string;
  readonly scopes: readonly string[];
  readonly redirectUri: string;
  /**
   * Whether the authorize request named `redirect_uri` (RFC 6749 section 4.1.3: only then
   * must the token request repeat it); absent in codes persisted before it was recorded.
   */
  readonly redirectUriGiven?: boolean | undefined;
  /** S256 challenge (base64url of SHA-256 of the verifier); absent without PKCE. */
  readonly codeChallenge?: string | undefined;
  readonly expiresAt: number;
  readonly used: boolean;
}

/** A refresh token of an authorization; spent when rotated. */
export interface RefreshToken {
  readonly token: string;
  readonly grantId: string;
  readonly applicationId: string;
  readonly userId: string;
  readonly scopes: readonly string[];
  /**
   * Rotated away: kept (not deleted) so that presenting it again is recognised as reuse
   * and revokes its authorization (RFC 9700 section 4.14.2).
   */
  readonly spent?: boolean | undefined;
}

export type Application = ApplicationConfig & { clientId: string };

export interface UserTokenMatch {
  readonly user: UserConfig;
  readonly scopes: readonly string[];
  readonly applicationId: string | undefined;
}

const PersistedState = z.strictObject({
  format: z.literal("pulumi-discord-commands-emulator/1"),
  clockOffsetMs: z.number().min(0),
  lastSnowflake: z.string().regex(SNOWFLAKE_PATTERN),
  /** Identity checked here; the described fields are brought to the stored form on load. */
  commands: z.array(
    z.looseObject({
      id: z.string().regex(SNOWFLAKE_PATTERN),
      application_id: z.string(),
      guild_id: z.string().optional(),
      version: z.string(),
      name: z.string(),
    }),
  ),
  permissions: z.array(
    z.strictObject({
      id: z.string(),
      application_id: z.string(),
      guild_id: z.string(),
      permissions: z.array(
        z.strictObject({ id: z.string(), type: z.number().int(), permission: z.boolean() }),
      ),
    }),
  ),
  tokens: z.array(
    z.strictObject({
      token: z.string(),
      applicationId: z.string(),
      scopes: z.array(z.string()),
      expiresAt: z.number(),
      userId: z.string().optional(),
      grantId: z.string().optional(),
    }),
  ),
  codes: z
    .array(
      z.strictObject({
        code: z.string(),
        grantId: z.string(),
        applicationId: z.string(),
        userId: z.string(),
        scopes: z.array(z.string()),
        redirectUri: z.string(),
        redirectUriGiven: z.boolean().optional(),
        codeChallenge: z.string().optional(),
        expiresAt: z.number(),
        used: z.boolean(),
      }),
    )
    .default([]),
  refreshTokens: z
    .array(
      z.strictObject({
        token: z.string(),
        grantId: z.string(),
        applicationId: z.string(),
        userId: z.string(),
        scopes: z.array(z.string()),
        spent: z.boolean().optional(),
      }),
    )
    .default([]),
  creates: z.record(z.string(), z.array(z.number())),
  activities: z.record(z.string(), z.boolean()),
});
type PersistedState = z.infer<typeof PersistedState>;

const DAY_MS = 24 * 60 * 60 * 1000;

export const LAUNCH_COMMAND = {
  name: "Launch",
  description: "Launch an activity",
  handler: 2,
} as const;

function permKey(applicationId: string, guildId: string, targetId: string): string {
  return `${applicationId}/${guildId}/${targetId}`;
}

export class Store {
  readonly clock: Clock;
  readonly ids: SnowflakeGenerator;
  /** Gateway events the service would send (not persisted; emptied by `reset`). */
  readonly events: EventFeed;
  private commands = new Map<string, StoredCommand>();
  private perms = new Map<string, StoredPermissions>();
  private tokens = new Map<string, IssuedToken>();
  private codes = new Map<string, AuthorizationCode>();
  private refreshTokens = new Map<string, RefreshToken>();
  /** Consent set through the control API: user id, or null for "denied". */
  private readonly consent = new Map<string, string | null>();
  private creates = new Map<string, number[]>();
  private activities = new Map<string, boolean>();
  private readonly apps = new Map<string, Application>();
  private readonly appsByBotToken = new Map<string, Application>();
  private readonly appsByClientId = new Map<string, Application>();
  private readonly userTokens = new Map<string, UserTokenMatch>();
  private readonly users = new Map<string, UserConfig>();
  private readonly guilds = new Map<string, GuildConfig>();
  private inTransaction = false;

  constructor(
    readonly config: ResolvedConfig,
    readonly statePath?: string,
  ) {
    this.clock = new Clock();
    this.ids = new SnowflakeGenerator(() => this.clock.now());
    this.events = new EventFeed(() => this.clock.now());
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
    if (statePath !== undefined && fs.existsSync(statePath)) this.load(statePath);
    else this.initialize();
  }

  // ---- world (configuration) ---------------------------------------------------------

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
      if (owner === app) this.appsByBotToken.delete(old);
    }
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
    if (guild.ownerId === userId) return ~0n & ((1n << 64n) - 1n);
    const member = guild.members.find((m) => m.userId === userId);
    if (!member) return undefined;
    let bits = BigInt(member.permissions);
    for (const role of guild.roles) {
      if (role.id === guild.id || member.roles.includes(role.id)) bits |= BigInt(role.permissions);
    }
    if (bits & PermissionFlags.ADMINISTRATOR) bits = ~0n & ((1n << 64n) - 1n);
    return bits;
  }

  activitiesEnabled(applicationId: string): boolean {
    return this.activities.get(applicationId) ?? false;
  }

  // ---- commands ------------------------------------------------------------------------

  command(id: string): StoredCommand | undefined {
    return this.commands.get(id);
  }

  /** Commands of one scope (guildId undefined = global), in id order. */
  commandsIn(applicationId: string, guildId: string | undefined): StoredCommand[] {
    const out: StoredCommand[] = [];
    for (const c of this.commands.values()) {
      if (c.application_id === applicationId && c.guild_id === guildId) out.push(c);
    }
    return out;
  }

  allCommands(): StoredCommand[] {
    return [...this.commands.values()];
  }

  putCommand(command: StoredCommand): void {
    this.ids.observe(command.id);
    this.ids.observe(command.version);
    this.commands.set(command.id, command);
  }

  /** Deletes a command and all of its permission overwrites, in every guild. */
  deleteCommand(id: string): boolean {
    const existed = this.commands.delete(id);
    this.dropPermissionsOf(id);
    return existed;
  }

  // ---- permissions ---------------------------------------------------------------------

  permissions(
    applicationId: string,
    guildId: string,
    targetId: string,
  ): StoredPermissions | undefined {
    return this.perms.get(permKey(applicationId, guildId, targetId));
  }

  permissionsIn(applicationId: string, guildId: string): StoredPermissions[] {
    return [...this.perms.values()].filter(
      (p) => p.application_id === applicationId && p.guild_id === guildId,
    );
  }

  allPermissions(): StoredPermissions[] {
    return [...this.perms.values()];
  }

  setPermissions(value: StoredPermissions): void {
    const key = permKey(value.application_id, value.guild_id, value.id);
    if (value.permissions.length === 0) this.perms.delete(key);
    else this.perms.set(key, value);
  }

  deletePermissions(applicationId: string, guildId: string, targetId: string): boolean {
    return this.perms.delete(permKey(applicationId, guildId, targetId));
  }

  /** Drops a command's overwrites in every guild (rename and delete do this). */
  dropPermissionsOf(commandId: string): void {
    for (const [key, p] of this.perms) if (p.id === commandId) this.perms.delete(key);
  }

  // ---- daily creates -------------------------------------------------------------------

  /** Creates counted in the last 24 hours for a scope. */
  createsToday(scopeKey: string): number {
    const now = this.clock.now();
    const list = (this.creates.get(scopeKey) ?? []).filter((t) => t > now - DAY_MS);
    return list.length;
  }

  /** Time until `adding` more creates fit in the scope's 24-hour window. */
  createsRoomInMs(scopeKey: string, adding: number): number {
    const now = this.clock.now();
    const list = (this.creates.get(scopeKey) ?? []).filter((t) => t > now - DAY_MS);
    const mustLeave = list.length + adding - this.config.dailyCreateLimit;
    if (mustLeave <= 0) return 0;
    const sorted = [...list].sort((a, b) => a - b);
    const last = sorted[Math.min(mustLeave, sorted.length) - 1];
    return last === undefined ? DAY_MS : last + DAY_MS - now;
  }

  recordCreates(scopeKey: string, count: number): void {
    if (count <= 0) return;
    const now = this.clock.now();
    const list = (this.creates.get(scopeKey) ?? []).filter((t) => t > now - DAY_MS);
    for (let i = 0; i < count; i++) list.push(now);
    this.creates.set(scopeKey, list);
  }

  // ---- tokens --------------------------------------------------------------------------

  issueToken(token: IssuedToken): void {
    const now = this.clock.now();
    for (const [key, t] of this.tokens) if (t.expiresAt <= now) this.tokens.delete(key);
    this.tokens.set(token.token, token);
  }

  /** An issued access token (client credentials or a user's), if not expired or revoked. */
  issuedToken(token: string): IssuedToken | undefined {
    const t = this.tokens.get(token);
    if (!t || t.expiresAt <= this.clock.now()) return undefined;
    return t;
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

  putCode(code: AuthorizationCode): void {
    const now = this.clock.now();
    for (const [key, c] of this.codes) if (c.expiresAt <= now) this.codes.delete(key);
    this.codes.set(code.code, code);
  }

  code(code: string): AuthorizationCode | undefined {
    return this.codes.get(code);
  }

  putRefreshToken(token: RefreshToken): void {
    this.refreshTokens.set(token.token, token);
  }

  refreshToken(token: string): RefreshToken | undefined {
    return this.refreshTokens.get(token);
  }

  /** Marks a rotated refresh token spent; a spent token presented again is reuse. */
  spendRefreshToken(token: string): void {
    const found = this.refreshTokens.get(token);
    if (found) this.refreshTokens.set(token, { ...found, spent: true });
  }

  /**
   * Every secret the emulator holds now: the configured ones (bot tokens, client secrets,
   * signing keys, users' tokens) and those it learned at run time (rotated bot tokens,
   * issued access and refresh tokens, authorization codes). The page redacts them all.
   */
  secrets(): string[] {
    const found = [...this.appsByBotToken.keys(), ...this.tokens.keys(), ...this.codes.keys()];
    found.push(...this.refreshTokens.keys(), ...this.userTokens.keys());
    for (const app of this.apps.values()) {
      found.push(app.botToken, app.clientSecret);
      if (app.interactionsPrivateKey !== undefined) found.push(app.interactionsPrivateKey);
    }
    return found;
  }

  /** Revokes an authorization: every access and refresh token issued for it. */
  revokeGrant(grantId: string): void {
    for (const [key, t] of this.tokens) if (t.grantId === grantId) this.tokens.delete(key);
    for (const [key, t] of this.refreshTokens)
      if (t.grantId === grantId) this.refreshTokens.delete(key);
  }

  // ---- Activities ------------------------------------------------------------------------

  /**
   * Turns Activities on or off for an application. On: the `Launch` entry point
   * (handler DISCORD_LAUNCH_ACTIVITY) is created unless the app has an entry point.
   * Off: the app's entry point commands are removed (an entry point needs Activities).
   */
  setActivities(applicationId: string, enabled: boolean): void {
    const app = this.apps.get(applicationId);
    if (!app) throw new Error(`unknown application ${applicationId}`);
    this.activities.set(applicationId, enabled);
    const entryPoints = this.commandsIn(applicationId, undefined).filter((c) => c.type === 4);
    if (enabled && entryPoints.length === 0) {
      const id = this.ids.next();
      this.putCommand({
        id,
        application_id: applicationId,
        version: this.ids.next(),
        ...commandRecord(
          { type: 4, ...LAUNCH_COMMAND },
          { guildId: undefined, installationContexts: app.installationContexts },
        ),
      });
    } else if (!enabled) {
      for (const c of entryPoints) this.deleteCommand(c.id);
    }
  }

  // ---- transactions and persistence ----------------------------------------------------

  /**
   * Runs `fn` all-or-nothing: if it throws, every change it made is undone. On success
   * the state is persisted (when a state file is configured).
   */
  transaction<T>(fn: () => T): T {
    if (this.inTransaction) return fn();
    const saved = {
      commands: new Map(this.commands),
      perms: new Map(this.perms),
      tokens: new Map(this.tokens),
      codes: new Map(this.codes),
      refreshTokens: new Map(this.refreshTokens),
      creates: new Map(this.creates),
      activities: new Map(this.activities),
    };
    this.inTransaction = true;
    try {
      const result = fn();
      this.inTransaction = false;
      this.persist();
      return result;
    } catch (err) {
      this.commands = saved.commands;
      this.perms = saved.perms;
      this.tokens = saved.tokens;
      this.codes = saved.codes;
      this.refreshTokens = saved.refreshTokens;
      this.creates = saved.creates;
      this.activities = saved.activities;
      this.inTransaction = false;
      throw err;
    }
  }

  /** Resets every command, permission, token and counter to the configured start. */
  reset(): void {
    this.commands = new Map();
    this.perms = new Map();
    this.tokens = new Map();
    this.codes = new Map();
    this.refreshTokens = new Map();
    this.consent.clear();
    this.creates = new Map();
    this.activities = new Map();
    this.clock.offset = 0;
    this.events.reset();
    this.appsByBotToken.clear();
    for (const app of this.apps.values()) this.appsByBotToken.set(app.botToken, app);
    this.initialize();
  }

  snapshot(): PersistedState {
    return {
      format: "pulumi-discord-commands-emulator/1",
      clockOffsetMs: this.clock.offset,
      lastSnowflake: this.ids.current(),
      commands: this.allCommands().map((c) => ({ ...c })),
      permissions: this.allPermissions().map((p) => ({
        ...p,
        permissions: p.permissions.map((x) => ({ ...x })),
      })),
      tokens: [...this.tokens.values()].map((t) => ({ ...t, scopes: [...t.scopes] })),
      codes: [...this.codes.values()].map((c) => ({ ...c, scopes: [...c.scopes] })),
      refreshTokens: [...this.refreshTokens.values()].map((t) => ({ ...t, scopes: [...t.scopes] })),
      creates: Object.fromEntries(this.creates),
      activities: Object.fromEntries(this.activities),
    };
  }

  /** Writes the state file atomically (temporary file in the same folder + rename). */
  persist(): void {
    if (this.statePath === undefined || this.inTransaction) return;
    const target = path.resolve(this.statePath);
    const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
    fs.writeFileSync(tmp, `${JSON.stringify(this.snapshot(), null, 1)}\n`);
    fs.renameSync(tmp, target);
  }

  private initialize(): void {
    this.inTransaction = true;
    try {
      for (const app of this.apps.values()) {
        if (app.activities) this.setActivities(app.id, true);
      }
    } finally {
      this.inTransaction = false;
    }
    this.persist();
  }

  private load(file: string): void {
    let raw: string;
    try {
      raw = fs.readFileSync(file, "utf8");
    } catch (err) {
      throw new Error(`cannot read emulator state file ${file}: ${(err as Error).message}`, {
        cause: err,
      });
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (err) {
      throw new Error(
        `emulator state file ${file} is corrupt (invalid JSON: ${(err as Error).message}); ` +
          "fix or delete it to start from an empty state",
        { cause: err },
      );
    }
    const parsed = PersistedState.safeParse(json);
    if (!parsed.success) {
      throw new Error(
        `emulator state file ${file} is corrupt or of another format; fix or delete it:\n` +
          formatIssues(parsed.error),
      );
    }
    const s = parsed.data;
    this.clock.offset = s.clockOffsetMs;
    this.ids.observe(s.lastSnowflake);
    for (const c of s.commands) {
      const app = this.apps.get(c.application_id);
      const command: StoredCommand = {
        id: c.id,
        application_id: c.application_id,
        ...(c.guild_id === undefined ? {} : { guild_id: c.guild_id }),
        version: c.version,
        ...commandRecord(c, {
          guildId: c.guild_id,
          installationContexts: app?.installationContexts ?? [0],
        }),
      };
      this.ids.observe(command.id);
      this.ids.observe(command.version);
      this.commands.set(command.id, command);
    }
    for (const p of s.permissions) this.perms.set(permKey(p.application_id, p.guild_id, p.id), p);
    for (const t of s.tokens) this.tokens.set(t.token, t);
    for (const c of s.codes) this.codes.set(c.code, c);
    for (const t of s.refreshTokens) this.refreshTokens.set(t.token, t);
    for (const [k, v] of Object.entries(s.creates)) this.creates.set(k, v);
    for (const [k, v] of Object.entries(s.activities)) this.activities.set(k, v);
    // Applications configured with Activities on get their entry point if it is missing.
    for (const app of this.apps.values()) {
      if (app.activities && !this.activities.has(app.id)) this.setActivities(app.id, true);
    }
  }
}
