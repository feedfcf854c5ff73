/**
 * The one guard in front of everything the emulator serves (service API, control API,
 * page, health), as a local server must be guarded like a public one:
 *
 * - it answers loopback Host names, the names listed in `allowedHosts` (`--allowed-host`)
 *   and the address it listens on when that is one address, on any listen address: a page
 *   of another site whose DNS name was rebound to this machine reaches the port, but its
 *   requests carry that name (DNS rebinding). Listening on 0.0.0.0 does not change that:
 *   the names clients use there must be listed, as webpack-dev-server's `allowedHosts` and
 *   Vite's `server.allowedHosts` ask;
 * - a control request that changes state must be `application/json` and come from no
 *   other origin: a web page of any site can send a form or `text/plain` POST without a
 *   preflight, and only such a request can reach us across sites (we answer no CORS);
 * - the control API's credentials go to loopback callers only.
 *
 * Each refusal is a clear `{code: 0, message}` that says what to send instead.
 */
import type { IncomingHttpHeaders } from "node:http";
import { BlockList, isIP } from "node:net";

interface Refusal {
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
function loopbackAddress(address: string | undefined): boolean {
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

/** The Host names the guard answers besides the loopback ones (`hostAllowList`). */
export interface HostAllowList {
  /** The address or name the server listens on (the `host` option). */
  readonly listenHost: string;
  /** The `allowedHosts` entries, normalized (`emulator`, `.ci.internal`, `[fd00::1]`). */
  readonly allowedHosts: readonly string[];
  /** Host names answered as they are: the listed names and the one listen address. */
  readonly names: ReadonlySet<string>;
  /** From `.name` entries: that name and every name under it. */
  readonly domains: readonly string[];
}

/** A host name without the trailing dot of its absolute form (`emulator.` is `emulator`). */
const relative = (name: string): string => (name.endsWith(".") ? name.slice(0, -1) : name);

/** The unspecified addresses, as `hostUrl` writes them: "every address" to a listener. */
const UNSPECIFIED: ReadonlySet<string> = new Set(["0.0.0.0", "[::]"]);

/** An address or name as the `host` option or an entry gives it (IPv6 without brackets). */
function listedHostName(host: string): string | undefined {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  if (isIP(bare) === 6) return hostUrl(`[${bare}]`)?.hostname;
  // Any other colon is a port or a scheme (`emulator:80` would parse, the port dropped).
  return host.includes(":") ? undefined : hostUrl(host)?.hostname;
}

/**
 * One `allowedHosts` entry as the guard compares it: a host name, IPv4 or IPv6 address
 * (brackets optional) in the form a browser sends it, or `.name` for a name and every name
 * under it (as webpack-dev-server and Vite read a leading dot). No scheme, port or
 * wildcard: the port is not part of what a rebound page changes. Throws saying what to give.
 */
export function allowedHostEntry(entry: string): string {
  const domain = entry.startsWith(".");
  const hostname = listedHostName(domain ? entry.slice(1) : entry);
  const name = hostname === undefined ? "" : relative(hostname);
  if (name === "" || UNSPECIFIED.has(name) || (domain && name.startsWith("["))) {
    throw new Error(
      `allowed host ${quoted(entry)} is not a host name clients use: give a name or an address without ` +
        "scheme or port, such as emulator, 10.0.0.5 or .ci.internal (that name and every name under it)",
    );
  }
  return `${domain ? "." : ""}${name}`;
}

/** An address that means "every address" when listening, and no address to connect to. */
export function unspecifiedAddress(host: string): boolean {
  return UNSPECIFIED.has(listedHostName(host) ?? "");
}

/**
 * What the guard answers besides loopback names: the `allowedHosts` entries (validated by
 * `allowedHostEntry`) and the listen address itself when it is one address or name
 * (`--host 10.0.0.5`: the operator named what clients reach; 0.0.0.0 names nothing).
 */
export function hostAllowList(listenHost: string, allowedHosts: readonly string[]): HostAllowList {
  const entries = [...new Set(allowedHosts.map(allowedHostEntry))];
  const names = new Set(entries.filter((e) => !e.startsWith(".")));
  const domains = entries.filter((e) => e.startsWith(".")).map((e) => e.slice(1));
  const own = listedHostName(listenHost);
  if (own !== undefined && !unspecifiedAddress(listenHost) && !loopbackListenHost(listenHost)) {
    names.add(relative(own));
  }
  return { listenHost, allowedHosts: entries, names, domains };
}

/** A Host header the guard answers: a loopback name, a listed one or the listen address. */
function allowedHostName(host: string | undefined, allowList: HostAllowList): boolean {
  if (loopbackHostName(host)) return true;
  const hostname = hostUrl(host)?.hostname;
  if (hostname === undefined) return false;
  const name = relative(hostname);
  if (allowList.names.has(name)) return true;
  return allowList.domains.some((d) => name === d || name.endsWith(`.${d}`));
}

/** The names a message lists as answered: loopback ones, then the others. */
export function answeredNames(allowList: HostAllowList): string {
  const others = [...allowList.names, ...allowList.domains.map((d) => `.${d}`)];
  return others.length === 0
    ? "loopback host names"
    : `loopback host names and ${others.join(", ")}`;
}

/**
 * Every request must name a host the allow-list answers, whatever the listen address: on
 * 0.0.0.0 too, a rebound name reaches the port. The refusal names the option that lists it.
 */
export function hostRefusal(
  headers: IncomingHttpHeaders,
  allowList: HostAllowList,
  port: number,
): Refusal | undefined {
  if (allowedHostName(headers.host, allowList)) return undefined;
  const asked = hostUrl(headers.host)?.hostname;
  const name = asked === undefined || unspecifiedAddress(asked) ? "NAME" : relative(asked);
  return {
    status: 403,
    message:
      `The emulator answers ${answeredNames(allowList)} only (Host ${quoted(headers.host ?? "")}: ` +
      `a name not listed that leads here is how a page of another site reaches it). ` +
      `Address it as http://127.0.0.1:${port}, http://localhost:${port} or http://[::1]:${port}, ` +
      `or, if clients must use this name, start the emulator with --allowed-host ${name} ` +
      `(allowedHosts in startEmulator's options or in the config file).`,
  };
}

/**
 * The startup line of a server that listens on a non-loopback address with no
 * `allowedHosts`: there, the names other machines use are refused until listed.
 */
export function hostNotice(allowList: HostAllowList): string | undefined {
  const { listenHost } = allowList;
  if (loopbackListenHost(listenHost) || allowList.allowedHosts.length > 0) return undefined;
  return (
    `listening on ${listenHost}, the emulator answers ${answeredNames(allowList)} only ` +
    `(DNS rebinding guard): name each host clients use with --allowed-host NAME ` +
    `(allowedHosts in the config file), e.g. --allowed-host emulator`
  );
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
