/**
 * What the resource providers share inside one dynamic-provider host process (one per
 * deployment): the configuration read in `configure`, the one client built from it, and
 * the deployment's memory (command ids this deployment wrote, the scope-list cache).
 *
 * Credentials live only here, in memory: never in a resource's inputs or outputs, never
 * in the serialized provider, never in an error or log line.
 */
import type { CommandsApi, ClientConfig, WireCommand } from "../client";
import { ConfigurationError, createCommandsClient } from "../client";
import type { WriteMode } from "../writeMode";
import { isWriteMode, WRITE_MODE_SETTING, WRITE_MODES } from "../writeMode";

export { WRITE_MODES } from "../writeMode";
export type { WriteMode } from "../writeMode";

/** The subset of Pulumi's dynamic `ConfigureRequest` we read: namespaced stack config. */
export interface StackConfig {
  get(key: string): string | undefined;
}

/** Stack config keys, their environment-variable fallbacks, and the client option they set. */
const SETTINGS = [
  { key: "discord:apiUrl", env: "DISCORD_API_URL", option: "apiUrl" },
  { key: "discord:applicationId", env: "DISCORD_APPLICATION_ID", option: undefined },
  { key: "discord:botToken", env: "DISCORD_BOT_TOKEN", option: "botToken" },
  { key: "discord:clientId", env: "DISCORD_CLIENT_ID", option: "clientId" },
  { key: "discord:clientSecret", env: "DISCORD_CLIENT_SECRET", option: "clientSecret" },
  { key: "discord:bearerToken", env: "DISCORD_BEARER_TOKEN", option: "bearerToken" },
  { key: "discord:refreshToken", env: "DISCORD_REFRESH_TOKEN", option: "refreshToken" },
  { key: "discord:readCacheMs", env: "DISCORD_READ_CACHE_MS", option: undefined },
  { key: "discord:bulkWindowMs", env: "DISCORD_BULK_WINDOW_MS", option: undefined },
  { key: "discord:timeoutMs", env: "DISCORD_TIMEOUT_MS", option: undefined },
] as const;

/** How long a finished scope list is reused (see scopeCache.ts) unless configured. */
const DEFAULT_READ_CACHE_MS = 10_000;
/** How long a bulk batch collects operations (see bulkWriter.ts) unless configured. */
const DEFAULT_BULK_WINDOW_MS = 200;

export interface ProviderSettings {
  readonly client: ClientConfig;
  /** Default application id for resources that do not name one. */
  readonly applicationId: string | undefined;
  readonly writeMode: WriteMode;
  /** How long a finished scope list is reused, in milliseconds. */
  readonly readCacheMs: number;
  /** How long a bulk batch collects operations, in milliseconds. */
  readonly bulkWindowMs: number;
}

/** Reads the provider's settings: stack config first, then environment variables. */
export function readSettings(
  config: StackConfig | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ProviderSettings {
  const client: ClientConfig = {};
  let applicationId: string | undefined;
  let readCacheMs = DEFAULT_READ_CACHE_MS;
  let bulkWindowMs = DEFAULT_BULK_WINDOW_MS;
  for (const s of SETTINGS) {
    const value = config?.get(s.key) ?? env[s.env];
    if (value === undefined || value === "") continue;
    if (s.option !== undefined) client[s.option] = value;
    else if (s.key === "discord:applicationId") applicationId = value;
    else if (s.key === "discord:timeoutMs") client.timeoutMs = positiveMs(s.key, value);
    else if (s.key === "discord:readCacheMs") readCacheMs = nonNegativeMs(s.key, value);
    else bulkWindowMs = nonNegativeMs(s.key, value);
  }
  const mode = config?.get(WRITE_MODE_SETTING.key) ?? env[WRITE_MODE_SETTING.env] ?? "";
  if (mode !== "" && !isWriteMode(mode)) {
    throw new ConfigurationError(
      `${WRITE_MODE_SETTING.key} (or ${WRITE_MODE_SETTING.env}) must be one of ${WRITE_MODES.join(", ")}, not ${JSON.stringify(mode)}`,
    );
  }
  return {
    client,
    applicationId,
    readCacheMs,
    bulkWindowMs,
    writeMode: mode === "" ? "per-command" : mode,
  };
}

function positiveMs(key: string, value: string): number {
  const ms = Number(value);
  if (!Number.isFinite(ms) || ms <= 0) {
    throw new ConfigurationError(`${key} must be a number of milliseconds > 0, not "${value}"`);
  }
  return ms;
}

function nonNegativeMs(key: string, value: string): number {
  const ms = Number(value);
  if (!Number.isFinite(ms) || ms < 0) {
    throw new ConfigurationError(`${key} must be a number of milliseconds >= 0, not "${value}"`);
  }
  return ms;
}

interface ProcessState {
  settings: ProviderSettings | undefined;
  client: CommandsApi | undefined;
  /** Command ids that a create or update of this deployment returned. */
  readonly writtenCommandIds: Set<string>;
  /** Command ids whose permissions a create or update of this deployment wrote. */
  readonly writtenPermissionIds: Set<string>;
  /** Per (application, scope, type): names this deployment's creates and renames add. */
  readonly plannedNames: Map<string, Set<string>>;
  /** (application, scope, type, name) of the new commands of this deployment's replacements. */
  readonly replacements: Set<string>;
  /** Per (application, scope, type): old command ids that replacements delete first. */
  readonly deletedFirst: Map<string, Set<string>>;
  /** Per (application, scope): the list the limit checks of this deployment count from. */
  readonly limitLists: Map<string, Promise<readonly WireCommand[]>>;
}

// One state per process, shared by the three providers even if their modules are loaded
// twice (a package installed in two places): keyed on globalThis.
const STATE_KEY = Symbol.for("pulumi-discord-commands.runtime");
type GlobalWithState = typeof globalThis & { [STATE_KEY]?: ProcessState };

function state(): ProcessState {
  const g = globalThis as GlobalWithState;
  g[STATE_KEY] ??= {
    settings: undefined,
    client: undefined,
    writtenCommandIds: new Set(),
    writtenPermissionIds: new Set(),
    plannedNames: new Map(),
    replacements: new Set(),
    deletedFirst: new Map(),
    limitLists: new Map(),
  };
  return g[STATE_KEY];
}

/** `configure` of every provider: keeps the settings; the client is built on first use. */
export function configure(config: StackConfig | undefined): void {
  const s = state();
  const next = readSettings(config);
  // Each provider kind is configured once per process with the same stack config.
  if (s.settings && JSON.stringify(s.settings) === JSON.stringify(next)) return;
  s.settings = next;
  void s.client?.close();
  s.client = undefined;
}

export function settings(): ProviderSettings {
  const s = state();
  s.settings ??= readSettings(undefined);
  return s.settings;
}

export function client(): CommandsApi {
  const s = state();
  s.client ??= createCommandsClient(settings().client);
  return s.client;
}

/** The application id a resource acts for: its own, or the configured default. */
export function resolveApplicationId(declared: string | undefined): string {
  const id = declared ?? settings().applicationId;
  if (!id) {
    throw new ConfigurationError(
      "no application id: set `applicationId` on the resource, or the stack config " +
        "`discord:applicationId` (pulumi config set discord:applicationId <id>), or DISCORD_APPLICATION_ID.",
    );
  }
  return id;
}

export const deployment = {
  commandWritten(id: string): void {
    state().writtenCommandIds.add(id);
  },
  /** True when a create or update of this deployment returned this command id. */
  isLiveCommand(id: string): boolean {
    return state().writtenCommandIds.has(id);
  },
  permissionsWritten(commandId: string): void {
    state().writtenPermissionIds.add(commandId);
  },
  arePermissionsLive(commandId: string): boolean {
    return state().writtenPermissionIds.has(commandId);
  },
  /** Notes that a create or rename of this deployment adds `name` under `key`; returns all. */
  planName(key: string, name: string): ReadonlySet<string> {
    const planned = state().plannedNames;
    const set = planned.get(key) ?? new Set<string>();
    set.add(name);
    planned.set(key, set);
    return set;
  },
  /** A replacement that deletes its old command (`id`) first. */
  deleteFirst(key: string, id: string): void {
    const map = state().deletedFirst;
    const set = map.get(key) ?? new Set<string>();
    set.add(id);
    map.set(key, set);
  },
  /**
   * The scope's list as the deployment's first limit check read it: later checks count
   * from the same list plus what the deployment plans, so they agree however the engine
   * interleaves them with writes. A failed read is not kept.
   */
  limitList(
    key: string,
    load: () => Promise<readonly WireCommand[]>,
  ): Promise<readonly WireCommand[]> {
    const lists = state().limitLists;
    let list = lists.get(key);
    if (list === undefined) {
      list = load();
      lists.set(key, list);
      list.catch(() => lists.delete(key));
    }
    return list;
  },
  deletedFirst(key: string): ReadonlySet<string> {
    return state().deletedFirst.get(key) ?? new Set();
  },
  replacing(key: string): void {
    state().replacements.add(key);
  },
  isReplacement(key: string): boolean {
    return state().replacements.has(key);
  },
  plannedCount(key: string): number {
    return state().plannedNames.get(key)?.size ?? 0;
  },
};

/** For tests that run several deployments in one process. */
export function resetProcessState(): void {
  const s = state();
  void s.client?.close();
  s.client = undefined;
  s.settings = undefined;
  s.writtenCommandIds.clear();
  s.writtenPermissionIds.clear();
  s.plannedNames.clear();
  s.replacements.clear();
  s.deletedFirst.clear();
  s.limitLists.clear();
}
