/**
 * The ONE mapping between the SDK shape (camelCase, what a Pulumi program writes) and the
 * wire shape (snake_case). The key table is derived from the wire schemas' keys with one
 * rename function, mirrored at the type level by `Camelize`, so the SDK's types and keys
 * are never written by hand. The SDK shape is validated by mapping it to the wire shape,
 * validating that, and mapping issue paths back.
 */
import type { WireContext } from "./command";
import { validateWireCommand } from "./command";
import { CHOICE_FIELDS, COMMAND_FIELDS, OPTION_FIELDS } from "./fields";
import type { Path, SchemaIssue, Validation } from "./issues";
import { Codes, formatPath, IssueCollector, isRecord } from "./issues";
import { isLocale } from "./locales";
import { PERMISSION_FIELD_DESCRIPTIONS } from "./permissions";
import type { PathSegment } from "./secrecy";
import { SECRET_MARK, Secrecy } from "./secrecy";
import type { WireChoice, WireCommandBody, WireOption } from "./shapes";

type CamelCase<S extends string> = S extends `${infer H}_${infer T}`
  ? `${H}${Capitalize<CamelCase<T>>}`
  : S;

/** The SDK view of a wire type: every snake_case key renamed to camelCase, deeply. */
export type Camelize<T> = T extends readonly (infer U)[]
  ? Camelize<U>[]
  : T extends object
    ? { [K in keyof T as K extends string ? CamelCase<K> : K]: Camelize<T[K]> }
    : T;

export type SdkChoice = Camelize<WireChoice>;
export type SdkOption = Camelize<WireOption>;
/** A command as a Pulumi program declares it (no `id`: the service assigns it). */
export type SdkCommandArgs = Camelize<Omit<WireCommandBody, "id">>;

/**
 * The SDK keys of the fields only global commands keep (fields.ts `keptIn`): a guild
 * command's arguments leave them out (sdk/resources.ts).
 */
export type GlobalOnlyKey = {
  [K in keyof typeof COMMAND_FIELDS]: (typeof COMMAND_FIELDS)[K]["keptIn"] extends readonly [
    "global",
  ]
    ? CamelCase<K>
    : never;
}[keyof typeof COMMAND_FIELDS];

/** `name_localizations` -> `nameLocalizations` (the runtime twin of `CamelCase`). */
export function camelCase(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

type Level = "command" | "option" | "choice";

const LEVEL_FIELDS = { command: COMMAND_FIELDS, option: OPTION_FIELDS, choice: CHOICE_FIELDS };

/** The keys a program may write at each level (a command's `id` is the service's). */
const LEVEL_KEYS: Record<Level, ReadonlySet<string>> = {
  command: new Set(Object.keys(COMMAND_FIELDS).filter((k) => k !== "id")),
  option: new Set(Object.keys(OPTION_FIELDS)),
  choice: new Set(Object.keys(CHOICE_FIELDS)),
};

/** The key table: every wire key of the command, option and choice shapes, and its SDK key. */
export const WIRE_TO_SDK_KEYS: Readonly<Record<string, string>> = Object.fromEntries(
  [...LEVEL_KEYS.command, ...LEVEL_KEYS.option, ...LEVEL_KEYS.choice].map((k) => [k, camelCase(k)]),
);
export const SDK_TO_WIRE_KEYS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(WIRE_TO_SDK_KEYS).map(([w, s]) => [s, w]),
);

/** The level of a nested list's items, from the field tables (`options`, `choices`). */
function childLevel(level: Level, key: string): Level | undefined {
  const spec: { children?: Level } | undefined = (
    LEVEL_FIELDS[level] as Record<string, { children?: Level }>
  )[key];
  return spec?.children;
}

/**
 * Renames keys level by level (command -> options -> choices); localization dictionaries
 * and other values are copied as they are. Keys unknown at a level are dropped and, when
 * converting SDK input, reported (path in SDK keys).
 */
function convert(
  v: unknown,
  level: Level,
  toWire: boolean,
  path: Path,
  out: IssueCollector | undefined,
): unknown {
  if (!isRecord(v)) return v;
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(v)) {
    const value = v[key];
    if (value === undefined) continue;
    const wireKey = toWire ? SDK_TO_WIRE_KEYS[key] : key;
    if (wireKey === undefined || !LEVEL_KEYS[level].has(wireKey)) {
      if (out !== undefined) {
        // The other shape's spelling of a known key: `nameLocalizations` in a wire body.
        const hint = toWire ? WIRE_TO_SDK_KEYS[key] : SDK_TO_WIRE_KEYS[key];
        // The hint is the key respelt: none for a secret key.
        const at = [...path, key];
        const hinted = hint !== undefined && hint !== key && !out.secrecy.covers(at);
        out.add(
          at,
          Codes.UNKNOWN_FIELD,
          `Unknown field ${out.quote(key, at)}${hinted ? `: did you mean "${hint}"?` : "."}`,
        );
      }
      continue;
    }
    const targetKey = toWire ? wireKey : (WIRE_TO_SDK_KEYS[wireKey] ?? wireKey);
    const child = childLevel(level, wireKey);
    if (child !== undefined && Array.isArray(value)) {
      result[targetKey] = value.map((item, i) =>
        convert(item, child, toWire, [...path, key, i], out),
      );
    } else if (isRecord(value)) {
      result[targetKey] = { ...value };
    } else if (Array.isArray(value)) {
      result[targetKey] = [...(value as unknown[])];
    } else result[targetKey] = value;
  }
  return result;
}

export function sdkToWire(args: SdkCommandArgs): WireCommandBody {
  return convert(args, "command", true, [], undefined) as WireCommandBody;
}

export function wireToSdk(cmd: WireCommandBody): SdkCommandArgs {
  return convert(cmd, "command", false, [], undefined) as SdkCommandArgs;
}

/** A wire path in SDK keys: `["options", 0, "name_localizations", "fr"]` -> camelCase keys. */
export function toSdkPath(path: Path): Path {
  return path.map((seg) => (typeof seg === "string" ? (WIRE_TO_SDK_KEYS[seg] ?? seg) : seg));
}

function toSdkIssues(issues: SchemaIssue[]): SchemaIssue[] {
  return issues.map((i) => ({ ...i, path: toSdkPath(i.path) }));
}

/** The keys the schema names (either spelling), the locales and the overwrites' keys. */
const SCHEMA_KEYS: ReadonlySet<string> = new Set([
  ...Object.entries(WIRE_TO_SDK_KEYS).flat(),
  ...Object.keys(PERMISSION_FIELD_DESCRIPTIONS),
  "permissions",
]);

/**
 * A path as messages show it (`options[0].nameLocalizations.fr`), where a key inside a
 * secret value that the schema does not name (a key the program chose: a map's key, a
 * misspelt field) shows as `[secret]`.
 */
export function shownPath(path: readonly PathSegment[], secrecy: Secrecy): string {
  if (!secrecy.any) return formatPath([...path]);
  return path
    .map((seg, i) => {
      if (typeof seg === "number") return `[${seg}]`;
      const hidden =
        !SCHEMA_KEYS.has(seg) && !isLocale(seg) && secrecy.covers(path.slice(0, i + 1));
      if (hidden) return SECRET_MARK;
      return i === 0 ? seg : `.${seg}`;
    })
    .join("");
}

/**
 * Validates a command as a Pulumi program declares it, for a create in `ctx.scope`.
 * Issue and warning paths are in SDK keys (`options[0].nameLocalizations.fr`); the value
 * is the wire body to send. Messages quote the values of `ctx.secrecy` (in SDK keys) as
 * `[secret]`.
 */
export function validateSdkCommand(
  args: unknown,
  ctx: { scope: WireContext["scope"]; secrecy?: Secrecy },
): Validation<WireCommandBody> {
  const secrecy = ctx.secrecy ?? Secrecy.NONE;
  const out = new IssueCollector(secrecy);
  const wire = convert(args, "command", true, [], out);
  const result = validateWireCommand(wire, {
    scope: ctx.scope,
    mode: "create",
    secrecy: secrecy.renamed((key) => SDK_TO_WIRE_KEYS[key] ?? key),
  });
  if (!result.ok || out.issues.length > 0) {
    return { ok: false, issues: [...out.issues, ...(result.ok ? [] : toSdkIssues(result.issues))] };
  }
  return { ok: true, value: result.value, warnings: toSdkIssues(result.warnings) };
}

/**
 * Validates a command body in the wire shape, such as discord.js builders' `toJSON()`
 * produces, for a create in `ctx.scope`: the same schema as every other input, with issue
 * paths in the body's own (wire) keys, and unknown keys reported (a camelCase key with
 * its wire spelling as the hint). The value is the command in the SDK's shape.
 */
export function validateWireBody(
  body: unknown,
  ctx: { scope: WireContext["scope"] },
): Validation<SdkCommandArgs> {
  const out = new IssueCollector();
  convert(body, "command", false, [], out); // for its unknown-key issues only
  const result = validateWireCommand(body, { scope: ctx.scope, mode: "create" });
  if (!result.ok || out.issues.length > 0) {
    return { ok: false, issues: [...out.issues, ...(result.ok ? [] : result.issues)] };
  }
  return { ok: true, value: wireToSdk(result.value), warnings: result.warnings };
}
