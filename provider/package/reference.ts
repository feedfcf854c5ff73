/**
 * The package reference (docs/reference.md): the package schema's resources, types,
 * enums and configuration as Markdown, every description taken from the schema, and an
 * example of each resource in every language (referenceExamples.ts). Pure:
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
import type { ResourceExample, SdkImports } from "./referenceExamples";
import { referenceExamples } from "./referenceExamples";

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

/** The languages of an example, in the order shown, with their label and code fence. */
const EXAMPLE_LANGUAGES: readonly { key: keyof ResourceExample; label: string; fence: string }[] = [
  { key: "typescript", label: "TypeScript", fence: "typescript" },
  { key: "python", label: "Python", fence: "python" },
  { key: "go", label: "Go", fence: "go" },
  { key: "yaml", label: "YAML", fence: "yaml" },
];

function exampleLines(example: ResourceExample): string[] {
  const out = ["Example:", ""];
  for (const { key, label, fence } of EXAMPLE_LANGUAGES) {
    out.push(`**${label}**`, "", "```" + fence, example[key].trimEnd(), "```", "");
  }
  return out;
}

/** The SDKs' names as a program imports them, from the schema's `language` section. */
export function sdkImports(schema: PackageSchema): SdkImports {
  const get = (language: string, key: string): string => {
    const value = schema.language[language]?.[key];
    if (typeof value !== "string") throw new Error(`the schema has no language.${language}.${key}`);
    return value;
  };
  return {
    nodejs: get("nodejs", "packageName"),
    python: get("python", "packageName"),
    go: get("go", "importBasePath"),
  };
}

function resourceSection(tok: string, r: ResourceSpec, example: ResourceExample): string[] {
  const name = shortName(tok);
  const out = [`### ${name}`, "", `Token \`${tok}\`.`, "", r.description, ""];
  out.push(...exampleLines(example));
  if (Object.keys(r.inputProperties).length === 0) out.push("No inputs.", "");
  else out.push("Inputs:", "", ...propertyTable(r.inputProperties, r.requiredInputs), "");
  const outputs = Object.fromEntries(
    Object.entries(r.properties).filter(([k]) => !(k in r.inputProperties)),
  );
  const outputsRequired = r.required.filter((k) => k in outputs);
  const inputsRequiredAsOutputs = r.required.filter(
    (k) => k in r.inputProperties && !r.requiredInputs.includes(k),
  );
  const always =
    inputsRequiredAsOutputs.length === 0
      ? ""
      : ` (${inputsRequiredAsOutputs.map((k) => `\`${k}\``).join(", ")} always set)`;
  if (Object.keys(outputs).length === 0) {
    out.push(`Outputs: every input${always}.`, "");
    return out;
  }
  if (Object.keys(r.inputProperties).length > 0)
    out.push(`Outputs: every input${always}, and:`, "");
  else out.push("Outputs:", "");
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
      "and its number (`1`) in YAML. Each resource has an example in TypeScript (on the generated SDK), " +
      "Python, Go and YAML; the guides per language, and the TypeScript dynamic resources " +
      '(`import * as discord from "pulumi-discord-commands"`, whose names are the same), are in ' +
      "[the README](../README.md#install-and-a-first-program).",
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
  const examples = referenceExamples(sdkImports(schema));
  for (const [tok, r] of Object.entries(schema.resources)) {
    const example = examples[shortName(tok)];
    if (example === undefined) {
      throw new Error(
        `no example of ${shortName(tok)} for docs/reference.md: add one in every language to ` +
          "provider/package/referenceExamples.ts",
      );
    }
    lines.push(...resourceSection(tok, r, example));
  }
  lines.push("## Types", "");
  for (const [tok, t] of objects) lines.push(...objectSection(tok, t));
  lines.push("## Enums", "");
  for (const [tok, t] of enums) lines.push(...enumSection(tok, t));
  return lines.join("\n");
}
