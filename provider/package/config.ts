/**
 * The provider's configuration in the package schema: each setting with its type, its
 * secrecy and the environment variable the provider falls back to.
 */
import { WRITE_MODE_SETTING } from "../writeMode";
import type { WRITE_MODES } from "../writeMode";
import { ref } from "./names";
import type { Properties, TypeSpec } from "./types";

interface ConfigSetting {
  readonly type: "string" | "number" | "WriteMode";
  readonly secret: boolean;
  /** The environment variable the provider falls back to. */
  readonly env: string;
  readonly description: string;
}

/**
 * The provider's settings: the configuration of the provider resource and of the stack
 * (`discord-commands:<key>`). The provider falls back to the environment variable of each
 * (its process inherits the CLI's environment). `defaultInfo` (the generated SDKs read the
 * variable in the program, for an explicit provider) is given for plain strings and
 * numbers only: a secret read that way would become a provider input, kept in the state;
 * and for the enum-typed `writeMode` the Go generator of the language hosts here (pkg
 * v3.200) writes code that does not compile.
 */
export const CONFIG = {
  apiUrl: {
    type: "string",
    secret: false,
    env: "DISCORD_API_URL",
    description:
      "Base URL of the service, with or without `/api/v10`. Default `https://discord.com`. Point it at the emulator, e.g. `http://127.0.0.1:8787`.",
  },
  applicationId: {
    type: "string",
    secret: false,
    env: "DISCORD_APPLICATION_ID",
    description: "The application of every resource that does not set `applicationId`.",
  },
  botToken: {
    type: "string",
    secret: true,
    env: "DISCORD_BOT_TOKEN",
    description:
      "The application's bot token (`Authorization: Bot ...`), for command reads and writes.",
  },
  clientId: {
    type: "string",
    secret: false,
    env: "DISCORD_CLIENT_ID",
    description:
      "With `clientSecret`, instead of a bot token: a client-credentials token (scope `applications.commands.update`) is fetched and refreshed. The bot token wins if both are set.",
  },
  clientSecret: {
    type: "string",
    secret: true,
    env: "DISCORD_CLIENT_SECRET",
    description: "The client secret that goes with `clientId`.",
  },
  bearerToken: {
    type: "string",
    secret: true,
    env: "DISCORD_BEARER_TOKEN",
    description:
      "A user's Bearer token with the scope `applications.commands.permissions.update`: needed only by `GuildCommandPermissions` (the service refuses bot tokens there).",
  },
  refreshToken: {
    type: "string",
    secret: true,
    env: "DISCORD_REFRESH_TOKEN",
    description:
      "The user's refresh token, stored with `bearerToken` by `discord-commands authorize`; with `clientId` (and `clientSecret` for a confidential application) the Bearer token is refreshed when it expires.",
  },
  readCacheMs: {
    type: "number",
    secret: false,
    env: "DISCORD_READ_CACHE_MS",
    description:
      "How long (ms) one list of a scope, read by a refresh, is reused by the other resources of that scope. Default 10000; 0 reads the service for every resource.",
  },
  bulkWindowMs: {
    type: "number",
    secret: false,
    env: "DISCORD_BULK_WINDOW_MS",
    description:
      "Bulk write mode: how long (ms) a batch collects a scope's operations before its PUT. Default 200.",
  },
  timeoutMs: {
    type: "number",
    secret: false,
    env: "DISCORD_TIMEOUT_MS",
    description:
      "How long (ms) to wait for the service to connect, send headers and send the body, each, before retrying. Default 15000.",
  },
  writeMode: {
    type: "WriteMode",
    secret: false,
    env: WRITE_MODE_SETTING.env,
    description:
      "How command writes reach the service: `per-command` (the default: one POST, PATCH or DELETE per command) or `bulk` (one bulk overwrite per scope and batch).",
  },
} as const satisfies Record<string, ConfigSetting>;

export const WRITE_MODE_DESCRIPTIONS: Record<(typeof WRITE_MODES)[number], string> = {
  "per-command": "One POST, PATCH or DELETE per command.",
  bulk: "The writes of one deployment to one scope coalesce into bulk overwrites of the scope.",
};

export function configProperties(): Properties {
  const out: Properties = {};
  for (const [key, setting] of Object.entries(CONFIG) as [string, ConfigSetting][]) {
    const type: TypeSpec = setting.type === "WriteMode" ? ref("WriteMode") : { type: setting.type };
    out[key] = {
      ...type,
      description: `${setting.description} Unset: the environment variable \`${setting.env}\`.`,
      ...(setting.secret ? { secret: true } : {}),
      ...(setting.secret || setting.type === "WriteMode"
        ? {}
        : { defaultInfo: { environment: [setting.env] } }),
    };
  }
  return out;
}
