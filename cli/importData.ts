/** The import's declarations as data: as they are, and as Pulumi's bulk import file. */
import type { ImportDeclarations } from "./importDeclarations";

/** The declarations as data (`--format json`). */
export function renderJson(decls: ImportDeclarations): string {
  return `${JSON.stringify(decls, null, 2)}\n`;
}

/**
 * Pulumi's bulk import file (`--format pulumi-import`, for `pulumi import --file`): every
 * declaration as a resource of the plugin, by the import id its Read takes
 * (provider/plugin/resources.ts), so Pulumi itself writes the code in the project's
 * language and records the state. Ids name the application, so they hold whatever the
 * provider's default application is.
 */
export function renderPulumiImport(decls: ImportDeclarations): string {
  const app = decls.applicationId;
  const resources = [
    ...decls.commands.map((c) => {
      const guildId = (c.args as Record<string, unknown>)["guildId"];
      const id =
        c.resource === "GuildCommand" && typeof guildId === "string"
          ? `${app}/${guildId}/${c.commandId}`
          : `${app}/${c.commandId}`;
      return { type: `discord-commands:index:${c.resource}`, name: c.resourceName, id };
    }),
    ...decls.permissions.map((p) => ({
      type: "discord-commands:index:GuildCommandPermissions",
      name: p.resourceName,
      id: `${app}/${p.guildId}/${p.commandId}`,
    })),
  ];
  return `${JSON.stringify({ resources }, null, 2)}\n`;
}
