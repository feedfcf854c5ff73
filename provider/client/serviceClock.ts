/**
 * The service's clock, as its answers' `Date` headers say (whole seconds; ours until it
 * answered): the daily create budget counts on it, since the service mints command ids
 * (snowflakes, which carry their creation time) on it, and the emulator's clock can move.
 */
import type { RawResponse } from "./responseHeaders";
import { header } from "./responseHeaders";

export class ServiceClock {
  /** The service's clock minus ours, from the last answer that had a `Date`. */
  private offsetMs = 0;

  constructor(private readonly ours: () => number) {}

  observe(res: RawResponse): void {
    const date = Date.parse(header(res, "date") ?? "");
    if (Number.isFinite(date)) this.offsetMs = date - this.ours();
  }

  /** The service's time now, in milliseconds. */
  now(): number {
    return this.ours() + this.offsetMs;
  }
}
