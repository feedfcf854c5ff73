/**
 * The permissions PUT body (endpoint 15) by the service's rules: spec "Application Command
 * Permissions" and "Limits" (at most 100 overwrites), and the document
 * (`permissions`: a list or null, not required; each `{id, type, permission}` required).
 * `null` or an absent list is read as no overwrites (the document allows it; the spec
 * does not say).
 */
import { ServiceLimits as L } from "./limits";
import type { Issue } from "./issues";
import { FieldCode, Issues, describe, isObject } from "./issues";

interface Overwrite {
  readonly id: string;
  readonly type: number;
  readonly permission: boolean;
}

type PermissionsValidation = { ok: true; value: Overwrite[] } | { ok: false; issues: Issue[] };

const TYPES: readonly number[] = [1, 2, 3];

export function validatePermissionsRequest(body: unknown): PermissionsValidation {
  const out = new Issues();
  if (!isObject(body)) {
    out.add([], FieldCode.DICT_TYPE, "Only dictionaries may be used in a DictType");
    return { ok: false, issues: out.list };
  }
  const list = body["permissions"];
  const value: Overwrite[] = [];
  if (
    list !== undefined &&
    list !== null &&
    out.array(list, ["permissions"], L.PERMISSION_OVERWRITES_MAX)
  ) {
    const seen = new Set<string>();
    list.forEach((item, i) => {
      const p = ["permissions", i];
      if (!isObject(item)) {
        out.add(p, FieldCode.DICT_TYPE, `Each overwrite must be an object, got ${describe(item)}.`);
        return;
      }
      const id = item["id"];
      const type = item["type"];
      const permission = item["permission"];
      let ok = true;
      if (id === undefined)
        ok = (out.add([...p, "id"], FieldCode.REQUIRED, "This field is required"), false);
      else if (typeof id !== "string" || !/^\d{1,20}$/.test(id) || BigInt(id) >= 2n ** 64n) {
        out.add([...p, "id"], FieldCode.NUMBER_COERCE, `Value ${describe(id)} is not snowflake.`);
        ok = false;
      }
      if (type === undefined)
        ok = (out.add([...p, "type"], FieldCode.REQUIRED, "This field is required"), false);
      else if (!out.oneOf(type, [...p, "type"], TYPES)) ok = false;
      if (permission === undefined) {
        out.add([...p, "permission"], FieldCode.REQUIRED, "This field is required");
        ok = false;
      } else if (!out.boolean(permission, [...p, "permission"])) ok = false;
      if (!ok) return;
      const key = `${BigInt(id as string)}:${String(type)}`;
      if (seen.has(key)) {
        out.add(
          [...p, "id"],
          FieldCode.DUPLICATE_OVERWRITE,
          "Duplicate overwrite for this id and type.",
        );
        return;
      }
      seen.add(key);
      value.push({ id: id as string, type: type as number, permission: permission as boolean });
    });
  }
  return out.empty ? { ok: true, value } : { ok: false, issues: out.list };
}
