/**
 * The emulator's HTTP server (node:http, no framework): `startEmulator()` builds the
 * parts (configuration, store, rate limits, faults, log, control), puts the request
 * pipeline on a server behind the Host check (requestGuard.ts) and listens. A request's
 * way through is in dispatch.ts and pipeline.ts; writes are all-or-nothing store
 * transactions.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { API_PREFIX } from "../provider/routes";
import type { ResolvedConfig } from "./config";
import { EmulatorControl } from "./control";
import type { RateLimitSwitch } from "./control";
import { RequestDispatcher } from "./dispatch";
import { FaultInjector } from "./faults";
import type { EmulatorEvent } from "./interactions/events";
import type { AutocompleteRequest, CanUseRequest, InvokeRequest } from "./interactions/requests";
import type {
  ApplicationInteractions,
  CanUseResult,
  InteractionResult,
} from "./interactions/service";
import { InteractionService } from "./interactions/service";
import type { Counters, RequestLogEntry } from "./log";
import { RequestLog } from "./log";
import type { EmulatorOptions } from "./options";
import {
  allowedHosts,
  controlEnabled as isControlEnabled,
  loadConfig,
  pageEnabled,
  startRateLimits,
} from "./options";
import { PageRouter } from "./page/router";
import { Redactor } from "./page/redact";
import { ApiPipeline } from "./pipeline";
import { RateLimitEnforcer } from "./ratelimit";
import type { HostAllowList } from "./requestGuard";
import { hostAllowList, hostRefusal, unspecifiedAddress } from "./requestGuard";
import { send, sendMalformed } from "./response";
import { ServiceErrorCode } from "./schema";
import { Store } from "./store";

export interface RunningEmulator {
  /** Base URL without `/api/v10`, e.g. `http://127.0.0.1:53211`. */
  readonly url: string;
  /** `url` + `/api/v10`. */
  readonly apiUrl: string;
  readonly port: number;
  /** The address listened on (the `host` option: `0.0.0.0` stays `0.0.0.0` here, not in `url`). */
  readonly host: string;
  /**
   * The Host names answered besides loopback ones (`allowedHosts`, normalized; the listen
   * address itself is answered too when it is one address).
   */
  readonly allowedHosts: readonly string[];
  /** The first configured application's credentials (the defaults without a config). */
  readonly applicationId: string;
  readonly botToken: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The first configured guild. */
  readonly guildId: string;
  /** The first configured user and its first token (permissions PUT out of the box). */
  readonly userId: string;
  readonly userBearerToken: string;
  readonly config: ResolvedConfig;
  readonly controlEnabled: boolean;
  /** The page (commands, members, request log, interactions): `url` + `/`, or undefined when off. */
  readonly pageUrl: string | undefined;
  /** Control operations in code (faults, drift, clock, Activities, reset...). */
  readonly control: EmulatorControl;
  /** The state (read accessors: command(), commandsIn(), permissions()...). */
  readonly store: Store;
  /** The first application's Ed25519 public key (hex): what its handler verifies with. */
  readonly publicKey: string;
  /** Keys, interactions endpoint URLs, invocations (emulator/interactions). */
  readonly interactions: InteractionService;
  /** A user invokes a command: `{outcome, reason, interaction, response}`. */
  invoke(request: InvokeRequest): Promise<InteractionResult>;
  /** A user types in an autocomplete option. */
  autocomplete(request: AutocompleteRequest): Promise<InteractionResult>;
  /** May this user see and use this command here? */
  canUse(request: CanUseRequest): CanUseResult;
  /** Verifies and sets an application's interactions endpoint URL (rejects with the reason). */
  setInteractionsEndpoint(
    url: string | null,
    applicationId?: string,
  ): Promise<ApplicationInteractions>;
  /** Gateway events (permissions updates) with an id greater than `after`. */
  events(after?: number): EmulatorEvent[];
  requestLog(): RequestLogEntry[];
  /** The request log itself (what the page pages through; benches and tests can seed it). */
  readonly log: RequestLog;
  counters(): Counters;
  close(): Promise<void>;
}

/** What `GET /__emulator/info` says instead of the credentials to a caller not on loopback. */
const CREDENTIALS_WITHHELD =
  "withheld: the bot token, client secret and Bearer token go to loopback callers only " +
  "(connected over loopback, naming a loopback host such as 127.0.0.1 or localhost)";

/** The first configured application, guild and user: what a caller needs out of the box. */
function firstCredentials(config: ResolvedConfig) {
  const app = config.applications[0];
  const user = config.users[0];
  return {
    applicationId: app?.id ?? "",
    botToken: app?.botToken ?? "",
    clientId: app?.clientId ?? "",
    clientSecret: app?.clientSecret ?? "",
    guildId: config.guilds[0]?.id ?? "",
    userId: user?.id ?? "",
    userBearerToken: user?.tokens[0]?.token ?? "",
  };
}

function listen(server: http.Server, port: number, host: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/**
 * The URL a client on this machine uses. Listening on 0.0.0.0 or `::` means every
 * address, but neither is an address to connect to (Windows and browsers refuse it, and
 * the guard refuses `Host: 0.0.0.0`, no loopback name), so the URL names loopback.
 */
function clientUrl(host: string, port: number): string {
  if (unspecifiedAddress(host))
    return `http://${host.includes(":") ? "[::1]" : "127.0.0.1"}:${port}`;
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/** The HTTP server: the guard's Host check, then the page or the dispatcher. */
function guardedServer(
  allowList: HostAllowList,
  pages: PageRouter,
  dispatcher: RequestDispatcher,
): http.Server {
  const server = http.createServer((req, res) => {
    const refused = hostRefusal(req.headers, allowList, req.socket.localPort ?? 0);
    if (refused) {
      req.resume();
      send(res, refused.status, { code: ServiceErrorCode.GENERAL, message: refused.message }, {});
    } else if (!pages.serve(req, res)) dispatcher.listener(req, res);
  });
  server.on("clientError", (_err, socket) => sendMalformed(socket));
  return server;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const config = loadConfig(options);
  if (options.oauthConsent !== undefined) config.oauthConsent = options.oauthConsent;
  const host = options.host ?? "127.0.0.1";
  const allowList = hostAllowList(host, allowedHosts(options, config));
  const store = new Store(config, options.statePath);
  const rateLimits = startRateLimits(options, config);
  const limits: RateLimitSwitch = {
    limiter:
      rateLimits === false ? undefined : new RateLimitEnforcer(rateLimits, () => store.clock.now()),
  };
  const log = new RequestLog();
  const faults = new FaultInjector();
  const controlEnabled = isControlEnabled(options, config, host);
  // The control API's `info` names the URL, known only once the server listens.
  let info: (withCredentials: boolean) => Record<string, unknown> = () => ({});
  const interactions = new InteractionService(store, log);
  const control = new EmulatorControl(
    store,
    log,
    faults,
    limits,
    config,
    (withCredentials) => info(withCredentials),
    interactions.history,
  );
  const onInternalError = options.onInternalError;
  const dispatcher = new RequestDispatcher({
    api: new ApiPipeline({
      store,
      limits,
      faults,
      onInternalError,
      verifyKey: (id) => (store.application(id) ? interactions.publicKey(id) : ""),
    }),
    control: controlEnabled ? { control, interactions, store } : undefined,
    log,
    limits,
    maxBodyBytes: config.maxBodyBytes,
    now: () => store.clock.now(),
    onRequest: options.onRequest,
    onResponse: options.onResponse,
    onInternalError,
    redact: (text) => new Redactor(store.secrets()).text(text),
  });

  const pages = new PageRouter({
    store,
    log,
    interactions,
    enabled: pageEnabled(options, config, host),
  });
  const server = guardedServer(allowList, pages, dispatcher);
  const port = await listen(server, options.port ?? 0, host);
  const url = clientUrl(host, port);
  const apiUrl = `${url}${API_PREFIX}`;
  const { userBearerToken, ...credentials } = firstCredentials(config);
  const publicKey = credentials.applicationId
    ? interactions.publicKey(credentials.applicationId)
    : "";
  const { botToken, clientSecret, ...ids } = credentials;
  info = (withCredentials) => ({
    url,
    apiUrl,
    ...ids,
    ...(withCredentials
      ? { botToken, clientSecret, bearerToken: userBearerToken }
      : { credentials: CREDENTIALS_WITHHELD }),
    publicKey,
    applications: interactions.applications(),
  });

  let closed: Promise<void> | undefined;
  return {
    url,
    apiUrl,
    port,
    host,
    allowedHosts: allowList.allowedHosts,
    ...credentials,
    userBearerToken,
    config,
    controlEnabled,
    pageUrl: pageEnabled(options, config, host) ? `${url}/` : undefined,
    control,
    store,
    publicKey,
    interactions,
    invoke: (request) => interactions.invoke(request),
    autocomplete: (request) => interactions.autocomplete(request),
    canUse: (request) => interactions.canUse(request),
    setInteractionsEndpoint: (endpoint, applicationId = credentials.applicationId) =>
      interactions.setEndpoint(applicationId, endpoint),
    events: (after = 0) => store.events.after(after),
    requestLog: () => log.list(),
    log,
    counters: () => log.counters(),
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
