/**
 * The emulator's configuration: the zod schema of the JSON config file (`--config`)
 * and of `startEmulator({ config })`, with the documented defaults.
 *
 * Without configuration the emulator serves one application and one guild that has
 * authorized it, with the fixed ids and tokens in `DEFAULTS` below, plus one user who
 * can edit command permissions in that guild.
 *
 * Each top-level section (`applications`, `users`, `guilds`) that a config declares
 * replaces the default section as a whole; sections it leaves out keep the defaults.
 */
import { z } from "zod";
import { allowedHostEntry } from "./requestGuard";
import { ServiceLimits } from "./rules/limits";
import { PermissionFlags, SNOWFLAKE_PATTERN } from "./schema";

/** Fixed ids and credentials of the default configuration (documented; stable across runs). */
export const DEFAULTS = {
  applicationId: "1300000000000000001",
  botToken: "emulator-bot-token",
  clientId: "1300000000000000001",
  clientSecret: "emulator-client-secret",
  guildId: "1300000000000000002",
  userId: "1300000000000000003",
  userBearerToken: "emulator-user-token",
  userScopes: ["applications.commands.permissions.update", "identify"],
  /** The role that grants MANAGE_GUILD and MANAGE_ROLES to the default user. */
  managerRoleId: "1300000000000000004",
  channelId: "1300000000000000005",
} as const;

const snowflake = z.string().regex(SNOWFLAKE_PATTERN, "a snowflake: a decimal string");
/** An `allowedHosts` entry, normalized, or an issue saying what to give. */
function allowedHost(entry: string, ctx: z.RefinementCtx): string {
  try {
    return allowedHostEntry(entry);
  } catch (err) {
    ctx.addIssue({ code: "custom", message: (err as Error).message });
    return z.NEVER;
  }
}
const permissionBits = z.string().regex(/^\d{1,40}$/, "permission bits as a decimal string");

export const ApplicationConfig = z.strictObject({
  id: snowflake,
  name: z.string().default("Emulated App"),
  botToken: z.string().min(1),
  /** Defaults to the application id, as on the service. */
  clientId: z.string().min(1).optional(),
  clientSecret: z.string().min(1),
  /** Activities enabled: the `Launch` entry point (handler 2) exists. */
  activities: z.boolean().default(false),
  /** Discovery enabled: age-restricted (nsfw) commands are refused. */
  discovery: z.boolean().default(false),
  /** Installation contexts the application supports (0 GUILD_INSTALL, 1 USER_INSTALL). */
  installationContexts: z.array(z.number().int().min(0).max(1)).min(1).default([0]),
  /**
   * Registered OAuth2 redirect URIs: `redirect_uri` must equal one exactly, except that a
   * loopback URI (`http://127.0.0.1/...`, `http://[::1]/...`, `http://localhost/...`)
   * matches on any port (RFC 8252 section 7.3).
   */
  redirectUris: z.array(z.url()).default(["http://127.0.0.1/callback"]),
  /** Public client: the code and refresh grants need only `client_id` (PKCE protects them). */
  publicClient: z.boolean().default(false),
  /**
   * The user who consents on `GET /oauth2/authorize` (no browser, no login page); none:
   * the consent is denied (`error=access_denied`). The control API can change it.
   */
  consentUserId: snowflake.optional(),
  /**
   * Where interactions are delivered (an HTTP(S) URL). Taken as is from the config (the
   * handler may start after the emulator); set at run time through the control API, it
   * is verified as the service verifies it (verifyEndpoint, emulator/interactions/delivery.ts).
   */
  interactionsEndpointUrl: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * The Ed25519 private key that signs interactions, as 64 hex characters (the 32-byte
   * seed); a fresh key pair is generated at each start when absent.
   */
  interactionsPrivateKey: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, "64 hex characters (a 32-byte Ed25519 seed)")
    .optional(),
});

const AccessTokenConfig = z.strictObject({
  token: z.string().min(1),
  scopes: z.array(z.string()).default([]),
  /** The application the user authorized with this token; any when absent. */
  applicationId: snowflake.optional(),
});

export const UserConfig = z.strictObject({
  id: snowflake,
  username: z.string().default("emulated-user"),
  /** The user's settings locale (used for `*_localized` when no header names one). */
  locale: z.string().default("en-US"),
  tokens: z.array(AccessTokenConfig).default([]),
  /** Age-verified (18 or older): may see and use age-restricted (nsfw) commands. */
  ageVerified: z.boolean().default(false),
});

const RoleConfig = z.strictObject({
  id: snowflake,
  name: z.string().default("role"),
  permissions: permissionBits.default("0"),
});

/** A channel's permission overwrite: type 0 = role (the guild id = @everyone), 1 = member. */
const ChannelOverwriteConfig = z.strictObject({
  id: snowflake,
  type: z.union([z.literal(0), z.literal(1)]),
  allow: permissionBits.default("0"),
  deny: permissionBits.default("0"),
});

export const ChannelConfig = z.strictObject({
  id: snowflake,
  name: z.string().default("channel"),
  type: z.number().int().default(0),
  /** A thread's parent channel (or a channel's category). */
  parentId: snowflake.optional(),
  /** Age-restricted channel: the only place age-restricted commands can be used. */
  nsfw: z.boolean().default(false),
  /** Overwrites of the members' permissions in this channel (a thread uses its parent's). */
  permissionOverwrites: z.array(ChannelOverwriteConfig).default([]),
});

const MemberConfig = z.strictObject({
  userId: snowflake,
  roles: z.array(snowflake).default([]),
  /** Extra permission bits granted directly (on top of @everyone and the roles). */
  permissions: permissionBits.default("0"),
});

export const GuildConfig = z.strictObject({
  id: snowflake,
  name: z.string().default("Emulated Guild"),
  ownerId: snowflake.optional(),
  /** The guild's locale (`guild_locale` of the interactions sent from it). */
  preferredLocale: z.string().default("en-US"),
  /** Roles besides @everyone (whose id is the guild id; add it here to give it bits). */
  roles: z.array(RoleConfig).default([]),
  channels: z.array(ChannelConfig).default([]),
  members: z.array(MemberConfig).default([]),
  /** Applications authorized in the guild with the applications.commands scope. */
  authorizedApplications: z.array(snowflake).default([]),
});

const Window = z.strictObject({
  limit: z.number().int().min(1),
  windowMs: z.number().int().min(1),
});

/**
 * Rate limits. Defaults (close to the service's observed behaviour; every value can be
 * overridden, and `rateLimits: false` / `--no-rate-limits` turns them all off):
 * - global: 50 requests per second per token (per client address without a token);
 * - per route bucket (bucket = the route's `bucket` in provider/routes.ts, one per route
 *   and method, + application id + guild id), fixed windows:
 *   - creates (`global-commands-create`, `guild-commands-create`): 5 per 20 s;
 *   - `oauth2-token`: 5 per 10 s;
 *   - every other bucket (a scope's list GET and its bulk PUT, each on its own; one
 *     command's get, edit, delete; permissions): `routeDefault`, 5 per 5 s;
 * - invalid requests (401, 403 and 429 responses): 10,000 per 10 minutes per client
 *   address; past that, every request from the address gets 429 (scope "global") for
 *   `banMs` (10 minutes).
 * The daily create limit (200 per scope per day) is not a rate limit: see
 * `dailyCreateLimit`.
 */
export const RateLimitConfig = z.strictObject({
  global: Window.default({ limit: 50, windowMs: 1000 }),
  routeDefault: Window.default({ limit: 5, windowMs: 5000 }),
  routes: z.record(z.string(), Window).default({
    "global-commands-create": { limit: 5, windowMs: 20000 },
    "guild-commands-create": { limit: 5, windowMs: 20000 },
    "oauth2-token": { limit: 5, windowMs: 10000 },
  }),
  invalidRequests: z
    .strictObject({
      limit: z.number().int().min(1),
      windowMs: z.number().int().min(1),
      banMs: z.number().int().min(1),
    })
    .default({ limit: 10000, windowMs: 600000, banMs: 600000 }),
});
export type RateLimitConfig = z.infer<typeof RateLimitConfig>;

export const EmulatorConfig = z.strictObject({
  applications: z.array(ApplicationConfig).optional(),
  users: z.array(UserConfig).optional(),
  guilds: z.array(GuildConfig).optional(),
  /** `false` turns rate limiting off; an object overrides the defaults. */
  rateLimits: z.union([z.literal(false), z.literal(true), RateLimitConfig]).default(true),
  /** Lifetime of client-credentials tokens, seconds. */
  tokenTtlSeconds: z.number().int().min(1).default(604800),
  /**
   * The refresh grant rotates the refresh token: the one used is spent and a new one
   * comes with the access token (as on the service: discord/discord-api-docs#5942).
   */
  rotateRefreshTokens: z.boolean().default(true),
  /** Commands created per day per scope (per guild; per application for global). */
  dailyCreateLimit: z.number().int().min(0).default(ServiceLimits.DAILY_CREATES),
  /**
   * How a spent daily create budget is answered. The service has been seen to answer
   * both ways: `400` (code 30034) or `429` (code 30034, with a `Retry-After` of hours:
   * the time until the oldest create of the last 24 hours leaves the window).
   */
  dailyCreateLimitStatus: z.union([z.literal(400), z.literal(429)]).default(400),
  /** Largest accepted request body, bytes. */
  maxBodyBytes: z
    .number()
    .int()
    .min(1024)
    .default(8 * 1024 * 1024),
  /** Host names answered besides loopback ones, on any listen address (`--allowed-host`). */
  allowedHosts: z.array(z.string().transform(allowedHost)).optional(),
  /** Control API under `/__emulator/`; default: on when listening on a loopback host. */
  control: z.boolean().optional(),
  /** The page at `/` (commands, members, request log); default: on for a loopback host. */
  page: z.boolean().optional(),
  /**
   * `GET /oauth2/authorize`: `"automatic"` (the consenting user agrees at once: headless
   * runs and tests) or `"page"` (a consent page where a person approves or denies).
   */
  oauthConsent: z.enum(["automatic", "page"]).default("automatic"),
});
export type EmulatorConfigInput = z.input<typeof EmulatorConfig>;

export type ApplicationConfig = z.infer<typeof ApplicationConfig>;
export type UserConfig = z.infer<typeof UserConfig>;
export type GuildConfig = z.infer<typeof GuildConfig>;
export type ChannelConfig = z.infer<typeof ChannelConfig>;

/**
 * What a new guild's @everyone role may do on the service (view channels, send messages
 * and use application commands, among others): the default guild's @everyone gets these
 * bits. A configured guild's @everyone has the bits its `roles` entry gives it (none
 * when the guild id is not listed there).
 */
const DEFAULT_EVERYONE_PERMISSIONS =
  PermissionFlags.CREATE_INSTANT_INVITE |
  PermissionFlags.ADD_REACTIONS |
  PermissionFlags.VIEW_CHANNEL |
  PermissionFlags.SEND_MESSAGES |
  PermissionFlags.EMBED_LINKS |
  PermissionFlags.ATTACH_FILES |
  PermissionFlags.READ_MESSAGE_HISTORY |
  PermissionFlags.USE_EXTERNAL_EMOJIS |
  PermissionFlags.CONNECT |
  PermissionFlags.SPEAK |
  PermissionFlags.USE_APPLICATION_COMMANDS |
  PermissionFlags.SEND_MESSAGES_IN_THREADS |
  PermissionFlags.CREATE_PUBLIC_THREADS;

/** A configuration with every default applied. */
export interface ResolvedConfig {
  applications: (ApplicationConfig & { clientId: string })[];
  users: UserConfig[];
  guilds: GuildConfig[];
  rateLimits: RateLimitConfig | false;
  tokenTtlSeconds: number;
  rotateRefreshTokens: boolean;
  dailyCreateLimit: number;
  dailyCreateLimitStatus: 400 | 429;
  maxBodyBytes: number;
  allowedHosts: string[] | undefined;
  control: boolean | undefined;
  page: boolean | undefined;
  oauthConsent: "automatic" | "page";
}

function defaultSections(): Pick<ResolvedConfig, "applications" | "users" | "guilds"> {
  return {
    applications: [
      {
        id: DEFAULTS.applicationId,
        name: "Emulated App",
        botToken: DEFAULTS.botToken,
        clientId: DEFAULTS.clientId,
        clientSecret: DEFAULTS.clientSecret,
        activities: false,
        discovery: false,
        installationContexts: [0],
        redirectUris: ["http://127.0.0.1/callback"],
        publicClient: false,
        consentUserId: DEFAULTS.userId,
      },
    ],
    users: [
      {
        id: DEFAULTS.userId,
        username: "emulated-admin",
        locale: "en-US",
        tokens: [{ token: DEFAULTS.userBearerToken, scopes: [...DEFAULTS.userScopes] }],
        ageVerified: false,
      },
    ],
    guilds: [
      {
        id: DEFAULTS.guildId,
        name: "Emulated Guild",
        preferredLocale: "en-US",
        roles: [
          {
            id: DEFAULTS.managerRoleId,
            name: "Manager",
            permissions: String(PermissionFlags.MANAGE_GUILD | PermissionFlags.MANAGE_ROLES),
          },
          // After the Manager role: programs and tests read `roles[0]` as the Manager role.
          {
            id: DEFAULTS.guildId,
            name: "@everyone",
            permissions: String(DEFAULT_EVERYONE_PERMISSIONS),
          },
        ],
        channels: [
          {
            id: DEFAULTS.channelId,
            name: "general",
            type: 0,
            nsfw: false,
            permissionOverwrites: [],
          },
        ],
        members: [{ userId: DEFAULTS.userId, roles: [DEFAULTS.managerRoleId], permissions: "0" }],
        authorizedApplications: [DEFAULTS.applicationId],
      },
    ],
  };
}

/** Formats zod issues as one line each: `path: message`. */
export function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => `  ${i.path.length ? i.path.join(".") : "(root)"}: ${i.message}`)
    .join("\n");
}

/** Parses and completes a configuration; throws an Error naming every problem. */
export function resolveConfig(input: unknown, source = "configuration"): ResolvedConfig {
  const parsed = EmulatorConfig.safeParse(input ?? {});
  if (!parsed.success) {
    throw new Error(`invalid emulator ${source}:\n${formatIssues(parsed.error)}`);
  }
  const c = parsed.data;
  const defaults = defaultSections();
  const rateLimits: RateLimitConfig | false =
    c.rateLimits === false
      ? false
      : c.rateLimits === true
        ? RateLimitConfig.parse({})
        : c.rateLimits;
  const resolved: ResolvedConfig = {
    applications: (c.applications ?? defaults.applications).map((a) => ({
      ...a,
      clientId: a.clientId ?? a.id,
    })),
    users: c.users ?? defaults.users,
    guilds: c.guilds ?? defaults.guilds,
    rateLimits,
    tokenTtlSeconds: c.tokenTtlSeconds,
    rotateRefreshTokens: c.rotateRefreshTokens,
    dailyCreateLimit: c.dailyCreateLimit,
    dailyCreateLimitStatus: c.dailyCreateLimitStatus,
    maxBodyBytes: c.maxBodyBytes,
    allowedHosts: c.allowedHosts,
    control: c.control,
    page: c.page,
    oauthConsent: c.oauthConsent,
  };
  const appIds = new Set<string>();
  for (const a of resolved.applications) {
    if (appIds.has(a.id))
      throw new Error(`invalid emulator ${source}: duplicate application ${a.id}`);
    appIds.add(a.id);
  }
  const tokens = new Set<string>();
  const claim = (t: string, what: string) => {
    if (tokens.has(t)) throw new Error(`invalid emulator ${source}: token used twice (${what})`);
    tokens.add(t);
  };
  for (const a of resolved.applications) claim(a.botToken, `bot token of ${a.id}`);
  for (const u of resolved.users) for (const t of u.tokens) claim(t.token, `user ${u.id}`);
  return resolved;
}
