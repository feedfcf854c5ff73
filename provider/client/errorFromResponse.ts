/**
 * The mapping of a failed response to a typed error (errors.ts), with advice when the
 * usual cause is the configuration. Every text taken from the response goes through the
 * caller's redactor.
 */
import { isRecord, ServiceErrorCode } from "../schema";
import type { AuthMode } from "./auth";
import type { RequestInfo } from "./errors";
import { DailyCreateLimitError, flattenErrorTree, HttpError, ServiceApiError } from "./errors";
import type { RawResponse } from "./responseHeaders";
import { budgetResetAt, parseJson } from "./responseHeaders";

export function errorFromResponse(
  info: RequestInfo,
  res: RawResponse,
  attempts: number,
  mode: AuthMode,
  redact: (s: string) => string,
  now: number,
): Error {
  const body = parseJson(res.text);
  const status = res.status;
  if (status >= 500 || !isRecord(body)) {
    if (res.text === "") return new HttpError(info, status, attempts, "empty response");
    const said =
      isRecord(body) && typeof body["message"] === "string"
        ? body["message"]
        : `non-JSON response: ${res.text.slice(0, 200)}`;
    return new HttpError(info, status, attempts, redact(said), true);
  }
  const code = body["code"];
  if (typeof code === "number" || typeof code === "string") {
    const message = redact(typeof body["message"] === "string" ? body["message"] : "");
    if (code === ServiceErrorCode.DAILY_CREATES) {
      return new DailyCreateLimitError(info, status, code, message, budgetResetAt(res, body, now));
    }
    const fields = flattenErrorTree(body["errors"]).map((f) => ({
      path: redact(f.path),
      code: redact(f.code),
      message: redact(f.message),
    }));
    return new ServiceApiError(info, status, code, message, fields, advice(status, code, mode));
  }
  if (typeof body["error"] === "string") {
    // OAuth2 errors: {error, error_description}.
    const description =
      typeof body["error_description"] === "string" ? body["error_description"] : body["error"];
    return new ServiceApiError(
      info,
      status,
      redact(body["error"]),
      redact(description),
      [],
      "the client-credentials exchange failed: check discord:clientId and discord:clientSecret",
    );
  }
  return new HttpError(info, status, attempts, "error response without a code");
}

/** Advice appended to errors whose cause is usually the configuration. */
function advice(status: number, code: number | string, mode: AuthMode): string | undefined {
  if (status === 401) {
    return mode === "user"
      ? "the Bearer token (discord:bearerToken) was rejected: it may have expired"
      : "the application's credentials were rejected: check discord:botToken or discord:clientId/clientSecret";
  }
  if (code === ServiceErrorCode.BOTS_CANNOT_USE) {
    return "this endpoint needs a user's Bearer token with applications.commands.permissions.update (discord:bearerToken)";
  }
  return undefined;
}
