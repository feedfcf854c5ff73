/**
 * pulumi-discord-commands: Pulumi resources for application commands, and the local
 * emulator of the service.
 */
export * from "./sdk";
export { startEmulator } from "./emulator";
export type {
  EmulatorConfigInput,
  EmulatorOptions,
  FaultAction,
  FaultPlanInput,
  FaultRuleInput,
  RunningEmulator,
} from "./emulator";
