/**
 * `CommandSet`: one list of command definitions deployed to many scopes (the global scope
 * and/or guilds, each optionally of its own application), with permissions per guild by
 * command name. A component: one `ScopeCommands` child per scope (so the preview names the
 * scope, the command and the field of each change) and one `GuildCommandPermissions` per
 * permissions entry, whose command id follows the scope's: a rename makes a new id, and
 * the permissions are written again. The children come from provider/resources/
 * commandSetPlan.ts, which the plugin's component shares.
 */
import * as pulumi from "./pulumi";
import type { WirePermission } from "../provider/schema";
import type { SetPermissions, SetScope } from "../provider/resources/commandSetPlan";
import {
  definitionProblems,
  permissionsChildName,
  permissionsScope,
  scopeChildName,
  scopeCommandMap,
  scopeLabel,
  setStructureProblems,
} from "../provider/resources/commandSetPlan";
import { commandKey } from "../provider/resources/commandKeys";
import { commandRefField } from "../provider/resources/propertyBags";
import { Secrecy } from "../provider/schema";
import { secretPathsOf } from "./secretPaths";
import type {
  CommandDefinition,
  DeepInput,
  GuildCommandPermissionsArgs,
  UserAuthorization,
} from "./resources";
import {
  CommandSetScopes,
  DEFAULT_APPLICATION_ID,
  GuildCommandPermissions,
  ScopeCommands,
  withDependency,
} from "./resources";

export type CommandSetScope = SetScope;

export interface CommandSetPermissions extends SetPermissions {
  readonly permissions: pulumi.Input<DeepInput<WirePermission>[]>;
}

export interface CommandSetArgs {
  /** The definitions (every field of a command but its scope). */
  commands: pulumi.Input<pulumi.Input<CommandDefinition>[]>;
  /** Where to deploy them: `{}` is the global scope, `{ guildId }` a guild. */
  scopes: readonly CommandSetScope[];
  /** Permission overwrites per guild and command name (a user's Bearer token writes them). */
  permissions?: readonly CommandSetPermissions[];
  /** The kept user authorization the permission writes wait for. */
  authorization?: UserAuthorization;
  /**
   * Hold every scope in one resource (`CommandSetScopes`), the definitions once, instead of
   * one `ScopeCommands` per scope: for sets of many scopes, whose state and time it divides
   * by the number of scopes (docs/performance.md). The preview then shows a definition's
   * change once, and `--target` takes the whole set. Default false.
   */
  packed?: boolean;
}

export class CommandSet extends pulumi.ComponentResource {
  /**
   * The child of each scope, by label (`global`, a guild id; application-prefixed when
   * given); empty when the set is `packed`.
   */
  readonly scopes: Readonly<Record<string, ScopeCommands>>;
  /** The one child holding every scope, when the set is `packed`. */
  readonly packed: CommandSetScopes | undefined;
  /** The service's ids: scope label -> command key -> id. */
  readonly commandIds: pulumi.Output<Record<string, Record<string, string>>>;

  constructor(name: string, args: CommandSetArgs, opts?: pulumi.ComponentResourceOptions) {
    super("discord:index:CommandSet", name, {}, opts);
    const permissions = args.permissions ?? [];
    const problems = setStructureProblems(name, args.scopes, permissions);
    const definitions = pulumi.output(args.commands);
    if (problems.length > 0) throw new pulumi.RunError(problems.join("\n"));
    // Where the definitions' secrets are, by index: each scope's child is told them by key.
    const secrets = secretPathsOf(args.commands);

    const children: Record<string, ScopeCommands> = {};
    const idsOf: Record<string, pulumi.Output<Record<string, string>>> = {};
    this.packed = args.packed === true ? packedChild(this, name, args, definitions) : undefined;
    for (const scope of args.scopes) {
      const label = scopeLabel(scope);
      if (this.packed !== undefined) {
        idsOf[label] = this.packed.commandIds.apply((all) => all?.[label] ?? {});
        continue;
      }
      const plan = pulumi
        .all([definitions, secrets])
        .apply(([defs, paths]) =>
          scopeCommandMap(name, defs, scope, permissions, new Secrecy(paths)),
        );
      children[label] = new ScopeCommands(
        scopeChildName(name, scope),
        {
          ...(scope.guildId === undefined ? {} : { guildId: scope.guildId }),
          ...(scope.applicationId === undefined ? {} : { applicationId: scope.applicationId }),
          // Checked by the child's provider, with every field's path; the definitions'
          // problems (commandSetPlan.ts `definitionProblems`) fail its check too.
          commands: plan.apply((p) => p.commands as Record<string, CommandDefinition>),
        },
        { parent: this },
        plan.apply((p) => p.problems),
        plan.apply((p) => p.secretPaths),
      );
      idsOf[label] = (children[label] as ScopeCommands).commandIds;
    }
    for (const p of permissions) {
      const scope = permissionsScope(args.scopes, p) as SetScope;
      const holderIds = idsOf[scopeLabel(scope)] as pulumi.Output<Record<string, string>>;
      const key = commandKey(p.type, p.command);
      const childOpts: pulumi.CustomResourceOptions = { parent: this };
      const permissionsArgs: GuildCommandPermissionsArgs = {
        guildId: p.guildId,
        // The id is not secret, though the ids are when a key (a name) is.
        commandId: pulumi.unsecret(holderIds.apply((ids) => ids[key] ?? "")),
        // The identity the permissions follow (permissionsLifecycle.ts `sameCommandLive`).
        ...commandRefField({
          applicationId: scope.applicationId ?? DEFAULT_APPLICATION_ID(),
          guildId: scope.guildId,
          type: p.type,
          name: p.command,
        }),
        permissions: p.permissions,
        ...(p.applicationId === undefined ? {} : { applicationId: p.applicationId }),
      };
      new GuildCommandPermissions(
        permissionsChildName(name, p),
        permissionsArgs,
        args.authorization === undefined
          ? childOpts
          : withDependency(childOpts, args.authorization),
      );
    }
    this.scopes = children;
    this.commandIds = pulumi
      .all(Object.entries(idsOf).map(([label, ids]) => ids.apply((v) => [label, v])))
      .apply((pairs) => Object.fromEntries(pairs as [string, Record<string, string>][]));
    // A preview keeps no outputs, and registering them waits for every child: when another
    // resource's check fails the engine shuts its monitor down first, and from
    // @pulumi/pulumi 3.27x (a failed registration resolves unknown instead of rejecting)
    // this late RegisterResourceOutputs failed as an unhandled rejection whose log could
    // not be delivered either ("failed to deliver log message ... Channel has been shut
    // down" and a stack trace under the field error; CLI 3.274.1 with 3.276.0: 5 previews
    // of 15 before, 0 of 20 without it in a preview). So a preview registers none.
    if (!pulumi.isDryRun()) this.registerOutputs({ commandIds: this.commandIds });
  }
}

/**
 * A packed set's one child: the definitions once, their secret paths by index, and the
 * definitions' problems, which fail its check.
 */
function packedChild(
  set: CommandSet,
  name: string,
  args: CommandSetArgs,
  definitions: pulumi.Output<unknown[]>,
): CommandSetScopes {
  const secrets = secretPathsOf(args.commands, ["commands"]);
  const problems = pulumi
    .all([definitions, secretPathsOf(args.commands)])
    .apply(([defs, paths]) =>
      definitionProblems(name, defs, args.permissions ?? [], new Secrecy(paths)),
    );
  return new CommandSetScopes(
    `${name}-scopes`,
    { commands: args.commands, scopes: args.scopes },
    { parent: set },
    problems,
    secrets,
  );
}
