/**
 * The service's HTTP client: `CommandsApi` (one method per endpoint) over `RestClient`
 * (auth, rate limits, retries, typed errors).
 */
import type { ClientConfig } from "./config";
import { CommandsApi } from "./CommandsApi";

export { CommandsApi, mintedSince } from "./CommandsApi";
export type { CreateResult, ListOptions } from "./CommandsApi";
export { RestClient, SEND_AND_RETRY } from "./RestClient";
export { PaceReservation } from "./RateLimiter";
export type { RequestOptions, RestResponse, RoomWait, SendPolicy } from "./RestClient";
export { resendable } from "./retry";
export type { ClientConfig, ClientEvent } from "./config";
export {
  DEFAULT_API_URL,
  DEFAULT_MAX_RATE_LIMIT_WAIT_MS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  normalizeApiUrl,
} from "./config";
export {
  ClientError,
  ConfigurationError,
  DailyCreateLimitError,
  flattenErrorTree,
  HttpError,
  NetworkError,
  RateLimitError,
  RateLimitNotWaitedError,
  ReauthorizationRequiredError,
  reportedLimit,
  ServiceApiError,
  TimeoutError,
} from "./errors";
export type { FieldError, RequestInfo, TimeoutPhase } from "./errors";
export type { ClientStats } from "./stats";
export { REAUTHORIZE } from "./auth";
export type { RefreshRefusals, UserSession } from "./auth";
export type * from "./types";

/** Builds the client a provider's `configure` hands to every resource. */
export function createCommandsClient(config: ClientConfig): CommandsApi {
  return new CommandsApi(config);
}
