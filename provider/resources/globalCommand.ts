/**
 * The provider of `GlobalCommand`: a command in the application's global scope
 * (spec endpoints 1-5). The engine's dynamic-provider host loads this module by path
 * at call time (see `sdk/providerModule.ts`) and calls `provider`'s methods.
 */
import { dynamicProviders } from "./dynamicProviders";

export const provider = dynamicProviders.globalCommand;
