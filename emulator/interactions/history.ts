/**
 * The interactions the emulator delivered (or refused to deliver), newest last, for the
 * page: what a user did, the signed payload, and the handler's answer. Bounded, so a long
 * session of invocations does not grow without end.
 */
import type { InteractionResult } from "./outcome";

interface DeliveredInteraction {
  /** 1, 2, 3...: the order of the invocations. */
  readonly sequence: number;
  /** ISO time (emulator clock). */
  readonly time: string;
  readonly kind: "command" | "autocomplete";
  readonly applicationId: string;
  readonly commandId: string | undefined;
  readonly commandName: string | undefined;
  readonly userId: string;
  readonly guildId: string | undefined;
  readonly channelId: string;
  readonly result: InteractionResult;
}

const MAX_KEPT = 500;

export class InteractionHistory {
  private entries: DeliveredInteraction[] = [];
  private count = 0;

  record(entry: Omit<DeliveredInteraction, "sequence">): void {
    this.count++;
    this.entries.push({ ...entry, sequence: this.count });
    if (this.entries.length > MAX_KEPT) this.entries.splice(0, this.entries.length - MAX_KEPT);
  }

  list(): readonly DeliveredInteraction[] {
    return this.entries;
  }

  reset(): void {
    this.entries = [];
    this.count = 0;
  }
}
