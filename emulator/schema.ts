/**
 * The emulator's one door to the shared schema (provider/schema): body validation, the
 * error tree, the size rule, the locale list, snowflakes, permission bits and the
 * service's error codes come from there and only from there.
 */
export {
  commandSize,
  isRecord,
  LOCALES,
  PermissionFlags,
  ServiceErrorCode,
  SNOWFLAKE_PATTERN,
  toErrorTree,
  validatePermissions,
  validateWireCommand,
} from "../provider/schema";
export type { SchemaIssue, Scope, WireCommandBody, WriteMode } from "../provider/schema";
