/** A request's payload as the client's callers give it, and as it goes on the wire. */

/** The query, and a JSON or form body (one of them). */
export interface Payload {
  readonly query?: Readonly<Record<string, string>> | undefined;
  readonly json?: unknown;
  readonly form?: URLSearchParams;
}

/** The body's text and its content type: a form, JSON, or none. */
export function encodeBody(payload: Payload): { contentType?: string; body?: string } {
  if (payload.form !== undefined) {
    return { contentType: "application/x-www-form-urlencoded", body: payload.form.toString() };
  }
  if (payload.json !== undefined) {
    return { contentType: "application/json", body: JSON.stringify(payload.json) };
  }
  return {};
}
