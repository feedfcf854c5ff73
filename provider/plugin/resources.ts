/**
 * The plugin's resources, by type token: each one's lifecycle, the same object as the
 * dynamic resource's (provider/resources), which the gRPC handlers (server.ts) call
 * straight, and what only the plugin does for that type, which those handlers apply around
 * the call: the deployment-wide checks (the runtime's `DeploymentClaims`, keyed by URN, as
 * the dynamic-provider host's: the plugin sees every resource's `check` of its provider,
 * whatever the program's language), the rewrite of a state the dynamic resources wrote,
 * and `pulumi import` by id (a Read with no properties).
 *
 * Import ids:
 *  - GlobalCommand: `<commandId>` (the provider's application) or `<applicationId>/<commandId>`;
 *  - GuildCommand: `<guildId>/<commandId>` or `<applicationId>/<guildId>/<commandId>`;
 *  - GuildCommandPermissions: `<guildId>/<commandId>` or `<applicationId>/<guildId>/<commandId>`
 *    (`commandId` the application id for the app-wide defaults);
 *  - ScopeCommands: `<guildId>` or `global`, with or without `<applicationId>/`
 *    (scopeCommandsLifecycle.ts `parseScopeResourceId`);
 *  - UserAuthorization: none (it cannot be imported);
 *  - CommandSetScopes (a packed CommandSet's child): none (its Read says to import each
 *    scope as a ScopeCommands).
 */
import { ConfigurationError } from "../client";
import { isSnowflake } from "../schema";
import { userAuthorizationProvider } from "../resources/authorizationLifecycle";
import {
  commandSetScopesProvider,
  packedScopeClaims,
} from "../resources/commandSetScopesLifecycle";
import type { Checked, Lifecycle } from "../resources/lifecycle";
import { commandProvider } from "../resources/commandLifecycle";
import { permissionsProvider } from "../resources/permissionsLifecycle";
import { scopeCommandsProvider, WHOLE_SCOPE } from "../resources/scopeCommandsLifecycle";
import type { Bag } from "../resources/propertyBags";
import { DYNAMIC_PROVIDER_KEY, UNKNOWN } from "../resources/propertyBags";
import type { ProviderRuntime } from "../resources/runtime";
import type { StackConfig } from "../resources/settings";
import { SETTINGS } from "../resources/settings";
import { WRITE_MODE_SETTING } from "../writeMode";

/** The package's name: the plugin's name, its type tokens' and its config's namespace. */
export const PACKAGE = "discord-commands";

export const TOKENS = {
  globalCommand: `${PACKAGE}:index:GlobalCommand`,
  guildCommand: `${PACKAGE}:index:GuildCommand`,
  guildCommandPermissions: `${PACKAGE}:index:GuildCommandPermissions`,
  userAuthorization: `${PACKAGE}:index:UserAuthorization`,
  scopeCommands: `${PACKAGE}:index:ScopeCommands`,
  commandSetScopes: `${PACKAGE}:index:CommandSetScopes`,
} as const;

/** The provider's configuration keys: the settings (`discord:botToken`), unprefixed. */
export const PLUGIN_CONFIG_KEYS: readonly string[] = [...SETTINGS, WRITE_MODE_SETTING].map((s) =>
  s.key.replace(/^discord:/, ""),
);

/**
 * The plugin's configuration as the settings reader asks for it (`discord:botToken`):
 * the provider resource's inputs (`args`: a default provider's from stack config
 * `discord-commands:*`, an explicit provider's from its arguments), or the engine's
 * `variables` (`discord-commands:config:botToken`). Its namespace is the package's, so
 * every message and fix names `discord-commands:botToken`, the key the user sets.
 */
export function pluginStackConfig(args: Bag, variables: ReadonlyMap<string, string>): StackConfig {
  return {
    namespace: PACKAGE,
    get(key: string): string | undefined {
      const name = key.replace(/^discord:/, "");
      const value =
        args[name] ??
        variables.get(`${PACKAGE}:config:${name}`) ??
        variables.get(`${PACKAGE}:${name}`);
      if (value === undefined || value === null || value === UNKNOWN) return undefined;
      return typeof value === "string" ? value : JSON.stringify(value);
    },
  };
}

/** The resource type of a URN (`urn:pulumi:stack::project::parent$type::name`). */
export function urnType(urn: string): string {
  const qualified = urn.split("::")[2] ?? "";
  return qualified.split("$").pop() ?? "";
}

/**
 * What a Read reads through the lifecycle: a refresh's id and properties as the engine
 * gives them, an import's planned from its id alone (`importRead`).
 */
export interface ReadTarget {
  readonly id: string;
  readonly props: Bag;
  /** The import's failure when the service has no such resource (the read's id is ""). */
  readonly missing?: string;
}

/**
 * A plugin resource: its lifecycle, called straight by the gRPC handlers (server.ts), and
 * what only the plugin does for its type, applied by those handlers around the call.
 */
export interface PluginResource {
  readonly lifecycle: Lifecycle;
  /** The check's answer with the deployment-wide problems of its inputs first (by URN). */
  withClaims(urn: string, checked: Checked): Checked;
  /** The old state must be rewritten whatever the diff says (`fromDynamicState`). */
  rewritesState(olds: Bag): boolean;
  /** The read an import by `id` makes, or a `ConfigurationError` naming the id's forms. */
  importRead(id: string): ReadTarget;
}

/**
 * A resource whose state the dynamic resources wrote (an alias moved it to the plugin's
 * type): its outputs still carry the serialized provider. Reported as a change, its
 * update writes nothing to the service (nothing the service holds differs) and records
 * the plugin's outputs; without it the state kept `__provider` until the next real change.
 */
function fromDynamicState(olds: Bag): boolean {
  return DYNAMIC_PROVIDER_KEY in olds;
}

/** The parts of an import id, or a clear error naming the forms this resource takes. */
function importId(
  resource: string,
  id: string,
  forms: readonly (readonly string[])[],
): Record<string, string> {
  const parts = id.split("/");
  const form = forms.find((f) => f.length === parts.length);
  if (form === undefined || !parts.every(isSnowflake)) {
    const expected = forms.map((f) => f.map((p) => `<${p}>`).join("/")).join(" or ");
    throw new ConfigurationError(
      `cannot import ${resource} "${id}": the id is ${expected} (decimal ids)`,
    );
  }
  return Object.fromEntries(form.map((name, i) => [name, parts[i] as string]));
}

/** A check with the claims' problems, if any, first: they name every resource involved. */
function claimed(checked: Checked, property: string, problems: readonly string[]): Checked {
  if (problems.length === 0) return checked;
  return { ...checked, failures: [{ property, reason: problems.join("\n") }, ...checked.failures] };
}

/** A check with no deployment-wide rule. */
const UNCLAIMED = (_urn: string, checked: Checked): Checked => checked;

/** The plugin's resources over one runtime, by type token. */
export function pluginResources(rt: ProviderRuntime): Map<string, PluginResource> {
  const { claims } = rt;

  function commands(scope: "global" | "guild"): PluginResource {
    const name = scope === "global" ? "GlobalCommand" : "GuildCommand";
    const forms =
      scope === "global"
        ? [["commandId"], ["applicationId", "commandId"]]
        : [
            ["guildId", "commandId"],
            ["applicationId", "guildId", "commandId"],
          ];
    return {
      lifecycle: commandProvider(scope, rt),
      withClaims: (urn, checked) =>
        claimed(checked, "name", claims.checkCommand(urn, scope, checked.inputs)),
      rewritesState: fromDynamicState,
      importRead(id) {
        const { commandId, ...where } = importId(name, id, forms);
        // The inputs the import records name the application, as a declaration's do after check.
        where["applicationId"] = rt.resolveApplicationId(where["applicationId"]);
        const missing = `cannot import ${name} "${id}": no such command`;
        return { id: commandId as string, props: where, missing };
      },
    };
  }

  const permissions: PluginResource = {
    lifecycle: permissionsProvider(rt),
    withClaims: UNCLAIMED,
    rewritesState: fromDynamicState,
    importRead(id) {
      const where = importId("GuildCommandPermissions", id, [
        ["guildId", "commandId"],
        ["applicationId", "guildId", "commandId"],
      ]);
      where["applicationId"] = rt.resolveApplicationId(where["applicationId"]);
      const missing = `cannot import GuildCommandPermissions "${id}": no such command`;
      return { id: `${where["guildId"]}/${where["commandId"]}`, props: where, missing };
    },
  };

  const authorization: PluginResource = {
    lifecycle: userAuthorizationProvider(rt),
    withClaims: UNCLAIMED,
    // Its update refreshes the user's tokens with the service: not a write to force for a
    // rewrite of the state alone (the next refresh it needs rewrites it).
    rewritesState: () => false,
    importRead() {
      throw new ConfigurationError(
        "UserAuthorization cannot be imported: declare it, and its first `up` takes the " +
          "authorization from the provider's bearerToken and refreshToken",
      );
    },
  };

  const scopeCommands: PluginResource = {
    lifecycle: scopeCommandsProvider(rt),
    withClaims: (urn, checked) =>
      claimed(checked, WHOLE_SCOPE, claims.checkScope(urn, checked.inputs)),
    rewritesState: fromDynamicState,
    // Every command of the scope comes under management.
    importRead: (id) => ({ id, props: {} }),
  };

  // A packed CommandSet's child: each scope claims its commands as a ScopeCommands would.
  const commandSetScopes: PluginResource = {
    lifecycle: commandSetScopesProvider(rt),
    withClaims: (urn, checked) =>
      claimed(checked, WHOLE_SCOPE, packedScopeClaims(claims, urn, checked.inputs)),
    rewritesState: fromDynamicState,
    // No properties: the lifecycle's Read names the ids to import each scope by.
    importRead: (id) => ({ id, props: {} }),
  };

  return new Map<string, PluginResource>([
    [TOKENS.scopeCommands, scopeCommands],
    [TOKENS.commandSetScopes, commandSetScopes],
    [TOKENS.globalCommand, commands("global")],
    [TOKENS.guildCommand, commands("guild")],
    [TOKENS.guildCommandPermissions, permissions],
    [TOKENS.userAuthorization, authorization],
  ]);
}
