/**
 * Delivery to the application's interactions endpoint: a signed POST of the exact JSON
 * bytes, answered within the service's deadline (3 seconds for the initial response;
 * discord/discord-api-docs, "Responding to an Interaction"), and the verification the
 * service runs when the URL is set (same document, "Receiving an Interaction": a PING
 * that must get a PONG, and a request with an invalid signature that must get 401).
 *
 * The timestamp is the wall clock, not the emulator's (which tests may move ahead):
 * handlers that refuse old timestamps compare with their own clock.
 */
import type { SigningKey } from "./signing";
import { signatureHeaders } from "./signing";
import { isRecord } from "../schema";

/** The service's deadline for the initial response. */
export const RESPONSE_DEADLINE_MS = 3000;

export type DeliveryResult =
  | {
      readonly kind: "answered";
      readonly status: number;
      /** Parsed JSON, or the text when it is not JSON (undefined when empty). */
      readonly body: unknown;
      readonly durationMs: number;
    }
  | { readonly kind: "timeout"; readonly durationMs: number }
  | { readonly kind: "unreachable"; readonly error: string; readonly durationMs: number };

/** POSTs `body` to `url`, signed with `key` (or with a corrupted signature). */
export async function deliver(
  url: string,
  key: SigningKey,
  body: string,
  options: { corruptSignature?: boolean } = {},
): Promise<DeliveryResult> {
  const headers = signatureHeaders(key, body, Date.now() / 1000);
  if (options.corruptSignature) {
    const sig = Buffer.from(headers["X-Signature-Ed25519"], "hex");
    sig[0] = (sig[0] ?? 0) ^ 0xff;
    headers["X-Signature-Ed25519"] = sig.toString("hex");
  }
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: {
        ...headers,
        "Content-Type": "application/json",
        "User-Agent": "Discord-Interactions/1.0 (+https://discord.com)",
      },
      body,
      signal: AbortSignal.timeout(RESPONSE_DEADLINE_MS),
      redirect: "manual",
    });
    const text = await res.text();
    let parsed: unknown = text === "" ? undefined : text;
    try {
      if (text !== "") parsed = JSON.parse(text);
    } catch {
      // not JSON: kept as text, and judged as such
    }
    return { kind: "answered", status: res.status, body: parsed, durationMs: elapsed() };
  } catch (err) {
    // Not `instanceof`: the abort's DOMException may come from another realm (test runners).
    const name = typeof err === "object" && err !== null && "name" in err ? err.name : "";
    if (name === "TimeoutError" || name === "AbortError") {
      return { kind: "timeout", durationMs: elapsed() };
    }
    const cause =
      err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : "";
    return {
      kind: "unreachable",
      error: `${err instanceof Error ? err.message : String(err)}${cause}`,
      durationMs: elapsed(),
    };
  }
}

/**
 * Verifies an interactions endpoint URL as the service does; undefined when it passes,
 * else the reason it is refused.
 */
export async function verifyEndpoint(
  url: string,
  key: SigningKey,
  ping: string,
): Promise<string | undefined> {
  const signed = await deliver(url, key, ping);
  if (signed.kind === "timeout") {
    return `the signed PING got no answer within ${RESPONSE_DEADLINE_MS / 1000} seconds`;
  }
  if (signed.kind === "unreachable") return `the URL cannot be reached (${signed.error})`;
  if (
    signed.status < 200 ||
    signed.status > 299 ||
    !isRecord(signed.body) ||
    signed.body["type"] !== 1
  ) {
    return `the signed PING must be answered 200 {"type":1}; got HTTP ${signed.status} ${JSON.stringify(signed.body) ?? ""}`.trimEnd();
  }
  const forged = await deliver(url, key, ping, { corruptSignature: true });
  if (forged.kind === "timeout") {
    return `a request with an invalid signature got no answer within ${RESPONSE_DEADLINE_MS / 1000} seconds (expected 401)`;
  }
  if (forged.kind === "unreachable") return `the URL cannot be reached (${forged.error})`;
  if (forged.status !== 401) {
    return `a request with an invalid signature must be refused with 401; got HTTP ${forged.status}: the handler does not check signatures`;
  }
  return undefined;
}
