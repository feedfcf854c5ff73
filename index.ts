/**
 * pulumi-discord-commands: Pulumi resources for application commands, and the local
 * emulator of the service.
 */
export * from "./sdk";
