/**
 * The package reference (docs/reference.md): the package schema's resources, types,
 * enums and configuration as Markdown, every description taken from the schema. Pure:
 * `scripts/generate-package.ts` writes (and formats) it.
 */
import type {
  EnumTypeSpec,
  ObjectTypeSpec,
  PackageSchema,
  Properties,
  PropertySpec,
  ResourceSpec,
  TypeSpec,
} from "./types";

const TYPE_REF = /^#\/types\/[^:]+:[^:]+:(.+)$/;

function shortName(tok: string): string {
  return tok.slice(tok.lastIndexOf(":") + 1);
}

function anchor(name: string): string {
  return name.toLowerCase();
}

function typeText(t: TypeSpec): string {
  if (t.$ref !== undefined) {
    const name = TYPE_REF.exec(t.$ref)?.[1];
    if (name === undefined) throw new Error(`unexpected type reference ${t.$ref}`);
    return `[${name}](#${anchor(name)})`;
  }
  if (t.oneOf !== undefined) return t.oneOf.map(typeText).join(" or ");
  if (t.type === "array" && t.items !== undefined) return `list of ${typeText(t.items)}`;
  if (t.type === "object" && t.additionalProperties !== undefined) {
    return `map of ${typeText(t.additionalProperties)}`;
  }
  if (t.type === undefined) throw new Error("a type with neither type, $ref nor oneOf");
  return t.type;
}

/** A table cell: one line, no column breaks. */
function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
}

function notes(p: PropertySpec): string {
  const marks: string[] = [];
  if (p.secret === true) marks.push("**Secret.**");
  if (p.deprecationMessage !== undefined) marks.push(`**Deprecated:** ${p.deprecationMessage}`);
  return [p.description, ...marks].join(" ");
}

function propertyTable(
  props: Properties,
  required: readonly string[],
  head = { name: "Property", required: "Required" },
): string[] {
  const lines = [
    `| ${head.name} | Type | ${head.required} | Description |`,
    "| --- | --- | --- | --- |",
  ];
  for (const [name, p] of Object.entries(props)) {
    const req = required.includes(name) ? "yes" : "no";
    lines.push(`| \`${name}\` | ${cell(typeText(p))} | ${req} | ${cell(notes(p))} |`);
  }
  return lines;
}

const OUTPUT_HEAD = { name: "Property", required: "Always set" };

function resourceSection(tok: string, r: ResourceSpec): string[] {
  const name = shortName(tok);
  const out = [`### ${name}`, "", `Token \`${tok}\`.`, "", r.description, ""];
  if (Object.keys(r.inputProperties).length === 0) out.push("No inputs.", "");
  else out.push("Inputs:", "", ...propertyTable(r.inputProperties, r.requiredInputs), "");
  const outputs = Object.fromEntries(
    Object.entries(r.properties).filter(([k]) => !(k in r.inputProperties)),
  );
  const outputsRequired = r.required.filter((k) => k in outputs);
  const inputsRequiredAsOutputs = r.required.filter(
    (k) => k in r.inputProperties && !r.requiredInputs.includes(k),
  );
  if (Object.keys(r.inputProperties).length > 0) {
    const always =
      inputsRequiredAsOutputs.length === 0
        ? ""
        : ` (${inputsRequiredAsOutputs.map((k) => `\`${k}\``).join(", ")} always set)`;
    out.push(`Outputs: every input${always}, and:`, "");
  } else out.push("Outputs:", "");
  out.push(...propertyTable(outputs, outputsRequired, OUTPUT_HEAD), "");
  return out;
}

function objectSection(tok: string, t: ObjectTypeSpec): string[] {
  return [
    `### ${shortName(tok)}`,
    "",
    t.description,
    "",
    ...propertyTable(t.properties, t.required),
    "",
  ];
}

function enumSection(tok: string, t: EnumTypeSpec): string[] {
  const lines = [`### ${shortName(tok)}`, "", t.description, ""];
  lines.push("| Name | Value | Description |", "| --- | --- | --- |");
  for (const v of t.enum) {
    lines.push(`| \`${v.name}\` | \`${JSON.stringify(v.value)}\` | ${cell(v.description ?? "")} |`);
  }
  lines.push("");
  return lines;
}

export function renderReference(schema: PackageSchema, generatedBy: string): string {
  const types = Object.entries(schema.types);
  const objects = types.filter((e): e is [string, ObjectTypeSpec] => e[1].type === "object");
  const enums = types.filter((e): e is [string, EnumTypeSpec] => e[1].type !== "object");
  const lines = [
    `<!-- ${generatedBy} -->`,
    "",
    `# \`${schema.name}\` package reference`,
    "",
    `${schema.description} Version ${schema.version}.`,
    "",
    "The resources of the `" +
      schema.name +
      "` resource plugin, for programs in every language (generated SDKs in `sdks/`, or `pulumi package add`). " +
      "Names are as in the package schema (`plugin/schema.json`); each language spells them its own way " +
      "(Python `name_localizations`, Go `NameLocalizations`); an enum value `ChatInput` of `CommandType` is " +
      "`CommandType.CHAT_INPUT` in Python, `CommandTypeChatInput` in Go, `CommandType.ChatInput` in TypeScript, " +
      "and its number (`1`) in YAML.",
    "",
    "## Configuration",
    "",
    `Stack configuration \`${schema.name}:<key>\`, or the inputs of an explicit provider.`,
    "",
    `The package's TypeScript dynamic resources (\`import * as discord from "pulumi-discord-commands"\`) ` +
      "read the same settings from the stack configuration `discord:<key>` " +
      "(`pulumi config set --secret discord:botToken <token>`); the plugin reads only " +
      `\`${schema.name}:<key>\` (\`pulumi config set --secret ${schema.name}:botToken <token>\`). ` +
      "Every error and `fix:` line names the keys of the one in use, and " +
      "`discord-commands authorize` stores the user's tokens there (`--namespace` chooses).",
    "",
    schema.provider.description,
    "",
    ...propertyTable(schema.config.variables, [], { name: "Key", required: "Required" }),
    "",
    "## Resources",
    "",
  ];
  for (const [tok, r] of Object.entries(schema.resources)) lines.push(...resourceSection(tok, r));
  lines.push("## Types", "");
  for (const [tok, t] of objects) lines.push(...objectSection(tok, t));
  lines.push("## Enums", "");
  for (const [tok, t] of enums) lines.push(...enumSection(tok, t));
  return lines.join("\n");
}
