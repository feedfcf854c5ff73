/**
 * pulumi-discord-commands: Pulumi resources for application commands.
 *
 * The local emulator of the service has its own entry, `pulumi-discord-commands/emulator`
 * (emulator/index.ts): a program that declares commands loads none of its HTTP server.
 */
export * from "./sdk";
