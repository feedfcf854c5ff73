/**
 * The emulator's state: commands, permission overwrites and Activities switches over the
 * static world of the configuration (world.ts), with the OAuth2 grants (grants.ts) and the
 * daily create counters (dailyCreates.ts). With a state file it persists after every
 * change (stateFile.ts).
 *
 * Stored objects are never mutated in place: an update replaces the object. That makes
 * `transaction()` cheap (a shallow copy of the maps) and every change all-or-nothing.
 */
import fs from "node:fs";
import { Clock } from "./clock";
import type { ResolvedConfig } from "./config";
import { SnowflakeGenerator } from "./snowflake";
import type { StoredCommand } from "./commandRecord";
import { commandRecord } from "./commandRecord";
import { DailyCreates } from "./dailyCreates";
import { Grants } from "./grants";
import { EventFeed } from "./interactions/events";
import { readStateFile, writeStateFile, type PersistedState } from "./stateFile";
import { World } from "./world";

export type { StoredCommand } from "./commandRecord";
// The emulator's page imports the application's type from here.
export type { Application } from "./world";

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

const LAUNCH_COMMAND = {
  name: "Launch",
  description: "Launch an activity",
  handler: 2,
} as const;

function permKey(applicationId: string, guildId: string, targetId: string): string {
  return `${applicationId}/${guildId}/${targetId}`;
}

/** The world of the configuration (lookups inherited from World) and what changes in it. */
export class Store extends World {
  readonly clock: Clock;
  readonly ids: SnowflakeGenerator;
  /** Gateway events the service would send (not persisted; emptied by `reset`). */
  readonly events: EventFeed;
  readonly grants: Grants;
  readonly dailyCreates: DailyCreates;
  private commands = new Map<string, StoredCommand>();
  private perms = new Map<string, StoredPermissions>();
  private activities = new Map<string, boolean>();
  private inTransaction = false;

  constructor(
    config: ResolvedConfig,
    readonly statePath?: string,
  ) {
    super(config);
    this.clock = new Clock();
    const now = (): number => this.clock.now();
    this.ids = new SnowflakeGenerator(now);
    this.events = new EventFeed(now);
    this.grants = new Grants(now);
    this.dailyCreates = new DailyCreates(now, config.dailyCreateLimit);
    if (statePath !== undefined && fs.existsSync(statePath)) this.load(statePath);
    else this.initialize();
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

  /**
   * Every secret the emulator holds now: the configured ones and those it learned at run
   * time (rotated bot tokens, issued access and refresh tokens, authorization codes).
   */
  secrets(): string[] {
    return [...this.configuredSecrets(), ...this.grants.secrets()];
  }

  // ---- Activities ------------------------------------------------------------------------

  /**
   * Turns Activities on or off for an application. On: the `Launch` entry point
   * (handler DISCORD_LAUNCH_ACTIVITY) is created unless the app has an entry point.
   * Off: the app's entry point commands are removed (an entry point needs Activities).
   */
  setActivities(applicationId: string, enabled: boolean): void {
    const app = this.application(applicationId);
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
      activities: new Map(this.activities),
    };
    const rollbacks = [this.grants.checkpoint(), this.dailyCreates.checkpoint()];
    this.inTransaction = true;
    try {
      const result = fn();
      this.inTransaction = false;
      this.persist();
      return result;
    } catch (err) {
      this.commands = saved.commands;
      this.perms = saved.perms;
      this.activities = saved.activities;
      for (const rollback of rollbacks) rollback();
      this.inTransaction = false;
      throw err;
    }
  }

  /** Resets every command, permission, token and counter to the configured start. */
  reset(): void {
    this.commands = new Map();
    this.perms = new Map();
    this.grants.clear();
    this.dailyCreates.clear();
    this.activities = new Map();
    this.clock.offset = 0;
    this.events.reset();
    this.resetChanges();
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
      ...this.grants.persisted(),
      creates: this.dailyCreates.persisted(),
      activities: Object.fromEntries(this.activities),
    };
  }

  /** Writes the state file (when one is configured), unless inside a transaction. */
  persist(): void {
    if (this.statePath === undefined || this.inTransaction) return;
    writeStateFile(this.statePath, this.snapshot());
  }

  private initialize(): void {
    this.inTransaction = true;
    try {
      for (const app of this.applications()) {
        if (app.activities) this.setActivities(app.id, true);
      }
    } finally {
      this.inTransaction = false;
    }
    this.persist();
  }

  private load(file: string): void {
    const s = readStateFile(file);
    this.clock.offset = s.clockOffsetMs;
    this.ids.observe(s.lastSnowflake);
    for (const c of s.commands) {
      const app = this.application(c.application_id);
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
    this.grants.restore(s);
    this.dailyCreates.restore(s.creates);
    for (const [k, v] of Object.entries(s.activities)) this.activities.set(k, v);
    // Applications configured with Activities on get their entry point if it is missing.
    for (const app of this.applications()) {
      if (app.activities && !this.activities.has(app.id)) this.setActivities(app.id, true);
    }
  }
}
