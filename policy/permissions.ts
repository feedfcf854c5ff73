/**
 * The permissions entries of the stack's `GuildCommandPermissions` (a set's children among
 * them), matched to the commands they are for by command id: a stack policy, since an
 * entry and its command are two resources. A command created by this deployment has no
 * id at preview: its entries are judged when the `up` ends.
 */
import type { SeenCommand, SeenResource } from "./commands";
import { commandsOf, kindOf } from "./commands";
import type { Overwrite } from "./rules";
import { everyoneGrants } from "./rules";
import { whenKnown } from "./known";
import { commandKey } from "../provider/resources/commandKeys";
import { scopeLabel } from "../provider/resources/commandSetPlan";

/** The stack's commands by their id, where the id is known. */
function commandsById(resources: readonly SeenResource[]): Map<string, SeenCommand> {
  const byId = new Map<string, SeenCommand>();
  for (const r of resources) {
    const kind = kindOf(r.type);
    for (const c of whenKnown(() => commandsOf(r))) {
      const id = whenKnown(() => {
        if (kind === "CommandSetScopes") return [packedIdOf(r, c)];
        if (kind === "ScopeCommands") {
          const ids = r.props["commandIds"] as Record<string, unknown> | undefined;
          const key = Object.keys((r.props["commands"] as object | undefined) ?? {}).find(
            (k) => k.replace(/^\w+:/, "") === c.body["name"] && ids?.[k] !== undefined,
          );
          return key === undefined ? [] : [ids?.[key]];
        }
        return [r.props["commandId"]];
      })[0];
      if (typeof id === "string") byId.set(id, c);
    }
  }
  return byId;
}

/** A packed set's id of one of its commands: `commandIds[<scope label>][<key>]`. */
function packedIdOf(r: SeenResource, c: SeenCommand): unknown {
  const scope = (r.props["scopes"] as Record<string, unknown>[] | undefined)?.find(
    (s) => s["guildId"] === c.guildId,
  );
  const applicationId = scope?.["applicationId"];
  const label = scopeLabel({
    ...(typeof c.guildId === "string" ? { guildId: c.guildId } : {}),
    ...(typeof applicationId === "string" ? { applicationId } : {}),
  });
  const type = typeof c.body["type"] === "number" ? c.body["type"] : undefined;
  const ids = r.props["commandIds"] as Record<string, Record<string, unknown>> | undefined;
  return ids?.[label]?.[commandKey(type, String(c.body["name"]))];
}

export function stackPermissionsViolations(resources: readonly SeenResource[]): string[] {
  const byId = commandsById(resources);
  return resources
    .filter((r) => kindOf(r.type) === "GuildCommandPermissions")
    .flatMap((r) =>
      whenKnown(() => {
        const command = byId.get(String(r.props["commandId"]));
        const entries = r.props["permissions"];
        if (command === undefined || !Array.isArray(entries)) return [];
        return everyoneGrants(command, String(r.props["guildId"]), entries as Overwrite[]).map(
          (m) => `${m} (GuildCommandPermissions "${r.name}")`,
        );
      }),
    );
}
