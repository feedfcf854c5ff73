/**
 * The emulator's HTTP server (node:http, no framework): `startEmulator()`.
 *
 * A request goes through: control API (`/__emulator/`) | invalid-request ban | body
 * (size limit, content type, JSON) | route (404, 405) | global rate limit | injected
 * faults | authentication (401) | route bucket (429) | handler | response. Nothing a
 * client sends can crash the process: every failure becomes a response in the
 * service's error shape, and writes are all-or-nothing store transactions.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { API_PREFIX, match } from "../provider/routes";
import type { RouteMatch, RouteName } from "../provider/routes";
import { authenticate } from "./auth";
import type { EmulatorConfigInput, RateLimitConfig, ResolvedConfig } from "./config";
import { RateLimitConfig as RateLimitSchema, resolveConfig } from "./config";
import { ControlError, EmulatorControl } from "./control";
import type { RateLimitSwitch } from "./control";
import { ApiError, Errors } from "./errors";
import { FaultInjector } from "./faults";
import type { ChosenFault } from "./faults";
import type { Handler, HandlerResult, RequestContext } from "./handlers/context";
import { bulkOverwrite } from "./handlers/bulkOverwrite";
import { getCommand, listCommands } from "./handlers/commandReads";
import { createCommand, deleteCommand, editCommand } from "./handlers/commandWrites";
import { oauth2Token } from "./handlers/oauth";
import {
  batchEditPermissions,
  editCommandPermissions,
  getCommandPermissions,
  listGuildPermissions,
} from "./handlers/permissions";
import type { Counters, RequestLogEntry } from "./log";
import { RequestLog } from "./log";
import { RateLimiter, rateLimitResponse } from "./ratelimit";
import type { RateLimited } from "./ratelimit";
import { Store } from "./store";

export interface EmulatorOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Host to listen on; default 127.0.0.1. */
  host?: string;
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
  /** Called with one line per request (access log); default: none. */
  onRequest?: (entry: RequestLogEntry) => void;
  /** Called with unexpected errors (answered 500); default: none. */
  onInternalError?: (err: unknown) => void;
}

export interface RunningEmulator {
  /** Base URL without `/api/v10`, e.g. `http://127.0.0.1:53211`. */
  readonly url: string;
  /** `url` + `/api/v10`. */
  readonly apiUrl: string;
  readonly port: number;
  readonly host: string;
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
  /** Control operations in code (faults, drift, clock, Activities, reset...). */
  readonly control: EmulatorControl;
  /** The state (read accessors: command(), commandsIn(), permissions()...). */
  readonly store: Store;
  requestLog(): RequestLogEntry[];
  counters(): Counters;
  close(): Promise<void>;
}

const ROUTE_HANDLERS: Record<RouteName, Handler> = {
  listGlobalCommands: (c) => listCommands(c, false),
  createGlobalCommand: (c) => createCommand(c, false),
  getGlobalCommand: (c) => getCommand(c, false),
  editGlobalCommand: (c) => editCommand(c, false),
  deleteGlobalCommand: (c) => deleteCommand(c, false),
  bulkOverwriteGlobalCommands: (c) => bulkOverwrite(c, false),
  listGuildCommands: (c) => listCommands(c, true),
  createGuildCommand: (c) => createCommand(c, true),
  getGuildCommand: (c) => getCommand(c, true),
  editGuildCommand: (c) => editCommand(c, true),
  deleteGuildCommand: (c) => deleteCommand(c, true),
  bulkOverwriteGuildCommands: (c) => bulkOverwrite(c, true),
  listGuildCommandPermissions: listGuildPermissions,
  getCommandPermissions,
  editCommandPermissions,
  batchEditCommandPermissions: batchEditPermissions,
  oauth2Token,
};

/** Deepest JSON nesting accepted (the deepest valid command body is far shallower). */
const MAX_JSON_DEPTH = 32;

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host.startsWith("127.");
}

function jsonDepthExceeds(value: unknown, max: number): boolean {
  const stack: { v: unknown; d: number }[] = [{ v: value, d: 0 }];
  while (stack.length > 0) {
    const { v, d } = stack.pop() as { v: unknown; d: number };
    if (typeof v !== "object" || v === null) continue;
    if (d >= max) return true;
    for (const child of Object.values(v)) stack.push({ v: child, d: d + 1 });
  }
  return false;
}

interface BodyRead {
  text: string;
  tooLarge: boolean;
  aborted: boolean;
}

function readBody(req: http.IncomingMessage, limit: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    const declared = Number(req.headers["content-length"] ?? "0");
    if (Number.isFinite(declared) && declared > limit) tooLarge = true;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    });
    req.on("end", () =>
      resolve({
        text: tooLarge ? "" : Buffer.concat(chunks).toString("utf8"),
        tooLarge,
        aborted: false,
      }),
    );
    req.on("error", () => resolve({ text: "", tooLarge, aborted: true }));
    req.on("aborted", () => resolve({ text: "", tooLarge, aborted: true }));
  });
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function loadConfig(options: EmulatorOptions): ResolvedConfig {
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

interface Outcome {
  status: number;
  body?: unknown;
  headers: Record<string, string>;
  drop?: boolean;
  fault?: string;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const config = loadConfig(options);
  const host = options.host ?? "127.0.0.1";
  const store = new Store(config, options.statePath);
  const rateConfig: RateLimitConfig | false =
    options.rateLimits === undefined
      ? config.rateLimits
      : options.rateLimits === false
        ? false
        : options.rateLimits === true
          ? config.rateLimits || RateLimitSchema.parse({})
          : options.rateLimits;
  const limits: RateLimitSwitch = {
    limiter:
      rateConfig === false ? undefined : new RateLimiter(rateConfig, () => store.clock.now()),
  };
  const log = new RequestLog();
  const faults = new FaultInjector();
  const controlEnabled = options.control ?? config.control ?? isLoopback(host);
  let info: Record<string, unknown> = {};
  const control = new EmulatorControl(store, log, faults, limits, config, () => info);

  async function serveApi(
    req: http.IncomingMessage,
    method: string,
    pathname: string,
    query: URLSearchParams,
    bodyRead: BodyRead,
  ): Promise<{ outcome: Outcome; route: RouteName | null }> {
    const address = req.socket.remoteAddress ?? "unknown";
    const limiter = limits.limiter;
    const banned = limiter?.checkBan(address);
    if (banned) return { outcome: limitedOutcome(banned, {}), route: null };

    let rest: string | undefined;
    if (pathname.startsWith(`${API_PREFIX}/`)) rest = pathname.slice(API_PREFIX.length);
    else if (pathname === "/api/oauth2/token") rest = "/oauth2/token";
    let found: ReturnType<typeof match>;
    try {
      found = rest === undefined ? undefined : match(method, rest);
    } catch {
      found = undefined; // a malformed percent-encoding in the path
    }
    if (found === undefined) return { outcome: errorOutcome(Errors.notFound()), route: null };
    if ("methodNotAllowed" in found) {
      return { outcome: errorOutcome(Errors.methodNotAllowed()), route: null };
    }
    const m: RouteMatch = found;
    const authHeader = req.headers["authorization"];
    const globalLimited = limiter?.checkGlobal(authHeader ?? `address:${address}`);
    if (globalLimited) return { outcome: limitedOutcome(globalLimited, {}), route: m.name };

    const fault = faults.choose(m.name, method);
    if (fault?.phase === "before") {
      const early = await applyFault(fault, undefined);
      if (early) return { outcome: early, route: m.name };
    }

    const outcome = runRoute(req, m, query, bodyRead);
    if (fault?.phase === "after") {
      const late = await applyFault(fault, outcome);
      if (late) return { outcome: late, route: m.name };
    }
    return { outcome, route: m.name };
  }

  function runRoute(
    req: http.IncomingMessage,
    m: RouteMatch,
    query: URLSearchParams,
    bodyRead: BodyRead,
  ): Outcome {
    const headers: Record<string, string> = {};
    try {
      const principal = authenticate(req.headers["authorization"], store);
      if (m.name !== "oauth2Token" && !principal) throw Errors.unauthorized();
      const limiter = limits.limiter;
      if (limiter) {
        const major = `${m.params["applicationId"] ?? ""}:${m.params["guildId"] ?? ""}`;
        const taken = limiter.take(m.def.bucket, major);
        Object.assign(headers, taken.headers);
        if (taken.limited) return limitedOutcome(taken.limited, headers);
      }
      if (bodyRead.tooLarge) throw Errors.tooLarge();
      let body: unknown;
      if (m.name !== "oauth2Token" && bodyRead.text.trim() !== "") {
        const contentType = String(req.headers["content-type"] ?? "").toLowerCase();
        if (!contentType.startsWith("application/json")) throw Errors.contentType();
        try {
          body = JSON.parse(bodyRead.text);
        } catch {
          throw Errors.invalidJson();
        }
        if (jsonDepthExceeds(body, MAX_JSON_DEPTH)) throw Errors.invalidJson();
      }
      const ctx: RequestContext = {
        store,
        params: m.params,
        body,
        rawBody: bodyRead.text,
        query,
        headers: req.headers,
        principal,
      };
      const result: HandlerResult = ROUTE_HANDLERS[m.name](ctx);
      return {
        status: result.status,
        body: result.body,
        headers: { ...headers, ...result.headers },
      };
    } catch (err) {
      if (!(err instanceof ApiError)) options.onInternalError?.(err);
      return { ...errorOutcome(err), headers: { ...headers } };
    }
  }

  async function applyFault(
    fault: ChosenFault,
    done: Outcome | undefined,
  ): Promise<Outcome | undefined> {
    const a = fault.action;
    switch (a.type) {
      case "delay":
        await sleep(a.ms);
        return done ? { ...done, fault: "delay" } : undefined;
      case "drop":
        return { status: 0, headers: {}, drop: true, fault: "drop" };
      case "status":
        return {
          status: a.status,
          body: {
            code: 0,
            message: `${a.status}: ${http.STATUS_CODES[a.status] ?? "Server Error"}`,
          },
          headers: {},
          fault: `status:${a.status}`,
        };
      case "rate_limit":
        return {
          ...limitedOutcome(
            { retryAfterMs: a.retryAfterMs, global: a.global, scope: a.scope },
            done?.headers ?? {},
          ),
          fault: "rate_limit",
        };
    }
  }

  const server = http.createServer((req, res) => {
    void handle(req, res).catch(() => {
      try {
        if (!res.headersSent) send(res, 500, Errors.internal().toBody(), {});
        else res.destroy();
      } catch {
        res.destroy();
      }
    });
  });
  server.on("clientError", (_err, socket) => {
    if (socket.writable) {
      const body = JSON.stringify({ code: 0, message: "400: Bad Request" });
      socket.end(
        `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    } else socket.destroy();
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const started = performance.now();
    const time = new Date(store.clock.now()).toISOString();
    const method = (req.method ?? "GET").toUpperCase();
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://emulator.invalid");
    } catch {
      req.resume();
      send(res, 400, { code: 0, message: "400: Bad Request" }, {});
      return;
    }
    const bodyRead = await readBody(req, config.maxBodyBytes);
    if (bodyRead.aborted) return;

    if (url.pathname === "/__emulator" || url.pathname.startsWith("/__emulator/")) {
      if (controlEnabled) {
        serveControl(res, method, url.pathname.slice("/__emulator".length), bodyRead);
        return;
      }
    }

    let route: RouteName | null = null;
    let outcome: Outcome;
    try {
      const served = await serveApi(req, method, url.pathname, url.searchParams, bodyRead);
      outcome = served.outcome;
      route = served.route;
    } catch (err) {
      if (!(err instanceof ApiError)) options.onInternalError?.(err);
      outcome = errorOutcome(err);
    }
    const entry: RequestLogEntry = {
      method,
      route,
      path: url.pathname.slice(0, 512),
      status: outcome.status,
      time,
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      ...(outcome.fault === undefined ? {} : { fault: outcome.fault }),
    };
    log.record(entry);
    options.onRequest?.(entry);
    if (outcome.status === 401 || outcome.status === 403 || outcome.status === 429) {
      limits.limiter?.recordInvalid(req.socket.remoteAddress ?? "unknown");
    }
    if (outcome.drop) {
      req.socket.destroy();
      return;
    }
    send(res, outcome.status, outcome.body, outcome.headers);
  }

  function serveControl(res: http.ServerResponse, method: string, sub: string, bodyRead: BodyRead) {
    let body: unknown;
    try {
      if (bodyRead.tooLarge) throw new ControlError(413, "body too large");
      if (bodyRead.text.trim() !== "") {
        try {
          body = JSON.parse(bodyRead.text);
        } catch {
          throw new ControlError(400, "body is not valid JSON");
        }
      }
      const r = control.handleHttp(method, sub, body);
      send(res, r.status, r.body, {});
    } catch (err) {
      const status = err instanceof ControlError ? err.status : 500;
      const message = err instanceof Error ? err.message : String(err);
      send(res, status, { code: 0, message }, {});
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  const url = `http://${urlHost}:${port}`;
  const app = config.applications[0];
  const guild = config.guilds[0];
  const user = config.users[0];
  const userToken = user?.tokens[0];
  const credentials = {
    applicationId: app?.id ?? "",
    botToken: app?.botToken ?? "",
    clientId: app?.clientId ?? "",
    clientSecret: app?.clientSecret ?? "",
    guildId: guild?.id ?? "",
    userId: user?.id ?? "",
  };
  const userBearerToken = userToken?.token ?? "";
  info = { url, apiUrl: `${url}${API_PREFIX}`, ...credentials, bearerToken: userBearerToken };

  let closed: Promise<void> | undefined;
  return {
    url,
    apiUrl: `${url}${API_PREFIX}`,
    port,
    host,
    ...credentials,
    userBearerToken,
    config,
    controlEnabled,
    control,
    store,
    requestLog: () => log.list(),
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

function errorOutcome(err: unknown): Outcome {
  const e = err instanceof ApiError ? err : Errors.internal();
  return { status: e.status, body: e.toBody(), headers: {} };
}

function limitedOutcome(r: RateLimited, headers: Record<string, string>): Outcome {
  const { headers: h, body } = rateLimitResponse(r);
  return { status: 429, body, headers: { ...headers, ...h } };
}

function send(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string>,
): void {
  if (res.headersSent || res.destroyed) return;
  const text = status === 204 || body === undefined ? undefined : JSON.stringify(body);
  res.statusCode = status;
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  if (text !== undefined) {
    res.setHeader("Content-Type", "application/json");
    res.setHeader("Content-Length", Buffer.byteLength(text));
    res.end(text);
  } else res.end();
}
