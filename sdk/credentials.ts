/**
 * Credentials set in stack config must be secrets. The engine keeps the stack config it
 * hands to dynamic providers in the state, as the inputs of the default `pulumi-nodejs`
 * provider: a secret is stored there encrypted, a plain value in plain text. So a
 * token set without `--secret` would sit readable in every state file and export; the
 * program refuses it before any resource is registered. Environment variables
 * (`DISCORD_BOT_TOKEN`, ...) never reach the state.
 */
import * as pulumi from "./pulumi";
import { CREDENTIAL_SETTINGS } from "../provider/resources/settings";

export const CREDENTIAL_KEYS = CREDENTIAL_SETTINGS.map((name) => `discord:${name}`);

interface ConfigRuntime {
  getConfig(key: string): string | undefined;
  /** Present in @pulumi/pulumi's runtime (not in its typings): whether a key is a secret. */
  isConfigSecret?: (key: string) => boolean;
}

/** Keys set in stack config as plain text. Empty when the runtime cannot tell. */
export function plaintextCredentialKeys(runtime: ConfigRuntime): string[] {
  const isSecret = runtime.isConfigSecret;
  if (typeof isSecret !== "function") return [];
  return CREDENTIAL_KEYS.filter((k) => runtime.getConfig(k) !== undefined && !isSecret(k));
}

let checked = false;

/** Throws (once per program) when a credential is plain-text stack config. */
export function refusePlaintextCredentials(): void {
  if (checked) return;
  checked = true;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const runtime = require("@pulumi/pulumi/runtime/config") as ConfigRuntime;
  const keys = plaintextCredentialKeys(runtime);
  if (keys.length === 0) return;
  throw new pulumi.RunError(
    `${keys.join(", ")} ${keys.length > 1 ? "are" : "is"} set in stack config as plain text, ` +
      "which Pulumi would store unencrypted in the state. Set it as a secret: " +
      keys.map((k) => `pulumi config set --secret ${k} <value>`).join("; ") +
      " (or use the environment variables DISCORD_BOT_TOKEN, DISCORD_CLIENT_SECRET, DISCORD_BEARER_TOKEN, DISCORD_REFRESH_TOKEN).",
  );
}
