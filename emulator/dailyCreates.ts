/**
 * The daily application command create limit's memory: when each create of a scope
 * happened, over a sliding 24-hour window of the emulator's clock. Part of the persisted
 * state and of a store transaction.
 */
const DAY_MS = 24 * 60 * 60 * 1000;

export class DailyCreates {
  private creates = new Map<string, number[]>();

  /** `now`: the emulator's clock, in milliseconds; `limit`: creates allowed per scope a day. */
  constructor(
    private readonly now: () => number,
    private readonly limit: number,
  ) {}

  /** The creates of a scope within the last 24 hours, by when they happened. */
  private within(scopeKey: string): number[] {
    const now = this.now();
    return (this.creates.get(scopeKey) ?? []).filter((t) => t > now - DAY_MS);
  }

  /** Creates counted in the last 24 hours for a scope. */
  today(scopeKey: string): number {
    return this.within(scopeKey).length;
  }

  /** Time until `adding` more creates fit in the scope's 24-hour window. */
  roomInMs(scopeKey: string, adding: number): number {
    const list = this.within(scopeKey);
    const mustLeave = list.length + adding - this.limit;
    if (mustLeave <= 0) return 0;
    const sorted = [...list].sort((a, b) => a - b);
    const last = sorted[Math.min(mustLeave, sorted.length) - 1];
    return last === undefined ? DAY_MS : last + DAY_MS - this.now();
  }

  record(scopeKey: string, count: number): void {
    if (count <= 0) return;
    const now = this.now();
    const list = this.within(scopeKey);
    for (let i = 0; i < count; i++) list.push(now);
    this.creates.set(scopeKey, list);
  }

  /** Saves the counts as they are; the function returned brings them back (a rollback). */
  checkpoint(): () => void {
    const saved = new Map(this.creates);
    return () => {
      this.creates = saved;
    };
  }

  clear(): void {
    this.creates = new Map();
  }

  persisted(): Record<string, number[]> {
    return Object.fromEntries(this.creates);
  }

  restore(state: Readonly<Record<string, number[]>>): void {
    for (const [k, v] of Object.entries(state)) this.creates.set(k, v);
  }
}
