/**
 * The emulator's state file: its format (checked on load: a corrupt file is an error at
 * start, never a silently empty state) and its atomic write (temporary file in the same
 * folder + rename).
 */
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { formatIssues } from "./config";
import { SNOWFLAKE_PATTERN } from "./schema";

export const PersistedState = z.strictObject({
  format: z.literal("pulumi-discord-commands-emulator/1"),
  clockOffsetMs: z.number().min(0),
  lastSnowflake: z.string().regex(SNOWFLAKE_PATTERN),
  /** Identity checked here; the described fields are brought to the stored form on load. */
  commands: z.array(
    z.looseObject({
      id: z.string().regex(SNOWFLAKE_PATTERN),
      application_id: z.string(),
      guild_id: z.string().optional(),
      version: z.string(),
      name: z.string(),
    }),
  ),
  permissions: z.array(
    z.strictObject({
      id: z.string(),
      application_id: z.string(),
      guild_id: z.string(),
      permissions: z.array(
        z.strictObject({ id: z.string(), type: z.number().int(), permission: z.boolean() }),
      ),
    }),
  ),
  tokens: z.array(
    z.strictObject({
      token: z.string(),
      applicationId: z.string(),
      scopes: z.array(z.string()),
      expiresAt: z.number(),
      userId: z.string().optional(),
      grantId: z.string().optional(),
    }),
  ),
  codes: z
    .array(
      z.strictObject({
        code: z.string(),
        grantId: z.string(),
        applicationId: z.string(),
        userId: z.string(),
        scopes: z.array(z.string()),
        redirectUri: z.string(),
        redirectUriGiven: z.boolean().optional(),
        codeChallenge: z.string().optional(),
        expiresAt: z.number(),
        used: z.boolean(),
      }),
    )
    .default([]),
  refreshTokens: z
    .array(
      z.strictObject({
        token: z.string(),
        grantId: z.string(),
        applicationId: z.string(),
        userId: z.string(),
        scopes: z.array(z.string()),
        spent: z.boolean().optional(),
      }),
    )
    .default([]),
  creates: z.record(z.string(), z.array(z.number())),
  activities: z.record(z.string(), z.boolean()),
});
export type PersistedState = z.infer<typeof PersistedState>;

/** Reads and checks a state file; its error says what is wrong and what to do. */
export function readStateFile(file: string): PersistedState {
  let raw: string;
  try {
    raw = fs.readFileSync(file, "utf8");
  } catch (err) {
    throw new Error(`cannot read emulator state file ${file}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    throw new Error(
      `emulator state file ${file} is corrupt (invalid JSON: ${(err as Error).message}); ` +
        "fix or delete it to start from an empty state",
      { cause: err },
    );
  }
  const parsed = PersistedState.safeParse(json);
  if (!parsed.success) {
    throw new Error(
      `emulator state file ${file} is corrupt or of another format; fix or delete it:\n` +
        formatIssues(parsed.error),
    );
  }
  return parsed.data;
}

/** Writes the state file atomically: a reader sees the old state or the new, never half. */
export function writeStateFile(file: string, state: PersistedState): void {
  const target = path.resolve(file);
  const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(state, null, 1)}\n`);
  fs.renameSync(tmp, target);
}
