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
 * create, update or delete is not told: resourceMonitor.ts `ChildFailedError` says why.)
 */

interface Watcher {
  readonly urns: ReadonlySet<string>;
  fail(urn: string): void;
}

export interface FailureWatch {
  /** Settles with the URN of the first watched resource that failed (never, if none does). */
  readonly failed: Promise<string>;
  /** Watches this resource too. */
  add(urn: string): void;
  stop(): void;
}

export class ChildFailures {
  private readonly watchers = new Set<Watcher>();

  /**
   * A watched resource failed. Told on the next turn of the event loop, so that the
   * resource's own failure reaches the engine before the construct's answer.
   */
  report(urn: string): void {
    for (const w of this.watchers) {
      if (w.urns.has(urn)) setImmediate(() => w.fail(urn));
    }
  }

  /** A watch of no resource yet; `add` the children as they are registered. */
  watch(): FailureWatch {
    const set = new Set<string>();
    let fail: (urn: string) => void = () => undefined;
    const failed = new Promise<string>((resolve) => {
      fail = resolve;
    });
    const watcher: Watcher = { urns: set, fail: (urn) => fail(urn) };
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
