/**
 * The provider of `CommandSetScopes`: every scope of a packed `CommandSet` as one resource
 * (see commandSetScopesLifecycle.ts). The engine's dynamic-provider host loads this module
 * by path at call time (see `sdk/providerModule.ts`) and calls `provider`'s methods.
 */
import { dynamicProviders } from "./dynamicProviders";

export const provider = dynamicProviders.commandSetScopes;
