/**
 * The provider runtime: everything the resources of one provider process share, in one
 * explicit object built once per process and handed to the resource code: the settings
 * read in `configure`, the one client built from them, the scope caches, the bulk
 * queues, the deployment's memory and claims, and the clock.
 *
 * Both front doors build one: the dynamic-provider host (dynamicProviders.ts) and the
 * resource plugin (provider/plugin). Tests build their own. Nothing here lives on
 * `globalThis`: two runtimes in one process (two explicit providers, two tests) never
 * see each other's caches, queues or credentials.
 */
import type { CommandsApi } from "../client";
import { ConfigurationError, createCommandsClient } from "../client";
import { BulkWriter } from "./bulkWriter";
import { DeploymentClaims } from "./claims";
import type { Clock } from "./clock";
import type { Bag } from "./propertyBags";
import { optionalString } from "./propertyBags";
import { systemClock } from "./clock";
import { DeploymentMemory } from "./deploymentMemory";
import { ScopeCache } from "./scopeCache";
import { ScopeLocks } from "./scopeLocks";
import type { ProviderSettings, StackConfig } from "./settings";
import { CONFIG_NAMESPACES, inNamespace, readSettings } from "./settings";
import { TimingLog } from "./timingLog";
import { cliOutsideRange } from "../cliVersion";
import type { WarningSink } from "./warnings";
import { engineAddress, engineSink, stderrSink, Warnings } from "./warnings";

export interface RuntimeOptions {
  readonly clock?: Clock;
  /** Environment-variable fallbacks of the settings (default: `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /** Where warning lines go (default: the engine's `Log`, else stderr; warnings.ts). */
  readonly warn?: WarningSink;
  /**
   * The engine's address, for warnings and the CLI's version (default: the process's last
   * argument, as the engine starts a plugin; null: no engine, warnings go to stderr).
   */
  readonly engineAddress?: string | null;
}

/** Where a resource lives: an application's global scope, or one of its guilds. */
export interface Where {
  readonly applicationId: string;
  /** Undefined: the application's global scope. */
  readonly guildId: string | undefined;
}

/** A command's identity: where it lives, its type and its name (what the service keys it by). */
export interface CommandIdentity extends Where {
  readonly type: number;
  readonly name: string;
}

export class ProviderRuntime {
  readonly clock: Clock;
  readonly deployment = new DeploymentMemory();
  /** The commands each resource of this deployment declares, by URN (claims.ts). */
  readonly claims = new DeploymentClaims();
  readonly scopes: ScopeCache;
  readonly bulk: BulkWriter;
  /** Each scope's one lock, through which every write to the scope goes (scopeLocks.ts). */
  readonly scopeLocks = new ScopeLocks();
  /** Warning lines for the user (warnings.ts). */
  readonly warnings: Warnings;
  /** `DISCORD_TIMING_LOG`: the provider calls' and rate-limit waits' timings (timingLog.ts). */
  readonly timing: TimingLog;
  private readonly env: NodeJS.ProcessEnv;
  private current: ProviderSettings | undefined;
  private api: CommandsApi | undefined;
  /** The `configure` text last applied (a second kind configured alike changes nothing). */
  private configuredWith: string | undefined;
  private readonly engineAddress: string | undefined;
  private cliChecked: Promise<void> | undefined;

  constructor(options: RuntimeOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.env = options.env ?? process.env;
    this.timing = new TimingLog(this.env["DISCORD_TIMING_LOG"]);
    const address =
      options.engineAddress === null ? undefined : (options.engineAddress ?? engineAddress());
    this.engineAddress = address;
    this.warnings = new Warnings(
      options.warn ?? (address !== undefined ? engineSink(address) : stderrSink),
    );
    this.scopes = new ScopeCache(this);
    this.bulk = new BulkWriter(this);
  }

  /** `configure` of every provider kind: keeps the settings; the client is built on first use. */
  configure(config: StackConfig | undefined): void {
    const next = readSettings(config, this.env);
    const text = JSON.stringify(next);
    // Each provider kind is configured once per process with the same stack config.
    if (this.configuredWith === text) return;
    this.configuredWith = text;
    this.current = next;
    void this.api?.close();
    this.api = undefined;
  }

  /**
   * Once per process: a warning line when the CLI running the deployment lies outside the
   * tested range (cliVersion.ts). Each door awaits it before its first answer to the
   * engine (the plugin's `configure`, the dynamic provider's first call), so the line
   * comes before anything an untested CLI fails with. Never rejects.
   */
  checkCliVersion(): Promise<void> {
    const address = this.engineAddress;
    this.cliChecked ??=
      address === undefined
        ? Promise.resolve()
        : cliOutsideRange(address).then(
            (line) => (line !== undefined ? this.warnings.warn(line) : undefined),
            () => undefined,
          );
    return this.cliChecked;
  }

  /** What is wrong with a configuration, before it is applied (the plugin's CheckConfig). */
  checkConfiguration(config: StackConfig): { property: string; reason: string }[] {
    try {
      readSettings(config, this.env);
      return [];
    } catch (err) {
      const namespace = config.namespace ?? CONFIG_NAMESPACES.dynamic;
      const reason = inNamespace(err instanceof Error ? err.message : String(err), namespace);
      const key = reason.startsWith(`${namespace}:`)
        ? (/^(\w+)/.exec(reason.slice(namespace.length + 1))?.[1] ?? "")
        : "";
      return [{ property: key, reason }];
    }
  }

  get settings(): ProviderSettings {
    this.current ??= readSettings(undefined, this.env);
    return this.current;
  }

  get client(): CommandsApi {
    this.api ??= createCommandsClient({
      ...this.settings.client,
      refreshRefusals: this.deployment,
      ...(this.timing.enabled ? { onEvent: this.timing.onClientEvent } : {}),
      now: () => this.clock.now(),
      sleep: (ms) => this.clock.sleep(ms),
    });
    return this.api;
  }

  /**
   * A resource's inputs as `check` keeps them: naming their application, their own or else
   * the configured default (none when neither: `check` fails, saying how to set one). The
   * operations after `check` read it from the inputs or the state (`where`).
   */
  withApplication(inputs: Bag): Bag {
    const applicationId = inputs["applicationId"] ?? this.settings.applicationId;
    return applicationId === undefined ? { ...inputs } : { ...inputs, applicationId };
  }

  /**
   * Where the resource of a checked bag (inputs or state) lives, read once where an
   * operation starts and handed down: its application (`resolveApplicationId`) and its
   * guild, if it names one.
   */
  where(bag: Bag): Where {
    return {
      applicationId: this.resolveApplicationId(optionalString(bag, "applicationId")),
      guildId: optionalString(bag, "guildId"),
    };
  }

  /**
   * The application id a resource acts for: its own, or the configured default; the error
   * says how to set one when neither is (a bag without one: an import's, by id).
   */
  resolveApplicationId(declared: string | undefined): string {
    const id = declared ?? this.settings.applicationId;
    if (!id) {
      // Named in the door's namespace here: an import's Read (the plugin) fails with it as is.
      throw new ConfigurationError(
        inNamespace(
          "no application id: set `applicationId` on the resource, or the stack config " +
            "`discord:applicationId` (pulumi config set discord:applicationId <id>), or DISCORD_APPLICATION_ID.",
          this.settings.namespace,
        ),
      );
    }
    return id;
  }

  /** Closes the client's connections (tests, and a plugin that shuts down). */
  async close(): Promise<void> {
    const api = this.api;
    this.api = undefined;
    await api?.close();
  }
}
