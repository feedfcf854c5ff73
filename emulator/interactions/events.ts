/**
 * The event feed (`GET /__emulator/events?after=N`): what the service would push to the
 * application's gateway connection. Endpoint 15 fires Application Command Permissions
 * Update (spec: "Events"); its payload is the guild application command permissions
 * object the PUT returns (discord/discord-api-docs, Gateway Events:
 * "APPLICATION_COMMAND_PERMISSIONS_UPDATE ... application command permissions object").
 */
export interface EmulatorEvent {
  /** 1, 2, 3... in order; `after=N` returns the events with a greater id. */
  readonly id: number;
  /** The gateway event name. */
  readonly type: string;
  /** ISO time (emulator clock). */
  readonly time: string;
  readonly data: unknown;
}

const MAX_EVENTS = 10_000;

export class EventFeed {
  private events: EmulatorEvent[] = [];
  private last = 0;

  constructor(private readonly now: () => number) {}

  record(type: string, data: unknown): EmulatorEvent {
    const event = {
      id: ++this.last,
      type,
      time: new Date(this.now()).toISOString(),
      data: structuredClone(data),
    };
    this.events.push(event);
    if (this.events.length > MAX_EVENTS) this.events.splice(0, this.events.length - MAX_EVENTS);
    return event;
  }

  after(id: number): EmulatorEvent[] {
    return this.events.filter((e) => e.id > id).map((e) => structuredClone(e));
  }

  /** Back to empty; ids start again at 1. */
  reset(): void {
    this.events = [];
    this.last = 0;
  }
}
