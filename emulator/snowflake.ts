/**
 * Snowflake ids like the service's: `((ms - 1420070400000) << 22) | increment`, as
 * decimal strings. Ids from one generator strictly increase, even within one
 * millisecond and even if the clock goes backwards (the increment carries over).
 */
import { SERVICE_EPOCH_MS, SNOWFLAKE_PATTERN } from "./schema";

const EPOCH = BigInt(SERVICE_EPOCH_MS);

export class SnowflakeGenerator {
  private last = 0n;

  constructor(private readonly now: () => number) {}

  /** The next id: time-based, strictly greater than every id issued or observed. */
  next(): string {
    const ms = BigInt(Math.max(SERVICE_EPOCH_MS, Math.floor(this.now())));
    let id = (ms - EPOCH) << 22n;
    if (id <= this.last) id = this.last + 1n;
    this.last = id;
    return id.toString();
  }

  /** The last id issued or observed ("0" before any). */
  current(): string {
    return this.last.toString();
  }

  /** Makes later ids exceed `id` (used when loading persisted state). */
  observe(id: string): void {
    if (!SNOWFLAKE_PATTERN.test(id)) return;
    const value = BigInt(id);
    if (value > this.last) this.last = value;
  }
}
