/**
 * The emulator's clock: wall time plus an offset that the control API can advance,
 * so daily create limits, rate-limit windows and token expiry can be tested without
 * waiting.
 */
export class Clock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  /** Moves the clock forward by `ms` (negative values are ignored). */
  advance(ms: number): void {
    if (Number.isFinite(ms) && ms > 0) this.offsetMs += ms;
  }

  get offset(): number {
    return this.offsetMs;
  }

  set offset(ms: number) {
    this.offsetMs = Number.isFinite(ms) && ms > 0 ? ms : 0;
  }
}
