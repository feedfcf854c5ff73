/**
 * Requests with headers a browser or another machine would send (`Host` above all, which
 * fetch does not let a caller set), over real HTTP to the emulator's port on 127.0.0.1.
 */
import { request } from "undici";

export interface Answer {
  status: number;
  text: string;
  /** Parsed JSON, or undefined for an empty or non-JSON body. */
  json: unknown;
}

/** A request to the emulator listening on `port` (a `RunningEmulator`, or a CLI's). */
export async function send(
  emu: { readonly port: number },
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  const res = await request(`http://127.0.0.1:${emu.port}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, text, json };
}

export const JSON_TYPE = { "content-type": "application/json" };
