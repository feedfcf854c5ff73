/**
 * What an invocation came to: delivered, or why not, with the payload built and the
 * application's answer. The interaction service returns it; the history keeps it.
 */
export type InteractionOutcome = "delivered" | "denied" | "invalid" | "stale";

/** The application's answer. */
export interface AppResponse {
  readonly status: number;
  readonly body: unknown;
  readonly durationMs: number;
  /** A callback the service accepts, in time. */
  readonly valid: boolean;
  readonly problems: readonly string[];
}

export interface InteractionResult {
  readonly outcome: InteractionOutcome;
  readonly reason: string;
  /** The payload sent (or that would have been sent); null when none was built. */
  readonly interaction: Record<string, unknown> | null;
  readonly response: AppResponse | null;
  /** An entry point with DISCORD_LAUNCH_ACTIVITY: the service launched the Activity itself. */
  readonly launched?: boolean;
}
