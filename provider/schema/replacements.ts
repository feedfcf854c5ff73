/**
 * The inputs whose change makes a new resource rather than an update: the lifecycles'
 * `diff` (provider/resources) and the package schema's `replaceOnChanges`
 * (provider/package) read these. A command's name, type, guild or application makes a
 * new command (the service drops a renamed command's permissions, so a rename is a
 * replacement); a permissions resource belongs to one command in one guild.
 */
export const COMMAND_REPLACE_KEYS = ["name", "type", "applicationId", "guildId"] as const;
export const PERMISSIONS_REPLACE_KEYS = ["applicationId", "guildId", "commandId"] as const;
