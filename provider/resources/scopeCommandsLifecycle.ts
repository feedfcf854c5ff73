/**
 * `ScopeCommands`: the commands one stack manages in one scope (the global scope of an
 * application, or one guild), as one resource. `CommandSet` (sdk/commandSet.ts, and the
 * plugin's component) deploys one per scope.
 *
 * Inputs: `applicationId`, `guildId` (absent: the global scope), and `commands`, a map
 * from each command's key (`commandKey`: its name, prefixed `user:`, `message:` or
 * `entry_point:` for those types) to its definition in the SDK's shape. A map, not a list,
 * so that Pulumi's preview names the command whose field changes
 * (`commands["ban"].description`), and so that the order of a program's list is no change.
 * Outputs add `commandIds` (key -> the service's id). The resource id is
 * `<applicationId>/<guildId>` or `<applicationId>/global`.
 *
 * Changes (scopeCommandChanges.ts) are per key: a new key is a new command; a key gone is
 * a deleted command: so a rename makes a new id, and the permissions that follow the id are
 * written again. Writes (scopeWritePlan.ts decides; scopeCommandWrites.ts writes): a few
 * changes go one request each (PATCH of only the changed fields, POST, DELETE), which can
 * never touch a command the stack does not manage; more go in one bulk overwrite
 * (scopeOverwrite.ts) built from a fresh list of the scope, which carries every command the
 * resource does not manage unchanged.
 */
import type { WireCommand } from "../client";
import { ConfigurationError } from "../client";
import {
  COMMAND_TYPE_NAMES,
  CommandType,
  commandsPerScope,
  isRecord,
  isSnowflake,
  Secrecy,
  wireToSdk,
} from "../schema";
import { inputsFromLive } from "./commandLifecycle";
import type { CheckFailure, ConfiguredLifecycle } from "./lifecycle";
import { idFailures } from "./lifecycle";
import type { DescribeResource } from "./engineErrors";
import { forEngine } from "./engineErrors";
import type { Bag } from "./propertyBags";
import {
  DYNAMIC_PROVIDER_KEY,
  omit,
  optionalString,
  PROGRAM_PROBLEMS_KEY,
  secrecyOf,
  takeHidden,
  takeUpdating,
  UNKNOWN,
  unknownPaths,
} from "./propertyBags";
import type { ProviderRuntime } from "./runtime";
import { managedBefore, scopeCapProblems } from "./scopeCaps";
import { planScopeWrite } from "./scopeWritePlan";
import { commandPath, definitionFailures, keyIsSecret, markedIds } from "./scopeCommandDefinitions";
import type { Change } from "./scopeCommandChanges";
import { changesBetween, commandIds, definitions, scopeOf } from "./scopeCommandChanges";
import { writeEach, writeOverwrite } from "./scopeCommandWrites";
import { scopeKind, scopeName } from "./scopeName";
import { commandKey } from "./commandKeys";
import {
  createdAt,
  REPLACED_CREATES_KEY,
  replacedCreatesField,
  replacedCreatesOf,
} from "./dailyBudget";
import { noteReplacedCreates, scopeAddProblems } from "./scopeBudget";

export { commandKey, commandPath };

/**
 * The failure property of a problem of the whole list (caps, program-wide claims): none,
 * so the engine prints the reason alone instead of the whole `commands` map's value.
 */
export const WHOLE_SCOPE = "";

/** The resource's keys that are not command definitions. */
const ASSIGNED_KEYS = ["commandIds", REPLACED_CREATES_KEY];

/** The resource id: where the commands live. */
export function scopeResourceId(applicationId: string, guildId: string | undefined): string {
  return `${applicationId}/${guildId ?? "global"}`;
}

/** The parts of a resource id (also an import id: `<guildId>`, `global`, with or without `<applicationId>/`). */
export function parseScopeResourceId(
  id: string,
  defaultApplicationId: () => string,
): { applicationId: string; guildId: string | undefined } {
  const parts = id.split("/");
  const valid = (p: string): boolean => p === "global" || isSnowflake(p);
  if (parts.length > 2 || parts.length === 0 || !parts.every(valid) || parts[0] === "") {
    throw new ConfigurationError(
      `ScopeCommands id "${id}": the id is <guildId>, global, <applicationId>/<guildId> or ` +
        "<applicationId>/global (decimal ids)",
    );
  }
  const where = parts.length === 2 ? (parts[1] as string) : (parts[0] as string);
  const applicationId = parts.length === 2 ? (parts[0] as string) : defaultApplicationId();
  return { applicationId, guildId: where === "global" ? undefined : where };
}

/** Builds the provider of `ScopeCommands`, on the runtime it shares with the other kinds. */
export function scopeCommandsProvider(rt: ProviderRuntime): ConfiguredLifecycle {
  function outputs(
    inputs: Bag,
    applicationId: string,
    ids: Record<string, string>,
    replaced: readonly number[] = [],
  ): Bag {
    return {
      ...omit(inputs, [DYNAMIC_PROVIDER_KEY]),
      applicationId,
      commandIds: markedIds(inputs, ids),
      ...replacedCreatesField(replaced, rt.client.serviceNow()),
    };
  }

  /** The commands the changes create, as the budget counts them (scopeBudget.ts). */
  function createdBy(changes: readonly Change[]): { type: number; name: string }[] {
    return changes.flatMap((c) =>
      c.kind === "create" && c.body !== undefined
        ? [{ type: c.body.type ?? CommandType.CHAT_INPUT, name: c.body.name }]
        : [],
    );
  }

  /** The daily budget of the scope with these changes' creates (scopeBudget.ts). */
  async function budgetFailures(
    inputs: Bag,
    resource: string | undefined,
    changes: Change[],
  ): Promise<string[]> {
    const adds = createdBy(changes);
    const applicationId = optionalString(inputs, "applicationId");
    const guildId = optionalString(inputs, "guildId");
    if (adds.length === 0 || applicationId === undefined || applicationId === UNKNOWN) return [];
    if (guildId === UNKNOWN) return [];
    try {
      const owner = resource ?? scopeResourceId(applicationId, guildId);
      return await scopeAddProblems(rt, applicationId, guildId, owner, adds);
    } catch {
      return []; // the scope cannot be read: the write will say why
    }
  }

  /** The caps of the scope, counting the live commands the resource does not manage. */
  async function capFailures(olds: Bag, inputs: Bag): Promise<CheckFailure[]> {
    const applicationId = optionalString(inputs, "applicationId");
    if (applicationId === undefined || applicationId === UNKNOWN) return [];
    const guildId = optionalString(inputs, "guildId");
    if (guildId === UNKNOWN) return [];
    let live: readonly WireCommand[];
    try {
      live = await rt.scopes.scopeSnapshot(applicationId, guildId);
    } catch {
      return []; // no credentials at preview, or the scope cannot be read: the write will tell
    }
    const defs = Object.values(definitions(inputs));
    const before = rt.withApplication(olds);
    const sameScope =
      optionalString(before, "applicationId") === applicationId &&
      optionalString(before, "guildId") === guildId;
    // Check's olds are the old inputs (no commandIds): its own are what they declared.
    const managed = sameScope
      ? managedBefore(live, Object.values(definitions(before)))
      : new Set<string>();
    return scopeCapProblems(rt, applicationId, guildId, live, defs, managed).map((reason) => ({
      property: WHOLE_SCOPE,
      reason,
    }));
  }

  const provider: ConfiguredLifecycle = {
    async configure(req) {
      rt.configure(req.config);
    },

    async check(olds, news) {
      const { updating, rest: visible } = takeUpdating(news);
      if (updating) rt.deployment.markUpdate();
      const { value: problems, rest } = takeHidden(visible, PROGRAM_PROBLEMS_KEY);
      const inputs = rt.withApplication(rest);
      const failures: CheckFailure[] = [];
      if (problems !== undefined) failures.push({ property: WHOLE_SCOPE, reason: problems });
      if (inputs["applicationId"] === undefined) {
        failures.push({
          property: "applicationId",
          reason:
            "applicationId: no application id: set it on the resource or the provider's applicationId",
        });
      }
      const secrecy = secrecyOf(inputs);
      failures.push(...idFailures(inputs, secrecy, ["applicationId", "guildId"], false));
      const commands = inputs["commands"];
      if (commands === UNKNOWN) return { inputs, failures };
      if (!isRecord(commands)) {
        failures.push({
          property: "commands",
          reason: "commands: a map from each command's key (its name) to its definition",
        });
        return { inputs, failures };
      }
      const scope = scopeOf(inputs);
      const byType = new Map<number, string[]>();
      const warnings: string[] = [];
      for (const [key, value] of Object.entries(commands)) {
        if (value === UNKNOWN) continue;
        const checked = definitionFailures(key, value, scope, secrecy);
        failures.push(...checked.failures);
        warnings.push(...checked.warnings);
        if (checked.type !== undefined)
          byType.set(checked.type, [...(byType.get(checked.type) ?? []), key]);
      }
      for (const [type, keys] of byType) {
        const limit = commandsPerScope(type, scope);
        if (limit > 0 && keys.length > limit) {
          failures.push({
            property: WHOLE_SCOPE,
            reason: `commands: ${keys.length} ${COMMAND_TYPE_NAMES[type] ?? type} commands declared in one scope (the limit is ${limit})`,
          });
        }
      }
      await rt.warnings.forResource(describeScope(inputs, undefined), warnings);
      // The caps can only be passed by commands this check adds: a no-op preview reads
      // nothing, and an update leaves them to its write (scopeCaps.ts), which reads the scope.
      const before = definitions(olds);
      const grows = Object.keys(commands).some((key) => before[key] === undefined);
      if (failures.length === 0 && grows && !updating) {
        failures.push(...(await capFailures(olds, inputs)));
      }
      const known = unknownPaths(commands).length === 0;
      // The daily budget as the caps: judged by the preview, never in an update's check.
      if (failures.length === 0 && known && !updating && Object.keys(olds).length === 0) {
        const changes = changesBetween({}, inputs);
        const over = await budgetFailures(inputs, undefined, changes);
        failures.push(...over.map((reason) => ({ property: WHOLE_SCOPE, reason })));
      }
      return { inputs, failures };
    },

    async diff(id, olds, news) {
      const known = await noteReplacedCreates(rt, olds, id);
      if (known[0] !== undefined) throw new Error(known[0]);
      const replaces: string[] = [];
      const app = (bag: Bag): unknown => bag["applicationId"] ?? rt.settings.applicationId;
      if (app(news) === UNKNOWN || app(olds) !== app(news)) replaces.push("applicationId");
      if (news["guildId"] === UNKNOWN || olds["guildId"] !== news["guildId"]) {
        replaces.push("guildId");
      }
      if (unknownPaths(news["commands"]).length > 0 || news["commands"] === UNKNOWN) {
        return { changes: true, replaces, deleteBeforeReplace: false };
      }
      // The preview names each changed command by its key: a secret key, only `commands`.
      const secrecy = secrecyOf(olds).union(secrecyOf(news));
      const detailedDiff: Record<string, "add" | "update" | "delete"> = {};
      for (const c of changesBetween(olds, news)) {
        const at = (path: readonly string[] = []): string =>
          keyIsSecret(secrecy, c.key) ? "commands" : commandPath(c.key, path, secrecy);
        if (c.kind === "create")
          detailedDiff[at()] = keyIsSecret(secrecy, c.key) ? "update" : "add";
        else if (c.kind === "delete") {
          detailedDiff[at()] = keyIsSecret(secrecy, c.key) ? "update" : "delete";
        } else for (const f of c.fields ?? []) detailedDiff[at([f])] = "update";
      }
      const changes = replaces.length > 0 || Object.keys(detailedDiff).length > 0;
      // An update's diff leaves the budget to its preview: no list read of its own.
      if (replaces.length === 0 && !rt.deployment.isUpdate) {
        const over = await budgetFailures(news, id, changesBetween(olds, news));
        if (over[0] !== undefined) throw new Error(over[0]);
      }
      return { changes, replaces, deleteBeforeReplace: false, detailedDiff };
    },

    async create(inputs) {
      const { applicationId, guildId } = rt.where(inputs);
      const secrecy = secrecyOf(inputs);
      const ids = await writeOverwrite(
        rt,
        applicationId,
        guildId,
        definitions(inputs),
        {},
        secrecy,
      );
      return {
        id: scopeResourceId(applicationId, guildId),
        outs: outputs(inputs, applicationId, ids),
      };
    },

    async read(id, props) {
      if (Object.keys(props).length === 0) {
        // An import: the scope's every command comes under management.
        const at = parseScopeResourceId(id, () => rt.resolveApplicationId(undefined));
        const live = await rt.scopes.scopeCommands(at.applicationId, at.guildId);
        const commands: Record<string, Bag> = {};
        const ids: Record<string, string> = {};
        for (const c of live.values()) {
          const key = commandKey(c.type, c.name);
          commands[key] = wireToSdk(c) as unknown as Bag;
          ids[key] = c.id;
        }
        const inputs: Bag = { applicationId: at.applicationId, commands };
        if (at.guildId !== undefined) inputs["guildId"] = at.guildId;
        return {
          id: scopeResourceId(at.applicationId, at.guildId),
          props: { ...inputs, commandIds: ids },
          inputs,
        };
      }
      const { applicationId, guildId } = rt.where(props);
      const scope = scopeKind(guildId);
      const live = await rt.scopes.scopeCommands(applicationId, guildId);
      const oldDefs = definitions(props);
      const commands: Record<string, Bag> = {};
      const ids: Record<string, string> = {};
      for (const [key, commandId] of Object.entries(commandIds(props))) {
        const c = live.get(commandId);
        if (c === undefined) continue; // deleted out of band: the next `up` creates it again
        commands[key] = inputsFromLive(oldDefs[key] ?? {}, c, scope);
        ids[key] = commandId;
      }
      const inputs: Bag = {
        ...omit(props, [DYNAMIC_PROVIDER_KEY, ...ASSIGNED_KEYS]),
        applicationId,
        commands,
      };
      const record = replacedCreatesField(replacedCreatesOf(props), rt.client.serviceNow());
      return { id, props: { ...inputs, commandIds: markedIds(inputs, ids), ...record }, inputs };
    },

    async update(_id, olds, news) {
      const { applicationId, guildId } = rt.where(news);
      const changes = changesBetween(olds, news);
      const ids = { ...commandIds(olds) };
      const plan = planScopeWrite({
        creates: changes.filter((c) => c.kind === "create").length,
        edits: changes.filter((c) => c.kind === "edit").length,
        deletes: changes.filter((c) => c.kind === "delete").length,
      });
      let next: Record<string, string>;
      if (plan === "none") next = ids;
      else if (plan === "each") {
        await writeEach(rt, applicationId, guildId, changes, ids);
        next = ids;
      } else {
        const declared = definitions(news);
        next = await writeOverwrite(
          rt,
          applicationId,
          guildId,
          declared,
          commandIds(olds),
          secrecyOf(news),
        );
      }
      // The commands this update deleted or renamed: their creates stay counted for a day.
      const kept = new Set(Object.values(next));
      const gone = Object.values(commandIds(olds)).filter((old) => !kept.has(old));
      const replaced = [...replacedCreatesOf(olds), ...createdAt(gone)];
      return { outs: outputs(news, applicationId, next, replaced) };
    },

    async delete(_id, props) {
      const { applicationId, guildId } = rt.where(props);
      const ids = commandIds(props);
      const changes: Change[] = Object.entries(ids)
        .filter(([, id]) => !rt.deployment.isLiveCommand(id))
        .map(([key, id]) => ({ key, kind: "delete", id }));
      const plan = planScopeWrite({ creates: 0, edits: 0, deletes: changes.length });
      if (plan === "none") return;
      if (plan === "each") {
        await writeEach(rt, applicationId, guildId, changes, { ...ids });
        return;
      }
      await writeOverwrite(rt, applicationId, guildId, {}, ids, Secrecy.NONE);
    },
  };
  return forEngine(provider, describeScope, rt);
}

const describeScope: DescribeResource = (props) => {
  const secrecy = secrecyOf(props);
  const id = (key: string): string | undefined => {
    const v = props[key];
    return typeof v === "string" ? secrecy.text(v, [key]) : undefined;
  };
  return `the commands of ${scopeName(id("applicationId") ?? "?", id("guildId"))}`;
};
