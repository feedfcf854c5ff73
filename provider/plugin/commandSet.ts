/**
 * `discord-commands:index:CommandSet`, the plugin's component (so every language has
 * command sets): the engine's `Construct` call runs here, in the plugin process, which
 * registers the component and its children with the engine's resource monitor: one
 * `discord-commands:index:ScopeCommands` per scope (or, with `packed: true`, one
 * `CommandSetScopes` for every scope: packedSet.ts) and one `GuildCommandPermissions` per
 * permissions entry, planned by provider/resources/commandSetPlan.ts like the TypeScript
 * SDK's component (sdk/commandSet.ts). What registers the children: setChildren.ts.
 *
 * Why straight over the monitor's gRPC, not through @pulumi/pulumi's runtime as a program
 * would: the children's properties are plain values the plugin already holds (the
 * request's inputs, decoded by plainStructs.ts), and each registration is one request;
 * the runtime turned every scope's 100 definitions into Outputs, serialized them
 * property by property and built a google-protobuf Struct of them, then did the same
 * backwards with each answer, on the critical path of every program with a set
 * (profiled: 0.4-0.6 s of the plugin's CPU in an `up` that adds a guild to a set of 11
 * scopes). It is also one less module graph to load (0.16 s). Measured when it came in, a
 * guild added to a YAML set of 11 scopes took 2.4-2.7 s instead of 3.4-3.5 s: far more than
 * a tenth of that `up`, so it stays, with no switch back to the runtime (issue 37: that path
 * would be a second construct to keep equal; the test of this one is plugin-command-set).
 *
 * What the runtime did that matters here, and how it is kept:
 * - the component takes the request's parent, dependencies, providers, aliases and
 *   resource options; its children take it as parent, the package's provider from the
 *   request's providers map, and its `protect` (children inherit it, as in the SDKs);
 *   the engine derives the children's aliases from the component's;
 * - a child depends on the resources its inputs came from (the request's input
 *   dependencies), a permissions entry on its scope's child too;
 * - at preview an unknown input (anywhere in the definitions) makes the child's
 *   commands unknown, and an unknown command id stays unknown;
 * - a definition's secret values stay secret at their own paths in the scope's `commands`
 *   (the whole map when a name or a type is: the keys are the names), as the TypeScript
 *   SDK's component tells its children (`scopeCommandMap`'s secret paths); a permissions
 *   list is passed as it came (secrets and unknowns kept);
 * - the component's `commandIds` output and `RegisterResourceOutputs` end the construct; a
 *   scope's ids are secret when its child's are, or when a definition's name or type is
 *   (they are keyed by the commands' names);
 * - when a child fails, the construct fails naming it: at once when its check or diff
 *   failed in this process (childFailures.ts: the engine stops without answering it), or
 *   once every child settled when the engine answered it as failed.
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type * as resproto from "@pulumi/pulumi/proto/resource_pb";
import type * as structproto from "google-protobuf/google/protobuf/struct_pb";
import type { SetScope } from "../resources/commandSetPlan";
import {
  permissionsChildName,
  permissionsScope,
  scopeChildName,
  scopeCommandMap,
  scopeLabel,
  setStructureProblems,
} from "../resources/commandSetPlan";
import { commandKey } from "../resources/commandKeys";
import {
  commandRefField,
  containsSecret,
  programProblemsField,
  updatingField,
  secretPathsIn,
  secretValue,
  UNKNOWN,
  unknownPaths,
  unwrapSecrets,
} from "../resources/propertyBags";
import { isRecord, Secrecy } from "../schema";
import type { PlainObject, PlainValue } from "../plainStructs";
import { plainStruct } from "../plainStructs";
import { PACKAGE } from "./resources";
import {
  ChildFailedError,
  childFailedMessage,
  registration,
  ResourceMonitor,
} from "./resourceMonitor";
import type { ChildFailures, FailureWatch } from "./childFailures";
import { registerPacked } from "./packedSet";
import type { PermissionsEntry, RegisteredScopes, ScopeAnswer, SetArguments } from "./setChildren";
import { Children, idsAnswer, markedAt } from "./setChildren";

export const COMMAND_SET_TOKEN = `${PACKAGE}:index:CommandSet`;

/** A structural argument (scopes, guild ids, command names): known, and not secret. */
function plain<T>(value: unknown, what: string): T {
  if (unknownPaths(value).length > 0 || containsSecret(value)) {
    throw new Error(
      `CommandSet: ${what} must be known when the program runs (plain values, not outputs of other resources)`,
    );
  }
  return value as T;
}

function scopesOf(value: unknown): SetScope[] {
  const list = plain<unknown>(value, "scopes");
  if (!Array.isArray(list)) throw new Error("CommandSet: scopes must be a list");
  return list.map((s, i) => {
    const scope = plain<unknown>(s, `scopes[${i}]`);
    if (!isRecord(scope)) throw new Error(`CommandSet: scopes[${i}] must be an object`);
    const guildId = scope["guildId"];
    const applicationId = scope["applicationId"];
    return {
      ...(typeof guildId === "string" ? { guildId } : {}),
      ...(typeof applicationId === "string" ? { applicationId } : {}),
    };
  });
}

function permissionsOf(value: unknown): PermissionsEntry[] {
  if (value === UNKNOWN) plain(value, "permissions");
  const list = value ?? [];
  if (!Array.isArray(list)) throw new Error("CommandSet: permissions must be a list");
  return list.map((p: unknown, i) => {
    if (p === UNKNOWN) plain(p, `permissions[${i}]`);
    if (!isRecord(p)) throw new Error(`CommandSet: permissions[${i}] must be an object`);
    const field = (k: string): unknown => plain<unknown>(p[k], `permissions[${i}].${k}`);
    const guildId = field("guildId");
    const command = field("command");
    if (typeof guildId !== "string" || typeof command !== "string") {
      throw new Error(`CommandSet: permissions[${i}] needs guildId and command`);
    }
    const type = field("type");
    const applicationId = field("applicationId");
    return {
      guildId,
      command,
      ...(typeof type === "number" ? { type } : {}),
      ...(typeof applicationId === "string" ? { applicationId } : {}),
      permissions: p["permissions"] as PlainValue | undefined,
    };
  });
}

/** The component's own registration: the request's parent, dependencies and options. */
function componentRegistration(req: provproto.ConstructRequest): resproto.RegisterResourceRequest {
  const reg = registration(COMMAND_SET_TOKEN, req.getName(), req.getParent(), false, {});
  reg.setDependenciesList(req.getDependenciesList());
  if (req.hasProtect()) reg.setProtect(req.getProtect() === true);
  if (req.hasRetainondelete()) reg.setRetainondelete(req.getRetainondelete() === true);
  if (req.hasDeletebeforereplace()) {
    reg.setDeletebeforereplace(req.getDeletebeforereplace() === true);
    reg.setDeletebeforereplacedefined(true);
  }
  reg.setDeletedwith(req.getDeletedwith());
  reg.setIgnorechangesList(req.getIgnorechangesList());
  reg.setReplaceonchangesList(req.getReplaceonchangesList());
  reg.setAdditionalsecretoutputsList(req.getAdditionalsecretoutputsList());
  reg.setAliasesList(req.getAliasesList());
  const providers = reg.getProvidersMap();
  req.getProvidersMap().forEach((ref: string, pkg: string) => providers.set(pkg, ref));
  return reg;
}

/** The URNs each input property came from. */
function inputDependencies(req: provproto.ConstructRequest): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  req
    .getInputdependenciesMap()
    .forEach((deps: provproto.ConstructRequest.PropertyDependencies, key: string) => {
      out[key] = deps.getUrnsList();
    });
  return out;
}

/** The scope's child as registered: its URN and its commandIds, with their mark. */
function scopeAnswer(res: resproto.RegisterResourceResponse): ScopeAnswer {
  const object = res.getObject()?.toJavaScript() ?? {};
  return idsAnswer(res.getUrn(), object["commandIds"]);
}

/**
 * The set's outputs: `commandIds` by scope, unknown while any scope's are. A scope's ids
 * are secret when its child's are, or when a definition's name or type is (`keysSecret`,
 * by scope label): they are keyed by the names.
 */
function setOutputs(
  answers: readonly (readonly [string, ScopeAnswer])[],
  keysSecret: ReadonlySet<string>,
): PlainObject {
  if (answers.some(([, a]) => a.ids === undefined)) return { commandIds: UNKNOWN };
  const ids = answers.map(([label, a]) => {
    const known = a.ids ?? {};
    return [label, a.secret || keysSecret.has(label) ? secretValue(known) : known] as const;
  });
  return { commandIds: Object.fromEntries(ids) };
}

/** The set's arguments, or the set's problems (its structure: scopes, permissions). */
function setArguments(req: provproto.ConstructRequest): SetArguments {
  if (req.getType() !== COMMAND_SET_TOKEN)
    throw new Error(`unknown component type ${req.getType()}`);
  const name = req.getName();
  const inputs: Record<string, unknown> = req.getInputs()?.toJavaScript() ?? {};
  const scopes = scopesOf(inputs["scopes"]);
  const permissions = permissionsOf(inputs["permissions"]);
  const problems = setStructureProblems(name, scopes, permissions);
  if (problems.length > 0) throw new Error(problems.join("\n"));
  const rawCommands = inputs["commands"] ?? [];
  // Unknown anywhere (preview): the scope's whole plan is unknown, as an Output would be.
  const definitions =
    unknownPaths(rawCommands).length > 0 ? undefined : (unwrapSecrets(rawCommands) as unknown);
  if (definitions !== undefined && !Array.isArray(definitions)) {
    throw new Error("CommandSet: commands must be a list");
  }
  return {
    name,
    scopes,
    permissions,
    definitions,
    secretCommands: containsSecret(rawCommands),
    secrecy: new Secrecy(secretPathsIn(rawCommands)),
    deps: inputDependencies(req),
    updating: !req.getDryrun(),
    packed: plain<unknown>(inputs["packed"], "packed") === true,
  };
}

/**
 * One `ScopeCommands` child per scope, its `commands` marked secret at the definitions'
 * secret paths only (the whole map when a name or a type is: the keys are the names);
 * while the definitions are unknown (preview), the whole map when any part is secret.
 */
function registerScopes(children: Children, set: SetArguments): RegisteredScopes {
  const { name, definitions, permissions, secrecy, secretCommands } = set;
  const answers = new Map<string, Promise<ScopeAnswer>>();
  const keysSecret = new Set<string>();
  for (const scope of set.scopes) {
    const plan =
      definitions === undefined
        ? undefined
        : scopeCommandMap(name, definitions, scope, permissions, secrecy);
    if (plan?.secretPaths.some((p) => p.length === 1) === true) keysSecret.add(scopeLabel(scope));
    const commands =
      plan === undefined
        ? secretCommands
          ? secretValue(UNKNOWN)
          : UNKNOWN
        : (markedAt({ commands: plan.commands }, plan.secretPaths) as PlainObject)["commands"];
    const registered = children.register(
      "ScopeCommands",
      scopeChildName(name, scope),
      {
        ...(scope.guildId === undefined ? {} : { guildId: scope.guildId }),
        ...(scope.applicationId === undefined ? {} : { applicationId: scope.applicationId }),
        commands: commands as PlainValue,
        // The set's own problems fail the child's check, naming the set.
        ...programProblemsField(plan === undefined ? UNKNOWN : plan.problems),
        // An update's write checks the scope's caps against the list it reads anyway.
        ...updatingField(set.updating),
      },
      { commands: set.deps["commands"] ?? [] },
    );
    answers.set(scopeLabel(scope), registered.then(scopeAnswer));
  }
  return { answers, keysSecret };
}

/**
 * One `GuildCommandPermissions` child per permissions entry, once its scope's child has
 * answered (the entry follows that child's command id).
 */
function registerPermissions(
  children: Children,
  set: SetArguments,
  scopeAnswers: ReadonlyMap<string, Promise<ScopeAnswer>>,
): Promise<void>[] {
  return set.permissions.map(async (p): Promise<void> => {
    const scope = permissionsScope(set.scopes, p) as SetScope;
    const holder = scopeAnswers.get(scopeLabel(scope));
    if (holder === undefined) return;
    const { urn: scopeUrn, ids } = await holder;
    const commandId = ids === undefined ? UNKNOWN : (ids[commandKey(p.type, p.command)] ?? "");
    await children.register(
      "GuildCommandPermissions",
      permissionsChildName(set.name, p),
      {
        guildId: p.guildId,
        commandId,
        // The identity the permissions follow (permissionsLifecycle.ts `sameCommandLive`).
        ...commandRefField({
          applicationId: scope.applicationId,
          guildId: scope.guildId,
          type: p.type,
          name: p.command,
        }),
        ...(p.permissions === undefined ? {} : { permissions: p.permissions }),
        ...(p.applicationId === undefined ? {} : { applicationId: p.applicationId }),
      },
      {
        commandId: [scopeUrn],
        permissions: set.deps["permissions"] ?? [],
      },
    );
  });
}

/**
 * The scopes' answers once every registration settled (none left running), or the first
 * child's failure: at once when a child's check or diff fails, since the engine then stops
 * without answering it (childFailures.ts).
 */
async function settled(
  children: Children,
  watch: FailureWatch,
  scopeAnswers: ReadonlyMap<string, Promise<ScopeAnswer>>,
  permissionsDone: readonly Promise<void>[],
): Promise<(readonly [string, ScopeAnswer])[]> {
  const settling = Promise.allSettled([
    Promise.all([...scopeAnswers].map(async ([label, a]) => [label, await a] as const)),
    ...permissionsDone,
  ]);
  const first = await Promise.race([settling, watch.failed]);
  if (typeof first === "string") {
    throw new Error(childFailedMessage(children.nameOf(first)));
  }
  const failure = first.find((s) => s.status === "rejected");
  if (failure !== undefined) {
    const reason: unknown = failure.reason;
    throw reason instanceof ChildFailedError ? new Error(reason.message) : reason;
  }
  return (first[0] as PromiseFulfilledResult<(readonly [string, ScopeAnswer])[]>).value;
}

/** The answer to the engine: the component's URN, its outputs and what they came from. */
function constructResponse(
  urn: string,
  outputs: PlainObject,
  answers: readonly (readonly [string, ScopeAnswer])[],
): provproto.ConstructResponse {
  const res = new provproto.ConstructResponse();
  res.setUrn(urn);
  res.setState(plainStruct(outputs) as structproto.Struct);
  const stateDeps = new provproto.ConstructResponse.PropertyDependencies();
  stateDeps.setUrnsList([...new Set(answers.map(([, a]) => a.urn))]);
  res.getStatedependenciesMap().set("commandIds", stateDeps);
  return res;
}

/** The engine's `Construct` of a CommandSet. */
export async function constructCommandSet(
  req: provproto.ConstructRequest,
  failures: ChildFailures,
): Promise<provproto.ConstructResponse> {
  const set = setArguments(req);
  const monitor = new ResourceMonitor(req.getMonitorendpoint());
  const watch = failures.watch();
  try {
    const urn = (await monitor.register(componentRegistration(req))).getUrn();
    const children = new Children(monitor, req, urn, watch);
    const scopes = set.packed ? registerPacked(children, set) : registerScopes(children, set);
    const permissionsDone = registerPermissions(children, set, scopes.answers);
    const answers = await settled(children, watch, scopes.answers, permissionsDone);
    const outputs = setOutputs(answers, scopes.keysSecret);
    await monitor.registerOutputs(urn, outputs);
    return constructResponse(urn, outputs, answers);
  } finally {
    watch.stop();
    monitor.close();
  }
}
