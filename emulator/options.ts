/**
 * `startEmulator`'s options, and what they resolve to together with the configuration:
 * the configuration itself, the rate limits in force, the Host names answered, and whether
 * the control API and the page are served.
 */
import fs from "node:fs";
import type { EmulatorConfigInput, RateLimitConfig, ResolvedConfig } from "./config";
import { RateLimitConfig as RateLimitSchema, resolveConfig } from "./config";
import type { RequestLogEntry } from "./log";
import { loopbackListenHost } from "./requestGuard";

/** One answer of the service API (not the control API), for `onResponse`. */
export interface ResponseRecord {
  readonly method: string;
  /** The path as requested, `/api/v10/...` included. */
  readonly path: string;
  readonly status: number;
  /** The JSON body sent (undefined for none). */
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
  /** The injected fault, if any (such answers break the contract on purpose). */
  readonly fault?: string;
}

export interface EmulatorOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Host to listen on; default 127.0.0.1. */
  host?: string;
  /**
   * Host names answered besides loopback ones, on any listen address (`--allowed-host`):
   * `"emulator"`, `"10.0.0.5"`, or `".ci.internal"` for that name and every name under it.
   * Overrides the configuration's `allowedHosts`. Listening on 0.0.0.0, list the names
   * other machines use: other names are refused (a page of another site reaches the
   * server by a name rebound to it).
   */
  allowedHosts?: readonly string[];
  /** Configuration object (same shape as the config file). */
  config?: EmulatorConfigInput;
  /** A JSON config file (ignored when `config` is given). */
  configFile?: string;
  /** Persist state to this JSON file (atomic writes); loaded at start if it exists. */
  statePath?: string;
  /** Overrides the configuration's rate limits: false = off. */
  rateLimits?: boolean | RateLimitConfig;
  /** Overrides whether the control API is served (default: loopback hosts only). */
  control?: boolean;
  /** Overrides whether the page at `/` is served (default: loopback hosts only). */
  page?: boolean;
  /** Overrides the configuration's `oauthConsent` ("automatic" or "page"). */
  oauthConsent?: "automatic" | "page";
  /** Called with one line per request (access log); default: none. */
  onRequest?: (entry: RequestLogEntry) => void;
  /**
   * Called with every answer of the service API before it is sent (not dropped
   * connections, not the control API): tests check them against the service's contract.
   */
  onResponse?: (response: ResponseRecord) => void;
  /** Called with unexpected errors (answered 500); default: none. */
  onInternalError?: (err: unknown) => void;
}

/** The `config` option, else the `configFile`, else the defaults. */
export function loadConfig(options: EmulatorOptions): ResolvedConfig {
  if (options.config !== undefined) return resolveConfig(options.config, "config");
  if (options.configFile !== undefined) {
    let json: unknown;
    try {
      json = JSON.parse(fs.readFileSync(options.configFile, "utf8"));
    } catch (err) {
      throw new Error(
        `cannot read emulator config ${options.configFile}: ${(err as Error).message}`,
        { cause: err },
      );
    }
    return resolveConfig(json, `config file ${options.configFile}`);
  }
  return resolveConfig({});
}

/** The rate limits at start: the option overrides the configuration; false = off. */
export function startRateLimits(
  options: EmulatorOptions,
  config: ResolvedConfig,
): RateLimitConfig | false {
  const option = options.rateLimits;
  if (option === undefined) return config.rateLimits;
  if (option === false) return false;
  // "On" with a configuration that turned them off means the default limits.
  if (option === true) return config.rateLimits || RateLimitSchema.parse({});
  return option;
}

/** The Host names answered besides loopback ones: the option overrides the configuration. */
export function allowedHosts(options: EmulatorOptions, config: ResolvedConfig): readonly string[] {
  return options.allowedHosts ?? config.allowedHosts ?? [];
}

/** The control API has no authentication: by default it is served on loopback hosts only. */
export function controlEnabled(
  options: EmulatorOptions,
  config: ResolvedConfig,
  host: string,
): boolean {
  return options.control ?? config.control ?? loopbackListenHost(host);
}

/** The page shows every command and the request log: loopback hosts only by default, too. */
export function pageEnabled(
  options: EmulatorOptions,
  config: ResolvedConfig,
  host: string,
): boolean {
  return options.page ?? config.page ?? loopbackListenHost(host);
}
