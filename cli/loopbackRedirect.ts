/**
 * The browser's half of the authorization: a server on 127.0.0.1 that receives the
 * redirect (a loopback redirect, RFC 8252 section 7.3), and the browser opened on the
 * authorize URL when a launcher is there.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import * as path from "node:path";

/** A server listening on 127.0.0.1, and the redirect URI that reaches it. */
interface LoopbackServer {
  readonly server: http.Server;
  readonly redirectUri: string;
}

/** Listens on 127.0.0.1 at `port` (0: any free port). */
export async function listenOnLoopback(port: number): Promise<LoopbackServer> {
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const address = server.address();
  const bound = typeof address === "object" && address !== null ? address.port : port;
  return { server, redirectUri: `http://127.0.0.1:${bound}/callback` };
}

export function closeLoopback({ server }: LoopbackServer): void {
  server.closeAllConnections();
  server.close();
}

/** What a redirect says: the page the browser gets, and the code or why there is none. */
type RedirectVerdict = { readonly status: number; readonly page: string } & (
  { readonly code: string } | { readonly error: Error }
);

/** The redirect's query judged: its `state` must be the one sent, and it must carry a code. */
function judgeRedirect(query: URLSearchParams, state: string): RedirectVerdict {
  if (query.get("state") !== state) {
    return {
      status: 400,
      page: "Authorization refused: the state does not match this request.",
      error: new Error(
        "the redirect's state does not match the one sent: the answer may not come from " +
          "your authorization (nothing was stored)",
      ),
    };
  }
  const error = query.get("error");
  if (error !== null) {
    const description = query.get("error_description") ?? "";
    return {
      status: 400,
      page: `Authorization failed: ${error}`,
      error: new Error(`the service refused the authorization: ${error} ${description}`.trim()),
    };
  }
  const code = query.get("code");
  if (code === null || code === "") {
    return {
      status: 400,
      page: "Authorization failed: no code.",
      error: new Error("the redirect carries no code"),
    };
  }
  return {
    status: 200,
    page: "Authorized. You can close this tab and return to the terminal.",
    code,
  };
}

/**
 * Serves the loopback redirect until one request on `/callback` arrives: checks it and
 * answers the browser with a short page. Resolves with the code, or rejects.
 */
export function awaitRedirect(
  { server }: LoopbackServer,
  state: string,
  timeoutMs: number,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no answer from the browser within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      if (url.pathname !== "/callback") {
        res.writeHead(404).end();
        return;
      }
      clearTimeout(timer);
      const verdict = judgeRedirect(url.searchParams, state);
      res
        .writeHead(verdict.status, { "content-type": "text/plain; charset=utf-8" })
        .end(`${verdict.page}\n`);
      if ("code" in verdict) resolve(verdict.code);
      else reject(verdict.error);
    });
  });
}

/** Opens the URL in a browser when a launcher is on PATH; never fails. */
export function openBrowser(url: string, env: NodeJS.ProcessEnv): boolean {
  const launcher = process.platform === "darwin" ? "open" : "xdg-open";
  const found = (env["PATH"] ?? "")
    .split(path.delimiter)
    .some((dir) => dir !== "" && fs.existsSync(path.join(dir, launcher)));
  if (!found) return false;
  try {
    const child = spawn(launcher, [url], { stdio: "ignore", detached: true, env });
    child.on("error", () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}
