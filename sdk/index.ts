/**
 * What a Pulumi program imports: the resources, their argument types, the enums and
 * constants of the service, and helpers for permission values.
 */
export {
  GlobalCommand,
  GuildCommand,
  GuildCommandPermissions,
  ScopeCommands,
  CommandSetScopes,
  UserAuthorization,
  commandKey,
} from "./resources";
export { CommandSet } from "./commandSet";
export type { CommandSetArgs, CommandSetPermissions, CommandSetScope } from "./commandSet";
export type {
  CommandDefinition,
  ScopeCommandsArgs,
  GlobalCommandArgs,
  GuildCommandArgs,
  GuildCommandPermissionsArgs,
  DeepInput,
  Inputs,
} from "./resources";
export {
  ChannelType,
  CommandType,
  EntryPointHandler,
  IntegrationType,
  InteractionContextType,
  Locale,
  LOCALES,
  OptionType,
  PermissionFlags,
  PermissionType,
  allChannels,
  everyone,
  permissions,
} from "../provider/schema";
export type { SdkChoice, SdkCommandArgs, SdkOption, WirePermission } from "../provider/schema";
export {
  AuthorizationArgsError,
  OAuthScopes,
  buildAuthorizeUrl,
  createAuthorizationCodeVerifier,
  getCommandPermissionsScopes,
  getDefaultCommunicationScopes,
  getDefaultPresenceScopes,
  resolveAuthorizationArgs,
} from "./authorization";
export type {
  AuthorizationArgs,
  AuthorizationCodeChallenge,
  AuthorizationCodeVerifier,
  ResolvedAuthorizationArgs,
} from "./authorization";
