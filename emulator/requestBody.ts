/**
 * Request bodies: read whole, up to the configured size, then parsed as JSON for the
 * service API (content type, JSON, nesting depth) or for the control API.
 */
import type { IncomingMessage } from "node:http";
import { ControlError } from "./control";
import { Errors } from "./errors";

export interface BodyRead {
  /** The body as UTF-8; empty when too large or aborted. */
  readonly text: string;
  /** Past the limit: the rest is drained, not kept, and the request is answered 413. */
  readonly tooLarge: boolean;
  /** The client went away: nothing is answered. */
  readonly aborted: boolean;
}

/** Deepest JSON nesting accepted (the deepest valid command body is far shallower). */
const MAX_JSON_DEPTH = 32;

/** Reads the whole body; never rejects (a broken request resolves as `aborted`). */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    const declared = Number(req.headers["content-length"] ?? "0");
    if (Number.isFinite(declared) && declared > limit) tooLarge = true;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    });
    req.on("end", () =>
      resolve({
        text: tooLarge ? "" : Buffer.concat(chunks).toString("utf8"),
        tooLarge,
        aborted: false,
      }),
    );
    req.on("error", () => resolve({ text: "", tooLarge, aborted: true }));
    req.on("aborted", () => resolve({ text: "", tooLarge, aborted: true }));
  });
}

function jsonDepthExceeds(value: unknown, max: number): boolean {
  // Iterative: a hostile body must not overflow the stack.
  const stack: { v: unknown; d: number }[] = [{ v: value, d: 0 }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { v, d } = top;
    if (typeof v !== "object" || v === null) continue;
    if (d >= max) return true;
    for (const child of Object.values(v)) stack.push({ v: child, d: d + 1 });
  }
  return false;
}

/** The parsed JSON, undefined for a blank body; `invalid()` is thrown for anything else. */
function parseJsonText(text: string, invalid: () => Error): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw invalid();
  }
}

/**
 * A service API body: 413 when too large; then, unless the route reads a form (the
 * OAuth2 token endpoint), a non-blank body must be `application/json` (400/50035) and
 * valid JSON no deeper than MAX_JSON_DEPTH (400/50109).
 */
export function parseApiBody(
  read: BodyRead,
  contentType: string | undefined,
  readsForm: boolean,
): unknown {
  if (read.tooLarge) throw Errors.tooLarge();
  if (readsForm || read.text.trim() === "") return undefined;
  if (
    !String(contentType ?? "")
      .toLowerCase()
      .startsWith("application/json")
  ) {
    throw Errors.contentType();
  }
  const body = parseJsonText(read.text, Errors.invalidJson);
  if (jsonDepthExceeds(body, MAX_JSON_DEPTH)) throw Errors.invalidJson();
  return body;
}

/** A control API body: any JSON (the control operations validate it), or none. */
export function parseControlBody(read: BodyRead): unknown {
  if (read.tooLarge) throw new ControlError(413, "body too large");
  return parseJsonText(read.text, () => new ControlError(400, "body is not valid JSON"));
}
