/**
 * The control API: test and demo hooks that the real service does not have. The same
 * operations are available in code (`emu.control.*`) and over HTTP under `/__emulator/`
 * (no service token; on by default only when listening on a loopback host; a request that
 * changes state must be `application/json` from no other site, requestGuard.ts):
 *
 * The routes, what each does and its handler: controlRoutes.ts (`CONTROL_ROUTES`), the one
 * table, which also serves the interactions' routes (async: they call the application).
 */
import { z } from "zod";
import type { ResolvedConfig } from "./config";
import { formatIssues, RateLimitConfig } from "./config";
import type { FaultPlanInput } from "./faults";
import type { FaultInjector } from "./faults";
import type { Counters, RequestLogEntry } from "./log";
import type { RequestLog } from "./log";
import { presentCommand, presentPermissions } from "./present";
import { RateLimitEnforcer } from "./ratelimit";
import type { StoredCommand } from "./commandRecord";
import { commandRecord, identityOf, nextVersion, recordFields } from "./commandRecord";
import type { StoredPermission, Store } from "./store";
import { CANONICAL_COMMAND_FIELDS } from "./schema";

export class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Holds the rate limiter so it can be switched at run time. */
export interface RateLimitSwitch {
  limiter: RateLimitEnforcer | undefined;
}

export class EmulatorControl {
  constructor(
    private readonly store: Store,
    private readonly log: RequestLog,
    readonly faults: FaultInjector,
    private readonly limits: RateLimitSwitch,
    private readonly config: ResolvedConfig,
    /** The url, ids and keys; the credentials too when `withCredentials`. */
    readonly info: (withCredentials: boolean) => Record<string, unknown>,
    /** The interactions delivered (the page's list), emptied with the rest by `reset`. */
    private readonly delivered: { reset(): void },
  ) {}

  // ---- faults --------------------------------------------------------------------------

  /** Replaces the fault plan (`{seed?, rules}`). */
  setFaults(plan: FaultPlanInput): void {
    try {
      this.faults.set(plan);
    } catch (err) {
      if (err instanceof z.ZodError)
        throw new ControlError(400, `invalid fault plan:\n${formatIssues(err)}`);
      throw err;
    }
  }

  clearFaults(): void {
    this.faults.clear();
  }

  // ---- log -----------------------------------------------------------------------------

  requestLog(): RequestLogEntry[] {
    return this.log.list();
  }

  counters(): Counters {
    return this.log.counters();
  }

  resetLog(): void {
    this.log.reset();
  }

  // ---- drift ---------------------------------------------------------------------------

  commands(): Record<string, unknown>[] {
    return this.store.allCommands().map((c) => presentCommand(c));
  }

  /**
   * Sets a command's fields out of band, without validation (null resets a field to its
   * neutral value; anything but the command's fields, and its type, is ignored); a change
   * bumps `version`, as on the service.
   */
  patchCommand(id: string, fields: Record<string, unknown>): Record<string, unknown> {
    const existing = this.store.command(id);
    if (!existing) throw new ControlError(404, `no command ${id}`);
    const next: Record<string, unknown> = { ...recordFields(existing) };
    for (const key of CANONICAL_COMMAND_FIELDS) {
      if (key === "type" || !Object.hasOwn(fields, key)) continue;
      const v = fields[key];
      if (v === null) delete next[key];
      else next[key] = structuredClone(v);
    }
    const app = this.store.application(existing.application_id);
    const record = commandRecord(next, {
      guildId: existing.guild_id,
      installationContexts: app?.installationContexts ?? [0],
    });
    const updated: StoredCommand = {
      ...identityOf(existing),
      ...record,
      version: nextVersion(existing, record, () => this.store.ids.next()),
    };
    this.store.transaction(() => {
      if (updated.name !== existing.name) this.store.dropPermissionsOf(id);
      this.store.putCommand(updated);
    });
    return presentCommand(updated);
  }

  deleteCommand(id: string): void {
    if (!this.store.command(id)) throw new ControlError(404, `no command ${id}`);
    this.store.transaction(() => this.store.deleteCommand(id));
  }

  /** Sets (or with an empty list, removes) overwrites out of band, without validation. */
  setPermissions(
    applicationId: string,
    guildId: string,
    targetId: string,
    permissions: readonly StoredPermission[],
  ): void {
    this.store.transaction(() =>
      this.store.setPermissions({
        id: targetId,
        application_id: applicationId,
        guild_id: guildId,
        permissions: permissions.map((p) => ({ id: p.id, type: p.type, permission: p.permission })),
      }),
    );
  }

  deletePermissions(applicationId: string, guildId: string, targetId: string): boolean {
    return this.store.transaction(() =>
      this.store.deletePermissions(applicationId, guildId, targetId),
    );
  }

  // ---- clock, Activities, limits, reset ------------------------------------------------

  /** Advances the emulator clock (daily create limits, token expiry, rate windows). */
  advanceClock(ms: number): number {
    this.store.clock.advance(ms);
    this.store.transaction(() => undefined);
    return this.store.clock.now();
  }

  now(): number {
    return this.store.clock.now();
  }

  /** Rotates an application's bot token: the old one gets 401 from now on. */
  rotateBotToken(applicationId: string, token: string): void {
    if (token.trim() === "") throw new ControlError(400, "a bot token cannot be empty");
    if (!this.store.rotateBotToken(applicationId, token)) {
      throw new ControlError(404, `no application ${applicationId}`);
    }
  }

  setActivities(applicationId: string, enabled: boolean): void {
    if (!this.store.application(applicationId)) {
      throw new ControlError(404, `no application ${applicationId}`);
    }
    this.store.transaction(() => this.store.setActivities(applicationId, enabled));
  }

  /**
   * Who consents on `GET /oauth2/authorize` for an application: a configured user, or
   * `null` for a user who refuses (the redirect then carries `error=access_denied`).
   */
  setConsent(applicationId: string, userId: string | null): void {
    if (!this.store.application(applicationId)) {
      throw new ControlError(404, `no application ${applicationId}`);
    }
    if (userId !== null && !this.store.user(userId)) {
      throw new ControlError(404, `no user ${userId}`);
    }
    this.store.setConsent(applicationId, userId);
  }

  /** Turns rate limiting off (`false`), on with the configured values (`true`) or custom ones. */
  setRateLimits(value: boolean | RateLimitConfig): void {
    if (value === false) this.limits.limiter = undefined;
    else {
      const config = value === true ? this.config.rateLimits || RateLimitConfig.parse({}) : value;
      this.limits.limiter = new RateLimitEnforcer(config, () => this.store.clock.now());
    }
  }

  /** Back to the configured start: state, log, interactions delivered, faults and rate-limit windows. */
  reset(): void {
    this.store.reset();
    this.log.reset();
    this.delivered.reset();
    this.faults.clear();
    this.limits.limiter?.reset();
  }

  state(): { commands: Record<string, unknown>[]; permissions: Record<string, unknown>[] } {
    return {
      commands: this.commands(),
      permissions: this.store.allPermissions().map(presentPermissions),
    };
  }
}
