/** The request log and counters the control API exposes (control calls are not logged). */
import type { RouteName } from "../provider/routes";

export interface RequestLogEntry {
  readonly method: string;
  /** The route's name from provider/routes.ts, or null for unknown paths. */
  readonly route: RouteName | null;
  readonly path: string;
  /** The status sent; 0 when the connection was dropped on purpose. */
  readonly status: number;
  /** ISO time the request arrived (emulator clock). */
  readonly time: string;
  readonly durationMs: number;
  /** The injected fault, if any: "status:503", "rate_limit", "drop", "delay". */
  readonly fault?: string;
  /**
   * Something the service did on its own, logged with method "INTERACTION" and status 0:
   * "reload" (read-repair of a stale global command), "launch" (an entry point's
   * Activity launched by the service). Such notes do not count in the counters.
   */
  readonly event?: "reload" | "launch";
  /** The `X-Emulator-Warning` sent, if any (body fields the service accepts and drops). */
  readonly warning?: string;
  /** The rate-limit bucket (`X-RateLimit-Bucket`) and what it had left, when limits are on. */
  readonly bucket?: string;
  readonly remaining?: number;
  /** A refusal's body (status 400 and up), JSON, cut at 2,000 characters. */
  readonly error?: string;
}

export interface Counters {
  total: number;
  writes: number;
  faults: number;
  internalErrors: number;
  byMethod: Record<string, number>;
  byRoute: Record<string, number>;
  byStatus: Record<string, number>;
}

/** A 100,000-request deployment log stays whole (the page pages through it). */
const MAX_ENTRIES = 100_000;

function emptyCounters(): Counters {
  return {
    total: 0,
    writes: 0,
    faults: 0,
    internalErrors: 0,
    byMethod: {},
    byRoute: {},
    byStatus: {},
  };
}

export class RequestLog {
  private entries: RequestLogEntry[] = [];
  private counts: Counters = emptyCounters();
  /** Entries ever appended: the sequence number of the newest (live views ask "after n"). */
  private appended = 0;

  record(entry: RequestLogEntry): void {
    this.appended++;
    this.entries.push(entry);
    if (this.entries.length > MAX_ENTRIES)
      this.entries.splice(0, this.entries.length - MAX_ENTRIES);
    const c = this.counts;
    c.total++;
    if (entry.method !== "GET") c.writes++;
    if (entry.fault !== undefined) c.faults++;
    if (entry.status >= 500 && entry.fault === undefined) c.internalErrors++;
    c.byMethod[entry.method] = (c.byMethod[entry.method] ?? 0) + 1;
    const route = entry.route ?? "unknown";
    c.byRoute[route] = (c.byRoute[route] ?? 0) + 1;
    c.byStatus[String(entry.status)] = (c.byStatus[String(entry.status)] ?? 0) + 1;
  }

  /** Appends a note (see `event`) without counting it as a request. */
  note(entry: RequestLogEntry): void {
    this.appended++;
    this.entries.push(entry);
    if (this.entries.length > MAX_ENTRIES)
      this.entries.splice(0, this.entries.length - MAX_ENTRIES);
  }

  list(): RequestLogEntry[] {
    return [...this.entries];
  }

  /** The kept entries, oldest first, without a copy (the page reads 100,000 of them). */
  view(): readonly RequestLogEntry[] {
    return this.entries;
  }

  /** The sequence number of the newest entry (0 when none was ever appended). */
  sequence(): number {
    return this.appended;
  }

  counters(): Counters {
    return structuredClone(this.counts);
  }

  reset(): void {
    this.entries = [];
    this.counts = emptyCounters();
    this.appended = 0;
  }
}
