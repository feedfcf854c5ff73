/**
 * The emulator's one door to the shared schema (provider/schema): body validation, the
 * error tree, the size rule and the locale list come from there and only from there.
 */
export {
  commandSize,
  isRecord,
  LOCALES,
  toErrorTree,
  validatePermissions,
  validateWireCommand,
} from "../provider/schema";
export type { SchemaIssue, Scope, WireCommandBody, WriteMode } from "../provider/schema";
