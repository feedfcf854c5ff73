/**
 * Every option field of the table (provider/schema/fields.ts `OPTION_FIELDS`) is checked
 * by a rule on both sides and kept by the emulator: an option that sets it is kept in the
 * emulator's command, and a wrong value of it is refused by a rule of the provider
 * (provider/schema/option.ts) and of the emulator (emulator/rules/options.ts), not only by
 * the shape. A new option field one side forgets fails here, naming the file.
 */
import { OPTION_FIELDS, validateWireCommand, wireOptionSchema } from "../../provider/schema";
import { validateCommandRequest } from "../../emulator/rules/command";
import { optionSample } from "../helpers/fieldSamples";

const FIELDS = Object.keys(OPTION_FIELDS);
const command = (option: Record<string, unknown>) => ({
  name: "sample",
  description: "A sample",
  options: [option],
});

test("the wire shape and the option table name the same fields", () => {
  const shape = Object.keys(wireOptionSchema.shape);
  expect([
    ...shape
      .filter((f) => !FIELDS.includes(f))
      .map((f) => `provider/schema/fields.ts: add a row for \`${f}\` to OPTION_FIELDS`),
    ...FIELDS.filter((f) => !shape.includes(f)).map(
      (f) => `provider/schema/shapes.ts: add \`${f}\`'s wire type to wireOptionSchema`,
    ),
  ]).toEqual([]);
});

test.each(FIELDS)("%s: kept by the emulator, its wrong value refused by both sides", (field) => {
  const option = optionSample(field);
  const kept = validateCommandRequest(command(option), { scope: "global", mode: "create" });
  if (!kept.ok) {
    const issues = kept.issues.map((i) => `${i.path.join(".")}: ${i.code}`).join("; ");
    throw new Error(
      `emulator/rules/options.ts refuses the sample option for \`${field}\` (${issues})`,
    );
  }
  const stored = (kept.value["options"] as Record<string, unknown>[])[0] ?? {};
  if (!Object.hasOwn(stored, field)) {
    throw new Error(
      `emulator/rules/options.ts drops the option field \`${field}\`: add a rule that checks its value and copies it into the option`,
    );
  }
  const wrong = command({ ...option, [field]: { "not-a-locale": true } });
  const onField = (path: readonly (string | number)[]) =>
    path[0] === "options" && path[1] === 0 && path[2] === field;
  const provider = validateWireCommand(wrong, { scope: "global", mode: "create" });
  if (
    provider.ok ||
    !provider.issues.some((i) => onField(i.path) && i.code !== "BASE_TYPE_INVALID")
  ) {
    throw new Error(
      `provider/schema/option.ts: no check of the option field \`${field}\` (a wrong value only meets the shape's parse)`,
    );
  }
  const emulator = validateCommandRequest(wrong, { scope: "global", mode: "create" });
  if (emulator.ok || !emulator.issues.some((i) => onField(i.path))) {
    throw new Error(`emulator/rules/options.ts: no check of the option field \`${field}\``);
  }
});
