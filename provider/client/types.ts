/**
 * The wire types the facade speaks, from `provider/schema` (derived from its zod
 * schemas: one source of truth). Re-exported so users of the client need one import.
 */
export type {
  WireCommand,
  WireCommandBody,
  WireCommandPatch,
  WireGuildCommandPermissions,
  WirePermission,
  WirePermissionsBody,
} from "../schema";
