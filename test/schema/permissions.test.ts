/** Rule 14: permission overwrites, constants and helpers. */
import type { WirePermission } from "../../provider/schema";
import {
  Codes,
  PermissionFlags,
  PermissionType,
  allChannels,
  canonicalPermissions,
  everyone,
  isSnowflake,
  permissions,
  permissionsEqual,
  validatePermissions,
} from "../../provider/schema";
import { expectIssue, expectValid } from "./helpers";

const GUILD = "613425648685547541";
const ow = (id: string, type: number, permission = true) => ({ id, type, permission });
const typed = (id: string, type: 1 | 2 | 3, permission = true): WirePermission => ({
  id,
  type,
  permission,
});

describe("rule 14: permission overwrites", () => {
  it("accepts up to 100 overwrites of types ROLE, USER, CHANNEL", () => {
    const list = Array.from({ length: 100 }, (_, i) =>
      ow(String(10n ** 17n + BigInt(i)), 1 + (i % 3)),
    );
    expectValid(validatePermissions({ permissions: list }));
    expectIssue(
      validatePermissions({ permissions: [...list, ow("1", 1)] }),
      "permissions",
      Codes.MAX_LENGTH,
    );
  });
  it("checks type and snowflake ids", () => {
    expectIssue(
      validatePermissions({ permissions: [ow(GUILD, 4)] }),
      "permissions[0].type",
      Codes.CHOICES,
    );
    expectIssue(
      validatePermissions({ permissions: [ow("12ab", 1)] }),
      "permissions[0].id",
      Codes.NUMBER_COERCE,
    );
    expectIssue(
      validatePermissions({ permissions: [ow("18446744073709551616", 1)] }),
      "permissions[0].id",
      Codes.NUMBER_COERCE,
    );
    expectValid(validatePermissions({ permissions: [ow("18446744073709551615", 1), ow("1", 2)] }));
    expectIssue(
      validatePermissions({ permissions: [{ id: GUILD, type: 1 }] }),
      "permissions[0].permission",
      Codes.REQUIRED,
    );
    expectIssue(validatePermissions({}), "permissions", Codes.REQUIRED);
  });
  it("no two overwrites for the same (id, type)", () => {
    expectIssue(
      validatePermissions({ permissions: [ow(GUILD, 1), ow(GUILD, 1, false)] }),
      "permissions[1].id",
      Codes.DUPLICATE_OVERWRITE,
    );
    expectValid(validatePermissions({ permissions: [ow(GUILD, 1), ow(GUILD, 3)] }));
  });
  it("constants: everyone = guild id, all channels = guild id - 1 (BigInt)", () => {
    expect(everyone(GUILD)).toBe(GUILD);
    expect(allChannels(GUILD)).toBe("613425648685547540");
    expect(allChannels("10000000000000000000")).toBe("9999999999999999999");
    expect(() => allChannels("x")).toThrow(RangeError);
    expect(isSnowflake(allChannels(GUILD))).toBe(true);
  });
  it("permission bits and the permissions() helper", () => {
    expect(PermissionFlags.ADMINISTRATOR).toBe(8n);
    expect(PermissionFlags.MANAGE_GUILD).toBe(32n);
    expect(PermissionFlags.MANAGE_ROLES).toBe(1n << 28n);
    expect(permissions(PermissionFlags.MANAGE_GUILD, PermissionFlags.MANAGE_ROLES)).toBe(
      "268435488",
    );
    expect(permissions()).toBe("0");
    expect(PermissionType).toEqual({ ROLE: 1, USER: 2, CHANNEL: 3 });
  });
  it("canonical form: the list is a set, order-insensitive", () => {
    const a = [typed("2", 1), typed("10", 1), typed("5", 3, false)];
    const b = [typed("5", 3, false), typed("10", 1), typed("02", 1)];
    expect(permissionsEqual(a, b)).toBe(true);
    expect(canonicalPermissions(a).map((p) => p.id)).toEqual(["2", "10", "5"]);
    expect(permissionsEqual(a, [typed("2", 1), typed("10", 1), typed("5", 3, true)])).toBe(false);
  });
});
