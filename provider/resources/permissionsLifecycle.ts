/**
 * The provider of `GuildCommandPermissions`: the permission overwrites of one command in
 * one guild, or of the whole application when `commandId` is the application id (they
 * apply to every command without overwrites of its own). Spec endpoints 13-15.
 *
 * The resource id is `<guildId>/<commandId>`. Writes need a user's Bearer token
 * (`discord:bearerToken`). `delete` writes an empty list, so the command falls back to
 * its defaults; `read` treats "no permissions" (404/10066) as an empty list.
 */
import type { WirePermission } from "../client";
import { ServiceApiError } from "../client";
import {
  canonicalPermissions,
  PERMISSIONS_REPLACE_KEYS,
  permissionsEqual,
  ServiceErrorCode,
  validatePermissions,
} from "../schema";
import { failure } from "./commandLifecycle";
import type { CheckFailure } from "./lifecycle";
import { idFailures } from "./lifecycle";
import { forEngine } from "./engineErrors";
import type { ProviderRuntime, Where } from "./runtime";
import type { StackConfig } from "./settings";
import type { Bag } from "./propertyBags";
import {
  commandRefOf,
  DYNAMIC_PROVIDER_KEY,
  omit,
  requireString,
  secrecyOf,
  UNKNOWN,
  unknownPaths,
  withoutUnknowns,
} from "./propertyBags";

/** The declared or stored overwrites; the engine hands them over as plain data. */
function overwrites(value: unknown): WirePermission[] {
  return Array.isArray(value) ? (value as WirePermission[]) : [];
}

function samePermissions(a: unknown, b: unknown): boolean {
  return permissionsEqual(overwrites(a), overwrites(b));
}

/** The service answered that the command does not exist (404, 10063): it is gone. */
export function isGone(err: unknown): boolean {
  return (
    err instanceof ServiceApiError &&
    (err.code === ServiceErrorCode.UNKNOWN_COMMAND || err.status === 404)
  );
}

/** The overwrites a permissions resource holds: of one command (or the app-wide defaults) in one guild. */
interface Target extends Where {
  readonly guildId: string;
  readonly commandId: string;
}

/** The target of a checked bag (inputs or state), read once where an operation starts. */
function targetOf(rt: ProviderRuntime, bag: Bag): Target {
  const { applicationId } = rt.where(bag);
  return {
    applicationId,
    guildId: requireString(bag, "guildId"),
    commandId: requireString(bag, "commandId"),
  };
}

async function write(rt: ProviderRuntime, target: Target, inputs: Bag): Promise<void> {
  const { applicationId, guildId, commandId } = target;
  const permissions = canonicalPermissions(overwrites(inputs["permissions"]));
  await rt.client.editCommandPermissions(applicationId, guildId, commandId, { permissions });
  rt.scopes.invalidatePermissions(applicationId, guildId);
  rt.deployment.permissionsWritten(commandId);
}

/**
 * Overwrites the service already holds as declared (an imported command set): adopted
 * with no write, from the guild's one cached list. False: the caller writes.
 */
async function adoptEqual(rt: ProviderRuntime, target: Target, inputs: Bag): Promise<boolean> {
  // Without a Bearer token the resource could never be written: let `write` say so,
  // before any request.
  if (rt.settings.client.bearerToken === undefined) return false;
  const { applicationId, guildId, commandId } = target;
  // A command this deployment created has no overwrites yet: nothing to read.
  if (rt.deployment.isNewCommand(commandId)) return false;
  const declared = overwrites(inputs["permissions"]);
  const live = (await rt.scopes.guildPermissionsSnapshot(applicationId, guildId)).get(commandId);
  // An empty declaration writes anyway: "no overwrites" cannot tell a gone command.
  if (declared.length === 0 || live === undefined) return false;
  if (!samePermissions(declared, live.permissions)) return false;
  rt.deployment.permissionsWritten(commandId); // as if written: a delete must not empty it
  return true;
}

/**
 * The command a permissions resource of a `CommandSet` follows, by identity (hidden input
 * `COMMAND_REF_KEY`: the scope, type and name). In a preview, the id of a command whose scope
 * resource updates is unknown (outputs of an update are), which alone would preview a
 * replacement; a set's update keeps the id of every command it keeps, so when the live
 * command of that identity still has the old id, the id will not change.
 */
async function sameCommandLive(rt: ProviderRuntime, olds: Bag, news: Bag): Promise<boolean> {
  const ref = commandRefOf(news);
  const oldId = olds["commandId"];
  if (ref === undefined || typeof oldId !== "string") return false;
  // The command's application, which a plugin's set leaves to the provider's default.
  const applicationId = ref.applicationId ?? rt.settings.applicationId;
  if (applicationId === undefined) return false;
  try {
    const live = await rt.scopes.scopeCommands(applicationId, ref.guildId);
    const found = [...live.values()].find((c) => c.name === ref.name && c.type === ref.type);
    return found?.id === oldId;
  } catch {
    return false; // cannot tell: preview the replacement
  }
}

/** How the engine's messages (and the timing log) name a permissions resource. */
function describePermissions(props: Bag): string {
  const secrecy = secrecyOf(props);
  const id = (key: string): string => {
    const v = props[key];
    return typeof v === "string" ? secrecy.text(v, [key]) : "(unknown)";
  };
  return `permissions of command ${id("commandId")} in guild ${id("guildId")}`;
}

/** The provider of `GuildCommandPermissions`, on the runtime it shares with the other kinds. */
export function permissionsProvider(rt: ProviderRuntime) {
  const provider = {
    async configure(req: { config: StackConfig }): Promise<void> {
      rt.configure(req.config);
    },

    async check(_olds: Bag, news: Bag): Promise<{ inputs: Bag; failures: CheckFailure[] }> {
      const inputs = rt.withApplication(news);
      const failures: CheckFailure[] = [];
      const secrecy = secrecyOf(inputs);
      failures.push(...idFailures(inputs, secrecy, PERMISSIONS_REPLACE_KEYS, true));
      const permissions = inputs["permissions"] ?? [];
      if (unknownPaths(permissions).length === 0) {
        const body = { permissions: withoutUnknowns(permissions) };
        const result = validatePermissions(body, secrecy);
        if (!result.ok) failures.push(...result.issues.map((i) => failure(i, secrecy)));
      }
      return { inputs, failures };
    },

    async diff(
      _id: string,
      olds: Bag,
      news: Bag,
    ): Promise<{ changes: boolean; replaces: string[]; deleteBeforeReplace: boolean }> {
      let replaces = PERMISSIONS_REPLACE_KEYS.filter(
        (k) => news[k] === UNKNOWN || olds[k] !== news[k],
      );
      if (news["commandId"] === UNKNOWN && (await sameCommandLive(rt, olds, news))) {
        replaces = replaces.filter((k) => k !== "commandId");
      }
      const unknown = unknownPaths(news["permissions"]).length > 0;
      const changes =
        replaces.length > 0 ||
        unknown ||
        !samePermissions(olds["permissions"], news["permissions"]);
      return { changes, replaces: [...replaces], deleteBeforeReplace: false };
    },

    async create(inputs: Bag): Promise<{ id: string; outs: Bag }> {
      const target = targetOf(rt, inputs);
      if (!(await adoptEqual(rt, target, inputs))) await write(rt, target, inputs);
      return {
        id: `${target.guildId}/${target.commandId}`,
        outs: { ...omit(inputs, [DYNAMIC_PROVIDER_KEY]), applicationId: target.applicationId },
      };
    },

    async read(id: string, props: Bag): Promise<{ id: string; props?: Bag; inputs?: Bag }> {
      const { applicationId, guildId, commandId } = targetOf(rt, props);
      const live = (await rt.scopes.guildPermissions(applicationId, guildId)).get(commandId);
      if (!live && commandId !== applicationId) {
        // No overwrites: the command may be gone (then so is this resource) or just unset.
        try {
          await rt.client.getCommandPermissions(applicationId, guildId, commandId);
        } catch (err) {
          if (isGone(err)) return { id: "" };
          throw err;
        }
      }
      // Keep the declared spelling when nothing drifted; otherwise take what the service holds.
      const declared = props["permissions"];
      const liveList = live?.permissions ?? [];
      const permissions = samePermissions(declared, liveList) ? declared : liveList;
      const inputs = { ...omit(props, [DYNAMIC_PROVIDER_KEY]), applicationId, permissions };
      return { id, props: inputs, inputs };
    },

    async update(_id: string, olds: Bag, news: Bag): Promise<{ outs: Bag }> {
      const target = targetOf(rt, news);
      if (
        Array.isArray(olds["permissions"]) &&
        samePermissions(olds["permissions"], news["permissions"])
      ) {
        // Only the resource's own bookkeeping changed (a stack moving from the dynamic
        // resources to the plugin, say): the service holds the list already.
        rt.deployment.permissionsWritten(target.commandId);
      } else {
        await write(rt, target, news);
      }
      return {
        outs: { ...omit(news, [DYNAMIC_PROVIDER_KEY]), applicationId: target.applicationId },
      };
    },

    async delete(_id: string, props: Bag): Promise<void> {
      const { applicationId, guildId, commandId } = targetOf(rt, props);
      // A permissions resource of this deployment wrote this command's list (a replacement
      // moved onto it): emptying it now would undo that.
      if (rt.deployment.arePermissionsLive(commandId)) return;
      const empty = () =>
        rt.client.editCommandPermissions(applicationId, guildId, commandId, { permissions: [] });
      const credentials = rt.client.rest.credentials;
      const used = credentials.userSession().accessToken;
      try {
        await empty().catch(async (err: unknown) => {
          // In a `destroy` no UserAuthorization diff runs first, so the token may have
          // expired: refresh it here, once for all the deletes (the refresh token it rotates
          // goes away with the stack).
          if (!(
            err instanceof ServiceApiError &&
            err.status === 401 &&
            credentials.canRefreshUser
          )) {
            throw err;
          }
          await credentials.refreshUserAfterRejection(used);
          await empty();
        });
      } catch (err) {
        if (!isGone(err)) throw err; // the command is gone, and its permissions with it
      }
      rt.scopes.invalidatePermissions(applicationId, guildId);
    },
  };

  return forEngine(provider, describePermissions, rt);
}
