/**
 * The provider of `GuildCommandPermissions` (spec endpoints 13-16; the lifecycle is in
 * permissionsLifecycle.ts). The engine's dynamic-provider host loads this module by path
 * at call time (see `sdk/providerModule.ts`) and calls `provider`'s methods.
 */
import { dynamicProviders } from "./dynamicProviders";

export const provider = dynamicProviders.guildCommandPermissions;
