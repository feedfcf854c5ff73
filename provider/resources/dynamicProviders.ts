/**
 * The dynamic-provider front door: the providers that Pulumi's dynamic-provider host
 * calls, all on one provider runtime. The host loads each kind's module by path
 * (`globalCommand.ts`, ...; see sdk/providerModule.ts) and calls its `provider`; those
 * modules take theirs from here, and Node loads this module once per process, so every
 * kind of one deployment shares the runtime (settings, client, caches, bulk queues).
 */
import { commandProvider } from "./commandLifecycle";
import { permissionsProvider } from "./permissionsLifecycle";
import { ProviderRuntime } from "./runtime";
import { scopeCommandsProvider } from "./scopeCommandsLifecycle";
import { userAuthorizationProvider } from "./authorizationLifecycle";

const runtime = new ProviderRuntime();

export const dynamicProviders = {
  globalCommand: commandProvider("global", runtime),
  guildCommand: commandProvider("guild", runtime),
  guildCommandPermissions: permissionsProvider(runtime),
  userAuthorization: userAuthorizationProvider(runtime),
  scopeCommands: scopeCommandsProvider(runtime),
};
