/**
 * What the plugin's `CommandSet` (commandSet.ts) registers its children with, whichever
 * shape it takes: one `ScopeCommands` per scope (commandSet.ts `registerScopes`), or one
 * `CommandSetScopes` for every scope of a packed set (packedSet.ts). The set's arguments as
 * the Construct request carried them, the children's registrations under the component,
 * and each scope's answer (its URN and command ids), which the permissions children and
 * the set's `commandIds` output follow.
 */
import type * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type * as resproto from "@pulumi/pulumi/proto/resource_pb";
import type { SetPermissions, SetScope } from "../resources/commandSetPlan";
import { isSecretValue, secretValue, unknownPaths } from "../resources/propertyBags";
import type { PathSegment, Secrecy } from "../schema";
import { isRecord } from "../schema";
import type { PlainObject, PlainValue } from "../plainStructs";
import { PACKAGE } from "./resources";
import type { Deps, ResourceMonitor } from "./resourceMonitor";
import { registration, setDependencies } from "./resourceMonitor";
import type { FailureWatch } from "./childFailures";
import { childUrn } from "./childFailures";

export interface PermissionsEntry extends SetPermissions {
  /** The overwrites as the engine sent them (secrets and unknowns kept). */
  readonly permissions: PlainValue | undefined;
}

/** A CommandSet's arguments, as the Construct request carries them. */
export interface SetArguments {
  readonly name: string;
  readonly scopes: readonly SetScope[];
  readonly permissions: readonly PermissionsEntry[];
  /** The definitions, secrets unwrapped; undefined while any part is unknown (preview). */
  readonly definitions: unknown[] | undefined;
  /** Whether any definition is secret (at preview, while the definitions are unknown). */
  readonly secretCommands: boolean;
  /** Where the definitions' secrets are, by index: the plan's problems quote none of them. */
  readonly secrecy: Secrecy;
  /** The URNs each input property came from. */
  readonly deps: Deps;
  /** Whether the engine runs an update (not a preview): the Construct request's `dryRun`. */
  readonly updating: boolean;
  /** Every scope in one `CommandSetScopes` child (packedSet.ts), not one child per scope. */
  readonly packed: boolean;
}

/** A scope's child as registered: what the set's permissions and outputs follow. */
export interface ScopeAnswer {
  readonly urn: string;
  /** The scope's commandIds; undefined while unknown (preview). */
  readonly ids: Record<string, string> | undefined;
  /** Whether the scope's commandIds are secret (keyed by a secret name, say). */
  readonly secret: boolean;
}

/** The scopes' children as registered: each scope's answer, by the scope's label. */
export interface RegisteredScopes {
  readonly answers: Map<string, Promise<ScopeAnswer>>;
  /** The labels of the scopes whose keys (the commands' names) hold a secret. */
  readonly keysSecret: Set<string>;
}

/** A scope's answer from the ids its child output (with their engine's mark, if any). */
export function idsAnswer(urn: string, marked: unknown, secret = false): ScopeAnswer {
  const ids = isSecretValue(marked) ? marked.value : marked;
  const known = isRecord(ids) && unknownPaths(ids).length === 0;
  return {
    urn,
    ids: known ? (ids as Record<string, string>) : undefined,
    secret: secret || isSecretValue(marked),
  };
}

/**
 * `value` with the engine's secret mark at each of `paths` (relative to it), as a program
 * would hand it: the child's check, diff and messages learn each secret's place from the
 * marks (server.ts), so a plain command of a set that holds a secret stays readable.
 */
export function markedAt(value: unknown, paths: readonly (readonly PathSegment[])[]): unknown {
  if (paths.length === 0) return value;
  if (paths.some((p) => p.length === 0)) return secretValue(value);
  const below = (key: string): PathSegment[][] =>
    paths.filter((p) => String(p[0]) === key).map((p) => p.slice(1));
  if (Array.isArray(value)) return value.map((v, i) => markedAt(v, below(String(i))));
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, markedAt(v, below(k))]));
}

/**
 * The set's children as it registers them: under the component, with the package's
 * provider from the request and the request's `protect`, each watched for a failed check
 * or diff (childFailures.ts).
 */
export class Children {
  /** Each child's name by its URN. */
  private readonly names = new Map<string, string>();

  constructor(
    private readonly monitor: ResourceMonitor,
    private readonly req: provproto.ConstructRequest,
    private readonly parentUrn: string,
    private readonly watch: FailureWatch,
  ) {}

  register(
    type: string,
    childName: string,
    object: PlainObject,
    deps: Deps,
  ): Promise<resproto.RegisterResourceResponse> {
    const childType = `${PACKAGE}:index:${type}`;
    const reg = registration(childType, childName, this.parentUrn, true, object);
    reg.setProvider(this.req.getProvidersMap().get(PACKAGE) ?? "");
    if (this.req.hasProtect()) reg.setProtect(this.req.getProtect() === true);
    setDependencies(reg, deps);
    const urn = childUrn(this.parentUrn, childType, childName);
    this.names.set(urn, childName);
    this.watch.add(urn);
    return this.monitor.register(reg);
  }

  /** The child's name, for a message. */
  nameOf(urn: string): string {
    return this.names.get(urn) ?? urn;
  }
}
