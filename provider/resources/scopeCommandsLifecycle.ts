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
import { ConfigurationError } from "../client";
import { isRecord, isSnowflake, wireToSdk } from "../schema";
import { inputsFromLive } from "./commandLifecycle";
import type { CheckFailure, ConfiguredLifecycle } from "./lifecycle";
import { idFailures } from "./lifecycle";
import type { DescribeResource } from "./engineErrors";
import { forEngine } from "./engineErrors";
import type { Bag } from "./propertyBags";
import {
  DYNAMIC_PROVIDER_KEY,
  omit,
  PROGRAM_PROBLEMS_KEY,
  secrecyOf,
  takeHidden,
  takeUpdating,
  UNKNOWN,
  unknownPaths,
} from "./propertyBags";
import type { ProviderRuntime } from "./runtime";
import {
  budgetFailures,
  capFailures,
  commandMapFailures,
  scopeResourceId,
  WHOLE_SCOPE,
} from "./scopeCommandChecks";
import { commandPath, keyIsSecret, markedIds } from "./scopeCommandDefinitions";
import { changesBetween, commandIds, definitions, scopeOf } from "./scopeCommandChanges";
import { deleteScope, updateScope, writeOverwrite } from "./scopeCommandWrites";
import { scopeKind, scopeName } from "./scopeName";
import { commandKey } from "./commandKeys";
import { REPLACED_CREATES_KEY, replacedCreatesField, replacedCreatesOf } from "./dailyBudget";
import { noteReplacedCreates } from "./scopeBudget";

export { commandKey, commandPath, scopeResourceId, WHOLE_SCOPE };

/** The resource's keys that are not command definitions. */
const ASSIGNED_KEYS = ["commandIds", REPLACED_CREATES_KEY];

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
      const checked = commandMapFailures(commands, scopeOf(inputs), secrecy);
      failures.push(...checked.failures);
      const warnings = checked.warnings;
      await rt.warnings.forResource(describeScope(inputs, undefined), warnings);
      // The caps can only be passed by commands this check adds: a no-op preview reads
      // nothing, and an update leaves them to its write (scopeCaps.ts), which reads the scope.
      const before = definitions(olds);
      const grows = Object.keys(commands).some((key) => before[key] === undefined);
      if (failures.length === 0 && grows && !updating) {
        failures.push(...(await capFailures(rt, olds, inputs)));
      }
      const known = unknownPaths(commands).length === 0;
      // The daily budget as the caps: judged by the preview, never in an update's check.
      if (failures.length === 0 && known && !updating && Object.keys(olds).length === 0) {
        const changes = changesBetween({}, inputs);
        const over = await budgetFailures(rt, inputs, undefined, changes);
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
        const over = await budgetFailures(rt, news, id, changesBetween(olds, news));
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
      const { applicationId } = rt.where(news);
      const { ids, replaced } = await updateScope(rt, olds, news);
      return { outs: outputs(news, applicationId, ids, replaced) };
    },

    async delete(_id, props) {
      await deleteScope(rt, props);
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
