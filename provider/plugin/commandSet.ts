/**
 * `discord-commands:index:CommandSet`, the plugin's component (so every language has
 * command sets): the engine's `Construct` call runs here, in the plugin process, which
 * registers the children through Pulumi's Node.js runtime as a program would: one
 * `discord-commands:index:ScopeCommands` per scope and one `GuildCommandPermissions` per
 * permissions entry, planned by provider/resources/commandSetPlan.ts like the TypeScript
 * SDK's component (sdk/commandSet.ts).
 *
 * Why by hand: `@pulumi/pulumi/provider`'s server cannot serve this plugin (server.ts says
 * why), so its `construct` is not reachable; this mirrors what it does (3.259,
 * provider/server.js `construct`): reset the runtime's options to the request's monitor,
 * deserialize the inputs, build the component, serialize its outputs, wait for the
 * registrations to finish.
 */
// The runtime's own modules, not the package's index: the index also loads the Automation
// API (npm's arborist) and the closure serializer (TypeScript), 0.75 s against 0.16 s
// measured, all of it on the critical path of a program whose set this plugin constructs.
import * as output from "@pulumi/pulumi/output";
import * as resource from "@pulumi/pulumi/resource";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
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
import { isRecord } from "../schema";
import { PACKAGE } from "./resources";

/* eslint-disable @typescript-eslint/no-require-imports -- the runtime's internals, untyped in its .d.ts */
const settings = require("@pulumi/pulumi/runtime/settings") as {
  resetOptions(
    project: string,
    stack: string,
    parallel: number,
    engineAddr: string,
    monitorAddr: string,
    preview: boolean,
    organization: string,
  ): void;
  awaitFeatureSupport(): Promise<void>;
  waitForRPCs(): Promise<void>;
};
const state = require("@pulumi/pulumi/runtime/state") as {
  withLocalStorage<T>(fn: () => Promise<T>): Promise<T>;
};
const rpc = require("@pulumi/pulumi/runtime/rpc") as {
  serializeResourceProperties(
    label: string,
    props: output.Inputs,
  ): Promise<[Record<string, unknown>, Map<string, Set<resource.Resource>>]>;
};
const providerServer = require("@pulumi/pulumi/provider/server") as {
  deserializeInputs(
    inputs: structproto.Struct | undefined,
    deps: unknown,
  ): Promise<Record<string, unknown>>;
};
/* eslint-enable @typescript-eslint/no-require-imports */

export const COMMAND_SET_TOKEN = `${PACKAGE}:index:CommandSet`;

function plain<T>(value: unknown, what: string): T {
  if (output.Output.isInstance(value)) {
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
    const guildId = plain<unknown>(scope["guildId"], `scopes[${i}].guildId`);
    const applicationId = plain<unknown>(scope["applicationId"], `scopes[${i}].applicationId`);
    return {
      ...(typeof guildId === "string" ? { guildId } : {}),
      ...(typeof applicationId === "string" ? { applicationId } : {}),
    };
  });
}

interface PermissionsEntry extends SetPermissions {
  readonly permissions: unknown;
}

function permissionsOf(value: unknown): PermissionsEntry[] {
  const list = plain<unknown>(value ?? [], "permissions");
  if (!Array.isArray(list)) throw new Error("CommandSet: permissions must be a list");
  return list.map((p, i) => {
    const entry = plain<unknown>(p, `permissions[${i}]`);
    if (!isRecord(entry)) throw new Error(`CommandSet: permissions[${i}] must be an object`);
    const field = (k: string): unknown => plain<unknown>(entry[k], `permissions[${i}].${k}`);
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
      permissions: entry["permissions"],
    };
  });
}

/** A child resource of the plugin's own types, registered by token. */
class PackageChild extends resource.CustomResource {
  declare readonly commandIds: output.Output<Record<string, string>>;

  constructor(
    type: string,
    name: string,
    props: output.Inputs,
    opts: resource.CustomResourceOptions,
  ) {
    super(`${PACKAGE}:index:${type}`, name, props, opts);
  }
}

/** The component, as the plugin registers it. */
class PluginCommandSet extends resource.ComponentResource {
  readonly commandIds: output.Output<Record<string, Record<string, string>>>;

  constructor(
    name: string,
    inputs: Record<string, unknown>,
    opts: resource.ComponentResourceOptions,
  ) {
    super(COMMAND_SET_TOKEN, name, {}, opts);
    const scopes = scopesOf(inputs["scopes"]);
    const permissions = permissionsOf(inputs["permissions"]);
    const problems = setStructureProblems(name, scopes, permissions);
    if (problems.length > 0) throw new Error(problems.join("\n"));
    const definitions = output.output(inputs["commands"] as output.Input<unknown[]>);
    const children: Record<string, PackageChild> = {};
    for (const scope of scopes) {
      const plan = definitions.apply((defs) => scopeCommandMap(name, defs ?? [], scope));
      const child = new PackageChild(
        "ScopeCommands",
        scopeChildName(name, scope),
        {
          ...(scope.guildId === undefined ? {} : { guildId: scope.guildId }),
          ...(scope.applicationId === undefined ? {} : { applicationId: scope.applicationId }),
          commands: plan.apply((p) => p.commands),
          // The set's own problems fail the child's check, naming the set (a rejected input
          // would hang the runtime instead of failing the preview).
          __programProblems: plan.apply((p) =>
            p.problems.length > 0 ? p.problems.join("\n") : undefined,
          ),
          commandIds: undefined,
        },
        { parent: this },
      );
      children[scopeLabel(scope)] = child;
    }
    for (const p of permissions) {
      const scope = permissionsScope(scopes, p) as SetScope;
      const holder = children[scopeLabel(scope)];
      if (holder === undefined) continue;
      const key = commandKey(p.type, p.command);
      new PackageChild(
        "GuildCommandPermissions",
        permissionsChildName(name, p),
        {
          guildId: p.guildId,
          commandId: holder.commandIds.apply((ids) => ids[key] ?? ""),
          // The identity the permissions follow (permissionsLifecycle.ts `sameCommandLive`).
          __commandRef: {
            ...(scope.applicationId === undefined ? {} : { applicationId: scope.applicationId }),
            ...(scope.guildId === undefined ? {} : { guildId: scope.guildId }),
            type: p.type ?? 1,
            name: p.command,
          },
          permissions: p.permissions as output.Input<unknown[]>,
          ...(p.applicationId === undefined ? {} : { applicationId: p.applicationId }),
        },
        { parent: this },
      );
    }
    this.commandIds = output
      .all(Object.entries(children).map(([label, c]) => c.commandIds.apply((ids) => [label, ids])))
      .apply((pairs) => Object.fromEntries(pairs as [string, Record<string, string>][]));
    this.registerOutputs({ commandIds: this.commandIds });
  }
}

/** The engine's `Construct` of a CommandSet. */
export async function constructCommandSet(
  req: provproto.ConstructRequest,
  engineAddress: string | undefined,
): Promise<provproto.ConstructResponse> {
  if (req.getType() !== COMMAND_SET_TOKEN)
    throw new Error(`unknown component type ${req.getType()}`);
  if (engineAddress === undefined) throw new Error("Construct needs the engine's address");
  return state.withLocalStorage(async () => {
    settings.resetOptions(
      req.getProject(),
      req.getStack(),
      req.getParallel(),
      engineAddress,
      req.getMonitorendpoint(),
      req.getDryrun(),
      req.getOrganization(),
    );
    await settings.awaitFeatureSupport();
    const inputs = await providerServer.deserializeInputs(
      req.getInputs(),
      req.getInputdependenciesMap(),
    );
    const providers: Record<string, resource.ProviderResource> = {};
    req.getProvidersMap().forEach((ref: string, pkg: string) => {
      providers[pkg] = new resource.DependencyProviderResource(ref);
    });
    const opts: resource.ComponentResourceOptions = {
      providers,
      dependsOn: req
        .getDependenciesList()
        .map((urn: string) => new resource.DependencyResource(urn)),
      protect: req.getProtect() === true,
      aliases: req
        .getAliasesList()
        .flatMap((a: { hasUrn(): boolean; getUrn(): string }) => (a.hasUrn() ? [a.getUrn()] : [])),
    };
    if (req.getParent() !== "") opts.parent = new resource.DependencyResource(req.getParent());
    const component = new PluginCommandSet(req.getName(), inputs, opts);
    const res = new provproto.ConstructResponse();
    res.setUrn(await new Promise<string>((resolve) => component.urn.apply(resolve)));
    const [serialized] = await rpc.serializeResourceProperties(`construct(${req.getName()})`, {
      commandIds: component.commandIds,
    });
    res.setState(
      structproto.Struct.fromJavaScript(serialized as Record<string, structproto.JavaScriptValue>),
    );
    await settings.waitForRPCs();
    return res;
  });
}
