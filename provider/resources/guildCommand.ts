/**
 * The provider of `GuildCommand`: a command in one guild's scope (spec endpoints 7-11).
 * The engine's dynamic-provider host loads this module by path at call time (see
 * `sdk/providerModule.ts`) and calls `provider`'s methods.
 */
import { dynamicProviders } from "./dynamicProviders";

export const provider = dynamicProviders.guildCommand;
