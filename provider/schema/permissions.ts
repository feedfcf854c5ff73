/**
 * Per-guild command permission overwrites (spec: "Guild Application Command Permissions",
 * "Application Command Permissions", endpoint 15).
 */
import { z } from "zod";
import { Limits, PERMISSION_TYPES } from "./constants";
import type { Validation } from "./issues";
import { Codes, IssueCollector, checkArray, checkBoolean, checkOneOf, isRecord } from "./issues";
import { Secrecy } from "./secrecy";
import { checkSnowflake, snowflakeSchema } from "./snowflake";

export const wirePermissionSchema = z.object({
  id: snowflakeSchema,
  type: z.literal(PERMISSION_TYPES),
  permission: z.boolean(),
});

export type PermissionField = keyof typeof wirePermissionSchema.shape;

/** What each field of an overwrite means (spec: "Application Command Permissions"). */
export const PERMISSION_FIELD_DESCRIPTIONS = {
  id: "The id of a role, user or channel; or the guild's id for @everyone (a ROLE), or the guild's id minus 1 for all channels (a CHANNEL).",
  type: "What `id` names: ROLE (1), USER (2) or CHANNEL (3).",
  permission:
    "true allows the command, false disallows it. A CHANNEL overwrite also applies to the threads in that channel.",
} as const satisfies Record<PermissionField, string>;

/** The body of endpoint 15: `{permissions: [...]}`, at most 100 overwrites. */
export const wirePermissionsBodySchema = z.object({
  permissions: z.array(wirePermissionSchema),
});

/** What endpoints 13-15 return. */
export const wireGuildCommandPermissionsSchema = z.object({
  id: snowflakeSchema,
  application_id: snowflakeSchema,
  guild_id: snowflakeSchema,
  permissions: z.array(wirePermissionSchema),
});

/**
 * What each field of a command's permissions in a guild means (spec: "Guild Application
 * Command Permissions"); `id` is the command (`commandId` in the package schema).
 */
export const GUILD_PERMISSIONS_FIELD_DESCRIPTIONS = {
  id: "The command whose overwrites these are; or the application's id, for the overwrites that apply to every command without overwrites of its own.",
  application_id: "The application that owns the command.",
  guild_id: "The guild the overwrites apply in.",
  permissions:
    "The overwrites, at most 100, at most one per id and type. Users without permission do not see the command; members with Administrator can use every command.",
} as const satisfies Record<keyof typeof wireGuildCommandPermissionsSchema.shape, string>;

export type WirePermission = z.infer<typeof wirePermissionSchema>;
export type WirePermissionsBody = z.infer<typeof wirePermissionsBodySchema>;
export type WireGuildCommandPermissions = z.infer<typeof wireGuildCommandPermissionsSchema>;

/**
 * Rule 14: at most 100 overwrites; type ROLE 1, USER 2, CHANNEL 3; ids are snowflakes;
 * no two overwrites for the same (id, type).
 */
export function validatePermissions(
  body: unknown,
  secrecy: Secrecy = Secrecy.NONE,
): Validation<WirePermissionsBody> {
  const out = new IssueCollector(secrecy);
  if (!isRecord(body)) {
    out.add(
      [],
      Codes.DICT_TYPE,
      `The body must be an object {permissions: [...]}, got ${out.quote(body, [])}.`,
    );
    return out.result(() => ({ permissions: [] }));
  }
  const list = body["permissions"];
  if (list === undefined) {
    out.add(["permissions"], Codes.REQUIRED, "This field is required.");
  } else if (checkArray(out, list, ["permissions"], Limits.PERMISSION_OVERWRITES_MAX)) {
    const seen = new Map<string, number>();
    for (let i = 0; i < list.length; i++) {
      const item = list[i];
      const p = ["permissions", i];
      if (!isRecord(item)) {
        out.add(p, Codes.DICT_TYPE, `Each overwrite must be an object {id, type, permission}.`);
        continue;
      }
      const idOk =
        item["id"] === undefined
          ? (out.add([...p, "id"], Codes.REQUIRED, "This field is required."), false)
          : checkSnowflake(out, item["id"], [...p, "id"]);
      const typeOk =
        item["type"] === undefined
          ? (out.add([...p, "type"], Codes.REQUIRED, "This field is required."), false)
          : checkOneOf(
              out,
              item["type"],
              [...p, "type"],
              PERMISSION_TYPES,
              "ROLE 1, USER 2, CHANNEL 3",
            );
      if (item["permission"] === undefined) {
        out.add([...p, "permission"], Codes.REQUIRED, "This field is required.");
      } else checkBoolean(out, item["permission"], [...p, "permission"]);
      if (idOk && typeOk) {
        const key = `${BigInt(item["id"] as string)}:${String(item["type"])}`;
        const first = seen.get(key);
        if (first !== undefined) {
          out.add(
            [...p, "id"],
            Codes.DUPLICATE_OVERWRITE,
            `permissions[${first}] already sets an overwrite for this id and type.`,
          );
        } else seen.set(key, i);
      }
    }
  }
  if (out.issues.length > 0) return { ok: false, issues: out.issues };
  const parsed = wirePermissionsBodySchema.safeParse(body);
  if (!parsed.success) {
    return {
      ok: false,
      issues: [{ path: ["permissions"], code: "BASE_TYPE_INVALID", message: "Invalid value." }],
    };
  }
  return { ok: true, value: parsed.data, warnings: out.warnings };
}
