/**
 * What the batches of one bulk writer looked like: counts for the bench and the tests
 * (`BulkStats`), and, with `DISCORD_BULK_LOG` set, one JSON line per batch (no ids, no
 * credentials) that shows how the window and the engine's parallel slots shaped them
 * (the bench reads it).
 */
import type { Scope } from "../schema";
import type { Clock } from "./clock";
import { JsonLinesFile } from "./jsonLinesFile";

export interface BulkStats {
  batches: number;
  operations: number;
  /** Largest number of operations one PUT carried. */
  largestBatch: number;
  /** Largest time between the first and last arrival of one batch's operations, ms. */
  largestArrivalSpreadMs: number;
}

export class BulkRecord {
  private readonly counts: BulkStats = {
    batches: 0,
    operations: 0,
    largestBatch: 0,
    largestArrivalSpreadMs: 0,
  };
  /** `DISCORD_BULK_LOG`, read at each batch. */
  private readonly log = new JsonLinesFile(
    "DISCORD_BULK_LOG",
    () => process.env["DISCORD_BULK_LOG"],
    "batches",
  );

  constructor(private readonly clock: Clock) {}

  stats(): BulkStats {
    return { ...this.counts };
  }

  /** The most operations one batch has carried so far. */
  get largestBatch(): number {
    return this.counts.largestBatch;
  }

  /**
   * One batch as it left: its operations' arrival times (epoch ms), how long it was held
   * for the rate limit, and whether it went as a PUT or as POSTs.
   */
  batch(scope: Scope, arrivals: readonly number[], heldMs: number, via: "put" | "post"): void {
    const stats = this.counts;
    stats.batches++;
    stats.operations += arrivals.length;
    stats.largestBatch = Math.max(stats.largestBatch, arrivals.length);
    const spreadMs = Math.max(...arrivals) - Math.min(...arrivals);
    stats.largestArrivalSpreadMs = Math.max(stats.largestArrivalSpreadMs, spreadMs);
    this.log.append({
      scope,
      size: arrivals.length,
      spreadMs,
      via,
      /** When the batch left (epoch ms), and how long it was held for the rate limit. */
      at: this.clock.now(),
      heldMs,
    });
  }
}
