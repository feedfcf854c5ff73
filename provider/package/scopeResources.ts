/**
 * The scope-wide resources of the package: `ScopeCommands` (one scope's commands by key)
 * and the `CommandSet` component (one list of definitions deployed to many scopes, with
 * permissions by command name).
 */
import { commandDefinitionType } from "./commandResources";
import { token } from "./names";
import { add, APPLICATION_DEFAULT, resource, side } from "./resourceSpec";
import type { Side } from "./resourceSpec";
import type { PropertySpec, ResourceSpec } from "./types";
import type { TypeCollector } from "./wireTypes";

export function scopeCommandsResource(types: TypeCollector): ResourceSpec {
  const definition = commandDefinitionType(types);
  const inputs = side();
  add(
    inputs,
    "guildId",
    {
      type: "string",
      description:
        "The guild whose commands these are; absent: the application's global scope. Changing it replaces the resource (new commands there, these deleted).",
      replaceOnChanges: true,
    },
    false,
  );
  add(
    inputs,
    "commands",
    {
      type: "object",
      additionalProperties: definition,
      description:
        'The commands by key: the command\'s name, prefixed "user:", "message:" or "entry_point:" for those types (a slash command `ban` is `ban`, a user command `Info` is `user:Info`). A key added creates that command, a key removed deletes it (a rename is both: a new id), a definition changed edits only its changed fields. Commands of the scope that no key names are never touched.',
    },
    true,
  );
  add(
    inputs,
    "applicationId",
    {
      type: "string",
      description:
        "The application whose commands these are." +
        APPLICATION_DEFAULT +
        " Changing it replaces the resource.",
      replaceOnChanges: true,
    },
    false,
  );
  const outputs: Side = { properties: { ...inputs.properties }, required: [...inputs.required] };
  add(outputs, "applicationId", outputs.properties["applicationId"] as PropertySpec, true);
  add(
    outputs,
    "commandIds",
    {
      type: "object",
      additionalProperties: { type: "string" },
      description: "The service's id of each command, by key.",
    },
    true,
  );
  return resource(
    "The commands this stack manages in one scope (the global scope, or one guild), as one resource. Created with one list read and one bulk overwrite whatever their number (commands already as declared are taken over with no write); two or fewer changes are one request each (an edit of the changed fields, a create, a delete); more are one bulk overwrite built from a list read right before it. Every command of the scope that `commands` does not name is carried unchanged. The preview names each command and field that changes. Import id: `<guildId>`, `global`, `<applicationId>/<guildId>` or `<applicationId>/global` (every command of the scope comes under management).",
    inputs,
    outputs,
  );
}

export function commandSetResource(types: TypeCollector): ResourceSpec {
  const definition = commandDefinitionType(types);
  const scopeType = commandSetScopeType(types);
  const permissionsType = commandSetPermissionsType(types);
  const inputs = side();
  add(
    inputs,
    "commands",
    {
      type: "array",
      items: definition,
      description: "The definitions: every field of a command but its scope.",
    },
    true,
  );
  add(
    inputs,
    "scopes",
    {
      type: "array",
      items: { $ref: `#/types/${scopeType}` },
      description:
        "Where to deploy the definitions: one `ScopeCommands` child each (`<name>-<guildId>`, `<name>-global`), or every scope in one child when `packed`. Adding a scope creates its commands, removing one deletes only them.",
    },
    true,
  );
  add(
    inputs,
    "permissions",
    {
      type: "array",
      items: { $ref: `#/types/${permissionsType}` },
      description:
        "Permission overwrites per guild and command name: one `GuildCommandPermissions` child each.",
    },
    false,
  );
  add(
    inputs,
    "packed",
    {
      type: "boolean",
      description:
        "Hold every scope in one child resource (`CommandSetScopes`, `<name>-scopes`), the definitions once, instead of one `ScopeCommands` per scope: for sets of many scopes, whose state and time it divides by the number of scopes. The preview then shows a definition's change once, at its place in `commands`, and `--target` takes the whole set. Default false.",
    },
    false,
  );
  const outputs = side();
  add(
    outputs,
    "commandIds",
    {
      type: "object",
      additionalProperties: { type: "object", additionalProperties: { type: "string" } },
      description: "The service's ids: scope label (`global`, a guild id) -> command key -> id.",
    },
    true,
  );
  return {
    ...resource(
      "One list of command definitions deployed to many scopes (the global scope and/or guilds, each optionally of its own application), with permissions per guild by command name. A component: one `ScopeCommands` per scope, so the preview names the scope, the command and the field of every change (or, `packed`, one `CommandSetScopes` for every scope), and one `GuildCommandPermissions` per permissions entry, whose command id follows the scope's (a rename is a new id: its permissions are written again). A guild's copy leaves out `contexts`, `integrationTypes` and `dmPermission`. Checked at preview: a definition twice, a scope twice, permissions for an unreached guild.",
      inputs,
      outputs,
    ),
    isComponent: true,
  };
}

/** `CommandSetScope`: where a command set is deployed (a guild, or the global scope). */
function commandSetScopeType(types: TypeCollector): string {
  const scopeType = token("CommandSetScope");
  types.types.set(scopeType, {
    type: "object",
    description:
      "A scope a command set is deployed to: a guild, or (without `guildId`) the global scope.",
    properties: {
      guildId: {
        type: "string",
        description: "The guild; absent: the application's global scope.",
      },
      applicationId: {
        type: "string",
        description: "The application whose commands these are." + APPLICATION_DEFAULT,
      },
    },
    required: [],
  });
  return scopeType;
}

/** `CommandSetPermissions`: one command's overwrites in one guild, by the command's name. */
function commandSetPermissionsType(types: TypeCollector): string {
  const permissionsType = token("CommandSetPermissions");
  types.types.set(permissionsType, {
    type: "object",
    description:
      "The permission overwrites of one command of the set in one guild (written with a user's Bearer token). The command is the guild's copy when the set is deployed to that guild, else the global one.",
    properties: {
      guildId: { type: "string", description: "The guild the overwrites apply in." },
      command: { type: "string", description: "The command's name." },
      type: {
        type: "integer",
        description:
          "The command's type when not CHAT_INPUT (a user command may share a slash command's name).",
      },
      applicationId: {
        type: "string",
        description: "The application of the scope that holds the command." + APPLICATION_DEFAULT,
      },
      permissions: {
        type: "array",
        items: { $ref: `#/types/${token("PermissionOverwrite")}` },
        description: "The overwrites, at most 100.",
      },
    },
    required: ["guildId", "command", "permissions"],
  });
  return permissionsType;
}
