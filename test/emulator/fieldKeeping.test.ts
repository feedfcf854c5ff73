/**
 * The emulator keeps what the field table says the service keeps: for every command field
 * (provider/schema/fields.ts) and every write endpoint, a body that sets the field is
 * accepted by the emulator's rules and the field is applied (`keep`) or named as ignored
 * (`drop`), as the table's `acceptedIn`, `tolerated` and `keptIn` say; on a command type
 * outside the field's `onlyFor`, the emulator refuses it with the table's code. A new
 * field that the emulator's rules (emulator/rules/command.ts) forget fails here, naming
 * the field and what to add, before any refresh shows drift.
 */
import type { CommandField, Where } from "../../provider/schema";
import {
  COMMAND_FIELDS,
  COMMAND_TYPE_NAMES,
  endpointTreatment,
  typeRefusal,
  validateWireCommand,
  wireCommandBodySchema,
} from "../../provider/schema";
import type { Mode } from "../../emulator/rules/command";
import { validateCommandRequest } from "../../emulator/rules/command";
import { fieldSample } from "../helpers/fieldSamples";

const FIELDS = Object.keys(COMMAND_FIELDS) as CommandField[];
const WHERES: readonly Where[] = [
  "global:create",
  "global:edit",
  "global:bulk",
  "guild:create",
  "guild:edit",
  "guild:bulk",
];

/** The first command type the field is for, or CHAT_INPUT. */
function typeFor(field: CommandField): number {
  const only: { readonly types: readonly number[] } | undefined = (
    COMMAND_FIELDS[field] as { onlyFor?: { types: readonly number[] } }
  ).onlyFor;
  return only?.types[0] ?? 1;
}

/** A valid command of `type` that sets `field` to its sample value. */
function bodyWith(field: CommandField, type: number, mode: Mode): Record<string, unknown> {
  const body: Record<string, unknown> =
    mode === "edit"
      ? {}
      : { type, name: type === 1 ? "sample" : "Sample", description: "A sample" };
  if (mode !== "edit" && (type === 2 || type === 3)) delete body["description"];
  if (field !== "type" || mode !== "edit") body[field] = fieldSample(field);
  if (field === "type") body["type"] = type;
  return body;
}

const cases = FIELDS.flatMap((field) =>
  WHERES.map((where) => [field, where] as const).filter(
    ([f, where]) => !(typeFor(f) === 4 && where.startsWith("guild")),
  ),
);

describe("every field of the table, at every write endpoint", () => {
  test.each(cases)("%s at %s", (field, where) => {
    const [scope, mode] = where.split(":") as ["global" | "guild", Mode];
    const type = typeFor(field);
    const body = bodyWith(field, type, mode);
    const result = validateCommandRequest(body, { scope, mode, existingType: type });
    const treatment = endpointTreatment(field, where);
    if (!result.ok) {
      const issues = result.issues.map((i) => `${i.path.join(".")}: ${i.code}`).join("; ");
      throw new Error(
        `emulator/rules/command.ts refuses \`${field}\` = ${JSON.stringify(body[field])} at ${where} (${issues}); ` +
          `if the value is wrong, give the field a sample in test/helpers/fieldSamples.ts`,
      );
    }
    if (treatment === "keep" && field !== "type") {
      if (!Object.hasOwn(result.value, field)) {
        throw new Error(
          `emulator/rules/command.ts drops \`${field}\` at ${where}, which the field table (provider/schema/fields.ts) keeps: ` +
            `add a rule that checks its value and copies it into the command (as the booleans' list in \`checkAccess\`)`,
        );
      }
    }
    if (treatment === "drop") expect(result.ignored).toContain(field);
    if (treatment === undefined) expect(result.value[field]).toBeUndefined();
  });
});

describe("a field on a command type it is not for", () => {
  const restricted = FIELDS.filter((f) => typeFor(f) !== 1 || f === "options");
  test.each(restricted)(
    "%s is refused with the table's code, as the provider refuses it",
    (field) => {
      const type = typeFor(field) === 1 ? 2 : 1;
      const body = bodyWith(field, type, "create");
      const refusal = typeRefusal(field, type, body[field]);
      expect(refusal).toBeDefined();
      const result = validateCommandRequest(body, { scope: "global", mode: "create" });
      expect(result.ok ? [] : result.issues).toContainEqual({
        path: [field],
        code: refusal?.code,
        message: `${refusal?.rule}.`,
      });
      const provider = validateWireCommand(body, { scope: "global", mode: "create" });
      expect(provider.ok ? [] : provider.issues).toContainEqual({
        path: [field],
        code: refusal?.code,
        message: `${refusal?.rule}, not on ${COMMAND_TYPE_NAMES[type]}.`,
      });
    },
  );
});

test("the wire shape and the field table name the same fields", () => {
  const shape = Object.keys(wireCommandBodySchema.shape);
  expect([
    ...shape
      .filter((f) => !FIELDS.includes(f as CommandField))
      .map((f) => `provider/schema/fields.ts: add a row for \`${f}\` to COMMAND_FIELDS`),
    ...FIELDS.filter((f) => !shape.includes(f)).map(
      (f) => `provider/schema/shapes.ts: add \`${f}\`'s wire type to wireCommandBodySchema`,
    ),
  ]).toEqual([]);
  for (const field of FIELDS) expect(fieldSample(field)).toBeDefined();
});

describe("a wrong value of every field is refused by a rule of each side, not only by the shape", () => {
  /** An object is the wrong kind of value for every field but localizations, whose key it breaks. */
  const WRONG = { "not-a-locale": true };
  test.each(FIELDS)("%s", (field) => {
    const type = typeFor(field);
    const mode: Mode = field === "id" ? "bulk" : "create";
    const body = { ...bodyWith(field, type, mode), [field]: WRONG };
    const provider = validateWireCommand(body, { scope: "global", mode });
    const byRule = provider.ok
      ? []
      : provider.issues.filter((i) => i.path[0] === field && i.code !== "BASE_TYPE_INVALID");
    if (byRule.length === 0) {
      throw new Error(
        `provider/schema/command.ts: no check of \`${field}\` (a wrong value only meets the shape's parse, "Invalid value."): ` +
          `add one to checkCommand (checkBoolean, as nsfw)`,
      );
    }
    const emulator = validateCommandRequest(body, { scope: "global", mode });
    const refused = !emulator.ok && emulator.issues.some((i) => i.path[0] === field);
    if (!refused) {
      throw new Error(
        `emulator/rules/command.ts: no check of \`${field}\` (it takes ${JSON.stringify(body[field])}): ` +
          `add one (as the booleans' list in checkAccess)`,
      );
    }
  });
});
