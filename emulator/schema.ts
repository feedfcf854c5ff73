/**
 * The emulator's door to the shared schema (provider/schema), for pure data only (two
 * interaction modules also import its option type directly, as types): the
 * locale list, enums, snowflake helpers, permission bits, the service's error codes, the
 * field tables of the one normalizer (the canonical form the emulator stores and
 * presents), where the table says each endpoint and command type takes a field
 * (`endpointTreatment`, `typeRefusal`) and the limits its interaction checks use. What a
 * request's values must be to be
 * accepted (types, required fields, limits per endpoint) is the emulator's own
 * (emulator/rules, the service's rules): the provider may be stricter than the service,
 * and a wrong rule in the provider's schema must not pass the tests between the two.
 */
export {
  allChannels,
  ChannelType,
  COMMAND_TYPES,
  charLength,
  CommandType,
  EntryPointHandler,
  IntegrationType,
  InteractionContextType,
  OptionType,
  PermissionType,
  CANONICAL_COMMAND_FIELDS,
  canonicalCommand,
  CHOICE_FIELDS,
  COMMAND_FIELDS,
  deepEqual,
  diffCommandFields,
  endpointTreatment,
  isRecord,
  Limits,
  LOCALES,
  neutralValue,
  OPTION_FIELDS,
  PermissionFlags,
  SERVICE_EPOCH_MS,
  ServiceErrorCode,
  SNOWFLAKE_PATTERN,
  typeRefusal,
} from "../provider/schema";
export type { CanonicalCommand, CommandField, FieldSpec } from "../provider/schema";
