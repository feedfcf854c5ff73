/**
 * The failed checks and diffs of the resources one plugin process handles, told to the
 * constructs that registered them (a `CommandSet` and its children).
 *
 * Why: when a set's child fails its check or diff, the engine does not answer that child's
 * registration; it stops the deployment (with or without `--continue-on-error`: an invalid
 * resource bails, pulumi/pulumi 3.259 step_generator.go), closes its connection to the
 * plugin, and only then would the construct have heard. The engine printed "CommandSet
 * resource 'mods' has a problem: grpc: the client connection is closing" beside the child's
 * own error (source_eval.go: a failed Construct is reported on the component). The
 * children's lifecycles run in this same process (they take the construct's provider), so
 * the construct hears of the failure here and answers at once, naming the child. (A failed
 * create, update or delete is not told: commandSet.ts `ChildFailedError` says why.)
 */

export interface ChildFailure {
  readonly urn: string;
  readonly message: string;
}

interface Watcher {
  readonly urns: ReadonlySet<string>;
  fail(failure: ChildFailure): void;
}

export interface FailureWatch {
  /** Settles with the first failure of a watched resource (never, if none fails). */
  readonly failed: Promise<ChildFailure>;
  /** Watches these too (children whose names are known later). */
  add(urn: string): void;
  stop(): void;
}

export class ChildFailures {
  private readonly watchers = new Set<Watcher>();

  /**
   * A watched resource failed. Told on the next turn of the event loop, so that the
   * resource's own failure reaches the engine before the construct's answer.
   */
  report(failure: ChildFailure): void {
    for (const w of this.watchers) {
      if (w.urns.has(failure.urn)) setImmediate(() => w.fail(failure));
    }
  }

  watch(urns: Iterable<string>): FailureWatch {
    const set = new Set(urns);
    let fail: (failure: ChildFailure) => void = () => undefined;
    const failed = new Promise<ChildFailure>((resolve) => {
      fail = resolve;
    });
    const watcher: Watcher = { urns: set, fail: (f) => fail(f) };
    this.watchers.add(watcher);
    return {
      failed,
      add: (urn) => set.add(urn),
      stop: () => this.watchers.delete(watcher),
    };
  }
}

/**
 * The URN the engine gives a child: its parent's qualified type, `$`, its own type
 * (pulumi/pulumi sdk/go/common/resource/urn.go `NewURN` and `QualifiedType`).
 */
export function childUrn(parentUrn: string, type: string, name: string): string {
  const parts = parentUrn.split("::");
  const [stack, project, parentType] = parts;
  if (stack === undefined || project === undefined || parentType === undefined) return "";
  return `${stack}::${project}::${parentType}$${type}::${name}`;
}
