/**
 * The provider of `ScopeCommands`: the commands a stack manages in one scope (see
 * scopeCommandsLifecycle.ts). The engine's dynamic-provider host loads this module by path
 * at call time (see `sdk/providerModule.ts`) and calls `provider`'s methods.
 */
import { dynamicProviders } from "./dynamicProviders";

export const provider = dynamicProviders.scopeCommands;
