/**
 * `DISCORD_TIMING_LOG=<file>`: where a provider process spends a deployment, as JSON lines
 * appended to the file. One line when the process first logs (its pid, when it started,
 * and whether it codes Structs from plain values), one per provider call (check, diff, create, read, update, delete: when it
 * started and how long it took), one per rate-limit wait of the client and one per bulk
 * overwrite PUT sent (its window: from the list GET its body was built from to its
 * answer, in which another writer's change can be lost; scopeWrites.ts). With the
 * engine's own timings (the CLI's wall time, the program's), this splits a slow `up` into
 * the engine, the program, the provider and its waits: `npm run bench -- --scale` reads it.
 *
 * Lines carry no id, token or body: the resource is named as error messages name it. A
 * file that cannot be written is said once on stderr and the deployment goes on.
 */
import type { ClientEvent } from "../client/config";
import { plainStructsInstalled } from "../plainStructs";
import { JsonLinesFile } from "./jsonLinesFile";

export type TimingLine =
  | {
      readonly type: "process";
      readonly pid: number;
      readonly startedAt: number;
      /** Where this process codes Structs from plain values (plainStructs.ts), or "none". */
      readonly plainStructs: string;
    }
  | {
      readonly type: "call";
      readonly pid: number;
      readonly method: string;
      readonly resource: string;
      /** Epoch ms. */
      readonly at: number;
      readonly ms: number;
      readonly failed: boolean;
    }
  | {
      readonly type: "rateLimited";
      readonly pid: number;
      readonly route: string;
      readonly at: number;
      readonly waitMs: number;
    }
  | {
      readonly type: "overwrite";
      readonly pid: number;
      readonly scope: "global" | "guild";
      /** When the PUT settled (epoch ms). */
      readonly at: number;
      /** From the list GET's sending to the PUT's answer (or failure), ms. */
      readonly windowMs: number;
      /** 1 for the write's first try, 2 for the next (a new list GET, then a PUT)... */
      readonly attempt: number;
      readonly ok: boolean;
    };

export class TimingLog {
  private started = false;
  private readonly out: JsonLinesFile;

  /** `file` undefined or empty: logs nothing, costs nothing. */
  constructor(
    file: string | undefined,
    private readonly now: () => number = () => performance.timeOrigin + performance.now(),
  ) {
    this.out = new JsonLinesFile("DISCORD_TIMING_LOG", () => file, "timings");
  }

  get enabled(): boolean {
    return this.out.enabled;
  }

  /** Epoch ms, to the fraction (the call spans are short). */
  time(): number {
    return this.now();
  }

  call(method: string, resource: string, at: number, failed: boolean): void {
    if (!this.enabled) return;
    const ms = Math.round((this.now() - at) * 10) / 10;
    this.write({
      type: "call",
      pid: process.pid,
      method,
      resource,
      at: Math.round(at),
      ms,
      failed,
    });
  }

  /** One bulk overwrite PUT settled: `listSentAt` is when its list GET was sent (`time()`). */
  overwrite(scope: "global" | "guild", listSentAt: number, attempt: number, ok: boolean): void {
    if (!this.enabled) return;
    const now = this.now();
    const windowMs = Math.round((now - listSentAt) * 10) / 10;
    this.write({
      type: "overwrite",
      pid: process.pid,
      scope,
      at: Math.round(now),
      windowMs,
      attempt,
      ok,
    });
  }

  /** The client's hook: logs its rate-limit waits. */
  readonly onClientEvent = (event: ClientEvent): void => {
    if (!this.enabled || event.type !== "rateLimited") return;
    this.write({
      type: "rateLimited",
      pid: process.pid,
      route: event.route,
      at: Math.round(this.now()),
      waitMs: event.waitMs,
    });
  };

  private write(line: TimingLine): void {
    if (this.started) {
      this.out.append(line);
      return;
    }
    this.started = true;
    const start: TimingLine = {
      type: "process",
      pid: process.pid,
      startedAt: Math.round(performance.timeOrigin),
      plainStructs: plainStructsInstalled() ?? "none",
    };
    this.out.append(start, line);
  }
}
