/**
 * The service's numeric error codes (discord-api-docs, "JSON Error Codes"): the one table. The
 * client recognizes them, the emulator answers with them, messages name them.
 */
export const ServiceErrorCode = {
  /** 401 with a bad token; also the generic code of 404/405/500 answers. */
  GENERAL: 0,
  UNKNOWN_APPLICATION: 10002,
  UNKNOWN_GUILD: 10004,
  UNKNOWN_COMMAND: 10063,
  /** A command (or application) with no permission overwrites in the guild. */
  UNKNOWN_PERMISSIONS: 10066,
  /** A bot token on the permissions PUT. */
  BOTS_CANNOT_USE: 20001,
  /** Too many commands of one type in a scope. */
  MAX_COMMANDS: 30032,
  /** The daily budget of command creates is spent: never retried. */
  DAILY_CREATES: 30034,
  REQUEST_TOO_LARGE: 40005,
  MISSING_ACCESS: 50001,
  MISSING_PERMISSIONS: 50013,
  INVALID_FORM_BODY: 50035,
  INVALID_JSON: 50109,
  /** A bulk overwrite that leaves out the application's entry point (missing from that table). */
  ENTRY_POINT_REMOVED: 50240,
} as const;
export type ServiceErrorCode = (typeof ServiceErrorCode)[keyof typeof ServiceErrorCode];
