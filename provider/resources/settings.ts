/**
 * The provider's settings: stack config (or the plugin's provider configuration) first,
 * then environment variables. Read in `configure` into the provider runtime (runtime.ts).
 *
 * Credentials read here are never in the serialized provider, an error or a log line.
 * Where they reach the state they are secret at their own path: the stack config that
 * dynamic providers are handed, an explicit plugin provider's inputs (marked by
 * plugin/secrets.ts), `UserAuthorization`'s token outputs (additionalSecretOutputs).
 */
import type { ClientConfig } from "../client";
import { ConfigurationError } from "../client";
import type { WriteMode } from "../writeMode";
import { isWriteMode, WRITE_MODE_SETTING, WRITE_MODES } from "../writeMode";

export { WRITE_MODES } from "../writeMode";
export type { WriteMode } from "../writeMode";

/**
 * The namespace of each front door's configuration: the TypeScript dynamic resources read
 * the stack config `discord:*`, the resource plugin `discord-commands:*` (its package's
 * name). The settings themselves, and their environment variables, are the same.
 */
export const CONFIG_NAMESPACES = { dynamic: "discord", plugin: "discord-commands" } as const;
export type ConfigNamespace = (typeof CONFIG_NAMESPACES)[keyof typeof CONFIG_NAMESPACES];

/**
 * The configuration a provider is handed, asked for by the settings' keys below
 * (`discord:botToken`): the dynamic provider's stack config, or the plugin's provider
 * inputs mapped to those keys. `namespace` is the one its user sets (default `discord`):
 * every message names the settings in it (`inNamespace`).
 */
export interface StackConfig {
  get(key: string): string | undefined;
  readonly namespace?: ConfigNamespace;
}

/** Stack config keys, their environment-variable fallbacks, and the client option they set. */
export const SETTINGS = [
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

/** The settings' names, as `discord:<name>` (the keys above) in a message. */
const SETTING_IN_TEXT = new RegExp(
  `(?<![\\w/-])discord:(${[...SETTINGS, WRITE_MODE_SETTING].map((s) => s.key.slice("discord:".length)).join("|")})\\b`,
  "g",
);

/**
 * `text` with every setting it names as the dynamic resources do (`discord:botToken`, how
 * the provider's messages and fixes are written) named in the door's `namespace`
 * (`discord-commands:botToken` for the plugin): the one place a message learns the door.
 * Applied where a failure leaves for the engine (engineErrors.ts) and where the settings
 * are judged (readSettings, `checkConfiguration`). Type tokens
 * (`pulumi-nodejs:dynamic/discord:GlobalCommand`), keys already in a namespace and
 * environment variables are left alone.
 */
export function inNamespace(text: string, namespace: ConfigNamespace | undefined): string {
  if (namespace === undefined || namespace === CONFIG_NAMESPACES.dynamic) return text;
  return text.replace(SETTING_IN_TEXT, `${namespace}:$1`);
}

/**
 * The settings that are credentials, by name: what the dynamic door refuses in plain text
 * (sdk/credentials.ts), the plugin marks secret (plugin/secrets.ts) and the package schema
 * marks secret (a test holds the schema to this list).
 */
export const CREDENTIAL_SETTINGS = [
  "botToken",
  "clientSecret",
  "bearerToken",
  "refreshToken",
] as const;

/** How long a finished scope list is reused (see scopeCache.ts) unless configured. */
const DEFAULT_READ_CACHE_MS = 10_000;
/** How long a bulk batch collects operations (see bulkWriter.ts) unless configured. */
const DEFAULT_BULK_WINDOW_MS = 200;

export interface ProviderSettings {
  /** The namespace of the door in use, that messages name the settings in. */
  readonly namespace: ConfigNamespace;
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
  const namespace = config?.namespace ?? CONFIG_NAMESPACES.dynamic;
  const named = (key: string): string => inNamespace(key, namespace);
  const client: ClientConfig = {};
  let applicationId: string | undefined;
  let readCacheMs = DEFAULT_READ_CACHE_MS;
  let bulkWindowMs = DEFAULT_BULK_WINDOW_MS;
  for (const s of SETTINGS) {
    const value = config?.get(s.key) ?? env[s.env];
    if (value === undefined || value === "") continue;
    if (s.option !== undefined) client[s.option] = value;
    else if (s.key === "discord:applicationId") applicationId = value;
    else if (s.key === "discord:timeoutMs") client.timeoutMs = positiveMs(named(s.key), value);
    else if (s.key === "discord:readCacheMs") readCacheMs = nonNegativeMs(named(s.key), value);
    else bulkWindowMs = nonNegativeMs(named(s.key), value);
  }
  const mode = config?.get(WRITE_MODE_SETTING.key) ?? env[WRITE_MODE_SETTING.env] ?? "";
  if (mode !== "" && !isWriteMode(mode)) {
    throw new ConfigurationError(
      `${named(WRITE_MODE_SETTING.key)} (or ${WRITE_MODE_SETTING.env}) must be one of ${WRITE_MODES.join(", ")}, not ${JSON.stringify(mode)}`,
    );
  }
  return {
    namespace,
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
