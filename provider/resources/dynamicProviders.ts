/**
 * The dynamic-provider front door: the providers that Pulumi's dynamic-provider host
 * calls, all on one provider runtime. The host loads each kind's module by path
 * (`globalCommand.ts`, ...; see sdk/providerModule.ts) and calls its `provider`; those
 * modules take theirs from here, and Node loads this module once per process, so every
 * kind of one deployment shares the runtime (settings, client, caches, bulk queues), and
 * the deployment's claims (the runtime's `DeploymentClaims`, as in the plugin): the host runs
 * every dynamic resource's `check` in this process, so the program-wide rules (one name
 * per scope, the caps per scope, no entry point in a guild) are checked here, whatever the
 * order the program's values resolve in.
 *
 * The host does not hand `check` the resource's URN (@pulumi/pulumi 3.259 to 3.276,
 * cmd/dynamic-provider: `provider.check(olds, news)`), so each resource computes its URN in
 * the program and hands it over in the hidden input `CLAIMANT_KEY` (propertyBags.ts);
 * `check` takes it out of the inputs it returns, so the state never holds it.
 */
import { installPlainStructs } from "../plainStructs";
import type { CheckFailure } from "./lifecycle";
import { commandProvider } from "./commandLifecycle";
import { ENGINE_FAILURE_PROPERTY } from "./engineErrors";
import type { Bag } from "./propertyBags";
import {
  CLAIMANT_KEY,
  DYNAMIC_PROVIDER_KEY,
  isRecord,
  SECRET_PATHS_KEY,
  takeHidden,
} from "./propertyBags";
import { permissionsProvider } from "./permissionsLifecycle";
import { ProviderRuntime } from "./runtime";
import { scopeCommandsProvider } from "./scopeCommandsLifecycle";
import { userAuthorizationProvider } from "./authorizationLifecycle";
import { commandSetScopesProvider, packedScopeClaims } from "./commandSetScopesLifecycle";

const runtime = new ProviderRuntime();

// The host's requests decoded, and its answers encoded, as plain values (plainStructs.ts).
installPlainStructs();

interface Checks {
  check(olds: Bag, news: Bag): Promise<{ inputs: Bag; failures: readonly CheckFailure[] }>;
  diff(id: string, olds: Bag, news: Bag): Promise<{ changes: boolean }>;
  read(id: string, props: Bag): Promise<unknown>;
  update(id: string, olds: Bag, news: Bag): Promise<unknown>;
  delete(id: string, props: Bag): Promise<unknown>;
}

/**
 * True when the program marks other values secret than the state says (`SECRET_PATHS_KEY`,
 * kept in this door's state: the host gets no marks, and read and delete need them).
 */
function secretPathsChanged(olds: Bag, news: Bag): boolean {
  const paths = (bag: Bag): string => JSON.stringify(bag[SECRET_PATHS_KEY] ?? []);
  return paths(olds) !== paths(news);
}

/**
 * The ids that say where a resource lives: a check refuses them as secrets
 * (lifecycle.ts `idFailures`), so a state holds them in clear, whatever its version.
 */
const NEVER_SECRET = ["applicationId", "guildId", "commandId", DYNAMIC_PROVIDER_KEY];

/**
 * A state as the lifecycles read it. One written before the state kept its secret paths
 * (an earlier version, before its first `up` after an upgrade) says nothing of which values
 * were secret: every value but the ids is taken as secret then (so a `destroy` or a
 * `refresh` names its command by id), never guessed by searching for a secret's text.
 */
export function withStateSecrecy(state: Bag): Bag {
  if (state[SECRET_PATHS_KEY] !== undefined) return state;
  const paths = Object.keys(state)
    .filter((k) => !NEVER_SECRET.includes(k))
    .map((k) => [k]);
  return { ...state, [SECRET_PATHS_KEY]: paths };
}

/**
 * What `read` answers for a state `withStateSecrecy` marked: without the marks, as the
 * state was (the next `up` writes the program's paths).
 */
function readAnswer(state: Bag, result: unknown): unknown {
  if (state[SECRET_PATHS_KEY] !== undefined || !isRecord(result)) return result;
  const unmarked = (bag: unknown): unknown => {
    if (!isRecord(bag)) return bag;
    const { [SECRET_PATHS_KEY]: _marked, ...rest } = bag;
    return rest;
  };
  const out: Bag = { ...result };
  for (const key of ["props", "inputs"]) if (key in result) out[key] = unmarked(result[key]);
  return out;
}

/** What a resource claims, from its checked inputs: a command, a scope's list, or nothing. */
type Claims = "global" | "guild" | "scope" | "scopes" | undefined;

/**
 * Each of the provider's calls awaits the once-per-process check of the CLI's version
 * first (runtime.ts `checkCliVersion`): a `destroy` or a `refresh` calls no `check`.
 */
function afterCliCheck<P extends object>(provider: P): P {
  const wrapped: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(provider)) {
    wrapped[name] =
      typeof value === "function"
        ? async (...args: unknown[]) => {
            await runtime.checkCliVersion();
            return (value as (...a: unknown[]) => unknown).apply(provider, args);
          }
        : value;
  }
  return wrapped as P;
}

/**
 * The provider as the host calls it: the resource's claims checked against the
 * deployment's (its `CLAIMANT_KEY` taken out first), check failures that name no property
 * to the engine (engineErrors.ts), and a change of the secret paths reported as a change
 * (an update that writes nothing to the service; the engine marks the state again).
 */
function forHost<P extends Checks>(claimsOf: Claims, provider: P): P {
  return {
    ...afterCliCheck(provider),
    async check(olds: Bag, news: Bag) {
      await runtime.checkCliVersion();
      const { value: claimant, rest: inputs } = takeHidden(news, CLAIMANT_KEY);
      const result = await provider.check(olds, inputs);
      const failures = [...result.failures];
      if (claimsOf !== undefined && claimant !== undefined) {
        const problems =
          claimsOf === "scopes"
            ? packedScopeClaims(runtime.claims, claimant, result.inputs)
            : claimsOf === "scope"
              ? runtime.claims.checkScope(claimant, result.inputs)
              : runtime.claims.checkCommand(claimant, claimsOf, result.inputs);
        // First: the program-wide problem names every resource involved.
        if (problems.length > 0) failures.unshift({ property: "", reason: problems.join("\n") });
      }
      return {
        ...result,
        failures: failures.map((f) => ({ ...f, property: ENGINE_FAILURE_PROPERTY })),
      };
    },
    async diff(id: string, olds: Bag, news: Bag) {
      await runtime.checkCliVersion();
      const result = await provider.diff(id, withStateSecrecy(olds), news);
      return { ...result, changes: result.changes || secretPathsChanged(olds, news) };
    },
    async read(id: string, props: Bag) {
      await runtime.checkCliVersion();
      return readAnswer(props, await provider.read(id, withStateSecrecy(props)));
    },
    async update(id: string, olds: Bag, news: Bag) {
      await runtime.checkCliVersion();
      return provider.update(id, withStateSecrecy(olds), news);
    },
    async delete(id: string, props: Bag) {
      await runtime.checkCliVersion();
      return provider.delete(id, withStateSecrecy(props));
    },
  };
}

export const dynamicProviders = {
  globalCommand: forHost("global", commandProvider("global", runtime)),
  guildCommand: forHost("guild", commandProvider("guild", runtime)),
  guildCommandPermissions: forHost(undefined, permissionsProvider(runtime)),
  userAuthorization: forHost(undefined, userAuthorizationProvider(runtime)),
  scopeCommands: forHost("scope", scopeCommandsProvider(runtime)),
  commandSetScopes: forHost("scopes", commandSetScopesProvider(runtime)),
};
