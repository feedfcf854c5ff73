/**
 * The engine tests of secrecy by path (edges-secret-paths.test.ts for the dynamic
 * resources, plugin-secret-paths.test.ts for the plugin): a program's CLI runs, recorded so
 * that their output, and every file they leave, is searched for the secrets in every form.
 */
import * as path from "node:path";
import type { CliResult, PulumiProgram } from "../../scripts/pulumiProgram";
import { REPOSITORY_DIR, secretLeaks, secretLeaksInFiles } from "../helpers/secretForms";
import { printed } from "./edgeHelpers";

export class AuditedRuns {
  private readonly runs: [string, CliResult][] = [];

  /** `source`: the program's file, which holds its own secrets. */
  constructor(
    private readonly prog: PulumiProgram,
    private readonly source: string,
  ) {
    // The provider's timing log is searched with the state. (The CLI's automatic log of an
    // engine run is encrypted with the stack's secrets: edges-secrets.test.ts searches it.)
    prog.env["DISCORD_TIMING_LOG"] = this.timingLog;
  }

  get timingLog(): string {
    return path.join(this.prog.root, "timings.jsonl");
  }

  async run(args: string[]): Promise<CliResult> {
    const res = await this.prog.run(args, { timeoutMs: 300_000 });
    this.runs.push([`pulumi ${args.join(" ")}`, res]);
    return res;
  }

  /**
   * `preview` and `preview --json` of the program as `content` (the source's new text):
   * both fail, naming `expected`. One preview stops at the first resource whose check
   * fails, so each failing resource has its own.
   */
  async failedPreviews(content: string, expected: RegExp): Promise<void> {
    this.prog.write({ [this.source]: content });
    for (const json of [false, true]) {
      const res = await this.run(["preview", "--non-interactive", ...(json ? ["--json"] : [])]);
      expect(res.code).not.toBe(0);
      expect(printed(res)).toMatch(expected);
    }
  }

  /** Where pieces of `secrets` show: the runs' output, and every file but the source. */
  leaks(secrets: Readonly<Record<string, string>>): string[] {
    // The program's temporary directory has a random name, as the repository's may.
    const machine = [REPOSITORY_DIR, this.prog.root, path.basename(this.prog.root)];
    const found = this.runs.flatMap(([cmd, res]) =>
      secretLeaks(printed(res), secrets, `the output of ${cmd}`, machine),
    );
    const skip = this.prog.sourceFiles(this.source);
    return [...found, ...secretLeaksInFiles(this.prog.root, secrets, skip, machine)];
  }
}
