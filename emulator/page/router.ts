/**
 * The page's requests, before the service API: `GET /` (the page), `GET /__page/log.json`
 * (live log rows), both only when the page is on (loopback hosts by default, like the
 * control API), and `POST /oauth2/authorize`, the consent page's answer, always (the
 * consent page is the service's own).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { decideConsent } from "../handlers/consent";
import type { InteractionService } from "../interactions/service";
import type { RequestLog } from "../log";
import { send } from "../response";
import type { Store } from "../store";
import { renderPage } from "./page";
import { Redactor } from "./redact";
import { logSince } from "./requests";

const MAX_FORM_BYTES = 16 * 1024;

interface PageRouterParts {
  readonly store: Store;
  readonly log: RequestLog;
  readonly interactions: InteractionService;
  /** The page and its live log are served. */
  readonly enabled: boolean;
}

export class PageRouter {
  constructor(private readonly parts: PageRouterParts) {}

  /** Redacts every secret the emulator holds now, the interactions' tokens included. */
  private redactor(): Redactor {
    const { store, interactions } = this.parts;
    const interactionTokens = interactions.history.list().flatMap((d) => {
      const token = d.result.interaction?.["token"];
      return typeof token === "string" ? [token] : [];
    });
    return new Redactor([...store.secrets(), ...interactionTokens]);
  }

  /** Serves the request and returns true when it is the page's; false leaves it to the API. */
  serve(req: IncomingMessage, res: ServerResponse): boolean {
    const method = (req.method ?? "GET").toUpperCase();
    const pathname = (req.url ?? "/").split("?")[0] ?? "/";
    if (method === "POST" && pathname === "/oauth2/authorize") {
      void this.consentDecision(req, res).catch(() => res.destroy());
      return true;
    }
    if (!this.parts.enabled || method !== "GET") return false;
    if (pathname !== "/" && pathname !== "/__page/log.json") return false;
    const query = new URL(req.url ?? "/", "http://emulator.invalid").searchParams;
    const { store, log, interactions } = this.parts;
    if (pathname === "/") {
      const redactor = this.redactor();
      send(res, 200, renderPage({ store, log, interactions, redactor }, query), {});
      return true;
    }
    const after = Number(query.get("after") ?? "0");
    const scope = query.get("logscope") ?? "all";
    const since = logSince(log, scope, Number.isFinite(after) ? after : 0, this.redactor());
    const counters = log.counters();
    send(
      res,
      200,
      {
        ...since,
        total: `${counters.total.toLocaleString("en-US")} requests in all (live)`,
        writes: counters.writes,
      },
      { "Cache-Control": "no-store" },
    );
    return true;
  }

  private async consentDecision(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const time = new Date(this.parts.store.clock.now()).toISOString();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_FORM_BYTES) {
        send(res, 413, { code: 0, message: "Request entity too large" }, {});
        return;
      }
      chunks.push(chunk);
    }
    const result = decideConsent(
      this.parts.store,
      new URLSearchParams(Buffer.concat(chunks).toString("utf8")),
    );
    this.parts.log.record({
      method: "POST",
      route: "oauth2Authorize",
      path: "/oauth2/authorize",
      status: result.status,
      time,
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
    });
    send(res, result.status, result.body, result.headers ?? {});
  }
}
