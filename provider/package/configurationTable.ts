/**
 * The configuration table of the Pulumi Registry's installation page
 * (docs/installation-configuration.md), from the package schema's configuration: each
 * setting under both front doors' namespaces, its environment variable, whether it is
 * secret, its type and its meaning. `npm run generate` writes it between the page's two
 * markers (the rest of the page is written by hand); a test fails when it is stale.
 */
import { CONFIG } from "./config";
import type { PackageSchema } from "./types";

export const TABLE_START =
  "<!-- The table below is generated from the package schema by `npm run generate`: do not edit. -->";
export const TABLE_END = "<!-- End of the generated table. -->";

/** The dynamic resources read the same settings under `discord:` (provider/resources/settings.ts). */
const DYNAMIC_NAMESPACE = "discord";

export function renderConfigurationTable(schema: PackageSchema): string {
  const rows = Object.entries(schema.config.variables).map(([key, variable]) => {
    const setting = CONFIG[key as keyof typeof CONFIG];
    const type = variable.type ?? "`per-command` or `bulk`";
    return [
      `\`${schema.name}:${key}\``,
      `\`${DYNAMIC_NAMESPACE}:${key}\``,
      `\`${setting.env}\``,
      variable.secret === true ? "yes" : "no",
      type,
      setting.description,
    ];
  });
  const header = [
    "Resource plugin",
    "Dynamic resources",
    "Environment variable",
    "Secret",
    "Type",
    "Meaning",
  ];
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/** `page` with the text between its markers replaced by the table. */
export function withConfigurationTable(page: string, schema: PackageSchema): string {
  const start = page.indexOf(TABLE_START);
  const end = page.indexOf(TABLE_END);
  if (start < 0 || end < start) {
    throw new Error(
      `the page lacks the markers of its configuration table:\n${TABLE_START}\n${TABLE_END}`,
    );
  }
  const table = renderConfigurationTable(schema);
  return `${page.slice(0, start + TABLE_START.length)}\n\n${table}\n\n${page.slice(end)}`;
}
