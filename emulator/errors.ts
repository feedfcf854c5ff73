/**
 * Errors in the service's wire shape: `{code, message, errors?}` with an HTTP status.
 * Handlers throw `ApiError`; the server turns it into the response. Codes come from the
 * shared table (`ServiceErrorCode`), so the client and the emulator cannot disagree.
 */
import { STATUS_CODES } from "node:http";
import { ServiceErrorCode } from "./schema";

interface ErrorBody {
  code: ServiceErrorCode;
  message: string;
  errors?: Record<string, unknown>;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ServiceErrorCode,
    message: string,
    readonly errors?: Record<string, unknown>,
    /** Extra response headers (a 429's `Retry-After`). */
    readonly headers: Record<string, string> = {},
    /** Extra body fields (a 429's `retry_after` and `global`). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { ...this.extra, code: this.code, message: this.message };
    if (this.errors !== undefined) body.errors = this.errors;
    return body;
  }
}

/** A leaf of the error tree: `{_errors: [{code, message}]}` at a wire path. */
export function errorAt(
  path: readonly (string | number)[],
  code: string,
  message: string,
): Record<string, unknown> {
  let node: Record<string, unknown> = { _errors: [{ code, message }] };
  for (let i = path.length - 1; i >= 0; i--) node = { [String(path[i])]: node };
  return node;
}

/** 400/50035 with the error tree: the answer to every body that breaks a rule. */
function invalidFormBody(errors: Record<string, unknown>): ApiError {
  return new ApiError(400, ServiceErrorCode.INVALID_FORM_BODY, "Invalid Form Body", errors);
}

export const Errors = {
  badRequest: () => new ApiError(400, ServiceErrorCode.GENERAL, "400: Bad Request"),
  unauthorized: () => new ApiError(401, ServiceErrorCode.GENERAL, "401: Unauthorized"),
  notFound: () => new ApiError(404, ServiceErrorCode.GENERAL, "404: Not Found"),
  methodNotAllowed: () => new ApiError(405, ServiceErrorCode.GENERAL, "405: Method Not Allowed"),
  internal: () => new ApiError(500, ServiceErrorCode.GENERAL, "500: Internal Server Error"),
  /** A 5xx as the service's edge sends it (injected faults). */
  serverError: (status: number) =>
    new ApiError(
      status,
      ServiceErrorCode.GENERAL,
      `${status}: ${STATUS_CODES[status] ?? "Server Error"}`,
    ),
  invalidJson: () =>
    new ApiError(400, ServiceErrorCode.INVALID_JSON, "The request body contains invalid JSON."),
  invalidFormBody,
  fieldError: (path: readonly (string | number)[], code: string, message: string) =>
    invalidFormBody(errorAt(path, code, message)),
  contentType: () =>
    invalidFormBody(
      errorAt(
        [],
        "CONTENT_TYPE_INVALID",
        "Expected \"Content-Type\" header to be one of {'application/json'}.",
      ),
    ),
  tooLarge: () => new ApiError(413, ServiceErrorCode.REQUEST_TOO_LARGE, "Request entity too large"),
  unknownApplication: () =>
    new ApiError(404, ServiceErrorCode.UNKNOWN_APPLICATION, "Unknown Application"),
  unknownGuild: () => new ApiError(404, ServiceErrorCode.UNKNOWN_GUILD, "Unknown Guild"),
  unknownCommand: () =>
    new ApiError(404, ServiceErrorCode.UNKNOWN_COMMAND, "Unknown application command"),
  unknownPermissions: () =>
    new ApiError(
      404,
      ServiceErrorCode.UNKNOWN_PERMISSIONS,
      "Unknown application command permissions",
    ),
  botsCannotUse: () =>
    new ApiError(403, ServiceErrorCode.BOTS_CANNOT_USE, "Bots cannot use this endpoint"),
  missingAccess: () => new ApiError(403, ServiceErrorCode.MISSING_ACCESS, "Missing Access"),
  missingPermissions: () =>
    new ApiError(403, ServiceErrorCode.MISSING_PERMISSIONS, "Missing Permissions"),
  maxCommands: (limit: number) =>
    new ApiError(
      400,
      ServiceErrorCode.MAX_COMMANDS,
      `Maximum number of application commands reached (${limit})`,
    ),
  /**
   * 30034 as a 400, or as the service also sends it, a 429 whose `Retry-After` is the
   * time until the budget has room again (hours), with the rate-limit body fields.
   */
  dailyCreates: (limit: number, status: 400 | 429 = 400, retryAfterMs = 0) => {
    const message = `Max number of daily application command creates has been reached (${limit})`;
    if (status === 400) return new ApiError(400, ServiceErrorCode.DAILY_CREATES, message);
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    return new ApiError(
      429,
      ServiceErrorCode.DAILY_CREATES,
      message,
      undefined,
      { "Retry-After": String(seconds), "X-RateLimit-Scope": "user" },
      { retry_after: retryAfterMs / 1000, global: false },
    );
  },
  entryPointRemoved: () =>
    new ApiError(
      400,
      ServiceErrorCode.ENTRY_POINT_REMOVED,
      "You cannot remove this app's Entry Point command in a bulk update operation. Please include the Entry Point command in your update request or delete it separately.",
    ),
};
