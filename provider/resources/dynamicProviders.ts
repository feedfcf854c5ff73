/**
 * The dynamic-provider front door: the providers that Pulumi's dynamic-provider host
 * calls, all on one provider runtime. The host loads each kind's module by path
 * (`globalCommand.ts`, ...; see sdk/providerModule.ts) and calls its `provider`; those
 * modules take theirs from here, and Node loads this module once per process, so every
 * kind of one deployment shares the runtime (settings, client, caches, bulk queues).
 */
import type { CheckFailure } from "./commandLifecycle";
import { commandProvider } from "./commandLifecycle";
import { ENGINE_FAILURE_PROPERTY } from "./engineErrors";
import type { Bag } from "./propertyBags";
import { permissionsProvider } from "./permissionsLifecycle";
import { ProviderRuntime } from "./runtime";
import { scopeCommandsProvider } from "./scopeCommandsLifecycle";
import { userAuthorizationProvider } from "./authorizationLifecycle";

const runtime = new ProviderRuntime();

interface Checks {
  check(olds: Bag, news: Bag): Promise<{ inputs: Bag; failures: readonly CheckFailure[] }>;
}

/** The provider whose check failures name no property to the engine (engineErrors.ts). */
function forHost<P extends Checks>(provider: P): P {
  return {
    ...provider,
    async check(olds: Bag, news: Bag) {
      const result = await provider.check(olds, news);
      const failures = result.failures.map((f) => ({ ...f, property: ENGINE_FAILURE_PROPERTY }));
      return { ...result, failures };
    },
  };
}

export const dynamicProviders = {
  globalCommand: forHost(commandProvider("global", runtime)),
  guildCommand: forHost(commandProvider("guild", runtime)),
  guildCommandPermissions: forHost(permissionsProvider(runtime)),
  userAuthorization: forHost(userAuthorizationProvider(runtime)),
  scopeCommands: forHost(scopeCommandsProvider(runtime)),
};
