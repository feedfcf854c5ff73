/**
 * `discord-commands:index:CommandSet`, the plugin's component (so every language has
 * command sets): the engine's `Construct` call runs here, in the plugin process, which
 * registers the component and its children with the engine's resource monitor: one
 * `discord-commands:index:ScopeCommands` per scope and one `GuildCommandPermissions` per
 * permissions entry, planned by provider/resources/commandSetPlan.ts like the TypeScript
 * SDK's component (sdk/commandSet.ts).
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
 * - a secret definition makes the scope's `commands` secret; a permissions list is passed
 *   as it came (secrets and unknowns kept);
 * - the component's `commandIds` output and `RegisterResourceOutputs` end the construct; a
 *   scope's ids are secret when its child's are, or when a definition is (they are keyed
 *   by the commands' names);
 * - when a child fails, the construct fails naming it: at once when its check or diff
 *   failed in this process (childFailures.ts: the engine stops without answering it), or
 *   once every child settled when the engine answered it as failed.
 */
import * as grpc from "@grpc/grpc-js";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as resproto from "@pulumi/pulumi/proto/resource_pb";
import { ResourceMonitorService } from "@pulumi/pulumi/proto/resource_grpc_pb";
import type * as structproto from "google-protobuf/google/protobuf/struct_pb";
import type { SetPermissions, SetScope } from "../resources/commandSetPlan";
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
  isSecretValue,
  programProblemsField,
  secretPathsIn,
  secretValue,
  UNKNOWN,
  unknownPaths,
  unwrapSecrets,
} from "../resources/propertyBags";
import { isRecord, Secrecy } from "../schema";
import type { PlainObject, PlainValue } from "./plainStructs";
import { plainStruct, withPlainStructs, withPlainStructWriter } from "./plainStructs";
import { PACKAGE } from "./resources";
import type { ChildFailures } from "./childFailures";
import { childUrn } from "./childFailures";

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

interface PermissionsEntry extends SetPermissions {
  /** The overwrites as the engine sent them (secrets and unknowns kept). */
  readonly permissions: PlainValue | undefined;
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

/** The engine's resource monitor, spoken to directly (see the top of this file). */
class ResourceMonitor {
  private readonly client: grpc.Client;

  constructor(address: string) {
    this.client = new grpc.Client(address, grpc.credentials.createInsecure(), {
      "grpc.max_receive_message_length": 400 * 1024 * 1024,
    });
  }

  private unary<Req, Res>(
    method: grpc.MethodDefinition<Req, Res>,
    req: Req,
    label: string,
  ): Promise<Res> {
    return new Promise((resolve, reject) => {
      this.client.makeUnaryRequest(
        method.path,
        withPlainStructWriter(method.requestSerialize),
        withPlainStructs(method.responseDeserialize),
        req,
        (err, res) => {
          if (err) reject(new Error(`${label}: ${err.details || err.message}`));
          else if (res === undefined) reject(new Error(`${label}: no answer`));
          else resolve(res);
        },
      );
    });
  }

  /** Registers a resource; fails when the engine reports that it failed or was skipped. */
  async register(
    req: resproto.RegisterResourceRequest,
  ): Promise<resproto.RegisterResourceResponse> {
    const label = `registering ${req.getName()} [${req.getType()}]`;
    const method = ResourceMonitorService.registerResource as grpc.MethodDefinition<
      resproto.RegisterResourceRequest,
      resproto.RegisterResourceResponse
    >;
    const res = await this.unary(method, req, label);
    if (res.getResult() !== resproto.Result.SUCCESS) throw new ChildFailedError(req.getName());
    return res;
  }

  async registerOutputs(urn: string, outputs: PlainObject): Promise<void> {
    const req = new resproto.RegisterResourceOutputsRequest();
    req.setUrn(urn);
    req.setOutputs(plainStruct(outputs));
    const method = ResourceMonitorService.registerResourceOutputs as grpc.MethodDefinition<
      resproto.RegisterResourceOutputsRequest,
      unknown
    >;
    await this.unary(method, req, `registering the outputs of ${urn}`);
  }

  close(): void {
    this.client.close();
  }
}

/**
 * The engine answered a child's registration as failed or skipped (its error is its own):
 * under `--continue-on-error`, after a failed create, update or delete. Without that flag
 * the engine never answers it (pulumi/pulumi 3.259: it stops the deployment and closes the
 * plugin 27-76 ms later, measured), and the Construct call is cut: the engine then adds
 * "CommandSet resource '<name>' has a problem: grpc: the client connection is closing" to
 * the child's own error. Answering before that could not be done safely: under
 * `--continue-on-error` the engine answers the failed child 4-15 ms after its failure,
 * and a construct that answered first would stop the set's other children.
 */
class ChildFailedError extends Error {
  constructor(readonly childName: string) {
    super(childFailedMessage(childName));
  }
}

function childFailedMessage(childName: string): string {
  return `its resource '${childName}' failed (that resource's error says why)`;
}

/** A registration with the options every one of ours takes. */
function registration(
  type: string,
  name: string,
  parent: string,
  custom: boolean,
  object: PlainObject,
): resproto.RegisterResourceRequest {
  const req = new resproto.RegisterResourceRequest();
  req.setType(type);
  req.setName(name);
  req.setParent(parent);
  req.setCustom(custom);
  req.setObject(plainStruct(object));
  req.setAcceptsecrets(true);
  req.setAcceptresources(false);
  req.setSupportspartialvalues(true);
  req.setAliasspecs(true);
  req.setSupportsresultreporting(true);
  return req;
}

type Deps = Readonly<Record<string, readonly string[]>>;

function setDependencies(req: resproto.RegisterResourceRequest, byProperty: Deps): void {
  const all = new Set<string>();
  const map = req.getPropertydependenciesMap();
  for (const [key, urns] of Object.entries(byProperty)) {
    if (urns.length === 0) continue;
    const deps = new resproto.RegisterResourceRequest.PropertyDependencies();
    deps.setUrnsList([...urns]);
    map.set(key, deps);
    for (const u of urns) all.add(u);
  }
  req.setDependenciesList([...all]);
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

interface ScopeAnswer {
  readonly urn: string;
  /** The scope's commandIds; undefined while unknown (preview). */
  readonly ids: Record<string, string> | undefined;
  /** Whether the child's commandIds are secret (keyed by a secret name, say). */
  readonly secret: boolean;
}

/** The scope's child as registered: its URN and its commandIds, with their mark. */
function scopeAnswer(res: resproto.RegisterResourceResponse): ScopeAnswer {
  const object = res.getObject()?.toJavaScript() ?? {};
  const marked: unknown = object["commandIds"];
  const ids = isSecretValue(marked) ? marked.value : marked;
  const known = isRecord(ids) && unknownPaths(ids).length === 0;
  return {
    urn: res.getUrn(),
    ids: known ? (ids as Record<string, string>) : undefined,
    secret: isSecretValue(marked),
  };
}

/**
 * The set's outputs: `commandIds` by scope, unknown while any scope's are. A scope's ids
 * are secret when its child's are, or when a definition is: they are keyed by the names.
 */
function setOutputs(
  answers: readonly (readonly [string, ScopeAnswer])[],
  secretCommands: boolean,
): PlainObject {
  if (answers.some(([, a]) => a.ids === undefined)) return { commandIds: UNKNOWN };
  const ids = answers.map(([label, a]) => {
    const known = a.ids ?? {};
    return [label, a.secret || secretCommands ? secretValue(known) : known] as const;
  });
  return { commandIds: Object.fromEntries(ids) };
}

/** The engine's `Construct` of a CommandSet. */
export async function constructCommandSet(
  req: provproto.ConstructRequest,
  failures: ChildFailures,
): Promise<provproto.ConstructResponse> {
  if (req.getType() !== COMMAND_SET_TOKEN)
    throw new Error(`unknown component type ${req.getType()}`);
  const name = req.getName();
  const inputs: Record<string, unknown> = req.getInputs()?.toJavaScript() ?? {};
  const scopes = scopesOf(inputs["scopes"]);
  const permissions = permissionsOf(inputs["permissions"]);
  const problems = setStructureProblems(name, scopes, permissions);
  if (problems.length > 0) throw new Error(problems.join("\n"));
  const deps = inputDependencies(req);
  const rawCommands = inputs["commands"] ?? [];
  // Unknown anywhere (preview): the scope's whole plan is unknown, as an Output would be.
  const definitions =
    unknownPaths(rawCommands).length > 0 ? undefined : (unwrapSecrets(rawCommands) as unknown);
  if (definitions !== undefined && !Array.isArray(definitions)) {
    throw new Error("CommandSet: commands must be a list");
  }
  const secretCommands = containsSecret(rawCommands);
  // Where the definitions' secrets are, by index: the plan's problems quote none of them.
  const secrecy = new Secrecy(secretPathsIn(rawCommands));
  const provider = req.getProvidersMap().get(PACKAGE) ?? "";
  const monitor = new ResourceMonitor(req.getMonitorendpoint());
  const watch = failures.watch();
  try {
    const component = await monitor.register(componentRegistration(req));
    const urn = component.getUrn();
    /** Each child's name by its URN. */
    const children = new Map<string, string>();
    const register = (type: string, childName: string, object: PlainObject, deps: Deps) => {
      const childType = `${PACKAGE}:index:${type}`;
      const reg = registration(childType, childName, urn, true, object);
      reg.setProvider(provider);
      if (req.hasProtect()) reg.setProtect(req.getProtect() === true);
      setDependencies(reg, deps);
      const childUrnHere = childUrn(urn, childType, childName);
      children.set(childUrnHere, childName);
      watch.add(childUrnHere);
      return monitor.register(reg);
    };
    /** Each scope's child as registered: its URN and command ids (undefined while unknown). */
    const scopeAnswers = new Map<string, Promise<ScopeAnswer>>();
    for (const scope of scopes) {
      const plan =
        definitions === undefined
          ? undefined
          : scopeCommandMap(name, definitions, scope, permissions, secrecy);
      const commands = plan === undefined ? UNKNOWN : (plan.commands as PlainObject);
      const registered = register(
        "ScopeCommands",
        scopeChildName(name, scope),
        {
          ...(scope.guildId === undefined ? {} : { guildId: scope.guildId }),
          ...(scope.applicationId === undefined ? {} : { applicationId: scope.applicationId }),
          commands: secretCommands ? secretValue(commands) : commands,
          // The set's own problems fail the child's check, naming the set.
          ...programProblemsField(plan === undefined ? UNKNOWN : plan.problems),
        },
        { commands: deps["commands"] ?? [] },
      );
      scopeAnswers.set(scopeLabel(scope), registered.then(scopeAnswer));
    }
    const permissionsDone = permissions.map(async (p): Promise<void> => {
      const scope = permissionsScope(scopes, p) as SetScope;
      const holder = scopeAnswers.get(scopeLabel(scope));
      if (holder === undefined) return;
      const { urn: scopeUrn, ids } = await holder;
      const commandId = ids === undefined ? UNKNOWN : (ids[commandKey(p.type, p.command)] ?? "");
      await register(
        "GuildCommandPermissions",
        permissionsChildName(name, p),
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
          permissions: deps["permissions"] ?? [],
        },
      );
    });
    // Every registration settles before the construct answers (none left running), unless
    // a child's check or diff fails: the engine then stops without answering it
    // (childFailures.ts).
    const settling = Promise.allSettled([
      Promise.all([...scopeAnswers].map(async ([label, a]) => [label, await a] as const)),
      ...permissionsDone,
    ]);
    const first = await Promise.race([settling, watch.failed]);
    if (typeof first === "string") {
      throw new Error(childFailedMessage(children.get(first) ?? first));
    }
    const settled = first;
    const failure = settled.find((s) => s.status === "rejected");
    if (failure !== undefined) {
      const reason: unknown = failure.reason;
      throw reason instanceof ChildFailedError ? new Error(reason.message) : reason;
    }
    const answers = (settled[0] as PromiseFulfilledResult<(readonly [string, ScopeAnswer])[]>)
      .value;
    const outputs = setOutputs(answers, secretCommands);
    await monitor.registerOutputs(urn, outputs);
    const res = new provproto.ConstructResponse();
    res.setUrn(urn);
    res.setState(plainStruct(outputs) as structproto.Struct);
    const stateDeps = new provproto.ConstructResponse.PropertyDependencies();
    stateDeps.setUrnsList(answers.map(([, a]) => a.urn));
    res.getStatedependenciesMap().set("commandIds", stateDeps);
    return res;
  } finally {
    watch.stop();
    monitor.close();
  }
}
