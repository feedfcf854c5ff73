/**
 * provider/schema: every rule of the application command service, written once, with no
 * I/O. Used by the SDK (input types, preview-time validation), the provider (check, diff,
 * read) and the emulator (400 responses).
 */
export * from "./constants";
export { LOCALES, Locale, isLocale } from "./locales";
export type { Localizations } from "./locales";
export { Codes, formatPath, formatIssues, toErrorTree, charLength, isRecord } from "./issues";
export type { Code, Path, SchemaIssue, Validation } from "./issues";
export { SECRET_MARK, Secrecy } from "./secrecy";
export type { PathSegment } from "./secrecy";
export { CHAT_INPUT_NAME_REGEX, chatInputNameProblem } from "./names";
export {
  localizationsSchema,
  wireChoiceSchema,
  wireCommandBodySchema,
  wireCommandPatchSchema,
  wireCommandSchema,
  wireOptionSchema,
} from "./shapes";
export type {
  ChoiceField,
  CommandField,
  OptionField,
  Scope,
  WireChoice,
  WireCommand,
  WireCommandBody,
  WireCommandPatch,
  WireOption,
  WriteMode,
} from "./shapes";
export { CANONICAL_COMMAND_FIELDS, CHOICE_FIELDS, COMMAND_FIELDS, OPTION_FIELDS } from "./fields";
export type { CanonicalCommandField } from "./fields";
export { canonicalOf, neutralValue } from "./fieldSpec";
export type { CommandFieldSpec, FieldSpec, Presence, Tolerance, Where } from "./fieldSpec";
export { canonicalNumber } from "./canonicalValues";
export {
  acceptedIn,
  carriedIn,
  endpointTreatment,
  toleratedIn,
  typeRefusal,
} from "./endpointFields";
export { validateWireCommand, wireCommandSchemaFor } from "./command";
export type { WireContext } from "./command";
export { commandSize, oversize } from "./size";
export {
  allChannels,
  everyone,
  isSnowflake,
  notSnowflake,
  SERVICE_EPOCH_MS,
  SNOWFLAKE_PATTERN,
  snowflakeSchema,
  snowflakeTime,
} from "./snowflake";
export { ServiceErrorCode } from "./serviceErrors";
export {
  validatePermissions,
  wireGuildCommandPermissionsSchema,
  wirePermissionSchema,
  wirePermissionsBodySchema,
} from "./permissions";
export type {
  WireGuildCommandPermissions,
  WirePermission,
  WirePermissionsBody,
} from "./permissions";
export {
  SDK_TO_WIRE_KEYS,
  WIRE_TO_SDK_KEYS,
  camelCase,
  sdkToWire,
  shownPath,
  toSdkPath,
  validateSdkCommand,
  validateWireBody,
  wireToSdk,
} from "./mapping";
export type { Camelize, GlobalOnlyKey, SdkChoice, SdkCommandArgs, SdkOption } from "./mapping";
export {
  canonicalCommand,
  canonicalPermissions,
  deepEqual,
  diffCommandFields,
  patchBody,
  permissionsEqual,
} from "./normalize";
export type { CanonicalChoice, CanonicalCommand, CanonicalOption } from "./normalize";
export { COMMAND_REPLACE_KEYS, PERMISSIONS_REPLACE_KEYS } from "./replacements";
