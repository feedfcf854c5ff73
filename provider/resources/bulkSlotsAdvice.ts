/**
 * Bulk mode's advice when the engine's parallel slots, not the service, split a scope's
 * operations into many PUTs. The engine hands the provider at most `--parallel` operations
 * at once (by default 4 per CPU) and no more until one is answered, and an operation is
 * answered only once its PUT is; so with the default slots, 50 new commands in one scope
 * take 7 PUTs, whatever the provider does, against the scope's 5 bulk overwrites per 5 s.
 * The user can raise the slots; the provider cannot (docs/bulk-mode.md). Given once per
 * deployment, on the third PUT of a scope whose operations so far outnumber the most the
 * provider ever held at once: a wave that fitted in the slots needed no advice.
 */

/** A scope's PUTs so far, and the operations they carried. */
interface ScopePuts {
  puts: number;
  operations: number;
}

/** The PUT of a scope from which the advice may be due. */
export const ADVICE_AT_PUTS = 3;

export class SlotsAdvice {
  private readonly scopes = new Map<string, ScopePuts>();
  private given = false;

  /**
   * Records a PUT of `operations` to the scope named `scope` (`scopeName`), while the most
   * operations held at once was `mostHeld`; the advice, the first time it is due.
   */
  put(scope: string, operations: number, mostHeld: number): string | undefined {
    const s = this.scopes.get(scope) ?? { puts: 0, operations: 0 };
    s.puts++;
    s.operations += operations;
    this.scopes.set(scope, s);
    if (this.given || s.puts < ADVICE_AT_PUTS || s.operations <= mostHeld) return undefined;
    this.given = true;
    return slotsAdvice(scope, s, mostHeld);
  }
}

/** The advice's text. */
function slotsAdvice(scope: string, s: Readonly<ScopePuts>, mostHeld: number): string {
  return (
    `bulk mode: ${scope} took ${s.puts} bulk overwrites for ${s.operations} operations so far, ` +
    `because the engine hands the provider at most ${mostHeld} operations at once (its parallel ` +
    "slots: `pulumi up --parallel`, by default 4 per CPU) and a PUT can carry only those; " +
    "`pulumi up --parallel 100` (or PULUMI_PARALLEL=100) lets one PUT carry a scope's whole " +
    "wave, fewer requests against the scope's 5 bulk overwrites per 5 s (docs/bulk-mode.md)"
  );
}
