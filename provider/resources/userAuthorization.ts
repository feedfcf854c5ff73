/**
 * The provider of `UserAuthorization` (the lifecycle is in authorizationLifecycle.ts).
 * The engine's dynamic-provider host loads this module by path at call time (see
 * `sdk/providerModule.ts`) and calls `provider`'s methods.
 */
import { dynamicProviders } from "./dynamicProviders";

export const provider = dynamicProviders.userAuthorization;
