/**
 * A small interaction handler for tests: a node:http server that checks each request's
 * signature with discord-interactions' `verifyKey` (a library nobody on this project
 * wrote), answers PING with PONG, and answers everything else with what the test says.
 * It records every request it receives, verified or not.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { verifyKey } from "discord-interactions";

export interface Received {
  readonly headers: http.IncomingHttpHeaders;
  readonly raw: string;
  readonly body: Record<string, unknown>;
  readonly verified: boolean;
  /** Handler's wall clock, seconds, when the request arrived. */
  readonly receivedAt: number;
}

export type Answer = { status?: number; body?: unknown; delayMs?: number };

export interface TestHandler {
  readonly url: string;
  readonly received: Received[];
  /** What to answer to a verified non-PING interaction. */
  answer: (interaction: Record<string, unknown>) => Answer;
  close(): Promise<void>;
}

export async function startHandler(
  publicKey: string,
  options: { checkSignatures?: boolean } = {},
): Promise<TestHandler> {
  const checkSignatures = options.checkSignatures ?? true;
  const received: Received[] = [];
  const handler: TestHandler = {
    url: "",
    received,
    answer: () => ({ body: { type: 4, data: { content: "ok" } } }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const signature = String(req.headers["x-signature-ed25519"] ?? "");
        const timestamp = String(req.headers["x-signature-timestamp"] ?? "");
        const verified = await verifyKey(raw, signature, timestamp, publicKey);
        const body = JSON.parse(raw) as Record<string, unknown>;
        received.push({ headers: req.headers, raw, body, verified, receivedAt: Date.now() / 1000 });
        const reply = (status: number, payload: unknown) => {
          res.writeHead(status, { "Content-Type": "application/json" });
          res.end(payload === undefined ? "" : JSON.stringify(payload));
        };
        if (checkSignatures && !verified) return reply(401, { error: "invalid request signature" });
        if (body["type"] === 1) return reply(200, { type: 1 });
        const a = handler.answer(body);
        if (a.delayMs) await new Promise((r) => setTimeout(r, a.delayMs));
        if (!res.destroyed) reply(a.status ?? 200, a.body);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  Object.assign(handler, { url: `http://127.0.0.1:${port}/interactions` });
  return handler;
}
