/**
 * Errors in the service's wire shape: `{code, message, errors?}` with an HTTP status.
 * Handlers throw `ApiError`; the server turns it into the response.
 */

export interface ErrorBody {
  code: number;
  message: string;
  errors?: Record<string, unknown>;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly errors?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "ApiError";
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { code: this.code, message: this.message };
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

export const Errors = {
  unauthorized: () => new ApiError(401, 0, "401: Unauthorized"),
  notFound: () => new ApiError(404, 0, "404: Not Found"),
  methodNotAllowed: () => new ApiError(405, 0, "405: Method Not Allowed"),
  internal: () => new ApiError(500, 0, "500: Internal Server Error"),
  invalidJson: () => new ApiError(400, 50109, "The request body contains invalid JSON."),
  invalidFormBody: (errors: Record<string, unknown>) =>
    new ApiError(400, 50035, "Invalid Form Body", errors),
  fieldError: (path: readonly (string | number)[], code: string, message: string) =>
    new ApiError(400, 50035, "Invalid Form Body", errorAt(path, code, message)),
  contentType: () =>
    new ApiError(
      400,
      50035,
      "Invalid Form Body",
      errorAt(
        [],
        "CONTENT_TYPE_INVALID",
        "Expected \"Content-Type\" header to be one of {'application/json'}.",
      ),
    ),
  tooLarge: () => new ApiError(413, 40005, "Request entity too large"),
  unknownApplication: () => new ApiError(404, 10002, "Unknown Application"),
  unknownGuild: () => new ApiError(404, 10004, "Unknown Guild"),
  unknownCommand: () => new ApiError(404, 10063, "Unknown application command"),
  unknownPermissions: () => new ApiError(404, 10066, "Unknown application command permissions"),
  botsCannotUse: () => new ApiError(403, 20001, "Bots cannot use this endpoint"),
  missingAccess: () => new ApiError(403, 50001, "Missing Access"),
  missingPermissions: () => new ApiError(403, 50013, "Missing Permissions"),
  maxCommands: (limit: number) =>
    new ApiError(400, 30032, `Maximum number of application commands reached (${limit})`),
  dailyCreates: (limit: number) =>
    new ApiError(
      400,
      30034,
      `Max number of daily application command creates has been reached (${limit})`,
    ),
  entryPointRemoved: () =>
    new ApiError(
      400,
      50240,
      "You cannot remove this app's Entry Point command in a bulk update operation. Please include the Entry Point command in your update request or delete it separately.",
    ),
};
