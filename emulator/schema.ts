/**
 * The emulator's one door to the shared schema (provider/schema): body validation, the
 * error tree, the size rule, the locale list, snowflakes, permission bits, the service's
 * error codes, the field tables and the one normalizer come from there and only from there.
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
  isSnowflake,
  OptionType,
  PermissionType,
  CANONICAL_COMMAND_FIELDS,
  canonicalCommand,
  CHOICE_FIELDS,
  COMMAND_FIELDS,
  oversize,
  commandsPerScope,
  deepEqual,
  diffCommandFields,
  ignoredFields,
  isRecord,
  Limits,
  LOCALES,
  neutralValue,
  OPTION_FIELDS,
  PermissionFlags,
  SERVICE_EPOCH_MS,
  ServiceErrorCode,
  SNOWFLAKE_PATTERN,
  snowflakeTime,
  toErrorTree,
  validatePermissions,
  validateWireCommand,
} from "../provider/schema";
export type {
  CanonicalCommand,
  CommandField,
  FieldSpec,
  SchemaIssue,
  Scope,
  WireCommandBody,
  WriteMode,
} from "../provider/schema";
