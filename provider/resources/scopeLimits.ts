/**
 * What the provider can know about the service's per-scope limits before it writes, from
 * one list GET per scope (the scope cache), made only for scopes where this deployment
 * creates or renames commands: a preview without creates makes no request.
 *
 * - Count per type (100 CHAT_INPUT, 15 USER, 15 MESSAGE, 1 PRIMARY_ENTRY_POINT per
 *   scope; the one Limits table): checked by the service when a command is created. The
 *   engine runs a deployment's creates before the deletes of the resources it removes,
 *   so a create fails (30032) when the live commands of its type plus the names this
 *   deployment adds would pass the limit, even if the deployment also removes some.
 *   `check` of a new resource fails the preview then, naming the scope, the stack's
 *   resources that declare commands there (the claims checked so far) and the live
 *   commands none of them declares.
 * - A rename is a replacement that creates the new command before it deletes the old one,
 *   which in a full scope fails too. So `diff` asks for delete-before-replace when the
 *   new name would pass the limit: the old command goes first, the new one then fits. A
 *   new name that is live already adds nothing (the create takes that command over),
 *   so a swap of names in a full scope keeps create-before-delete; nor does an entry
 *   point while the application has one (it is taken over, whatever its name).
 * - Daily creates (200 per scope in 24 hours, across deployments): scopeBudget.ts, judged
 *   here for each new name.
 *
 * Every check of a deployment counts from the first list it read of the scope (one GET
 * per scope and deployment, shared with refresh and bulk writes through the scope cache),
 * plus what the deployment plans: the count each one sees is the one the deployment ends
 * with, whatever the engine has written meanwhile.
 *
 * A name counts once however often it is planned (a preview and an `up` in one process,
 * or a check after its own create), and names live already never count. A replacement's
 * new command is checked by the engine as a new resource after its diff: it is counted
 * by the diff only. A replacement that deletes first counts its name as an addition and
 * its old command as leaving, so diffs that run while some replacements have deleted and
 * not yet created (the engine interleaves them) still see the count they will reach.
 */
import type { WireCommand } from "../client";
import { COMMAND_TYPE_NAMES, commandsPerScope, CommandType } from "../schema";
import { budgetProblems } from "./scopeBudget";
import { scopeKind, scopeName } from "./scopeName";
import type { CommandIdentity, ProviderRuntime } from "./runtime";

interface Plan {
  /** The live commands of the type in the scope. */
  readonly live: WireCommand[];
  /** Whether the name is live already (an upsert, not an addition). */
  readonly isLive: boolean;
  /** How many commands of the type the scope holds once every planned name is added. */
  readonly countAfter: number;
  readonly limit: number;
}

async function plan(rt: ProviderRuntime, command: CommandIdentity): Promise<Plan> {
  const { applicationId, guildId, type, name } = command;
  const limit = commandsPerScope(type, scopeKind(guildId));
  // Held for the whole deployment (limitList); loaded through the snapshot that create's
  // live-twin lookup reads too, so both cost one list GET per scope.
  const { deployment } = rt;
  const all = await deployment.limitList(`${applicationId}/${guildId ?? "global"}`, () =>
    rt.scopes.scopeSnapshot(applicationId, guildId),
  );
  const live = all.filter((c) => (c.type ?? 1) === type);
  const liveNames = new Set(live.map((c) => c.name));
  // The application's one entry point is taken over whatever its name (liveTwin.ts): a
  // declared entry point adds nothing while one is live.
  const isLive =
    liveNames.has(name) || (type === CommandType.PRIMARY_ENTRY_POINT && live.length > 0);
  const key = `${applicationId}/${guildId ?? "global"}/${type}`;
  const planned = isLive ? new Set<string>() : deployment.planName(key, name);
  let added = 0;
  for (const n of planned) if (!liveNames.has(n)) added++;
  // Old commands that replacements delete before their create, and are still live.
  let leaving = 0;
  const liveIds = new Set(live.map((c) => c.id));
  for (const id of deployment.deletedFirst(key)) if (liveIds.has(id)) leaving++;
  return { live, isLive, countAfter: live.length + added - leaving, limit };
}

/** True when replacing a command by one of `type` and `name` must delete the old one first. */
export async function replacementNeedsRoom(
  rt: ProviderRuntime,
  oldId: string,
  command: CommandIdentity,
): Promise<boolean> {
  const key = `${command.applicationId}/${command.guildId ?? "global"}/${command.type}`;
  rt.deployment.replacing(`${key}/${command.name}`);
  const p = await plan(rt, command);
  const deleteFirst = !p.isLive && p.countAfter > p.limit;
  // Deleted first, the old command makes room for the new one (net nothing once both ran;
  // until then, the name counts as an addition and the old command as leaving).
  if (deleteFirst) rt.deployment.deleteFirst(key, oldId);
  return deleteFirst;
}

/** Why creating this command would fail on a limit the service states; [] when it would not. */
export async function createProblems(
  rt: ProviderRuntime,
  command: CommandIdentity,
): Promise<string[]> {
  const { applicationId, guildId, type, name } = command;
  // The engine checks a replacement's new command again, as a new resource: its diff
  // has planned it already (and made room for it).
  if (rt.deployment.isReplacement(`${applicationId}/${guildId ?? "global"}/${type}/${name}`)) {
    return [];
  }
  const p = await plan(rt, command);
  if (p.isLive) return []; // an upsert onto a live command: no addition, no create counted
  const where = scopeName(applicationId, guildId);
  const typeName = COMMAND_TYPE_NAMES[type] ?? `type ${type}`;
  const problems: string[] = [];
  if (p.countAfter > p.limit) {
    // Who fills the scope besides this command: the stack's resources, and the live rest.
    const live = new Set(p.live.map((c) => c.name));
    const planned = rt.claims
      .claimsIn(applicationId, guildId, type)
      .filter((c) => !live.has(c.name))
      .map((c) => ({ name: c.name }));
    const others = [...p.live, ...planned].filter((c) => c.name !== name);
    const fillers = rt.claims.whoDeclares(applicationId, guildId, type, others);
    problems.push(
      `${where} would hold ${p.countAfter} ${typeName} commands (the limit is ${p.limit}): ` +
        `${p.live.length} live now, and this deployment adds ${p.countAfter - p.live.length}. ` +
        (fillers === "" ? "" : `Besides this one, ${fillers}. `) +
        "The engine runs creates before it deletes removed resources, so remove commands " +
        "(or delete the ones no stack manages) in an earlier `pulumi up`",
    );
  }
  problems.push(...(await budgetProblems(rt, applicationId, guildId)));
  return problems;
}
