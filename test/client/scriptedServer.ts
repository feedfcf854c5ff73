/**
 * A small scripted HTTP server for the client's tests: every request is recorded and
 * answered by the current `handler`. Listens on a free port of 127.0.0.1.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { API_PREFIX } from "../../provider/routes";

export interface Recorded {
  readonly method: string;
  /** Path below `/api/v10`. */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export type Reply =
  | {
      readonly status: number;
      readonly json?: unknown;
      readonly text?: string;
      readonly headers?: Readonly<Record<string, string>>;
    }
  /** Destroy the socket without answering (a dropped connection). */
  | "destroy"
  /** Never answer (until the server closes). */
  | "hang";

export type Handler = (req: Recorded) => Reply | Promise<Reply>;

export class ScriptedServer {
  readonly hits: Recorded[] = [];
  handler: Handler = () => ({ status: 404, json: { code: 0, message: "404: Not Found" } });
  #server = createServer((req, res) => void this.#serve(req, res));
  #url = "";

  static async start(): Promise<ScriptedServer> {
    const s = new ScriptedServer();
    await new Promise<void>((resolve) => s.#server.listen(0, "127.0.0.1", resolve));
    const { port } = s.#server.address() as AddressInfo;
    s.#url = `http://127.0.0.1:${port}`;
    return s;
  }

  /** The origin, e.g. `http://127.0.0.1:40123` (without `/api/v10`). */
  get url(): string {
    return this.#url;
  }

  reset(handler: Handler): void {
    this.hits.length = 0;
    this.handler = handler;
  }

  /** Recorded requests whose path (below /api/v10) starts with `prefix`. */
  hitsOn(prefix: string): Recorded[] {
    return this.hits.filter((h) => h.path.startsWith(prefix));
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://localhost");
    const recorded: Recorded = {
      method: req.method ?? "",
      path: url.pathname.startsWith(API_PREFIX)
        ? url.pathname.slice(API_PREFIX.length)
        : url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: Buffer.concat(chunks).toString("utf8"),
    };
    this.hits.push(recorded);
    const reply = await this.handler(recorded);
    if (reply === "destroy") {
      req.socket.destroy();
      return;
    }
    if (reply === "hang") return;
    const headers: Record<string, string> = { ...reply.headers };
    let body = "";
    if (reply.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(reply.json);
    } else if (reply.text !== undefined) {
      headers["content-type"] ??= "text/plain";
      body = reply.text;
    }
    res.writeHead(reply.status, headers);
    res.end(body);
  }
}

/** A command as the service would return it. */
export function wireCommand(id: string, name: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    application_id: "100",
    type: 1,
    name,
    description: `${name} command`,
    default_member_permissions: null,
    nsfw: false,
    version: "1",
    ...extra,
  };
}

/** A fake clock whose `sleep` advances time instantly and records every wait. */
export class FakeClock {
  t = 1_700_000_000_000;
  readonly sleeps: number[] = [];
  readonly now = (): number => this.t;
  readonly sleep = async (ms: number): Promise<void> => {
    this.sleeps.push(ms);
    this.t += ms;
    await Promise.resolve();
  };
}

/** Resolves once `condition()` holds, letting I/O run in between (fails after ~5 s). */
export async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 5000 && !condition(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  if (!condition()) throw new Error(`timed out waiting for ${what}`);
}

/** Anything the fixture closes after the test file: a client. */
interface Closable {
  close(): Promise<void>;
}

/**
 * Starts one scripted server for a test file (handed to `use` in `beforeAll`) and closes
 * it, with every client passed to the returned `track`, in `afterAll`.
 */
export function useScriptedServer(
  use: (server: ScriptedServer) => void,
): <T extends Closable>(client: T) => T {
  let server: ScriptedServer | undefined;
  const open: Closable[] = [];
  beforeAll(async () => {
    server = await ScriptedServer.start();
    use(server);
  });
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
    await server?.close();
  });
  return (client) => {
    open.push(client);
    return client;
  };
}
