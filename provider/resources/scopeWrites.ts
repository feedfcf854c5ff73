/**
 * How a write takes its scope's lock (scopeLocks.ts) without ever waiting for a rate limit
 * while it holds it, and how a write built from the scope's list is tried again.
 *
 * - Room first, holding nothing: the rate-limit room of every request the write sends is
 *   waited for before the lock is queued for, and looked at again once the lock is held:
 *   a write whose room another one used while it queued lets the lock go and waits again.
 *   (Checked only before the queue, the write then waited for its bucket holding the lock.)
 * - Its requests go with a client that waits for no rate limit (`SendPolicy`): a 429, or a
 *   bucket emptied meanwhile, fails the try at once; the write lets the lock go, waits
 *   what the service asked, and tries again.
 * - A write built from the scope's list (`withExclusiveScopeList`: under the exclusive
 *   lock, a list GET, then the PUT built from it) is never sent again as it was: its
 *   client resends nothing, and a try that failed in a way another may not (a 5xx, a
 *   dropped connection, a timeout, a 429) is tried again whole, after a backoff outside
 *   the lock: a new list GET, a new body, the PUT. A PUT resent with the body of an
 *   earlier list deletes what another writer created since, and reverts what it changed
 *   (issue 45: a proxy answered a set's first PUT 500, the client resent it, and the
 *   command another client had created meanwhile was gone).
 * - A one-command write (`writeOneShared`: POST, PATCH, DELETE) touches its command only,
 *   under the shared lock: the client resends it after a 5xx or a drop itself.
 */
import type {
  CommandsApi,
  CreateResult,
  SendPolicy,
  WireCommand,
  WireCommandBody,
  WireCommandPatch,
} from "../client";
import { PaceReservation, RateLimitError, RateLimitNotWaitedError, resendable } from "../client";
import type { RouteDef, RouteParams } from "../routes";
import { path as routePath, scopeParams, scopeRoutes } from "../routes";
import type { Clock } from "./clock";
import type { ScopeLocks } from "./scopeLocks";
import type { TimingLog } from "./timingLog";
import { scopeKind } from "./scopeName";

/** One-command writes: the client waits for no rate limit, and resends after a 5xx or a drop. */
const ONE_COMMAND: SendPolicy = { resend: true, waitForRateLimits: false };
/** A write built from the scope's list: each request sent once; the write is tried again whole. */
const ONCE: SendPolicy = { resend: false, waitForRateLimits: false };
/** At most this many tries of one write meet a rate limit (as for the client's own requests). */
const MAX_RATE_LIMITED_TRIES = 10;

/** What a scope's writes need of the provider runtime. */
export interface ScopeWriteRuntime {
  readonly client: CommandsApi;
  readonly clock: Clock;
  readonly scopeLocks: ScopeLocks;
  readonly timing: TimingLog;
}

/** One write to a scope under its lock. */
interface LockedWrite<T> {
  readonly exclusive: boolean;
  /** Its requests: one on each route, one after the other, each with room before it starts. */
  readonly routes: readonly RouteDef[];
  /** Tried again whole after a failure a later try may not meet (its client resends nothing). */
  readonly triedWhole: boolean;
  /** Room in the global pace held for its requests while a try runs (its client spends it). */
  readonly pace?: PaceReservation;
  run(): Promise<T>;
}

/** Why a try let the lock go before it sent anything: another write used its room meanwhile. */
class RoomTaken extends Error {}

/**
 * Waits, holding nothing, until one request on each of `routes` can go without a rate-limit
 * wait. A wait past the client's budget fails the write at once and says how long.
 */
async function roomFor(
  rt: ScopeWriteRuntime,
  params: RouteParams,
  routes: readonly RouteDef[],
): Promise<void> {
  const limit = rt.client.rest.retryLimits.maxRateLimitWaitMs;
  for (;;) {
    const wait = rt.client.rest.roomWait(routes, params);
    if (wait === undefined) return;
    if (wait.waitMs > limit) {
      const { def } = wait;
      const info = { method: def.method, route: def.template, path: routePath(def, params) };
      throw new RateLimitError(info, wait.waitMs, wait.global, wait.bucket, limit);
    }
    await rt.clock.sleep(wait.waitMs);
  }
}

/** The error of a write whose rate limit asks more than the client waits (or too often). */
function waitedTooLong(error: RateLimitNotWaitedError, limitMs: number): RateLimitError {
  return new RateLimitError(error, error.retryAfterMs, error.global, error.bucket, limitMs);
}

/**
 * Whether a try of a write built from the scope's list that failed with `error` is tried
 * again whole (`withExclusiveScopeList`): a rate limit, or a failure a later try may not
 * meet.
 */
export function triedAgain(error: unknown): boolean {
  return error instanceof RateLimitNotWaitedError || resendable(error);
}

/** Runs `write` under its scope's lock, with room for its requests, as the header says. */
async function underLock<T>(
  rt: ScopeWriteRuntime,
  applicationId: string,
  guildId: string | undefined,
  write: LockedWrite<T>,
): Promise<T> {
  const params = scopeParams(applicationId, guildId);
  const { maxRetries, maxRateLimitWaitMs } = rt.client.rest.retryLimits;
  const locks = rt.scopeLocks;
  const take = write.exclusive ? locks.exclusive.bind(locks) : locks.shared.bind(locks);
  let rateLimited = 0;
  let resends = 0;
  for (;;) {
    await roomFor(rt, params, write.routes);
    try {
      return await take(applicationId, guildId, async () => {
        // Looked at again now that the lock is held: another write may have used the room.
        if (rt.client.rest.roomWait(write.routes, params) !== undefined) throw new RoomTaken();
        // Held in this same turn, so other scopes' requests leave it to this try's own.
        if (write.pace) rt.client.rest.holdPace(write.pace, write.routes.length);
        try {
          return await write.run();
        } finally {
          if (write.pace) rt.client.rest.holdPace(write.pace, 0);
        }
      });
    } catch (error) {
      if (error instanceof RoomTaken) continue;
      if (error instanceof RateLimitNotWaitedError) {
        rateLimited++;
        if (rateLimited > MAX_RATE_LIMITED_TRIES || error.retryAfterMs > maxRateLimitWaitMs) {
          throw waitedTooLong(error, maxRateLimitWaitMs);
        }
        await rt.clock.sleep(error.retryAfterMs);
        continue;
      }
      if (!write.triedWhole || !resendable(error) || resends >= maxRetries) throw error;
      resends++;
      await rt.clock.sleep(rt.client.rest.backoffMs(resends));
    }
  }
}

/**
 * One write of one command (a POST, PATCH or DELETE on `route`) under the scope's shared
 * lock, with `fn` sending it through the client it is given (which waits for no rate limit).
 */
export function writeOneShared<T>(
  rt: ScopeWriteRuntime,
  applicationId: string,
  guildId: string | undefined,
  route: RouteDef,
  fn: (api: CommandsApi) => Promise<T>,
): Promise<T> {
  const api = rt.client.sending(ONE_COMMAND);
  return underLock(rt, applicationId, guildId, {
    exclusive: false,
    routes: [route],
    triedWhole: false,
    run: () => fn(api),
  });
}

/** A POST of one command to its scope (an upsert by name) through `writeOneShared`. */
export function createOne(
  rt: ScopeWriteRuntime,
  applicationId: string,
  guildId: string | undefined,
  body: WireCommandBody,
): Promise<CreateResult> {
  return writeOneShared(rt, applicationId, guildId, scopeRoutes(guildId).create, (api) =>
    guildId === undefined
      ? api.createGlobalCommand(applicationId, body)
      : api.createGuildCommand(applicationId, guildId, body),
  );
}

/** A PATCH of one command through `writeOneShared`. */
export function editOne(
  rt: ScopeWriteRuntime,
  applicationId: string,
  guildId: string | undefined,
  commandId: string,
  patch: WireCommandPatch,
): Promise<WireCommand> {
  return writeOneShared(rt, applicationId, guildId, scopeRoutes(guildId).edit, (api) =>
    guildId === undefined
      ? api.editGlobalCommand(applicationId, commandId, patch)
      : api.editGuildCommand(applicationId, guildId, commandId, patch),
  );
}

/** A DELETE of one command through `writeOneShared`; false when it was gone already. */
export function deleteOne(
  rt: ScopeWriteRuntime,
  applicationId: string,
  guildId: string | undefined,
  commandId: string,
): Promise<boolean> {
  return writeOneShared(rt, applicationId, guildId, scopeRoutes(guildId).delete, (api) =>
    guildId === undefined
      ? api.deleteGlobalCommand(applicationId, commandId)
      : api.deleteGuildCommand(applicationId, guildId, commandId),
  );
}

/** One write built from the scope's list, across its tries (`withExclusiveScopeList`). */
export class ListedWrite {
  /** The client of its requests: each is sent once (the write is tried again whole). */
  readonly api: CommandsApi;
  /** Room in the global pace for its list GET and PUT, held while a try runs. */
  readonly pace = new PaceReservation();
  /** Its tries so far: 1 during the first. */
  attempt = 0;
  /** When its first PUT was sent (the runtime's clock): commands minted since may be its own. */
  firstPutSentAt: number | undefined;
  /** When the current try's list GET was sent (the timing log's clock). */
  private listSentAt: number | undefined;

  constructor(
    private readonly rt: ScopeWriteRuntime,
    private readonly scope: "global" | "guild",
  ) {
    this.api = rt.client.sending({ ...ONCE, pace: this.pace });
  }

  /** The try's list GET is being sent: what another writer does from now on may be lost. */
  listing(): void {
    this.listSentAt = this.rt.timing.time();
  }

  /** The try's PUT is being sent. */
  putting(): void {
    this.firstPutSentAt ??= this.rt.clock.now();
  }

  /** The try's PUT settled: the window in which another writer's change may be lost ends. */
  putSettled(ok: boolean): void {
    if (this.listSentAt === undefined) return;
    this.rt.timing.overwrite(this.scope, this.listSentAt, this.attempt, ok);
  }
}

/**
 * A write built from the scope's list, under the scope's exclusive lock, taken once the list
 * GET and the PUT have room: `fn` reads the list (`freshScope`) and PUTs at once, both
 * through `write.api`, so the window in which another writer's change can be lost is that
 * one round trip, on every try. `fn` runs again, whole, for each try.
 */
export function withExclusiveScopeList<T>(
  rt: ScopeWriteRuntime,
  applicationId: string,
  guildId: string | undefined,
  fn: (write: ListedWrite) => Promise<T>,
): Promise<T> {
  const write = new ListedWrite(rt, scopeKind(guildId));
  return underLock(rt, applicationId, guildId, {
    exclusive: true,
    routes: scopeRoutes(guildId).listThenOverwrite,
    triedWhole: true,
    pace: write.pace,
    run: () => {
      write.attempt++;
      return fn(write);
    },
  });
}
