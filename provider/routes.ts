/**
 * The one table of the service's paths, shared by the provider's client and the
 * emulator (spec: "Endpoints"). Every path is relative to `{base}/api/v10`.
 *
 * Each entry names the endpoint's number in the spec, its method and a path template.
 * `ScopeRoutes` pairs a scope's routes, global and guild (`scopeRoutes`, `scopeParams`).
 * `path()` builds a concrete path; `match()` turns a concrete path back into the route and
 * its parameters, which is how the emulator dispatches requests.
 */

export const API_PREFIX = "/api/v10";

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

export interface RouteDef {
  /** Endpoint number in the spec's table (0 for the OAuth2 endpoints). */
  readonly spec: number;
  readonly method: HttpMethod;
  /** Template with `{name}` placeholders, e.g. `/applications/{applicationId}/commands`. */
  readonly template: string;
  /**
   * Rate-limit bucket: one per route, method included (the service's per-route limits
   * "may include the HTTP method", discord-api-docs, Rate Limits); a bucket is further
   * keyed by the path's application and guild ids. Two routes share a bucket only when
   * they name the same one here.
   */
  readonly bucket: string;
}

function route(spec: number, method: HttpMethod, template: string, bucket: string): RouteDef {
  return { spec, method, template, bucket };
}

const GLOBAL = "/applications/{applicationId}/commands";
const GLOBAL_ONE = "/applications/{applicationId}/commands/{commandId}";
const GUILD = "/applications/{applicationId}/guilds/{guildId}/commands";
const GUILD_ONE = "/applications/{applicationId}/guilds/{guildId}/commands/{commandId}";
const GUILD_PERMS = "/applications/{applicationId}/guilds/{guildId}/commands/permissions";
const COMMAND_PERMS =
  "/applications/{applicationId}/guilds/{guildId}/commands/{commandId}/permissions";

export const Routes = {
  listGlobalCommands: route(1, "GET", GLOBAL, "global-commands-list"),
  createGlobalCommand: route(2, "POST", GLOBAL, "global-commands-create"),
  getGlobalCommand: route(3, "GET", GLOBAL_ONE, "global-command-get"),
  editGlobalCommand: route(4, "PATCH", GLOBAL_ONE, "global-command-edit"),
  deleteGlobalCommand: route(5, "DELETE", GLOBAL_ONE, "global-command-delete"),
  bulkOverwriteGlobalCommands: route(6, "PUT", GLOBAL, "global-commands-bulk"),
  listGuildCommands: route(7, "GET", GUILD, "guild-commands-list"),
  createGuildCommand: route(8, "POST", GUILD, "guild-commands-create"),
  getGuildCommand: route(9, "GET", GUILD_ONE, "guild-command-get"),
  editGuildCommand: route(10, "PATCH", GUILD_ONE, "guild-command-edit"),
  deleteGuildCommand: route(11, "DELETE", GUILD_ONE, "guild-command-delete"),
  bulkOverwriteGuildCommands: route(12, "PUT", GUILD, "guild-commands-bulk"),
  listGuildCommandPermissions: route(13, "GET", GUILD_PERMS, "guild-permissions-list"),
  getCommandPermissions: route(14, "GET", COMMAND_PERMS, "command-permissions-get"),
  editCommandPermissions: route(15, "PUT", COMMAND_PERMS, "command-permissions-edit"),
  batchEditCommandPermissions: route(16, "PUT", GUILD_PERMS, "guild-permissions-batch"),
  oauth2Token: route(0, "POST", "/oauth2/token", "oauth2-token"),
  oauth2TokenRevoke: route(0, "POST", "/oauth2/token/revoke", "oauth2-token"),
  /** Get Current Authorization Information (Bearer): scopes, expiry, user. */
  oauth2CurrentAuthorization: route(0, "GET", "/oauth2/@me", "oauth2-me"),
  /**
   * The browser's consent page. The service serves it at `{origin}/oauth2/authorize`,
   * outside `/api/v10` (docs/topics/oauth2 "OAuth2 URLs"); `AUTHORIZE_PATH` is that path.
   */
  oauth2Authorize: route(0, "GET", "/oauth2/authorize", "oauth2-authorize"),
} as const;

/** Where a browser opens the consent page: `{origin}{AUTHORIZE_PATH}?...` (no API prefix). */
export const AUTHORIZE_PATH = "/oauth2/authorize";

export type RouteName = keyof typeof Routes;

export type RouteParams = Record<string, string>;

/** The routes of one scope's commands: the same operations on the global or a guild's path. */
export interface ScopeRouteSet {
  readonly list: RouteDef;
  readonly create: RouteDef;
  readonly edit: RouteDef;
  readonly delete: RouteDef;
  readonly bulkOverwrite: RouteDef;
  /**
   * A write built from the scope's list, in the order it sends them: the list GET, then the
   * bulk overwrite PUT built from it.
   */
  readonly listThenOverwrite: readonly [RouteDef, RouteDef];
}

function scopeRouteSet(
  list: RouteDef,
  create: RouteDef,
  edit: RouteDef,
  remove: RouteDef,
  bulkOverwrite: RouteDef,
): ScopeRouteSet {
  return {
    list,
    create,
    edit,
    delete: remove,
    bulkOverwrite,
    listThenOverwrite: [list, bulkOverwrite],
  };
}

/** The one table of a scope's routes, global and guild. */
const ScopeRoutes = {
  global: scopeRouteSet(
    Routes.listGlobalCommands,
    Routes.createGlobalCommand,
    Routes.editGlobalCommand,
    Routes.deleteGlobalCommand,
    Routes.bulkOverwriteGlobalCommands,
  ),
  guild: scopeRouteSet(
    Routes.listGuildCommands,
    Routes.createGuildCommand,
    Routes.editGuildCommand,
    Routes.deleteGuildCommand,
    Routes.bulkOverwriteGuildCommands,
  ),
} as const;

/** The routes of a scope (`guildId` undefined: the global scope). */
export function scopeRoutes(guildId: string | undefined): ScopeRouteSet {
  return guildId === undefined ? ScopeRoutes.global : ScopeRoutes.guild;
}

/** The path parameters of a scope's routes. */
export function scopeParams(applicationId: string, guildId: string | undefined): RouteParams {
  return guildId === undefined ? { applicationId } : { applicationId, guildId };
}

/** Builds the concrete path of a route; throws if a placeholder has no value. */
export function path(def: RouteDef, params: RouteParams): string {
  return def.template.replace(/\{(\w+)\}/g, (_m, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`route ${def.template}: missing parameter ${key}`);
    return encodeURIComponent(value);
  });
}

interface CompiledRoute {
  readonly name: RouteName;
  readonly def: RouteDef;
  readonly regex: RegExp;
  readonly keys: readonly string[];
}

// Literal segments ("permissions") must win over parameters ("{commandId}"), so routes
// are matched in order of how many literal segments they have.
const compiled: readonly CompiledRoute[] = (Object.keys(Routes) as RouteName[])
  .map((name) => {
    const def = Routes[name];
    const keys: string[] = [];
    const source = def.template.replace(/\{(\w+)\}/g, (_m, key: string) => {
      keys.push(key);
      return "([^/]+)";
    });
    return { name, def, regex: new RegExp(`^${source}$`), keys };
  })
  .sort((a, b) => a.keys.length - b.keys.length);

export interface RouteMatch {
  readonly name: RouteName;
  readonly def: RouteDef;
  readonly params: RouteParams;
}

/**
 * Resolves a path (without the `/api/v10` prefix) and method to a route.
 * Returns `{ methodNotAllowed: true }` when the path exists under another method.
 */
export function match(
  method: string,
  pathname: string,
): RouteMatch | { readonly methodNotAllowed: true } | undefined {
  let pathExists = false;
  for (const c of compiled) {
    const m = c.regex.exec(pathname);
    if (!m) continue;
    const params: RouteParams = {};
    c.keys.forEach((key, i) => {
      params[key] = decodeURIComponent(m[i + 1] ?? "");
    });
    // "permissions" is a literal segment, never a command id.
    if (params["commandId"] === "permissions") continue;
    pathExists = true;
    if (c.def.method === method) return { name: c.name, def: c.def, params };
  }
  return pathExists ? { methodNotAllowed: true } : undefined;
}
