/**
 * The plugin's resources: the same lifecycles as the dynamic resources
 * (provider/resources), by type token, with the deployment-wide checks (the runtime's
 * `DeploymentClaims`, keyed by URN, as the dynamic-provider host's: the plugin sees every
 * resource's `check` of its provider, whatever the program's language), plus what only the
 * plugin does: `pulumi import` by id (a Read with no properties).
 *
 * Import ids:
 *  - GlobalCommand: `<commandId>` (the provider's application) or `<applicationId>/<commandId>`;
 *  - GuildCommand: `<guildId>/<commandId>` or `<applicationId>/<guildId>/<commandId>`;
 *  - GuildCommandPermissions: `<guildId>/<commandId>` or `<applicationId>/<guildId>/<commandId>`
 *    (`commandId` the application id for the app-wide defaults).
 */
import { ConfigurationError } from "../client";
import { isSnowflake } from "../schema";
import { userAuthorizationProvider } from "../resources/authorizationLifecycle";
import type { CheckFailure } from "../resources/commandLifecycle";
import { commandProvider } from "../resources/commandLifecycle";
import { permissionsProvider } from "../resources/permissionsLifecycle";
import { scopeCommandsProvider, WHOLE_SCOPE } from "../resources/scopeCommandsLifecycle";
import type { Bag } from "../resources/propertyBags";
import { UNKNOWN } from "../resources/propertyBags";
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

export interface PluginResource {
  check(urn: string, olds: Bag, news: Bag): Promise<{ inputs: Bag; failures: CheckFailure[] }>;
  diff(
    id: string,
    olds: Bag,
    news: Bag,
  ): Promise<{
    changes: boolean;
    replaces: string[];
    deleteBeforeReplace: boolean;
    /** Property paths that change (the preview shows these). */
    detailedDiff?: Record<string, "add" | "update" | "delete">;
  }>;
  create(inputs: Bag): Promise<{ id: string; outs: Bag }>;
  /** `props` undefined: an import by id. */
  read(id: string, props: Bag | undefined): Promise<{ id: string; props?: Bag; inputs?: Bag }>;
  update(id: string, olds: Bag, news: Bag): Promise<{ outs: Bag }>;
  delete(id: string, props: Bag): Promise<void>;
}

/**
 * A resource whose state the dynamic resources wrote (an alias moved it to the plugin's
 * type): its outputs still carry the serialized provider. Reported as a change, its
 * update writes nothing to the service (nothing the service holds differs) and records
 * the plugin's outputs; without it the state kept `__provider` until the next real change.
 */
function fromDynamicState(olds: Bag): boolean {
  return "__provider" in olds;
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

/** The plugin's resources over one runtime, by type token. */
export function pluginResources(rt: ProviderRuntime): Map<string, PluginResource> {
  const { claims } = rt;

  function commands(scope: "global" | "guild"): PluginResource {
    const lifecycle = commandProvider(scope, rt);
    const name = scope === "global" ? "GlobalCommand" : "GuildCommand";
    return {
      async check(urn, olds, news) {
        const result = await lifecycle.check(olds, news);
        const problems = claims.checkCommand(urn, scope, result.inputs);
        if (problems.length > 0) {
          result.failures.unshift({ property: "name", reason: problems.join("\n") });
        }
        return result;
      },
      async diff(id, olds, news) {
        const result = await lifecycle.diff(id, olds, news);
        return { ...result, changes: result.changes || fromDynamicState(olds) };
      },
      create: (inputs) => lifecycle.create(inputs),
      async read(id, props) {
        if (props !== undefined) return lifecycle.read(id, props);
        const parts =
          scope === "global"
            ? importId(name, id, [["commandId"], ["applicationId", "commandId"]])
            : importId(name, id, [
                ["guildId", "commandId"],
                ["applicationId", "guildId", "commandId"],
              ]);
        const { commandId, ...where } = parts;
        // The inputs the import records name the application, as a declaration's do after check.
        where["applicationId"] = rt.resolveApplicationId(where["applicationId"]);
        const read = await lifecycle.read(commandId as string, where);
        if (read.id === "") {
          throw new ConfigurationError(`cannot import ${name} "${id}": no such command`);
        }
        return read;
      },
      update: (id, olds, news) => lifecycle.update(id, olds, news),
      delete: (id, props) => lifecycle.delete(id, props),
    };
  }

  const permissions = permissionsProvider(rt);
  const permissionsResource: PluginResource = {
    check: (_urn, olds, news) => permissions.check(olds, news),
    async diff(id, olds, news) {
      const result = await permissions.diff(id, olds, news);
      return { ...result, changes: result.changes || fromDynamicState(olds) };
    },
    create: (inputs) => permissions.create(inputs),
    async read(id, props) {
      if (props !== undefined) return permissions.read(id, props);
      const where = importId("GuildCommandPermissions", id, [
        ["guildId", "commandId"],
        ["applicationId", "guildId", "commandId"],
      ]);
      where["applicationId"] = rt.resolveApplicationId(where["applicationId"]);
      const read = await permissions.read(`${where["guildId"]}/${where["commandId"]}`, where);
      if (read.id === "") {
        throw new ConfigurationError(
          `cannot import GuildCommandPermissions "${id}": no such command`,
        );
      }
      return read;
    },
    update: (id, olds, news) => permissions.update(id, olds, news),
    delete: (id, props) => permissions.delete(id, props),
  };

  const authorization = userAuthorizationProvider(rt);
  const authorizationResource: PluginResource = {
    check: (_urn, olds, news) => authorization.check(olds, news),
    diff: (id, olds, news) => authorization.diff(id, olds, news),
    create: (inputs) => authorization.create(inputs),
    async read(id, props) {
      if (props === undefined) {
        throw new ConfigurationError(
          "UserAuthorization cannot be imported: declare it, and its first `up` takes the " +
            "authorization from the provider's bearerToken and refreshToken",
        );
      }
      return authorization.read(id, props);
    },
    update: (id, olds, news) => authorization.update(id, olds, news),
    delete: () => authorization.delete(),
  };

  const scopeCommands = scopeCommandsProvider(rt);
  const scopeCommandsResource: PluginResource = {
    async check(urn, olds, news) {
      const result = await scopeCommands.check(olds, news);
      const problems = claims.checkScope(urn, result.inputs);
      if (problems.length > 0) {
        result.failures.unshift({ property: WHOLE_SCOPE, reason: problems.join("\n") });
      }
      return result;
    },
    async diff(id, olds, news) {
      const result = await scopeCommands.diff(id, olds, news);
      return { ...result, changes: result.changes || fromDynamicState(olds) };
    },
    create: (inputs) => scopeCommands.create(inputs),
    // An import (no properties): every command of the scope comes under management.
    read: (id, props) => scopeCommands.read(id, props ?? {}),
    update: (id, olds, news) => scopeCommands.update(id, olds, news),
    delete: (id, props) => scopeCommands.delete(id, props),
  };

  return new Map<string, PluginResource>([
    [TOKENS.scopeCommands, scopeCommandsResource],
    [TOKENS.globalCommand, commands("global")],
    [TOKENS.guildCommand, commands("guild")],
    [TOKENS.guildCommandPermissions, permissionsResource],
    [TOKENS.userAuthorization, authorizationResource],
  ]);
}
