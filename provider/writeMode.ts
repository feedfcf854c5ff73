/**
 * How command writes reach the service: `per-command` (the default: one POST, PATCH or
 * DELETE per resource) or `bulk` (the writes of one deployment to one scope coalesce
 * into one bulk overwrite PUT that carries every other live command unchanged; see
 * resources/bulkWriter.ts and docs/bulk-mode.md). Its own module because
 * the program reads the setting too (sdk/registrationOrder.ts: the order it hands commands to the
 * engine), without loading the provider.
 */
export const WRITE_MODES = ["per-command", "bulk"] as const;
export type WriteMode = (typeof WRITE_MODES)[number];
/** The setting: stack config first, then the environment. */
export const WRITE_MODE_SETTING = { key: "discord:writeMode", env: "DISCORD_WRITE_MODE" } as const;

export function isWriteMode(v: string): v is WriteMode {
  return (WRITE_MODES as readonly string[]).includes(v);
}
