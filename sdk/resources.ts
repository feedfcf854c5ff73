/**
 * The resource classes a Pulumi program declares: `GlobalCommand`, `GuildCommand`,
 * `GuildCommandPermissions`, `ScopeCommands` and `UserAuthorization`. The commands'
 * argument types are derived from the schema's SDK shape (`provider/schema/mapping.ts`),
 * never written twice.
 */
import * as pulumi from "./pulumi";
import type { GlobalOnlyKey, Scope, SdkCommandArgs, WirePermission } from "../provider/schema";
import { commandKey } from "../provider/resources/commandKeys";
import { formatPath, validateWireBody } from "../provider/schema";
import type { ProviderKind } from "./providerModule";
import { serializedProvider, typeToken } from "./providerModule";
import { refusePlaintextCredentials } from "./credentials";
import { inTurn } from "./registrationOrder";
import type { Path } from "../provider/resources/propertyBags";
import {
  claimantField,
  DYNAMIC_PROVIDER_KEY,
  PROGRAM_PROBLEMS_KEY,
  programProblemsField,
  updatingField,
  secretPathsField,
} from "../provider/resources/propertyBags";
import { secretPathsOf } from "./secretPaths";
import { suspendPromiseStacks, withStack } from "./debugStacks";

/**
 * A value of type `T` as a program may give it: at every depth (an option, its choices, a
 * localization, a permissions entry) a plain value, a Promise or an Output, so a nested
 * `pulumi.secret(...)` or another resource's output type-checks; `undefined` where `T`
 * allows it. The provider keeps every nested secret secret.
 */
export type DeepInput<T> = pulumi.Input<DeepFields<Exclude<T, undefined>>> | Extract<T, undefined>;

type DeepFields<T> = T extends string | number | boolean | bigint | null
  ? T
  : T extends readonly (infer E)[]
    ? DeepInput<E>[]
    : { [K in keyof T]: DeepInput<T[K]> };

/** Every field of `T` accepts a `DeepInput`. */
export type Inputs<T> = {
  [K in keyof T]: DeepInput<T[K]>;
};

/** Fields that only global commands have (the field table's `keptIn`). */
type GlobalOnly = GlobalOnlyKey;

export type GlobalCommandArgs = Inputs<SdkCommandArgs> & {
  /** The application that owns the command; default: stack config `discord:applicationId`. */
  applicationId?: pulumi.Input<string>;
};

export type GuildCommandArgs = Inputs<Omit<SdkCommandArgs, GlobalOnly>> & {
  /** The guild whose scope holds the command. */
  guildId: pulumi.Input<string>;
  applicationId?: pulumi.Input<string>;
};

export interface GuildCommandPermissionsArgs {
  /** The guild the overwrites apply in. */
  guildId: pulumi.Input<string>;
  /** A command's id, or the application id for the app-wide defaults. */
  commandId: pulumi.Input<string>;
  /** At most 100 overwrites: `{ id, type: ROLE=1 | USER=2 | CHANNEL=3, permission }`. */
  permissions: pulumi.Input<DeepInput<WirePermission>[]>;
  applicationId?: pulumi.Input<string>;
  /**
   * The `UserAuthorization` that keeps the Bearer token alive across runs: the write
   * waits for it (a dependency), so it uses the token it refreshed.
   */
  authorization?: UserAuthorization;
}

/** The application of a resource that names none: the stack's, as the provider's default. */
export const DEFAULT_APPLICATION_ID = (): string | undefined =>
  new pulumi.Config("discord").get("applicationId") ?? process.env["DISCORD_APPLICATION_ID"];

/** An Output's value as a plain promise: it carries no dependency on the Output's resources. */
function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => {
    output.apply((value) => {
      resolve(value);
      return value;
    });
  });
}

/**
 * The URN the engine gives the resource (Pulumi's `createUrn`): what the provider's
 * program-wide checks tell it from every other resource by, two of one name under
 * different parents included; the dynamic-provider host's `check` is not told the URN.
 * From the parent's URN as a plain promise: an input that carried the parent's Output
 * would make the resource depend on its parent, and so, for a component, on every child
 * of it, itself included. The SDK awaits the parent's URN before it registers the
 * resource anyway, so this waits for nothing more; a parent that fails to register never
 * gives one, and the engine fails the deployment then (verified: two components of one
 * URN, each with a command, end the preview with "Duplicate resource URN").
 */
function claimantUrn(
  type: string,
  name: string,
  parent: pulumi.Resource | undefined,
): Promise<string> {
  const parentUrn = parent === undefined ? Promise.resolve(undefined) : valueOf(parent.urn);
  return parentUrn.then((urn) => valueOf(pulumi.createUrn(name, typeToken(type), urn)));
}

/**
 * The SDK arguments of a wire body (`toJSON()` of a discord.js `SlashCommandBuilder` or
 * `ContextMenuCommandBuilder`), validated with the one schema; a failure throws in the
 * program, naming the resource and each field (in the body's keys).
 */
function argsFromJSON(resource: string, name: string, body: unknown, scope: Scope): SdkCommandArgs {
  const result = validateWireBody(body, { scope });
  if (result.ok) return result.value;
  const lines = result.issues.map(
    (i) => `  ${formatPath(i.path) || "(command)"}: ${i.message} (${i.code})`,
  );
  throw new Error(`${resource}.fromJSON("${name}"): invalid command body:\n${lines.join("\n")}`);
}

/**
 * Every resource of this package: refused while a credential is plain-text stack config
 * (credentials.ts), and constructed without Pulumi's per-promise debug stacks
 * (debugStacks.ts); the one place that says so.
 */
abstract class PackageResource extends pulumi.CustomResource {
  protected constructor(
    type: string,
    name: string,
    props: pulumi.Inputs,
    opts: pulumi.CustomResourceOptions | undefined,
  ) {
    refusePlaintextCredentials();
    const restore = suspendPromiseStacks();
    try {
      super(typeToken(type), name, props, opts);
    } catch (err) {
      throw withStack(err, restore);
    } finally {
      restore();
    }
  }
}

abstract class CommandResource extends PackageResource {
  /**
   * The command's id, assigned by the service: the resource's `id` itself. Not the output
   * property of the same name: in the preview of an in-place update the engine knows the
   * id (an update keeps it) but none of the outputs the provider sets (the dynamic
   * provider host does not preview updates, so the engine hands back the inputs as
   * outputs), and a `GuildCommandPermissions` fed an unknown `commandId` would show a
   * replacement that `up` does not make. A create or a replacement leaves the id unknown,
   * so a rename still shows its permissions written again.
   */
  readonly commandId: pulumi.Output<string>;
  /** Changes whenever the service records a substantial change of the command. */
  declare readonly version: pulumi.Output<string>;
  declare readonly applicationId: pulumi.Output<string>;
  /** True when `create` found a command of the same name and took it over. */
  declare readonly adopted: pulumi.Output<boolean>;
  declare readonly name: pulumi.Output<string>;
  declare readonly type: pulumi.Output<number | undefined>;

  protected constructor(
    kind: ProviderKind,
    type: string,
    name: string,
    args: Record<string, unknown>,
    guildId: pulumi.Input<string> | undefined,
    opts: pulumi.CustomResourceOptions | undefined,
  ) {
    const applicationId =
      (args["applicationId"] as pulumi.Input<string> | undefined) ?? DEFAULT_APPLICATION_ID();
    const props: pulumi.Inputs = {
      ...args,
      applicationId,
      // The URN the program-wide checks know the resource by, in the provider's `check`
      // (dynamicProviders.ts), which takes it out of the inputs; held for its turn
      // (registrationOrder.ts).
      ...claimantField(
        inTurn(
          claimantUrn(type, name, opts?.parent),
          applicationId,
          guildId,
          pulumi.all([args["type"], args["name"]]),
        ),
      ),
      [DYNAMIC_PROVIDER_KEY]: serializedProvider(kind),
      // Where the secrets are (not what): the provider's messages quote them as `[secret]`.
      ...secretPathsField(secretPathsOf(args)),
      // Outputs only the provider sets: unknown in the preview of a create or an update.
      // `commandId` (also among the state's outputs) is taken from `id` below.
      version: undefined,
      adopted: undefined,
    };
    super(type, name, props, opts);
    this.commandId = this.id;
  }
}

/** A command in the application's global scope (every guild that adds the app, and DMs). */
export class GlobalCommand extends CommandResource {
  declare readonly dmPermission: pulumi.Output<boolean | undefined>;
  declare readonly contexts: pulumi.Output<number[] | undefined>;
  declare readonly integrationTypes: pulumi.Output<number[] | undefined>;

  constructor(name: string, args: GlobalCommandArgs, opts?: pulumi.CustomResourceOptions) {
    super("globalCommand", "GlobalCommand", name, { ...args }, undefined, opts);
  }

  /**
   * A global command from the wire body that discord.js builders produce
   * (`new SlashCommandBuilder()...toJSON()`), validated like any declaration.
   */
  static fromJSON(
    name: string,
    body: unknown,
    opts?: pulumi.CustomResourceOptions,
    args: { applicationId?: pulumi.Input<string> } = {},
  ): GlobalCommand {
    const command = argsFromJSON("GlobalCommand", name, body, "global");
    return new GlobalCommand(name, { ...command, ...args }, opts);
  }
}

/** A command in one guild's scope; takes effect in that guild at once. */
export class GuildCommand extends CommandResource {
  declare readonly guildId: pulumi.Output<string>;

  constructor(name: string, args: GuildCommandArgs, opts?: pulumi.CustomResourceOptions) {
    super("guildCommand", "GuildCommand", name, { ...args }, args.guildId, opts);
  }

  /**
   * A guild command from the wire body that discord.js builders produce, validated like
   * any declaration; `args` names the guild (and the application, if not the default).
   */
  static fromJSON(
    name: string,
    body: unknown,
    args: { guildId: pulumi.Input<string>; applicationId?: pulumi.Input<string> },
    opts?: pulumi.CustomResourceOptions,
  ): GuildCommand {
    const command = argsFromJSON("GuildCommand", name, body, "guild");
    return new GuildCommand(name, { ...(command as GuildCommandArgs), ...args }, opts);
  }
}

/**
 * The permission overwrites of one command in one guild, or, with the application id as
 * `commandId`, the app-wide defaults for commands without their own. Needs a user's
 * Bearer token (`discord:bearerToken`). Destroying it empties the list.
 */
export class GuildCommandPermissions extends PackageResource {
  declare readonly guildId: pulumi.Output<string>;
  declare readonly commandId: pulumi.Output<string>;
  declare readonly applicationId: pulumi.Output<string>;
  declare readonly permissions: pulumi.Output<WirePermission[]>;

  constructor(
    name: string,
    args: GuildCommandPermissionsArgs,
    opts?: pulumi.CustomResourceOptions,
  ) {
    const { authorization, ...rest } = args;
    const props: pulumi.Inputs = {
      ...rest,
      applicationId: args.applicationId ?? DEFAULT_APPLICATION_ID(),
      [DYNAMIC_PROVIDER_KEY]: serializedProvider("guildCommandPermissions"),
      ...secretPathsField(secretPathsOf(rest)),
    };
    super(
      "GuildCommandPermissions",
      name,
      props,
      authorization === undefined ? opts : withDependency(opts, authorization),
    );
  }
}

/** A command's definition without its scope (the fields a `ScopeCommands` or `CommandSet` holds). */
export type CommandDefinition = Inputs<SdkCommandArgs>;

export interface ScopeCommandsArgs {
  /** Absent: the application's global scope. */
  guildId?: pulumi.Input<string>;
  applicationId?: pulumi.Input<string>;
  /**
   * The commands by key: the name, prefixed `user:`, `message:` or `entry_point:` for
   * those types (`commandKey`). The preview names the key of each command that changes.
   */
  commands: pulumi.Input<Record<string, pulumi.Input<CommandDefinition>>>;
}

/**
 * The commands this stack manages in one scope, as one resource: created with one list
 * GET and one bulk overwrite whatever their number, changed one request per command when
 * two or fewer change (else one overwrite built from a list read right before it), and
 * never touching the scope's other commands. `CommandSet` deploys one per scope.
 */
export class ScopeCommands extends PackageResource {
  /** The service's id of each command, by key. */
  declare readonly commandIds: pulumi.Output<Record<string, string>>;
  declare readonly applicationId: pulumi.Output<string>;
  declare readonly guildId: pulumi.Output<string | undefined>;
  declare readonly commands: pulumi.Output<Record<string, SdkCommandArgs>>;

  /**
   * @param setProblems problems its `CommandSet` found in the definitions (checked with the rest).
   * @param setSecretPaths where its `CommandSet` found secrets in `commands` (by key), in
   * place of those of `args` (a set's `commands` is one Output, secret as a whole when any
   * definition holds a secret).
   */
  constructor(
    name: string,
    args: ScopeCommandsArgs,
    opts?: pulumi.CustomResourceOptions,
    setProblems?: pulumi.Input<readonly string[]>,
    setSecretPaths?: pulumi.Input<Path[]>,
  ) {
    const applicationId = args.applicationId ?? DEFAULT_APPLICATION_ID();
    const problems = pulumi
      .output(setProblems ?? [])
      .apply((s) => programProblemsField(s)[PROGRAM_PROBLEMS_KEY]);
    super(
      "ScopeCommands",
      name,
      {
        ...args,
        applicationId,
        // Present only when its set found problems: `check` reports them.
        [PROGRAM_PROBLEMS_KEY]: problems,
        // An update's write checks the scope's caps against the list it reads anyway.
        ...updatingField(!pulumi.isDryRun()),
        ...secretPathsField(secretPathsOfScope(args, setSecretPaths)),
        ...claimantField(
          inTurn(
            claimantUrn("ScopeCommands", name, opts?.parent),
            applicationId,
            args.guildId,
            args.commands,
          ),
        ),
        [DYNAMIC_PROVIDER_KEY]: serializedProvider("scopeCommands"),
        commandIds: undefined,
      },
      opts,
    );
  }
}

/** Where a packed set deploys (commandSetPlan.ts `SetScope`): `{}` is the global scope. */
export interface CommandSetScopesArgs {
  /** The definitions, once for every scope. */
  commands: pulumi.Input<pulumi.Input<CommandDefinition>[]>;
  /** Where to deploy them: `{}` is the global scope, `{ guildId }` a guild. */
  scopes: readonly {
    readonly guildId?: string | undefined;
    readonly applicationId?: string | undefined;
  }[];
  /** The application of the scopes that name none; default: the stack's. */
  applicationId?: pulumi.Input<string>;
}

/**
 * Every scope of a packed `CommandSet` as one resource: the definitions held once, each
 * scope's ids (and drift) beside them, the scopes written at once
 * (provider/resources/commandSetScopesLifecycle.ts). `CommandSet` with `packed: true`
 * declares it.
 */
export class CommandSetScopes extends PackageResource {
  /** The service's ids: scope label -> command key -> id. */
  declare readonly commandIds: pulumi.Output<Record<string, Record<string, string>>>;

  /**
   * @param setProblems problems its `CommandSet` found in the definitions (checked with the rest).
   * @param secretPaths where the definitions hold secrets (`["commands", index, ...]`).
   */
  constructor(
    name: string,
    args: CommandSetScopesArgs,
    opts: pulumi.CustomResourceOptions | undefined,
    setProblems: pulumi.Input<readonly string[]>,
    secretPaths: pulumi.Input<Path[]>,
  ) {
    const applicationId = args.applicationId ?? DEFAULT_APPLICATION_ID();
    const problems = pulumi
      .output(setProblems)
      .apply((s) => programProblemsField(s)[PROGRAM_PROBLEMS_KEY]);
    const commands = pulumi.output(args.commands);
    super(
      "CommandSetScopes",
      name,
      {
        commands,
        scopes: args.scopes.map((s) => ({ ...s })),
        applicationId,
        [PROGRAM_PROBLEMS_KEY]: problems,
        ...updatingField(!pulumi.isDryRun()),
        ...secretPathsField(pulumi.unsecret(pulumi.output(secretPaths))),
        ...claimantField(
          inTurn(
            claimantUrn("CommandSetScopes", name, opts?.parent),
            applicationId,
            undefined,
            commands,
          ),
        ),
        [DYNAMIC_PROVIDER_KEY]: serializedProvider("commandSetScopes"),
        commandIds: undefined,
      },
      opts,
    );
  }
}

export { commandKey };

/**
 * A `ScopeCommands`' secret paths: its set's for `commands`, when a set declared it (not
 * secret themselves: a set names no secret key in them, scopeCommandMap in
 * provider/resources/commandSetPlan.ts).
 */
function secretPathsOfScope(
  args: ScopeCommandsArgs,
  setSecretPaths: pulumi.Input<Path[]> | undefined,
): pulumi.Input<Path[]> {
  if (setSecretPaths === undefined) return secretPathsOf(args);
  const { commands: _commands, ...rest } = args;
  return pulumi.unsecret(
    pulumi.all([secretPathsOf(rest), setSecretPaths]).apply(([own, set]) => [...own, ...set]),
  );
}

export function withDependency(
  opts: pulumi.CustomResourceOptions | undefined,
  resource: pulumi.Resource,
): pulumi.CustomResourceOptions {
  const existing = opts?.dependsOn;
  const list: pulumi.Input<pulumi.Input<pulumi.Resource>[]> | pulumi.Input<pulumi.Resource>[] =
    existing === undefined
      ? [resource]
      : pulumi.output(existing).apply((d) => [...(Array.isArray(d) ? d : [d]), resource]);
  return { ...opts, dependsOn: list };
}

/**
 * The user's authorization that permission edits act under, kept alive across runs:
 * it takes `discord:bearerToken` and `discord:refreshToken` (stored by `discord-commands
 * authorize`), refreshes the Bearer token when it expires, and keeps the rotated refresh
 * token in its outputs, which are secrets (the state holds only their ciphertext). Pass
 * it as `authorization` to every `GuildCommandPermissions`. Needs `discord:clientId`
 * (and `discord:clientSecret` for a confidential application) to refresh.
 */
export class UserAuthorization extends PackageResource {
  /** When the kept access token expires (epoch ms), when known. */
  declare readonly expiresAt: pulumi.Output<number | null>;

  constructor(name: string, opts?: pulumi.CustomResourceOptions) {
    super(
      "UserAuthorization",
      name,
      {
        [DYNAMIC_PROVIDER_KEY]: serializedProvider("userAuthorization"),
        accessToken: undefined,
        refreshToken: undefined,
        expiresAt: undefined,
      },
      {
        ...opts,
        additionalSecretOutputs: [
          ...(opts?.additionalSecretOutputs ?? []),
          "accessToken",
          "refreshToken",
        ],
      },
    );
  }
}
