/**
 * Responses: what a pipeline stage decided (`Outcome`) and how it is written. Every
 * body is JSON in the service's shapes (a 204 has none), but for the HTML of the page at `/`
 * and of the consent page.
 */
import type { ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { ApiError, Errors } from "./errors";
import { HtmlDocument } from "./page/html";
import { rateLimitResponse } from "./ratelimit";
import type { RateLimited } from "./ratelimit";

export interface Outcome {
  readonly status: number;
  readonly body?: unknown;
  readonly headers: Record<string, string>;
  /** Close the connection without answering (an injected fault). */
  readonly drop?: boolean;
  /** The injected fault, for the request log. */
  readonly fault?: string;
}

/** An `ApiError` as its response; anything else is a 500 (never the error's details). */
export function errorOutcome(err: unknown): Outcome {
  const e = err instanceof ApiError ? err : Errors.internal();
  return { status: e.status, body: e.toBody(), headers: { ...e.headers } };
}

/** A 429, keeping the route bucket's headers when there are any. */
export function limitedOutcome(r: RateLimited, headers: Record<string, string>): Outcome {
  const { headers: h, body } = rateLimitResponse(r);
  return { status: 429, body, headers: { ...headers, ...h } };
}

/** Writes a response unless one was written already or the client is gone. */
export function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string>,
): void {
  if (res.headersSent || res.destroyed) return;
  if (body instanceof HtmlDocument) {
    // The consent page: the one answer of the service API that a browser renders.
    res.statusCode = status;
    for (const [k, v] of Object.entries({ ...headers, ...body.headers })) res.setHeader(k, v);
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.setHeader("Content-Length", Buffer.byteLength(body.html));
    res.end(body.html);
    return;
  }
  const text = status === 204 || body === undefined ? undefined : JSON.stringify(body);
  res.statusCode = status;
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  if (text !== undefined) {
    res.setHeader("Content-Type", "application/json");
    res.setHeader("Content-Length", Buffer.byteLength(text));
    res.end(text);
  } else res.end();
}

/** Answers a request node:http could not parse (there is no `ServerResponse` for it). */
export function sendMalformed(socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(Errors.badRequest().toBody());
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
