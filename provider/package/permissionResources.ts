/**
 * The permission resources of the package: `GuildCommandPermissions` (one command's
 * overwrites in one guild, from the wire shape of the permissions object) and
 * `UserAuthorization` (the user's Bearer token kept alive in the state, as secrets).
 */
import type { z } from "zod";
import { camelCase } from "../schema/mapping";
import {
  GUILD_PERMISSIONS_FIELD_DESCRIPTIONS,
  wireGuildCommandPermissionsSchema,
} from "../schema/permissions";
import { PERMISSIONS_REPLACE_KEYS } from "../schema/replacements";
import { add, APPLICATION_DEFAULT, resource, side } from "./resourceSpec";
import type { Side } from "./resourceSpec";
import type { PropertySpec, ResourceSpec } from "./types";
import type { TypeCollector } from "./wireTypes";

export function permissionsResource(types: TypeCollector): ResourceSpec {
  const replaces: readonly string[] = PERMISSIONS_REPLACE_KEYS;
  const inputs = side();
  const outputs = side();
  for (const [key, schema] of Object.entries(wireGuildCommandPermissionsSchema.shape) as [
    keyof typeof GUILD_PERMISSIONS_FIELD_DESCRIPTIONS,
    z.ZodType,
  ][]) {
    const name = key === "id" ? "commandId" : camelCase(key);
    const replacing = replaces.includes(name);
    const spec = (extra: string): PropertySpec => ({
      ...types.typeOf(schema),
      description:
        GUILD_PERMISSIONS_FIELD_DESCRIPTIONS[key] +
        extra +
        (replacing ? " Changing it replaces the resource." : ""),
      ...(replacing ? { replaceOnChanges: true } : {}),
    });
    add(outputs, name, spec(""), true);
    if (name === "applicationId") add(inputs, name, spec(APPLICATION_DEFAULT), false);
    else add(inputs, name, spec(""), true);
  }
  // Inputs in the order a program writes them: where, what, then the overrides.
  const order = ["guildId", "commandId", "permissions", "applicationId"];
  const sortSide = (s: Side): Side => ({
    properties: Object.fromEntries(order.map((k) => [k, s.properties[k] as PropertySpec])),
    required: order.filter((k) => s.required.includes(k)),
  });
  return resource(
    "The permission overwrites of one command in one guild; or, with the application's id as `commandId`, the application-wide defaults in that guild (for every command without overwrites of its own). Needs a user's Bearer token (the provider's `bearerToken`; `UserAuthorization` keeps it fresh). The resource owns the whole list: an update writes exactly these overwrites, and deleting the resource empties the list.",
    sortSide(inputs),
    sortSide(outputs),
  );
}

export function userAuthorizationResource(): ResourceSpec {
  const outputs = side();
  const secret = (description: string): PropertySpec => ({
    type: "string",
    description,
    secret: true,
  });
  add(
    outputs,
    "accessToken",
    secret(
      "The user's current Bearer token, which permission writes use: refreshed when past half its lifetime or refused by the service.",
    ),
    false,
  );
  add(
    outputs,
    "refreshToken",
    secret(
      "The refresh token of the kept session: the service rotates it on every refresh (the one spent is refused from then on), so the newest is kept here.",
    ),
    false,
  );
  add(
    outputs,
    "expiresAt",
    {
      type: "number",
      description: "When the access token expires, in milliseconds since the epoch, when known.",
    },
    false,
  );
  add(
    outputs,
    "expiresInS",
    {
      type: "number",
      description: "The access token's lifetime in seconds, as granted, when known.",
    },
    false,
  );
  add(
    outputs,
    "seed",
    {
      type: "string",
      description:
        "Which configured `refreshToken` the kept session descends from: a SHA-256 prefix of it, never the token. When the configuration holds a new authorization (`discord-commands authorize` again), the resource adopts it.",
    },
    true,
  );
  return resource(
    "Keeps the user's authorization for permission edits (a Bearer token and its refresh token) alive from one deployment to the next, in the stack's state as secrets: the service rotates the refresh token on every refresh, and a provider cannot write the stack's configuration. Declare it before the `GuildCommandPermissions` and make them depend on it. No inputs: it starts from the provider's `bearerToken` and `refreshToken`. Deleting it does not revoke the authorization.",
    side(),
    outputs,
  );
}
