/**
 * The one guard in front of everything the emulator serves (service API, control API,
 * page, health), as a local server must be guarded like a public one:
 *
 * - listening on loopback, it answers loopback Host names only: a page of another site
 *   whose DNS name was rebound to 127.0.0.1 reaches the port, but its requests carry that
 *   name (DNS rebinding);
 * - a control request that changes state must be `application/json` and come from no
 *   other origin: a web page of any site can send a form or `text/plain` POST without a
 *   preflight, and only such a request can reach us across sites (we answer no CORS);
 * - the control API's credentials go to loopback callers only.
 *
 * Each refusal is a clear `{code: 0, message}` that says what to send instead.
 */
import type { IncomingHttpHeaders } from "node:http";
import { BlockList, isIP } from "node:net";

export interface Refusal {
  readonly status: number;
  readonly message: string;
}

const LOOPBACK_ADDRESSES = new BlockList();
LOOPBACK_ADDRESSES.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK_ADDRESSES.addAddress("::1", "ipv6");

/** RFC 6761: `localhost` (and its absolute form) always names this machine. */
const LOOPBACK_NAMES: ReadonlySet<string> = new Set(["localhost", "localhost."]);

/** A Host value: a name or IPv4 address, or a bracketed IPv6 address, and a port. */
const HOST_SYNTAX = /^(?:\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i;

/** A peer address (`req.socket.remoteAddress`) on loopback, IPv4-mapped included. */
export function loopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const family = isIP(address);
  if (family === 0) return false;
  return LOOPBACK_ADDRESSES.check(address, family === 4 ? "ipv4" : "ipv6");
}

/**
 * A Host header as a URL, in the form a browser sends (lower case, IPv4 in dotted quads,
 * IPv6 shortest), or undefined when it is no host at all: `evil@127.0.0.1` or
 * `127.0.0.1/x` would parse as a URL, so the syntax is checked first.
 */
function hostUrl(host: string | undefined): URL | undefined {
  if (host === undefined || !HOST_SYNTAX.test(host)) return undefined;
  try {
    return new URL(`http://${host}`);
  } catch {
    return undefined;
  }
}

/** A Host header that names this machine: `localhost`, `localhost.`, 127/8 or `[::1]`, any port. */
export function loopbackHostName(host: string | undefined): boolean {
  const name = hostUrl(host)?.hostname;
  if (name === undefined) return false;
  if (LOOPBACK_NAMES.has(name)) return true;
  const address = name.startsWith("[") ? name.slice(1, -1) : name;
  return loopbackAddress(address);
}

/** A listening host (the `host` option, no brackets) on loopback. */
export function loopbackListenHost(host: string): boolean {
  return loopbackHostName(isIP(host) === 6 ? `[${host}]` : host);
}

/** Connected over loopback and naming a loopback host: what may see the credentials. */
export function loopbackCaller(address: string | undefined, host: string | undefined): boolean {
  return loopbackAddress(address) && loopbackHostName(host);
}

/** A short, printable copy of a header for a message (the values are the client's). */
function quoted(value: string): string {
  return JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}...` : value);
}

/**
 * Every request to a server that listens on loopback (`loopbackOnly`) must name a
 * loopback host; elsewhere the names clients use cannot be known (the server was exposed
 * on purpose, and its control API and page are off unless asked for).
 */
export function hostRefusal(
  headers: IncomingHttpHeaders,
  loopbackOnly: boolean,
  port: number,
): Refusal | undefined {
  if (!loopbackOnly || loopbackHostName(headers.host)) return undefined;
  return {
    status: 403,
    message:
      `The emulator answers loopback host names only (Host ${quoted(headers.host ?? "")}: ` +
      `another name that leads here is how a page of another site reaches it). ` +
      `Address it as http://127.0.0.1:${port}, http://localhost:${port} or http://[::1]:${port}.`,
  };
}

const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD"]);
/** Sec-Fetch-Site values of requests that no other site started. */
const OWN_FETCH_SITES: ReadonlySet<string> = new Set(["same-origin", "none"]);

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The media type of a Content-Type header, lower case, without its parameters. */
function mediaType(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/** An Origin header naming the origin the request was sent to (the Host's). */
function ownOrigin(origin: string, host: string | undefined): boolean {
  const own = hostUrl(host);
  if (own === undefined || origin === "null") return false;
  try {
    const url = new URL(origin);
    return url.protocol === "http:" && url.host === own.host;
  } catch {
    return false;
  }
}

/**
 * A control request that changes state (any method but GET and HEAD) is refused when
 * another site sent it (Origin or Sec-Fetch-Site) or when it is not `application/json`,
 * which a page of another site cannot send without a preflight that we never answer.
 */
export function controlWriteRefusal(
  method: string,
  headers: IncomingHttpHeaders,
): Refusal | undefined {
  if (SAFE_METHODS.has(method)) return undefined;
  const origin = firstValue(headers.origin);
  const fetchSite = firstValue(headers["sec-fetch-site"]);
  const foreignOrigin = origin !== undefined && !ownOrigin(origin, headers.host);
  const foreignSite = fetchSite !== undefined && !OWN_FETCH_SITES.has(fetchSite.toLowerCase());
  if (foreignOrigin || foreignSite) {
    const what = foreignOrigin
      ? `Origin ${quoted(origin)}`
      : `Sec-Fetch-Site ${quoted(fetchSite ?? "")}`;
    return {
      status: 403,
      message:
        `The control API refuses a change sent by a page of another site (${what}). ` +
        "Send it from a script or a tool (no Origin header, Content-Type: application/json), " +
        "or from a page of the emulator's own origin.",
    };
  }
  if (mediaType(headers["content-type"]) !== "application/json") {
    return {
      status: 415,
      message:
        `A control request that changes state must be JSON: send Content-Type: application/json ` +
        `(a request without a body too; got ${quoted(headers["content-type"] ?? "none")}).`,
    };
  }
  return undefined;
}
