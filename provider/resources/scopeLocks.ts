/**
 * The one lock per scope of a provider runtime, through which every write to the scope
 * goes, held `exclusive` or `shared` (how a write takes it: scopeWrites.ts; why:
 * scopeOverwrite.ts).
 */
import { scopeKey } from "./scopeCache";

/** One caller waiting for a scope's lock. */
interface LockWaiter {
  readonly exclusive: boolean;
  start(): void;
}

/** A scope's lock: who holds it and who waits, first come first served. */
interface LockState {
  /** Holders now: one exclusive, or any number of shared ones. */
  active: number;
  exclusive: boolean;
  readonly queue: LockWaiter[];
}

/**
 * The one lock per scope of a runtime, through which every write to the scope goes:
 *
 * - `exclusive`: a write built from the scope's list, a list GET then the PUT built
 *   from it (a `ScopeCommands` overwrite, a bulk batch of single resources). Nothing else
 *   of this runtime writes the scope meanwhile, so no write of the deployment lands
 *   between the GET and the PUT (the PUT would delete a command it created, or revert an
 *   edit).
 * - `shared`: a write of one command (POST, PATCH, DELETE), which touches no other
 *   command: any number of them at once, never during an exclusive write.
 *
 * First come, first served: a shared write that arrives while an exclusive one waits
 * queues behind it, so a stream of one-command writes never starves an overwrite.
 * A failed write releases the lock like a successful one.
 */
export class ScopeLocks {
  private readonly states = new Map<string, LockState>();

  /** Runs `fn` holding the scope's lock alone. */
  exclusive<T>(
    applicationId: string,
    guildId: string | undefined,
    fn: () => Promise<T>,
  ): Promise<T> {
    return this.acquire(scopeKey(applicationId, guildId), true, fn);
  }

  /** Runs `fn` holding the scope's lock with other shared holders, never with an exclusive one. */
  shared<T>(applicationId: string, guildId: string | undefined, fn: () => Promise<T>): Promise<T> {
    return this.acquire(scopeKey(applicationId, guildId), false, fn);
  }

  /** Whether any write of the scope holds or waits for its lock (tests). */
  busy(applicationId: string, guildId: string | undefined): boolean {
    return this.states.has(scopeKey(applicationId, guildId));
  }

  private acquire<T>(key: string, exclusive: boolean, fn: () => Promise<T>): Promise<T> {
    let found = this.states.get(key);
    if (found === undefined) {
      found = { active: 0, exclusive: false, queue: [] };
      this.states.set(key, found);
    }
    const state = found;
    return new Promise<T>((resolve, reject) => {
      const release = (): void => {
        state.active--;
        if (state.active === 0) state.exclusive = false;
        this.pump(key, state);
      };
      // Called at once when the lock is free: a shared write's request is queued in its
      // rate-limit bucket before the next caller looks at the bucket's room.
      const start = (): void => {
        state.active++;
        state.exclusive = exclusive;
        let done: Promise<T>;
        try {
          done = fn();
        } catch (error) {
          done = Promise.reject(error);
        }
        done.then(
          (value) => {
            release();
            resolve(value);
          },
          (error: unknown) => {
            release();
            reject(error);
          },
        );
      };
      const free = state.active === 0 || (!exclusive && !state.exclusive);
      if (free && state.queue.length === 0) start();
      else state.queue.push({ exclusive, start });
    });
  }

  private pump(key: string, state: LockState): void {
    for (;;) {
      const next = state.queue[0];
      if (next === undefined) break;
      if (state.active > 0 && (next.exclusive || state.exclusive)) break;
      state.queue.shift();
      next.start();
      if (next.exclusive) break;
    }
    if (state.active === 0 && state.queue.length === 0) this.states.delete(key);
  }
}
