/**
 * An append-only JSON-lines diagnostic file named by an environment variable
 * (`DISCORD_BULK_LOG`, `DISCORD_TIMING_LOG`). A diagnostic must never fail a deployment:
 * a file that cannot be written is said once on stderr, then lines are dropped.
 */
import * as fs from "node:fs";

export class JsonLinesFile {
  private failed = false;

  /**
   * `variable` names the file in messages; `file` is read at each append (undefined or
   * empty: nothing is written); `what` says what goes unlogged after a failure.
   */
  constructor(
    private readonly variable: string,
    private readonly file: () => string | undefined,
    private readonly what: string,
  ) {}

  get enabled(): boolean {
    const file = this.file();
    return file !== undefined && file !== "" && !this.failed;
  }

  append(...lines: readonly unknown[]): void {
    if (!this.enabled) return;
    const file = this.file() as string;
    try {
      fs.appendFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
    } catch (err) {
      this.failed = true;
      const reason = err instanceof Error ? err.message : String(err);
      console.warn(
        `${this.variable}: cannot append to ${file} (${reason}); ${this.what} are not logged`,
      );
    }
  }
}
