/** Small HTTP helpers for the emulator's tests (fetch against a running emulator). */
import type { EmulatorOptions, RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";

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
    const url = path.startsWith("/__emulator")
      ? `${this.emu.url}${path}`
      : `${this.emu.apiUrl}${path}`;
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
