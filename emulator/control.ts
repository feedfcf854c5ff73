/**
 * The control API: test and demo hooks that the real service does not have. The same
 * operations are available in code (`emu.control.*`) and over HTTP under `/__emulator/`
 * (no service token; on by default only when listening on a loopback host; a request that
 * changes state must be `application/json` from no other site, requestGuard.ts):
 *
 * | Method and path                                           | Does                                   |
 * |-----------------------------------------------------------|----------------------------------------|
 * | GET    /__emulator/info                                   | url, ids, keys; credentials (loopback) |
 * | GET    /__emulator/state                                  | every command and permissions object   |
 * | POST   /__emulator/reset                                  | state, log, interactions, faults, limits|
 * | GET    /__emulator/log, DELETE /__emulator/log            | request log (and counters) / reset     |
 * | GET    /__emulator/counters                               | counts by method, route, status; writes|
 * | GET/PUT/POST/DELETE /__emulator/faults                    | fault plan `{seed, rules}` (POST = PUT)|
 * | GET    /__emulator/commands                               | every command, as the service shows it |
 * | PATCH  /__emulator/commands/{id}                          | drift: set fields, no validation       |
 * | DELETE /__emulator/commands/{id}                          | drift: delete a command                |
 * | PUT    /__emulator/permissions/{app}/{guild}/{target}     | drift: set overwrites `{permissions}`  |
 * | DELETE /__emulator/permissions/{app}/{guild}/{target}     | drift: delete overwrites               |
 * | GET    /__emulator/clock, POST /__emulator/clock/advance  | `{ms}` or `{seconds}` forward          |
 * | PUT    /__emulator/applications/{id}/activities           | `{enabled}`: Activities on or off      |
 * | PUT    /__emulator/applications/{id}/consent              | `{userId}`: who consents (null: denied)|
 * | PUT    /__emulator/rate-limits                            | `{enabled}`: rate limits on or off     |
 * | PUT    /__emulator/applications/{id}/bot-token            | `{token}`: rotate the bot token        |
 *
 * Interactions (endpoint URL, invoke, autocomplete, can-use, events) are async and
 * served by emulator/interactions/routes.ts, tried before this table.
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
import { CANONICAL_COMMAND_FIELDS, isRecord } from "./schema";

export class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const PermissionsBody = z.strictObject({
  permissions: z.array(
    z.strictObject({ id: z.string(), type: z.number().int(), permission: z.boolean() }),
  ),
});
const AdvanceBody = z.union([
  z.strictObject({ ms: z.number().min(0) }),
  z.strictObject({ seconds: z.number().min(0) }),
]);
const EnabledBody = z.strictObject({ enabled: z.boolean() });
const ConsentBody = z.strictObject({ userId: z.string().nullable() });
const TokenBody = z.strictObject({ token: z.string() });

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body);
  if (!r.success) throw new ControlError(400, `invalid body:\n${formatIssues(r.error)}`);
  return r.data;
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
    private readonly info: (withCredentials: boolean) => Record<string, unknown>,
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

  // ---- HTTP ----------------------------------------------------------------------------

  /**
   * Serves `/__emulator/...` (path without the prefix). `caller.loopback`: the request came
   * over loopback naming a loopback host, so `info` may carry the credentials.
   */
  handleHttp(
    method: string,
    path: string,
    body: unknown,
    caller: { readonly loopback: boolean },
  ): { status: number; body?: unknown } {
    let seg: string[];
    try {
      seg = path
        .split("/")
        .filter((s) => s !== "")
        .map(decodeURIComponent);
    } catch {
      throw new ControlError(400, "malformed path");
    }
    const route = `${method} /${seg.map((s, i) => (i > 0 && /^\d+$/.test(s) ? ":id" : s)).join("/")}`;
    const ok = (b?: unknown) => (b === undefined ? { status: 204 } : { status: 200, body: b });
    switch (route) {
      case "GET /info":
        return ok(this.info(caller.loopback));
      case "GET /state":
        return ok(this.state());
      case "POST /reset":
        this.reset();
        return ok();
      case "GET /log":
        return ok(this.requestLog());
      case "DELETE /log":
        this.resetLog();
        return ok();
      case "GET /counters":
        return ok(this.counters());
      case "GET /faults":
        return ok(this.faults.describe());
      case "PUT /faults":
      case "POST /faults":
        this.setFaults(body as FaultPlanInput);
        return ok(this.faults.describe());
      case "DELETE /faults":
        this.clearFaults();
        return ok();
      case "GET /commands":
        return ok(this.commands());
      case "PATCH /commands/:id":
        if (!isRecord(body)) throw new ControlError(400, "body must be an object of fields");
        return ok(this.patchCommand(seg[1] ?? "", body));
      case "DELETE /commands/:id":
        this.deleteCommand(seg[1] ?? "");
        return ok();
      case "PUT /permissions/:id/:id/:id": {
        const b = parse(PermissionsBody, body);
        this.setPermissions(seg[1] ?? "", seg[2] ?? "", seg[3] ?? "", b.permissions);
        return ok();
      }
      case "DELETE /permissions/:id/:id/:id":
        this.deletePermissions(seg[1] ?? "", seg[2] ?? "", seg[3] ?? "");
        return ok();
      case "GET /clock":
        return ok({ now: this.now(), iso: new Date(this.now()).toISOString() });
      case "POST /clock/advance": {
        const b = parse(AdvanceBody, body);
        const ms = "ms" in b ? b.ms : b.seconds * 1000;
        const now = this.advanceClock(ms);
        return ok({ now, iso: new Date(now).toISOString() });
      }
      case "PUT /applications/:id/activities":
        this.setActivities(seg[1] ?? "", parse(EnabledBody, body).enabled);
        return ok();
      case "PUT /applications/:id/consent":
        this.setConsent(seg[1] ?? "", parse(ConsentBody, body).userId);
        return ok();
      case "PUT /applications/:id/bot-token":
        this.rotateBotToken(seg[1] ?? "", parse(TokenBody, body).token);
        return ok();
      case "PUT /rate-limits":
        this.setRateLimits(parse(EnabledBody, body).enabled);
        return ok();
      default:
        throw new ControlError(404, `no control route ${method} /__emulator/${seg.join("/")}`);
    }
  }
}
