/**
 * What a request may do on its own when it fails or would wait (`SendPolicy`): a caller
 * that does the waits and resends better (a bulk write tried again whole) turns them off.
 */
import type { PaceReservation } from "./RateLimiter";

/** What the client may do on its own when a request fails or would wait. */
export interface SendPolicy {
  /** Send the request again after a 5xx, a dropped connection or a timeout. */
  readonly resend: boolean;
  /**
   * Wait for the rate limits (the bucket, a global pause, a 429's Retry-After) and send
   * then. Off: a request that would wait, or that is answered 429, throws
   * RateLimitNotWaitedError at once.
   */
  readonly waitForRateLimits: boolean;
  /** Room in the global pace its write holds (`holdPace`): spent instead of waited for. */
  readonly pace?: PaceReservation;
}

/** The default: every wait waited, every resendable failure sent again. */
export const SEND_AND_RETRY: SendPolicy = { resend: true, waitForRateLimits: true };
