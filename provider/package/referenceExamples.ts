/**
 * A short example of each resource of the package, in every language a program may use
 * it from (TypeScript on the generated SDK, Python, Go, YAML), for the package reference
 * (docs/reference.md, rendered by reference.ts), as Pulumi's registry pages have. Pure
 * text; the SDKs' names (npm package, Python package, Go import path) come from the
 * schema. test/docs/reference.test.ts type-checks the TypeScript, runs the Python with
 * Pulumi's mocks, formats the Go with gofmt and checks the YAML's properties.
 */

/** The example of one resource, one program per language. */
export interface ResourceExample {
  readonly typescript: string;
  readonly python: string;
  readonly go: string;
  readonly yaml: string;
}

/** The names a program imports the SDK by, from the package schema's `language`. */
export interface SdkImports {
  readonly nodejs: string;
  readonly python: string;
  readonly go: string;
}

const GUILD = "1300000000000000002";
const ROLE = "1300000000000000004";

function lines(...text: string[]): string {
  return `${text.join("\n")}\n`;
}

/** A whole Go program around `body` (statements inside `pulumi.Run`, one tab deep). */
function goProgram(imports: SdkImports, body: string[]): string {
  return lines(
    "package main",
    "",
    "import (",
    '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
    "",
    `\tdiscord "${imports.go}"`,
    ")",
    "",
    "func main() {",
    "\tpulumi.Run(func(ctx *pulumi.Context) error {",
    ...body.map((l) => (l === "" ? "" : `\t\t${l}`)),
    "\t})",
    "}",
  );
}

const GO_CHECK = ["if err != nil {", "\treturn err", "}"];

/** The examples, by the resource's name in the schema (`GlobalCommand`, ...). */
export function referenceExamples(imports: SdkImports): Record<string, ResourceExample> {
  return {
    GlobalCommand: globalCommandExample(imports),
    GuildCommand: guildCommandExample(imports),
    GuildCommandPermissions: guildCommandPermissionsExample(imports),
    UserAuthorization: userAuthorizationExample(imports),
    ScopeCommands: scopeCommandsExample(imports),
    CommandSet: commandSetExample(imports),
  };
}

/** The first lines of a TypeScript and of a Python program on the SDK. */
function importLines(imports: SdkImports): { ts: string; py: string[] } {
  return {
    ts: `import * as discord from "${imports.nodejs}";`,
    py: [`import pulumi`, `import ${imports.python} as discord`],
  };
}

function globalCommandExample(imports: SdkImports): ResourceExample {
  const { ts, py } = importLines(imports);
  return {
    typescript: lines(
      ts,
      "",
      'const ping = new discord.GlobalCommand("ping", {',
      '  name: "ping",',
      '  description: "Check the bot",',
      '  descriptionLocalizations: { fr: "Vérifier le bot" },',
      "  contexts: [discord.InteractionContextType.Guild, discord.InteractionContextType.BotDm],",
      "});",
      "export const pingId = ping.commandId;",
    ),
    python: lines(
      ...py,
      "",
      "ping = discord.GlobalCommand(",
      '    "ping",',
      '    name="ping",',
      '    description="Check the bot",',
      '    description_localizations={"fr": "Vérifier le bot"},',
      "    contexts=[discord.InteractionContextType.GUILD, discord.InteractionContextType.BOT_DM],",
      ")",
      'pulumi.export("pingId", ping.command_id)',
    ),
    go: goProgram(imports, [
      'ping, err := discord.NewGlobalCommand(ctx, "ping", &discord.GlobalCommandArgs{',
      '\tName:                     pulumi.String("ping"),',
      '\tDescription:              pulumi.String("Check the bot"),',
      '\tDescriptionLocalizations: pulumi.StringMap{"fr": pulumi.String("Vérifier le bot")},',
      "\tContexts: discord.InteractionContextTypeArray{",
      "\t\tdiscord.InteractionContextTypeGuild, discord.InteractionContextTypeBotDm,",
      "\t},",
      "})",
      ...GO_CHECK,
      'ctx.Export("pingId", ping.CommandId)',
      "return nil",
    ]),
    yaml: lines(
      "resources:",
      "  ping:",
      "    type: discord-commands:GlobalCommand",
      "    properties:",
      "      name: ping",
      "      description: Check the bot",
      "      descriptionLocalizations:",
      "        fr: Vérifier le bot",
      "      contexts: [0, 1] # GUILD, BOT_DM",
      "outputs:",
      "  pingId: ${ping.commandId}",
    ),
  };
}

function guildCommandExample(imports: SdkImports): ResourceExample {
  const { ts, py } = importLines(imports);
  return {
    typescript: lines(
      ts,
      "",
      'const kick = new discord.GuildCommand("kick", {',
      `  guildId: "${GUILD}",`,
      '  name: "kick",',
      '  description: "Remove a member",',
      '  options: [{ type: discord.OptionType.User, name: "member", description: "Who", required: true }],',
      "});",
      "export const kickId = kick.commandId;",
    ),
    python: lines(
      ...py,
      "",
      "kick = discord.GuildCommand(",
      '    "kick",',
      `    guild_id="${GUILD}",`,
      '    name="kick",',
      '    description="Remove a member",',
      "    options=[discord.CommandOptionArgs(",
      '        type=discord.OptionType.USER, name="member", description="Who", required=True)],',
      ")",
      'pulumi.export("kickId", kick.command_id)',
    ),
    go: goProgram(imports, [
      'kick, err := discord.NewGuildCommand(ctx, "kick", &discord.GuildCommandArgs{',
      `\tGuildId:     pulumi.String("${GUILD}"),`,
      '\tName:        pulumi.String("kick"),',
      '\tDescription: pulumi.String("Remove a member"),',
      "\tOptions: discord.CommandOptionArray{discord.CommandOptionArgs{",
      '\t\tType: discord.OptionTypeUser, Name: pulumi.String("member"),',
      '\t\tDescription: pulumi.String("Who"), Required: pulumi.Bool(true),',
      "\t}},",
      "})",
      ...GO_CHECK,
      'ctx.Export("kickId", kick.CommandId)',
      "return nil",
    ]),
    yaml: lines(
      "resources:",
      "  kick:",
      "    type: discord-commands:GuildCommand",
      "    properties:",
      `      guildId: "${GUILD}"`,
      "      name: kick",
      "      description: Remove a member",
      "      options:",
      "        - type: 6 # USER",
      "          name: member",
      "          description: Who",
      "          required: true",
      "outputs:",
      "  kickId: ${kick.commandId}",
    ),
  };
}

function guildCommandPermissionsExample(imports: SdkImports): ResourceExample {
  const { ts } = importLines(imports);
  return {
    typescript: lines(
      ts,
      "",
      `const kick = new discord.GuildCommand("kick", { guildId: "${GUILD}", name: "kick", description: "Remove a member" });`,
      "// Only the moderators' role may use /kick; the command's id (not its commandId output)",
      "// stays known in the preview of an update, so the permissions are not replaced.",
      'new discord.GuildCommandPermissions("kickPermissions", {',
      `  guildId: "${GUILD}",`,
      "  commandId: kick.id,",
      "  permissions: [",
      `    { id: "${GUILD}", type: discord.PermissionType.Role, permission: false }, // @everyone`,
      `    { id: "${ROLE}", type: discord.PermissionType.Role, permission: true },`,
      "  ],",
      "});",
    ),
    python: lines(
      "import pulumi_discord_commands as discord",
      "",
      "kick = discord.GuildCommand(",
      `    "kick", guild_id="${GUILD}", name="kick", description="Remove a member")`,
      "# Only the moderators' role may use /kick (the @everyone role's id is the guild's).",
      "discord.GuildCommandPermissions(",
      '    "kickPermissions",',
      `    guild_id="${GUILD}",`,
      "    command_id=kick.id,",
      "    permissions=[",
      "        discord.PermissionOverwriteArgs(",
      `            id="${GUILD}", type=discord.PermissionType.ROLE, permission=False),`,
      "        discord.PermissionOverwriteArgs(",
      `            id="${ROLE}", type=discord.PermissionType.ROLE, permission=True),`,
      "    ],",
      ")",
    ),
    go: goProgram(imports, [
      'kick, err := discord.NewGuildCommand(ctx, "kick", &discord.GuildCommandArgs{',
      `\tGuildId: pulumi.String("${GUILD}"), Name: pulumi.String("kick"),`,
      '\tDescription: pulumi.String("Remove a member"),',
      "})",
      ...GO_CHECK,
      "// Only the moderators' role may use /kick (the @everyone role's id is the guild's).",
      '_, err = discord.NewGuildCommandPermissions(ctx, "kickPermissions", &discord.GuildCommandPermissionsArgs{',
      `\tGuildId:   pulumi.String("${GUILD}"),`,
      "\tCommandId: kick.ID().ToStringOutput(),",
      "\tPermissions: discord.PermissionOverwriteArray{",
      "\t\tdiscord.PermissionOverwriteArgs{",
      `\t\t\tId: pulumi.String("${GUILD}"), Type: discord.PermissionTypeRole, Permission: pulumi.Bool(false),`,
      "\t\t},",
      "\t\tdiscord.PermissionOverwriteArgs{",
      `\t\t\tId: pulumi.String("${ROLE}"), Type: discord.PermissionTypeRole, Permission: pulumi.Bool(true),`,
      "\t\t},",
      "\t},",
      "})",
      "return err",
    ]),
    yaml: lines(
      "resources:",
      "  kick:",
      "    type: discord-commands:GuildCommand",
      "    properties:",
      `      guildId: "${GUILD}"`,
      "      name: kick",
      "      description: Remove a member",
      "  kickPermissions:",
      "    type: discord-commands:GuildCommandPermissions",
      "    properties:",
      `      guildId: "${GUILD}"`,
      "      commandId: ${kick.id}",
      "      permissions:",
      `        - id: "${GUILD}" # @everyone`,
      "          type: 1 # ROLE",
      "          permission: false",
      `        - id: "${ROLE}"`,
      "          type: 1 # ROLE",
      "          permission: true",
    ),
  };
}

function userAuthorizationExample(imports: SdkImports): ResourceExample {
  const { ts, py } = importLines(imports);
  return {
    typescript: lines(
      ts,
      "",
      "// After `discord-commands authorize` stored the user's tokens in the stack's config.",
      'const authorization = new discord.UserAuthorization("authorization");',
      'new discord.GuildCommandPermissions("defaults", {',
      `  guildId: "${GUILD}",`,
      "  commandId: \"1300000000000000001\", // the application's id: every command's defaults",
      `  permissions: [{ id: "${ROLE}", type: discord.PermissionType.Role, permission: true }],`,
      "}, { dependsOn: [authorization] });",
    ),
    python: lines(
      ...py,
      "",
      "# After `discord-commands authorize` stored the user's tokens in the stack's config.",
      'authorization = discord.UserAuthorization("authorization")',
      "discord.GuildCommandPermissions(",
      '    "defaults",',
      `    guild_id="${GUILD}",`,
      "    command_id=\"1300000000000000001\",  # the application's id: every command's defaults",
      "    permissions=[discord.PermissionOverwriteArgs(",
      `        id="${ROLE}", type=discord.PermissionType.ROLE, permission=True)],`,
      "    opts=pulumi.ResourceOptions(depends_on=[authorization]),",
      ")",
    ),
    go: goProgram(imports, [
      "// After `discord-commands authorize` stored the user's tokens in the stack's config.",
      'authorization, err := discord.NewUserAuthorization(ctx, "authorization", nil)',
      ...GO_CHECK,
      '_, err = discord.NewGuildCommandPermissions(ctx, "defaults", &discord.GuildCommandPermissionsArgs{',
      `\tGuildId:   pulumi.String("${GUILD}"),`,
      "\tCommandId: pulumi.String(\"1300000000000000001\"), // the application's id: every command's defaults",
      "\tPermissions: discord.PermissionOverwriteArray{discord.PermissionOverwriteArgs{",
      `\t\tId: pulumi.String("${ROLE}"), Type: discord.PermissionTypeRole, Permission: pulumi.Bool(true),`,
      "\t}},",
      "}, pulumi.DependsOn([]pulumi.Resource{authorization}))",
      "return err",
    ]),
    yaml: lines(
      "# After `discord-commands authorize` stored the user's tokens in the stack's config.",
      "resources:",
      "  authorization:",
      "    type: discord-commands:UserAuthorization",
      "  defaults:",
      "    type: discord-commands:GuildCommandPermissions",
      "    properties:",
      `      guildId: "${GUILD}"`,
      "      commandId: \"1300000000000000001\" # the application's id: every command's defaults",
      "      permissions:",
      `        - id: "${ROLE}"`,
      "          type: 1 # ROLE",
      "          permission: true",
      "    options:",
      "      dependsOn:",
      "        - ${authorization}",
    ),
  };
}

function scopeCommandsExample(imports: SdkImports): ResourceExample {
  const { ts } = importLines(imports);
  return {
    typescript: lines(
      ts,
      "",
      "// Every command of one guild's scope that the stack manages, in one resource.",
      'new discord.ScopeCommands("test-guild", {',
      `  guildId: "${GUILD}", // left out: the global scope`,
      "  commands: {",
      '    ping: { name: "ping", description: "Check the bot" },',
      '    "user:Info": { type: discord.CommandType.User, name: "Info" },',
      "  },",
      "});",
    ),
    python: lines(
      "import pulumi_discord_commands as discord",
      "",
      "# Every command of one guild's scope that the stack manages, in one resource.",
      "discord.ScopeCommands(",
      '    "test-guild",',
      `    guild_id="${GUILD}",  # left out: the global scope`,
      "    commands={",
      '        "ping": discord.CommandDefinitionArgs(name="ping", description="Check the bot"),',
      '        "user:Info": discord.CommandDefinitionArgs(type=discord.CommandType.USER, name="Info"),',
      "    },",
      ")",
    ),
    go: goProgram(imports, [
      "// Every command of one guild's scope that the stack manages, in one resource.",
      '_, err := discord.NewScopeCommands(ctx, "test-guild", &discord.ScopeCommandsArgs{',
      `\tGuildId: pulumi.String("${GUILD}"), // left out: the global scope`,
      "\tCommands: discord.CommandDefinitionMap{",
      '\t\t"ping":      discord.CommandDefinitionArgs{Name: pulumi.String("ping"), Description: pulumi.String("Check the bot")},',
      '\t\t"user:Info": discord.CommandDefinitionArgs{Type: discord.CommandTypeUser, Name: pulumi.String("Info")},',
      "\t},",
      "})",
      "return err",
    ]),
    yaml: lines(
      "resources:",
      "  test-guild:",
      "    type: discord-commands:ScopeCommands",
      "    properties:",
      `      guildId: "${GUILD}" # left out: the global scope`,
      "      commands:",
      "        ping:",
      "          name: ping",
      "          description: Check the bot",
      "        user:Info:",
      "          type: 2 # USER",
      "          name: Info",
    ),
  };
}

function commandSetExample(imports: SdkImports): ResourceExample {
  const { ts } = importLines(imports);
  return {
    typescript: lines(
      ts,
      "",
      "// One list, deployed to a guild and to the global scope; /kick for moderators only.",
      'new discord.CommandSet("mods", {',
      '  commands: [{ name: "kick", description: "Remove a member" }],',
      `  scopes: [{ guildId: "${GUILD}" }, {}], // {} is the global scope`,
      "  permissions: [",
      "    {",
      `      guildId: "${GUILD}",`,
      '      command: "kick",',
      `      permissions: [{ id: "${ROLE}", type: discord.PermissionType.Role, permission: true }],`,
      "    },",
      "  ],",
      "});",
    ),
    python: lines(
      "import pulumi_discord_commands as discord",
      "",
      "# One list, deployed to a guild and to the global scope; /kick for moderators only.",
      "discord.CommandSet(",
      '    "mods",',
      '    commands=[discord.CommandDefinitionArgs(name="kick", description="Remove a member")],',
      `    scopes=[discord.CommandSetScopeArgs(guild_id="${GUILD}"), discord.CommandSetScopeArgs()],`,
      "    permissions=[discord.CommandSetPermissionsArgs(",
      `        guild_id="${GUILD}",`,
      '        command="kick",',
      "        permissions=[discord.PermissionOverwriteArgs(",
      `            id="${ROLE}", type=discord.PermissionType.ROLE, permission=True)],`,
      "    )],",
      ")",
    ),
    go: goProgram(imports, [
      "// One list, deployed to a guild and to the global scope; /kick for moderators only.",
      '_, err := discord.NewCommandSet(ctx, "mods", &discord.CommandSetArgs{',
      "\tCommands: discord.CommandDefinitionArray{discord.CommandDefinitionArgs{",
      '\t\tName: pulumi.String("kick"), Description: pulumi.String("Remove a member"),',
      "\t}},",
      "\tScopes: discord.CommandSetScopeArray{",
      `\t\tdiscord.CommandSetScopeArgs{GuildId: pulumi.String("${GUILD}")},`,
      "\t\tdiscord.CommandSetScopeArgs{}, // the global scope",
      "\t},",
      "\tPermissions: discord.CommandSetPermissionsArray{discord.CommandSetPermissionsArgs{",
      `\t\tGuildId: pulumi.String("${GUILD}"),`,
      '\t\tCommand: pulumi.String("kick"),',
      "\t\tPermissions: discord.PermissionOverwriteArray{discord.PermissionOverwriteArgs{",
      `\t\t\tId: pulumi.String("${ROLE}"), Type: discord.PermissionTypeRole, Permission: pulumi.Bool(true),`,
      "\t\t}},",
      "\t}},",
      "})",
      "return err",
    ]),
    yaml: lines(
      "resources:",
      "  mods:",
      "    type: discord-commands:CommandSet",
      "    properties:",
      "      commands:",
      "        - name: kick",
      "          description: Remove a member",
      "      scopes:",
      `        - guildId: "${GUILD}"`,
      "        - {} # the global scope",
      "      permissions:",
      `        - guildId: "${GUILD}"`,
      "          command: kick",
      "          permissions:",
      `            - id: "${ROLE}"`,
      "              type: 1 # ROLE",
      "              permission: true",
    ),
  };
}
