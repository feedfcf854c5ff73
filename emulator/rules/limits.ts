/**
 * The service's limits as the emulator enforces them: the spec's "Limits" table, and the
 * service's OpenAPI description (test/contract/openapi.json) where the spec is silent.
 * Written here, not taken from the provider's schema: the emulator plays the service, so a
 * wrong limit in the provider's schema must show up as a test failure between the two.
 */
export const ServiceLimits = {
  /** spec "Limits": command name; document: `name` minLength 1, maxLength 32. */
  NAME_MIN: 1,
  NAME_MAX: 32,
  /** spec "Limits": command, option, choice description 1-100 (CHAT_INPUT commands). */
  DESCRIPTION_MIN: 1,
  DESCRIPTION_MAX: 100,
  /** spec "Limits": choice name 1-100. */
  CHOICE_NAME_MIN: 1,
  CHOICE_NAME_MAX: 100,
  /** spec "Limits": string choice value up to 100 (the document says 6000: the spec wins). */
  CHOICE_STRING_VALUE_MAX: 100,
  /** spec "Limits": options per command, subcommand or group; choices per option. */
  OPTIONS_MAX: 25,
  CHOICES_MAX: 25,
  /** spec "Limits": min_length 0-6000, max_length 1-6000 (the document agrees). */
  MIN_LENGTH_MIN: 0,
  MIN_LENGTH_MAX: 6000,
  MAX_LENGTH_MIN: 1,
  MAX_LENGTH_MAX: 6000,
  /** spec "Limits": INTEGER -2^53+1..2^53-1 (document: Int53Type); NUMBER -2^53..2^53. */
  INTEGER_MIN: -(2 ** 53 - 1),
  INTEGER_MAX: 2 ** 53 - 1,
  NUMBER_MIN: -(2 ** 53),
  NUMBER_MAX: 2 ** 53,
  /** spec "Limits": slash command size. */
  COMMAND_SIZE_MAX: 8000,
  /** spec "Limits": permission overwrites per command (document: maxItems 100). */
  PERMISSION_OVERWRITES_MAX: 100,
  /** document: `default_member_permissions` maximum (2^54). */
  PERMISSIONS_MAX: 18014398509481984n,
  /** spec "Limits": commands per type and scope. */
  CHAT_INPUT_PER_SCOPE: 100,
  USER_PER_SCOPE: 15,
  MESSAGE_PER_SCOPE: 15,
  ENTRY_POINT_GLOBAL: 1,
  /** spec "Limits": command creates per day, per guild. */
  DAILY_CREATES: 200,
} as const;

/** spec "Limits": how many commands of a type a scope may hold (no entry point in a guild). */
export function commandsPerScope(type: number, scope: "global" | "guild"): number {
  switch (type) {
    case 1:
      return ServiceLimits.CHAT_INPUT_PER_SCOPE;
    case 2:
      return ServiceLimits.USER_PER_SCOPE;
    case 3:
      return ServiceLimits.MESSAGE_PER_SCOPE;
    case 4:
      return scope === "global" ? ServiceLimits.ENTRY_POINT_GLOBAL : 0;
    default:
      return 0;
  }
}
