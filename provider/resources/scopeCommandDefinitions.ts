/**
 * A `ScopeCommands`' definitions as its messages and outputs name them: each definition's
 * failures (the command's rules, its key, its scope) at the path a user reads
 * (`commands["ban"].options[0].name`), and the ids keyed by the commands. A key is the
 * command's name (prefixed by its type), so it is as secret as the name: a secret key reads
 * `commands[secret]` in a message, and makes the ids, keyed by it, secret in the outputs.
 */
import type { Scope, SchemaIssue } from "../schema";
import {
  CommandType,
  isRecord,
  SECRET_MARK,
  Secrecy,
  shownPath,
  validateSdkCommand,
} from "../schema";
import type { CheckFailure } from "./lifecycle";
import { commandKey } from "./commandKeys";
import type { Bag } from "./propertyBags";
import { secrecyOf, secretValue, UNKNOWN, unknownPaths, withoutUnknowns } from "./propertyBags";

/**
 * True when a command's key is secret: the key is its name (prefixed by its type), so it
 * is secret when the name, the type, the definition or the whole map is.
 */
export function keyIsSecret(secrecy: Secrecy, key: string): boolean {
  return secrecy.covers(["commands", key, "name"]) || secrecy.covers(["commands", key, "type"]);
}

/**
 * How a property path under `commands` reads: `commands["ban"].options[0].name`; with the
 * resource's secrecy, a secret key reads `commands[secret]`, and so does a key the program
 * chose inside a secret value (schema/mapping.ts `shownPath`).
 */
export function commandPath(
  key: string,
  path: readonly (string | number)[] = [],
  secrecy: Secrecy = Secrecy.NONE,
): string {
  const head = keyIsSecret(secrecy, key)
    ? `commands${SECRET_MARK}`
    : `commands[${JSON.stringify(key)}]`;
  if (path.length === 0) return head;
  const rest = shownPath(path, secrecy.within(["commands", key]));
  return typeof path[0] === "number" ? `${head}${rest}` : `${head}.${rest}`;
}

export function issueFailure(key: string, issue: SchemaIssue, secrecy: Secrecy): CheckFailure {
  const property = commandPath(key, issue.path, secrecy);
  return { property, reason: `${property}: ${issue.message} (${issue.code})` };
}

/**
 * The failures of one definition (`key`: its place in the map) in `scope`, what is unknown
 * at preview left for later, or the schema's warnings (`path: message (code)`) when the
 * command has no failure; and its type, once its name and type are known (for the caps).
 */
export function definitionFailures(
  key: string,
  value: unknown,
  scope: Scope,
  secrecy: Secrecy,
): { failures: CheckFailure[]; warnings: string[]; type?: number } {
  const path = commandPath(key, [], secrecy);
  if (!isRecord(value)) {
    return {
      failures: [{ property: path, reason: `${path}: a command definition` }],
      warnings: [],
    };
  }
  const failures: CheckFailure[] = [];
  const unknown = unknownPaths(value);
  const result = validateSdkCommand(withoutUnknowns(value), {
    scope,
    secrecy: secrecy.within(["commands", key]),
  });
  const isUnknown = (at: SchemaIssue["path"]): boolean =>
    unknown.some((u) => u.length <= at.length && u.every((s, i) => at[i] === s));
  if (!result.ok) {
    for (const issue of result.issues) {
      if (!isUnknown(issue.path)) failures.push(issueFailure(key, issue, secrecy));
    }
  }
  const warnings = result.ok
    ? result.warnings.map((w) => issueFailure(key, w, secrecy).reason)
    : [];
  const name = value["name"];
  const type = value["type"] ?? CommandType.CHAT_INPUT;
  if (typeof name !== "string" || name === UNKNOWN || typeof type !== "number") {
    return { failures, warnings };
  }
  const expected = commandKey(type, name);
  if (key !== expected) {
    // The expected key is the name (and type) respelt: secret when they are.
    const shown = secrecy.quote(expected, ["commands", key, "name"], ["commands", key, "type"]);
    failures.push({
      property: path,
      reason:
        `${path}: the key of a command is its name, prefixed "user:", ` +
        `"message:" or "entry_point:" for those types: expected ${shown}`,
    });
  }
  if (scope === "guild" && type === CommandType.PRIMARY_ENTRY_POINT) {
    const typePath = commandPath(key, ["type"], secrecy);
    failures.push({
      property: typePath,
      reason: `${typePath}: entry points exist only in the global scope`,
    });
  }
  return { failures, warnings, type };
}

/**
 * The outputs' `commandIds`, marked secret when a key is: the keys are the commands' names,
 * so a secret name would show in clear in the state as a key (the engine marks only the
 * outputs named like a secret input).
 */
export function markedIds(bag: Bag, ids: Record<string, string>): unknown {
  const secrecy = secrecyOf(bag);
  return Object.keys(ids).some((key) => keyIsSecret(secrecy, key)) ? secretValue(ids) : ids;
}
