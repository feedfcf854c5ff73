/**
 * The service API's request pipeline, one stage after another, each able to answer:
 * invalid-request ban (429) | route (404, 405) | global rate limit (429) | injected
 * fault | authentication (401) | route bucket (429) | body (413, 400) | handler.
 * The order matters: a banned client gets 429 before anything else, an unknown path
 * spends no rate limit, and a request without a valid token spends no route bucket.
 */
import type { IncomingHttpHeaders } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { API_PREFIX, AUTHORIZE_PATH, match } from "../provider/routes";
import type { RouteMatch, RouteName } from "../provider/routes";
import { authenticate } from "./auth";
import type { RateLimitSwitch } from "./control";
import { ApiError, Errors } from "./errors";
import type { ChosenFault, FaultInjector } from "./faults";
import { ROUTE_HANDLERS } from "./handlers/table";
import type { BodyRead } from "./requestBody";
import { parseApiBody } from "./requestBody";
import { esc, HtmlDocument } from "./page/html";
import { errorOutcome, limitedOutcome } from "./response";
import type { Outcome } from "./response";
import type { Store } from "./store";

const OAUTH2_ROUTES: ReadonlySet<RouteName> = new Set([
  "oauth2Token",
  "oauth2TokenRevoke",
  "oauth2Authorize",
  "oauth2CurrentAuthorization",
]);

interface ApiRequest {
  readonly method: string;
  readonly pathname: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  /** The client's address: the ban's key, and the global limit's without a token. */
  readonly address: string;
  readonly body: BodyRead;
}

interface Served {
  readonly outcome: Outcome;
  /** The matched route (for the log); null when the request never reached one. */
  readonly route: RouteName | null;
}

interface PipelineParts {
  readonly store: Store;
  /** Read at each stage that limits: the control API switches limits at run time. */
  readonly limits: RateLimitSwitch;
  readonly faults: FaultInjector;
  /** An application's public key (hex), for the answers that carry `verify_key`. */
  readonly verifyKey: (applicationId: string) => string;
  /** Told of errors that are not `ApiError`s (answered 500). */
  readonly onInternalError: ((err: unknown) => void) | undefined;
}

export class ApiPipeline {
  constructor(private readonly parts: PipelineParts) {}

  async serve(req: ApiRequest): Promise<Served> {
    const limiter = this.parts.limits.limiter;
    const banned = limiter?.checkBan(req.address);
    if (banned) return { outcome: limitedOutcome(banned, {}), route: null };

    const found = findRoute(req.method, req.pathname);
    if (found instanceof ApiError) return { outcome: errorOutcome(found), route: null };
    const route = found.name;

    const globalKey = req.headers.authorization ?? `address:${req.address}`;
    const globalLimited = limiter?.checkGlobal(globalKey);
    if (globalLimited) return { outcome: limitedOutcome(globalLimited, {}), route };

    const fault = this.parts.faults.choose(route, req.method);
    if (fault?.phase === "before") {
      const early = await applyFault(fault, undefined, req.body.text);
      if (early) return { outcome: early, route };
    }
    const outcome = this.runRoute(req, found);
    if (fault?.phase === "after") {
      const late = await applyFault(fault, outcome, req.body.text);
      if (late) return { outcome: late, route };
    }
    return { outcome, route };
  }

  /** Authentication, route bucket, body and handler: every failure is a response. */
  private runRoute(req: ApiRequest, m: RouteMatch): Outcome {
    const { store, limits } = this.parts;
    const headers: Record<string, string> = {};
    // The OAuth2 endpoints check the client's id and secret (or nothing, for the consent
    // page) themselves, and read forms or queries.
    const isTokenEndpoint = OAUTH2_ROUTES.has(m.name);
    try {
      const principal = authenticate(req.headers.authorization, store);
      if (!isTokenEndpoint && !principal) throw Errors.unauthorized();
      const limiter = limits.limiter;
      if (limiter) {
        const major = `${m.params["applicationId"] ?? ""}:${m.params["guildId"] ?? ""}`;
        const taken = limiter.take(m.def.bucket, major);
        Object.assign(headers, taken.headers);
        if (taken.limited) return limitedOutcome(taken.limited, headers);
      }
      const body = parseApiBody(req.body, req.headers["content-type"], isTokenEndpoint);
      const result = ROUTE_HANDLERS[m.name]({
        store,
        params: m.params,
        body,
        rawBody: req.body.text,
        query: req.query,
        headers: req.headers,
        principal,
        verifyKey: this.parts.verifyKey,
      });
      return {
        status: result.status,
        body: result.body,
        headers: { ...headers, ...result.headers },
      };
    } catch (err) {
      if (!(err instanceof ApiError)) this.parts.onInternalError?.(err);
      const outcome = errorOutcome(err);
      return { ...outcome, headers: { ...headers, ...outcome.headers } };
    }
  }
}

/**
 * The route of a path: 404 outside the API or for an unknown path, 405 for a known
 * path under another method.
 */
function findRoute(method: string, pathname: string): RouteMatch | ApiError {
  let rest: string | undefined;
  if (pathname.startsWith(`${API_PREFIX}/`)) rest = pathname.slice(API_PREFIX.length);
  // The service serves the OAuth2 endpoints without the version prefix too, and the
  // consent page at the origin's root (docs/topics/oauth2 "OAuth2 URLs").
  else if (pathname.startsWith("/api/oauth2/")) rest = pathname.slice("/api".length);
  else if (pathname === AUTHORIZE_PATH) rest = AUTHORIZE_PATH;
  if (rest === undefined) return Errors.notFound();
  let found: ReturnType<typeof match>;
  try {
    found = match(method, rest);
  } catch {
    return Errors.notFound(); // a malformed percent-encoding in the path
  }
  if (found === undefined) return Errors.notFound();
  if ("methodNotAllowed" in found) return Errors.methodNotAllowed();
  return found;
}

/**
 * An injected fault's response, or undefined to carry on. `done` is the route's own
 * outcome for "after" faults (the write happened); undefined for "before" ones.
 */
async function applyFault(
  fault: ChosenFault,
  done: Outcome | undefined,
  requestText: string,
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
        ...errorOutcome(Errors.serverError(a.status)),
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
    case "error":
      return {
        ...errorOutcome(new ApiError(a.status, a.code, a.message)),
        fault: `error:${a.status}/${a.code}`,
      };
    case "malformed":
      return {
        status: 200,
        body: { unexpected: "a reply in no shape the API describes" },
        headers: {},
        fault: "malformed",
      };
    case "echo":
      return {
        status: a.status,
        body: new HtmlDocument(`<html><body><pre>${esc(requestText)}</pre></body></html>`, {}),
        headers: {},
        fault: `echo:${a.status}`,
      };
  }
}
