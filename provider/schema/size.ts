/**
 * The size rule (spec: "Limits", slash command size): at most 8000 characters summed over
 * the name, description and value of the command, its options (subcommands and groups
 * included) and their choices; with localizations only the longest variant of each field
 * (the default included) counts. Values count as their JSON text (`1.5` is 3 characters).
 *
 * Works on any value (fields of the wrong type count as 0), so the validator can report
 * the size together with every other issue.
 */
import { Limits } from "./constants";
import { charLength, isRecord } from "./issues";

function longest(value: unknown, localizations: unknown): number {
  let n = typeof value === "string" ? charLength(value) : 0;
  if (isRecord(localizations)) {
    for (const key in localizations) {
      const v = localizations[key];
      if (typeof v === "string") {
        const m = charLength(v);
        if (m > n) n = m;
      }
    }
  }
  return n;
}

function optionsSize(options: unknown): number {
  if (!Array.isArray(options)) return 0;
  let total = 0;
  for (const o of options) {
    if (!isRecord(o)) continue;
    total += longest(o["name"], o["name_localizations"]);
    total += longest(o["description"], o["description_localizations"]);
    const choices = o["choices"];
    if (Array.isArray(choices)) {
      for (const c of choices) {
        if (!isRecord(c)) continue;
        total += longest(c["name"], c["name_localizations"]);
        const v = c["value"];
        if (typeof v === "string") total += charLength(v);
        else if (typeof v === "number") total += String(v).length;
      }
    }
    total += optionsSize(o["options"]);
  }
  return total;
}

/** Size of a command body in characters, as the size rule counts it. */
export function commandSize(body: object): number {
  return sizeOfUnknown(body);
}

export function sizeOfUnknown(body: unknown): number {
  if (!isRecord(body)) return 0;
  return (
    longest(body["name"], body["name_localizations"]) +
    longest(body["description"], body["description_localizations"]) +
    optionsSize(body["options"])
  );
}

/**
 * The size of a command when it breaks the size rule, else undefined: the one comparison
 * with the limit, for the schema's check of a body and the emulator's check of the
 * command that a PATCH leaves behind.
 */
export function oversize(body: unknown): number | undefined {
  const size = sizeOfUnknown(body);
  return size > Limits.COMMAND_SIZE_MAX ? size : undefined;
}
