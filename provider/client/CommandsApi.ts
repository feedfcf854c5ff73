/**
 * The typed facade: one method per endpoint of the spec's table (like discord.js's
 * `core` API). Bodies are sent as given (validation is `provider/schema`'s job);
 * replies are parsed from `unknown` and checked for the fields the provider relies on.
 */
import { z } from "zod";
import { isRecord } from "../schema";
import type { RouteDef, RouteParams } from "../routes";
import { path as routePath, Routes } from "../routes";
import { isSnowflake, ServiceErrorCode, snowflakeTime } from "../schema";
import type { ClientConfig } from "./config";
import { HttpError, ServiceApiError } from "./errors";
import type { RequestOptions, RestResponse, SendPolicy } from "./RestClient";
import { RestClient, SEND_AND_RETRY } from "./RestClient";
import type { ClientStats } from "./stats";
import type {
  WireCommand,
  WireCommandBody,
  WireCommandPatch,
  WireGuildCommandPermissions,
  WirePermissionsBody,
} from "./types";

/** Error codes the facade turns into results instead of errors. */

export interface ListOptions {
  /** Return full `*_localizations` dictionaries (`with_localizations=true`). */
  readonly withLocalizations?: boolean;
}

/**
 * The result of a create: the service upserts by name (201 new, 200 overwritten).
 * `created` is also true for a 200 that answers a retry when the command's id was minted
 * after the first attempt was sent: that attempt made the command, and its answer was lost.
 */
export interface CreateResult {
  readonly command: WireCommand;
  readonly created: boolean;
}

/**
 * Clock difference tolerated between the service (which mints ids) and this machine: a
 * command minted up to this long before our first attempt still counts as ours on a retry.
 */
const CLOCK_SKEW_MS = 1_000;

const commandShape = z.looseObject({
  id: z.string(),
  application_id: z.string(),
  name: z.string(),
});

const permissionsShape = z.looseObject({
  id: z.string(),
  application_id: z.string(),
  guild_id: z.string(),
  permissions: z.array(
    z.looseObject({ id: z.string(), type: z.number(), permission: z.boolean() }),
  ),
});

export class CommandsApi {
  readonly rest: RestClient;
  /** What the client may do on its own for this facade's requests (RestClient.ts). */
  readonly policy: SendPolicy;

  constructor(rest: RestClient | ClientConfig = {}, policy: SendPolicy = SEND_AND_RETRY) {
    this.rest = rest instanceof RestClient ? rest : new RestClient(rest);
    this.policy = policy;
  }

  /** The same client (its connections, rate limits and credentials) sending with `policy`. */
  sending(policy: SendPolicy): CommandsApi {
    return new CommandsApi(this.rest, policy);
  }

  #request(
    def: RouteDef,
    params: RouteParams,
    options: RequestOptions = {},
  ): Promise<RestResponse> {
    return this.rest.request(def, params, { ...options, send: this.policy });
  }

  stats(): ClientStats {
    return this.rest.stats();
  }

  /** The service's time (ms), from its last response's `Date` (RestClient.ts). */
  serviceNow(): number {
    return this.rest.serviceClock.now();
  }

  close(): Promise<void> {
    return this.rest.close();
  }

  // Global commands (endpoints 1-6).

  /** 1. GET /applications/{application.id}/commands */
  async listGlobalCommands(
    applicationId: string,
    options: ListOptions = {},
  ): Promise<WireCommand[]> {
    const params = { applicationId };
    const res = await this.#request(Routes.listGlobalCommands, params, listQuery(options));
    return commands(Routes.listGlobalCommands, params, res);
  }

  /** 2. POST /applications/{application.id}/commands (an upsert by name). */
  async createGlobalCommand(applicationId: string, body: WireCommandBody): Promise<CreateResult> {
    const params = { applicationId };
    const res = await this.#request(Routes.createGlobalCommand, params, { json: body });
    return created(Routes.createGlobalCommand, params, res);
  }

  /** 3. GET /applications/{application.id}/commands/{command.id}; undefined if unknown (10063). */
  async getGlobalCommand(
    applicationId: string,
    commandId: string,
  ): Promise<WireCommand | undefined> {
    const params = { applicationId, commandId };
    const res = await orUndefined(
      this.#request(Routes.getGlobalCommand, params),
      ServiceErrorCode.UNKNOWN_COMMAND,
    );
    return res === undefined ? undefined : command(Routes.getGlobalCommand, params, res);
  }

  /** 4. PATCH /applications/{application.id}/commands/{command.id} */
  async editGlobalCommand(
    applicationId: string,
    commandId: string,
    body: WireCommandPatch,
  ): Promise<WireCommand> {
    const params = { applicationId, commandId };
    const res = await this.#request(Routes.editGlobalCommand, params, { json: body });
    return command(Routes.editGlobalCommand, params, res);
  }

  /** 5. DELETE /applications/{application.id}/commands/{command.id}; false if already gone (10063). */
  async deleteGlobalCommand(applicationId: string, commandId: string): Promise<boolean> {
    const params = { applicationId, commandId };
    const res = await orUndefined(
      this.#request(Routes.deleteGlobalCommand, params),
      ServiceErrorCode.UNKNOWN_COMMAND,
    );
    return res !== undefined;
  }

  /** 6. PUT /applications/{application.id}/commands: replaces every global command. */
  async bulkOverwriteGlobalCommands(
    applicationId: string,
    bodies: readonly WireCommandBody[],
  ): Promise<WireCommand[]> {
    const params = { applicationId };
    const res = await this.#request(Routes.bulkOverwriteGlobalCommands, params, {
      json: bodies,
    });
    return commands(Routes.bulkOverwriteGlobalCommands, params, res);
  }

  // Guild commands (endpoints 7-12).

  /** 7. GET /applications/{application.id}/guilds/{guild.id}/commands */
  async listGuildCommands(
    applicationId: string,
    guildId: string,
    options: ListOptions = {},
  ): Promise<WireCommand[]> {
    const params = { applicationId, guildId };
    const res = await this.#request(Routes.listGuildCommands, params, listQuery(options));
    return commands(Routes.listGuildCommands, params, res);
  }

  /** 8. POST /applications/{application.id}/guilds/{guild.id}/commands (an upsert by name). */
  async createGuildCommand(
    applicationId: string,
    guildId: string,
    body: WireCommandBody,
  ): Promise<CreateResult> {
    const params = { applicationId, guildId };
    const res = await this.#request(Routes.createGuildCommand, params, { json: body });
    return created(Routes.createGuildCommand, params, res);
  }

  /** 9. GET .../guilds/{guild.id}/commands/{command.id}; undefined if unknown (10063). */
  async getGuildCommand(
    applicationId: string,
    guildId: string,
    commandId: string,
  ): Promise<WireCommand | undefined> {
    const params = { applicationId, guildId, commandId };
    const res = await orUndefined(
      this.#request(Routes.getGuildCommand, params),
      ServiceErrorCode.UNKNOWN_COMMAND,
    );
    return res === undefined ? undefined : command(Routes.getGuildCommand, params, res);
  }

  /** 10. PATCH .../guilds/{guild.id}/commands/{command.id} */
  async editGuildCommand(
    applicationId: string,
    guildId: string,
    commandId: string,
    body: WireCommandPatch,
  ): Promise<WireCommand> {
    const params = { applicationId, guildId, commandId };
    const res = await this.#request(Routes.editGuildCommand, params, { json: body });
    return command(Routes.editGuildCommand, params, res);
  }

  /** 11. DELETE .../guilds/{guild.id}/commands/{command.id}; false if already gone (10063). */
  async deleteGuildCommand(
    applicationId: string,
    guildId: string,
    commandId: string,
  ): Promise<boolean> {
    const params = { applicationId, guildId, commandId };
    const res = await orUndefined(
      this.#request(Routes.deleteGuildCommand, params),
      ServiceErrorCode.UNKNOWN_COMMAND,
    );
    return res !== undefined;
  }

  /** 12. PUT .../guilds/{guild.id}/commands: replaces every command of the guild. */
  async bulkOverwriteGuildCommands(
    applicationId: string,
    guildId: string,
    bodies: readonly WireCommandBody[],
  ): Promise<WireCommand[]> {
    const params = { applicationId, guildId };
    const res = await this.#request(Routes.bulkOverwriteGuildCommands, params, {
      json: bodies,
    });
    return commands(Routes.bulkOverwriteGuildCommands, params, res);
  }

  // Permissions (endpoints 13-15; 16 is disabled by the service).

  /** 13. GET .../guilds/{guild.id}/commands/permissions */
  async listGuildCommandPermissions(
    applicationId: string,
    guildId: string,
  ): Promise<WireGuildCommandPermissions[]> {
    const params = { applicationId, guildId };
    const res = await this.#request(Routes.listGuildCommandPermissions, params);
    const parsed = z.array(permissionsShape).safeParse(res.data);
    if (!parsed.success) throw unexpected(Routes.listGuildCommandPermissions, params, res);
    return parsed.data as WireGuildCommandPermissions[];
  }

  /**
   * 14. GET .../commands/{command.id}/permissions; undefined when the command has no
   * overwrites in the guild (404, code 10066).
   */
  async getCommandPermissions(
    applicationId: string,
    guildId: string,
    commandId: string,
  ): Promise<WireGuildCommandPermissions | undefined> {
    const params = { applicationId, guildId, commandId };
    const res = await orUndefined(
      this.#request(Routes.getCommandPermissions, params),
      ServiceErrorCode.UNKNOWN_PERMISSIONS,
    );
    return res === undefined ? undefined : permissions(Routes.getCommandPermissions, params, res);
  }

  /**
   * 15. PUT .../commands/{command.id}/permissions: replaces the command's overwrites in
   * the guild. Needs a user's Bearer token (`bearerToken`), never the bot's.
   */
  async editCommandPermissions(
    applicationId: string,
    guildId: string,
    commandId: string,
    body: WirePermissionsBody,
  ): Promise<WireGuildCommandPermissions> {
    const params = { applicationId, guildId, commandId };
    const res = await this.#request(Routes.editCommandPermissions, params, { json: body });
    return permissions(Routes.editCommandPermissions, params, res);
  }

  // OAuth2.

  /** GET /oauth2/@me with the user's Bearer token: its scopes and expiry (ISO 8601). */
  async currentAuthorization(): Promise<{ scopes: string[]; expires: string | undefined }> {
    const res = await this.#request(Routes.oauth2CurrentAuthorization, {});
    const data = isRecord(res.data) ? res.data : {};
    const scopes = Array.isArray(data["scopes"])
      ? data["scopes"].filter((x): x is string => typeof x === "string")
      : [];
    return { scopes, expires: typeof data["expires"] === "string" ? data["expires"] : undefined };
  }
}

function listQuery(options: ListOptions): { query: Record<string, string> } | undefined {
  return options.withLocalizations === true ? { query: { with_localizations: "true" } } : undefined;
}

/** Resolves to undefined when the request fails with 404 and `code`. */
async function orUndefined(
  pending: Promise<RestResponse>,
  code: number,
): Promise<RestResponse | undefined> {
  try {
    return await pending;
  } catch (error) {
    if (error instanceof ServiceApiError && error.status === 404 && error.code === code) {
      return undefined;
    }
    throw error;
  }
}

function command(def: RouteDef, params: RouteParams, res: RestResponse): WireCommand {
  if (!commandShape.safeParse(res.data).success) throw unexpected(def, params, res);
  return res.data as WireCommand;
}

function commands(def: RouteDef, params: RouteParams, res: RestResponse): WireCommand[] {
  if (!z.array(commandShape).safeParse(res.data).success) throw unexpected(def, params, res);
  return res.data as WireCommand[];
}

/**
 * Whether the service minted `id` after `sentAt` (this machine's clock, ms): a command a
 * request sent then may have made. Ids carry their creation time.
 */
export function mintedSince(id: string, sentAt: number): boolean {
  return isSnowflake(id) && snowflakeTime(id) >= sentAt - CLOCK_SKEW_MS;
}

function created(def: RouteDef, params: RouteParams, res: RestResponse): CreateResult {
  const made = command(def, params, res);
  if (res.status === 201) return { command: made, created: true };
  // Only a retried create can have made the command it then "overwrote" (the first
  // attempt took effect, its answer was lost).
  return { command: made, created: res.attempts > 1 && mintedSince(made.id, res.firstSentAt) };
}

function permissions(
  def: RouteDef,
  params: RouteParams,
  res: RestResponse,
): WireGuildCommandPermissions {
  if (!permissionsShape.safeParse(res.data).success) throw unexpected(def, params, res);
  return res.data as WireGuildCommandPermissions;
}

function unexpected(def: RouteDef, params: RouteParams, res: RestResponse): HttpError {
  const info = { method: def.method, route: def.template, path: routePath(def, params) };
  return new HttpError(info, res.status, 1, "the service's reply does not have the expected shape");
}
