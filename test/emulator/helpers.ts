/** Small HTTP helpers for the emulator's tests (fetch against a running emulator). */
import type { EmulatorOptions, RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import { createAuthorizationCodeVerifier } from "../../sdk/authorization";

export interface Reply {
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined for an empty body. */
  body: unknown;
}

export interface CallOptions {
  body?: unknown;
  /** Raw body text (sent as is); wins over `body`. */
  raw?: string;
  /** Full Authorization header; default `Bot <botToken>`; null = none. */
  auth?: string | null;
  headers?: Record<string, string>;
}

export class Api {
  constructor(readonly emu: RunningEmulator) {}

  get app(): string {
    return `/applications/${this.emu.applicationId}`;
  }

  get guild(): string {
    return `/applications/${this.emu.applicationId}/guilds/${this.emu.guildId}`;
  }

  async call(method: string, path: string, opts: CallOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...opts.headers };
    const auth = opts.auth === undefined ? `Bot ${this.emu.botToken}` : opts.auth;
    if (auth !== null) headers["Authorization"] = auth;
    let body: string | undefined;
    if (opts.raw !== undefined) body = opts.raw;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers["Content-Type"] ??= "application/json";
    }
    const control = path.startsWith("/__emulator");
    // The control API takes a state change as JSON only, a request without a body too.
    if (control && method !== "GET" && method !== "HEAD") {
      headers["Content-Type"] ??= "application/json";
    }
    const url = control ? `${this.emu.url}${path}` : `${this.emu.apiUrl}${path}`;
    const res = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await res.text();
    let parsed: unknown;
    if (text !== "") parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed };
  }

  get(path: string, opts?: CallOptions) {
    return this.call("GET", path, opts);
  }
  post(path: string, body: unknown, opts?: CallOptions) {
    return this.call("POST", path, { ...opts, body });
  }
  patch(path: string, body: unknown, opts?: CallOptions) {
    return this.call("PATCH", path, { ...opts, body });
  }
  put(path: string, body: unknown, opts?: CallOptions) {
    return this.call("PUT", path, { ...opts, body });
  }
  delete(path: string, opts?: CallOptions) {
    return this.call("DELETE", path, opts);
  }
}

/** Starts an emulator (rate limits off unless given) and its Api helper. */
export async function start(
  options: EmulatorOptions = {},
): Promise<{ emu: RunningEmulator; api: Api }> {
  const emu = await startEmulator({ rateLimits: false, ...options });
  return { emu, api: new Api(emu) };
}

export function rec(v: unknown): Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    throw new Error(`expected an object, got ${JSON.stringify(v)}`);
  }
  return v as Record<string, unknown>;
}

export function arr(v: unknown): unknown[] {
  if (!Array.isArray(v)) throw new Error(`expected an array, got ${JSON.stringify(v)}`);
  return v;
}

export function str(v: unknown): string {
  if (typeof v !== "string") throw new Error(`expected a string, got ${JSON.stringify(v)}`);
  return v;
}

export const slash = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  description: `The ${name} command`,
  ...extra,
});

/** The authorization-code flow, played by hand: a fresh access and refresh token. */
/** The application's client credentials as the token endpoint takes them (HTTP Basic). */
export function clientAuthorization(emu: RunningEmulator): string {
  return `Basic ${Buffer.from(`${emu.clientId}:${emu.clientSecret}`).toString("base64")}`;
}

export async function authorizeUser(
  emu: RunningEmulator,
  redirect: string,
): Promise<{ access: string; refresh: string }> {
  const pair = createAuthorizationCodeVerifier();
  const url = new URL(`${emu.url}/oauth2/authorize`);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: emu.clientId,
    scope: "applications.commands.permissions.update",
    redirect_uri: redirect,
    code_challenge: pair.challenge.challenge,
    code_challenge_method: "S256",
  }).toString();
  const res = await fetch(url, { redirect: "manual" });
  const code = new URL(str(res.headers.get("location"))).searchParams.get("code") ?? "";
  const tok = await fetch(`${emu.apiUrl}/oauth2/token`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Authorization: clientAuthorization(emu),
    },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: redirect,
      code_verifier: pair.verifier,
    }).toString(),
  });
  const body = rec(await tok.json());
  emu.control.resetLog(); // the log shows what the client under test sends
  return { access: str(body["access_token"]), refresh: str(body["refresh_token"]) };
}
