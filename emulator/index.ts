/** The command service emulator: a local server that behaves like the service. */
export { startEmulator } from "./server";
export type { EmulatorOptions, ResponseRecord } from "./options";
export type { RunningEmulator } from "./server";
export { DEFAULTS, EmulatorConfig, RateLimitConfig, resolveConfig } from "./config";
export type { EmulatorConfigInput, ResolvedConfig } from "./config";
export { EmulatorControl, ControlError } from "./control";
export type { FaultAction, FaultPlanInput, FaultRuleInput } from "./faults";
export type { Counters, RequestLog, RequestLogEntry } from "./log";
export type { StoredCommand, StoredPermissions } from "./store";
export { ApiError } from "./errors";
export { InteractionService } from "./interactions/service";
export type { ApplicationInteractions, CanUseResult } from "./interactions/service";
export type { AppResponse, InteractionOutcome, InteractionResult } from "./interactions/outcome";
export type { AutocompleteRequest, CanUseRequest, InvokeRequest } from "./interactions/requests";
export type { EmulatorEvent } from "./interactions/events";
export { verifySignature } from "./interactions/signing";
