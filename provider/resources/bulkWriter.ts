/**
 * Bulk write mode (`discord:writeMode: bulk`): the creates, updates and deletes that one
 * deployment sends for one scope coalesce into one bulk overwrite PUT (endpoints 6 and
 * 12) instead of one request each. The service allows about 5 creates per 20 s per
 * scope, and a PUT is one request whatever it carries, so 100 new commands cost a few
 * PUTs instead of 100 rate-limited POSTs.
 *
 * A bulk overwrite deletes every command its list leaves out, so the list is built from
 * the live scope (a list GET under the scope's lock, right before the PUT; bulkBatchList.ts):
 * a command the stack does not manage is never left out.
 *
 * Batching: the engine runs resource operations in parallel slots (`--parallel`, by
 * default 4 per CPU: 8 on a 2-core machine) and an operation holds its slot until it
 * resolves, so at most that many operations can wait for one PUT; `pulumi up --parallel
 * 100` lets one PUT carry a whole scope. A batch closes `discord:bulkWindowMs` (default
 * 200 ms) after its first operation arrived; one smaller than the engine's slots (as far
 * as the deployment has shown them) stays open while more of it can come (`fillUp`), and
 * a batch stays open while the scope's PUT would wait on its rate limit anyway, while its
 * creates go one POST each as far as the scope's create bucket takes them now
 * (`roomForPut`). Operations that arrive after a batch closed join the next one. A
 * batch is written under the scope's one lock (scopeWrites.ts), taken once the PUT and
 * the list GET have room and looked at again once held (no rate-limit wait holds it), and
 * its list is read after the lock was taken: never the cache nor a previous answer, which
 * another writer (a `ScopeCommands`, another tool) may have overtaken since. A try that
 * fails (a 5xx, a dropped connection, a timeout, a 429) is tried again whole, from a new
 * list (bulkBatchList.ts builds it), never resent with the old one's body. The POSTs
 * share the lock. (Measured with `npm run bench`: operations of one engine wave arrive
 * spread over 0.2-1.5 s on a loaded 2-core machine; 10 ms and 50 ms windows made more,
 * smaller PUTs than 200 ms. See docs/bulk-mode.md.)
 *
 * The list carries every field the endpoint accepts or the service is known to keep
 * there (`nsfw` in a guild bulk body: blank in the spec's table, kept by the service;
 * emulator/README.md). A field the answer still lost is restored after the PUT, with the
 * lock let go, by a PATCH of only that field, for the commands concerned. The entry point
 * is deleted on its own (a PUT that leaves it out is refused with 50240), in its batch,
 * before the PUT.
 *
 * Failure: when the PUT fails, every operation of the batch fails with the service's
 * error (the PUT is all or nothing on the service; the engine records none of them).
 */
import type { CommandsApi, WireCommand, WireCommandBody } from "../client";
import { mintedSince } from "../client";
import { scopeParams, scopeRoutes } from "../routes";
import type { DeploymentClaims } from "./claims";
import type { Clock } from "./clock";
import type { ScopeCache } from "./scopeCache";
import { scopeKey } from "./scopeCache";
import type { ScopeLocks } from "./scopeLocks";
import type { IntendedCommand, PutResult } from "./scopeOverwrite";
import { freshScope, putScope, restoreFields } from "./scopeOverwrite";
import type { ListedWrite } from "./scopeWrites";
import { createOne, triedAgain, withExclusiveScopeList } from "./scopeWrites";
import type { Warnings } from "./warnings";
import { createsByPost, fillStep, holdStep } from "./bulkBatching";
import type { BulkOperation, ListEntry } from "./bulkBatchList";
import { buildBatchList, CommandGoneError } from "./bulkBatchList";
import type { ProviderSettings } from "./settings";
import type { TimingLog } from "./timingLog";
import { scopeKind, scopeName } from "./scopeName";
import { SlotsAdvice } from "./bulkSlotsAdvice";
import type { BulkStats } from "./bulkRecord";
import { BulkRecord } from "./bulkRecord";

export type { BulkOperation };

export interface BulkResult {
  /** The command as the service holds it after the batch (absent for a delete). */
  readonly command: WireCommand | undefined;
  /** For a create: true when it made a new command, false when it took over one by name. */
  readonly created: boolean;
}

interface Pending {
  readonly op: BulkOperation;
  readonly arrivedAt: number;
  /** Taken into a batch (PUT or POSTs) and not settled yet: counted in `inFlight`. */
  inFlight: boolean;
  /** Resolved or rejected (a later try of its batch leaves it out). */
  settled: boolean;
  resolve(result: BulkResult): void;
  reject(error: unknown): void;
}

interface ScopeQueue {
  readonly key: string;
  readonly applicationId: string;
  readonly guildId: string | undefined;
  pending: Pending[];
  /** A drain of this scope is scheduled and has not started yet. */
  scheduled: boolean;
  /** The scope's PUTs, one after the other. */
  tail: Promise<void>;
}

/** What the bulk writer needs of the provider runtime. */
export interface BulkRuntime {
  readonly client: CommandsApi;
  readonly settings: ProviderSettings;
  readonly clock: Clock;
  readonly scopes: ScopeCache;
  readonly scopeLocks: ScopeLocks;
  readonly warnings: Warnings;
  readonly claims: DeploymentClaims;
  readonly timing: TimingLog;
}

/** A batch's PUT as it answered, under the lock, for `settleBatch` once the lock is let go. */
interface PutBatch {
  readonly list: ListEntry<Pending>[];
  readonly sent: IntendedCommand[];
  readonly results: PutResult[];
  readonly deletes: Pending[];
}

/** The bulk queues of one provider runtime: one per (application, scope). */
export class BulkWriter {
  private readonly queues = new Map<string, ScopeQueue>();
  /** The scopes whose batch is being written (taken from the queue, not yet answered). */
  private readonly inProgress = new Set<string>();
  /** Operations taken from the queues into a batch (PUT or POSTs) and not settled yet. */
  private inFlight = 0;
  /**
   * The most operations this writer held at once (queued or in flight): the engine's
   * parallel slots as far as the deployment has shown them. A wave split evenly between
   * two scopes (4 and 4 of 8 slots, every wave of a program that declares them in turn)
   * never shows them in one batch. Only creates, updates and deletes of bulk mode count:
   * slots held by other operations make it an underestimate, never more than the slots.
   */
  private mostHeld = 0;
  /** When the latest operation arrived, in any scope (`fillStep`'s ramp-up). */
  private lastArrivalAt = 0;
  private readonly record: BulkRecord;
  private readonly slotsAdvice = new SlotsAdvice();

  constructor(private readonly rt: BulkRuntime) {
    this.record = new BulkRecord(rt.clock);
  }

  /** What the batches of this process looked like (for the bench and the tests). */
  stats(): BulkStats {
    return this.record.stats();
  }

  /** Queues one operation for its scope's next bulk overwrite; resolves when that PUT is done. */
  write(
    applicationId: string,
    guildId: string | undefined,
    op: BulkOperation,
  ): Promise<BulkResult> {
    const key = scopeKey(applicationId, guildId);
    let q = this.queues.get(key);
    if (q === undefined) {
      q = { key, applicationId, guildId, pending: [], scheduled: false, tail: Promise.resolve() };
      this.queues.set(key, q);
    }
    const queue = q;
    return new Promise<BulkResult>((resolve, reject) => {
      // Settling ends the operation's flight (a second settlement is ignored, as the
      // promise ignores it).
      const pending: Pending = {
        op,
        arrivedAt: this.rt.clock.now(),
        inFlight: false,
        settled: false,
        resolve: (result) => {
          pending.settled = true;
          this.land(pending);
          resolve(result);
        },
        reject: (error) => {
          pending.settled = true;
          this.land(pending);
          reject(error);
        },
      };
      queue.pending.push(pending);
      this.lastArrivalAt = pending.arrivedAt;
      const held = [...this.queues.values()].reduce((n, q) => n + q.pending.length, this.inFlight);
      this.mostHeld = Math.max(this.mostHeld, held);
      if (queue.scheduled) return;
      queue.scheduled = true;
      void this.rt.clock.sleep(this.rt.settings.bulkWindowMs).then(() => {
        queue.tail = queue.tail.then(() => this.drain(queue));
      });
    });
  }

  /**
   * Writes the scope's pending operations as one batch. Never rejects: whatever fails
   * fails the operations it took (or, before it took them, the pending ones), and the
   * scope's next batch still runs. (A rejected `tail` skipped every later batch of the
   * scope, whose operations then waited forever.)
   */
  private async drain(queue: ScopeQueue): Promise<void> {
    let batch: Pending[] | undefined;
    try {
      const holdStart = this.rt.clock.now();
      await this.fillUp(queue);
      await this.roomForPut(queue);
      if (queue.pending.length === 0) {
        // Every create went by POST: no PUT (nor a wait for the lock) for this batch.
        queue.scheduled = false;
        return;
      }
      // The scope's lock, once its list GET and PUT have room: the batch takes what
      // arrived meanwhile too, and each try is built from a list read under the lock.
      const put = await withExclusiveScopeList(
        this.rt,
        queue.applicationId,
        queue.guildId,
        (write) => {
          if (batch === undefined) {
            queue.scheduled = false;
            batch = queue.pending.splice(0);
            this.inProgress.add(queue.key);
            this.takeOff(batch);
            if (batch.length > 0)
              this.recordBatch(queue, batch, this.rt.clock.now() - holdStart, "put");
          }
          return this.putBatch(queue, batch, write);
        },
      );
      if (put !== undefined) await this.settleBatch(queue, put);
    } catch (error) {
      if (batch === undefined) {
        queue.scheduled = false;
        batch = queue.pending.splice(0);
      }
      // Settled operations ignore a second settlement.
      for (const p of batch) p.reject(error);
    } finally {
      this.inProgress.delete(queue.key);
    }
  }

  /** Operations taken into a batch: in flight until each settles. */
  private takeOff(batch: readonly Pending[]): void {
    for (const p of batch) {
      if (p.inFlight) continue;
      p.inFlight = true;
      this.inFlight++;
    }
  }

  /** An operation settled: its engine slot is free again. */
  private land(p: Pending): void {
    if (!p.inFlight) return;
    p.inFlight = false;
    this.inFlight--;
  }

  /**
   * Waits while the scope's PUT would wait for its rate limit anyway: the batch stays open
   * meanwhile, so operations that arrive then go in this PUT rather than the next one.
   * Meanwhile, creates go one POST each as far as the scope's create bucket (5 per 20 s,
   * which bulk mode leaves unused otherwise) takes them now (`createsByPost`): held for the
   * PUT, a create kept its engine slot for up to 5 s, a slot another scope's operations
   * could have used, and the stragglers of a wave each spent one of the next window's
   * PUTs. A POST is an upsert by name like the PUT's list entry, and touches no other
   * command; the scope's list gets its answer before the PUT is built. (A wait past the
   * client's budget is left to the client, which fails the PUT.)
   */
  private async roomForPut(queue: ScopeQueue): Promise<void> {
    for (let held = 0; ;) {
      const putWaitMs = this.putWaitMs(queue);
      const posts = createsByPost({
        creates: queue.pending.filter((p) => p.op.kind === "create").length,
        putWaitMs,
        postRoom: this.postRoom(queue),
      });
      if (posts > 0) {
        await this.postCreates(queue, posts);
        continue;
      }
      if (queue.pending.length === 0) return;
      const step = holdStep(held, putWaitMs);
      if (step.go) return;
      await this.rt.clock.sleep(step.sleepMs);
      held += step.sleepMs;
    }
  }

  /** How many creates the scope's create bucket takes now. */
  private postRoom(queue: ScopeQueue): number {
    const { applicationId, guildId } = queue;
    const post = scopeRoutes(guildId).create;
    return this.rt.client.rest.rateLimitRoom(post, scopeParams(applicationId, guildId));
  }

  /** Takes the first `count` pending creates of the scope out of its batch and POSTs them. */
  private async postCreates(queue: ScopeQueue, count: number): Promise<void> {
    const taken: Pending[] = [];
    queue.pending = queue.pending.filter((p) => {
      if (p.op.kind !== "create" || taken.length >= count) return true;
      taken.push(p);
      return false;
    });
    this.inProgress.add(queue.key);
    this.takeOff(taken);
    try {
      await this.runPosts(queue, taken);
    } catch (error) {
      // Settled operations ignore a second settlement.
      for (const p of taken) p.reject(error);
    } finally {
      this.inProgress.delete(queue.key);
    }
  }

  /**
   * The batch's creates, one POST each. The scope's cached list gets each created command;
   * if any POST failed, it is dropped (a lost answer may hide a command the service made).
   */
  private async runPosts(queue: ScopeQueue, batch: Pending[]): Promise<void> {
    const { applicationId, guildId } = queue;
    this.recordBatch(queue, batch, 0, "post");
    // One-command writes: each under the scope's shared lock (never while a PUT is built).
    const results = await Promise.allSettled(
      batch.map((p) =>
        createOne(this.rt, applicationId, guildId, (p.op as { body: WireCommandBody }).body),
      ),
    );
    const made: WireCommand[] = [];
    results.forEach((r, i) => {
      const p = batch[i] as Pending;
      if (r.status === "fulfilled") {
        made.push(r.value.command);
        p.resolve({ command: r.value.command, created: r.value.created });
      } else {
        p.reject(r.reason);
      }
    });
    if (made.length < batch.length) this.rt.scopes.invalidateScope(applicationId, guildId);
    else this.rt.scopes.addToScope(applicationId, guildId, made);
  }

  /**
   * Keeps a batch that holds fewer operations than the engine's parallel slots (as far as
   * the deployment has shown them: `mostHeld`) open while more can come: the slots are shared
   * by every scope, and the operations of one engine wave reach the provider split between
   * two scopes in most waves (7 of one and 1 of the other, seen with 8 slots: the engine
   * takes registrations sent a moment apart in either order). Sent at once, the small batch
   * spent one of its scope's 5 PUTs per 5 s on one command. So the small side waits while
   * another scope's larger batch is pending or being written (its answer frees the slots
   * that bring the rest of the small side), then one window for those arrivals. It goes
   * when it fills the slots, when every operation of the wave is here (nothing more can
   * come), or after one window of its own. Bounded by MAX_FILL_MS. (The slots were the
   * largest batch so far: a program that declares its scopes in turn splits every wave
   * evenly, so with 8 slots every batch held 4, each went at once as "the largest", and
   * every wave cost two PUTs of 4; seen from Python.)
   */
  private async fillUp(queue: ScopeQueue): Promise<void> {
    const clock = this.rt.clock;
    const started = clock.now();
    let extended = false;
    let waitedForOther = false;
    for (;;) {
      const mine = queue.pending.length;
      const others = [...this.queues.values()].filter((q) => q !== queue);
      const step = fillStep(
        {
          elapsedMs: clock.now() - started,
          mine,
          slots: Math.max(this.record.largestBatch, this.mostHeld),
          otherFirst: others.some(
            (q) =>
              this.inProgress.has(q.key) || (q.pending.length > mine && this.putWaitMs(q) <= 0),
          ),
          here: others.reduce((n, q) => n + q.pending.length, mine),
          extended,
          waitedForOther,
          rampUp: this.record.largestBatch === 0,
          quietMs: clock.now() - this.lastArrivalAt,
        },
        this.rt.settings.bulkWindowMs,
      );
      if (step.go) return;
      ({ extended, waitedForOther } = step);
      await clock.sleep(step.sleepMs);
    }
  }

  /** How long the scope's PUT, and the list GET it is built from, would wait now. */
  private putWaitMs(queue: ScopeQueue): number {
    const { applicationId, guildId } = queue;
    const params = scopeParams(applicationId, guildId);
    const rest = this.rt.client.rest;
    const routes = scopeRoutes(guildId).listThenOverwrite;
    return Math.max(...routes.map((r) => rest.rateLimitWaitMs(r, params)));
  }

  /** A batch as it left, in the writer's record (bulkRecord.ts). */
  private recordBatch(
    queue: ScopeQueue,
    batch: readonly Pending[],
    heldMs: number,
    via: "put" | "post",
  ): void {
    const arrivals = batch.map((p) => p.arrivedAt);
    this.record.batch(scopeKind(queue.guildId), arrivals, heldMs, via);
    if (via !== "put") return;
    const where = scopeName(queue.applicationId, queue.guildId);
    const advice = this.slotsAdvice.put(where, batch.length, this.mostHeld);
    if (advice !== undefined) void this.rt.warnings.warn(advice);
  }

  /**
   * One try of a batch, under the scope's lock: a list GET, the list built from it
   * (bulkBatchList.ts), the entry points deleted on their own, the PUT. What fails alone
   * is settled here (an update of a command gone, a refused entry point DELETE); what a
   * later try may not meet throws, and the batch is tried again whole (scopeWrites.ts).
   * Undefined: nothing was left to write.
   */
  private async putBatch(
    queue: ScopeQueue,
    batch: readonly Pending[],
    write: ListedWrite,
  ): Promise<PutBatch | undefined> {
    const { applicationId, guildId } = queue;
    const open = batch.filter((p) => !p.settled);
    if (open.length === 0) return undefined;
    const live = await freshScope(this.rt, write, applicationId, guildId);
    const firstPut = write.firstPutSentAt;
    const plan = buildBatchList(
      live,
      open,
      (id) => firstPut !== undefined && mintedSince(id, firstPut),
    );
    for (const { pending, id } of plan.gone) pending.reject(new CommandGoneError(id));
    const deletedOnItsOwn = new Set<string>();
    for (const { pending, id } of plan.entryPoints) {
      try {
        await write.api.deleteGlobalCommand(applicationId, id);
      } catch (error) {
        if (triedAgain(error)) throw error;
        pending.reject(error);
        continue;
      }
      // The cached list still holds it: no later read may carry it back.
      this.rt.scopes.invalidateScope(applicationId, guildId);
      deletedOnItsOwn.add(id);
    }
    const list = plan.entries.filter(
      (e) => e.id === undefined || !(plan.leftOut.has(e.id) || deletedOnItsOwn.has(e.id)),
    );
    if (plan.leftOut.size === 0 && list.every((e) => e.waiting.length === 0)) {
      // Nothing left to write (every operation failed, or deletes of commands already gone).
      for (const p of plan.deletes) p.resolve({ command: undefined, created: false });
      return undefined;
    }
    const sent = list.map((e) => ({
      id: e.id,
      intended: e.intended,
      carried: e.waiting.length === 0,
    }));
    const results = await putScope(this.rt, write, applicationId, guildId, sent);
    return { list, sent, results, deletes: plan.deletes };
  }

  /**
   * After the batch's PUT, with the lock let go: the fields its answer lost are restored
   * (one PATCH each), then every operation settles with its command.
   */
  private async settleBatch(queue: ScopeQueue, put: PutBatch): Promise<void> {
    const { applicationId, guildId } = queue;
    const results = await restoreFields(this.rt, applicationId, guildId, put.sent, put.results);
    put.list.forEach((e, i) => {
      const result = results[i];
      for (const p of e.waiting) {
        if (result === undefined || !result.ok) {
          p.reject(result?.error ?? new Error("the bulk overwrite answered nothing"));
        } else {
          p.resolve({ command: result.command, created: e.created });
        }
      }
    });
    for (const p of put.deletes) p.resolve({ command: undefined, created: false });
  }
}
