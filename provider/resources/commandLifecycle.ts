/**
 * The lifecycle shared by global and guild commands. `globalCommand.ts` and
 * `guildCommand.ts` each bind it to one scope and export the provider the engine calls.
 *
 * Inputs are the SDK's camelCase arguments plus `applicationId` (and `guildId` for a
 * guild command). Outputs are those inputs plus what the service assigned: `commandId`,
 * `version`, and `adopted` (true when create found a command of the same name, which is
 * how existing commands come under management: taken as it is when already equal, with
 * no write, otherwise by one PATCH of the fields that differ; see liveTwin.ts).
 */
import type { WireCommand, WireCommandBody, WireCommandPatch } from "../client";
import { RateLimitError } from "../client";
import type { Scope, SchemaIssue, Secrecy } from "../schema";
import {
  CANONICAL_COMMAND_FIELDS,
  COMMAND_REPLACE_KEYS,
  diffCommandFields,
  Limits,
  patchBody,
  shownPath,
  validateSdkCommand,
  WIRE_TO_SDK_KEYS,
  wireToSdk,
} from "../schema";
import type { CheckFailure, ConfiguredLifecycle } from "./lifecycle";
import { idFailures } from "./lifecycle";
import type { DescribeResource } from "./engineErrors";
import { forEngine } from "./engineErrors";
import type { CommandIdentity, ProviderRuntime, Where } from "./runtime";
import { adoptLiveTwin } from "./liveTwin";
import { scopeName } from "./scopeName";
import { createOne, deleteOne, editOne, writeOneShared } from "./scopeWrites";
import { scopeRoutes } from "../routes";
import { createProblems, replacementNeedsRoom } from "./scopeLimits";
import {
  createdAt,
  REPLACED_CREATES_KEY,
  replacedCreatesField,
  replacedCreatesOf,
} from "./dailyBudget";
import { budgetProblemsIfReadable, noteReplacedCreates } from "./scopeBudget";
import type { Bag } from "./propertyBags";
import {
  DYNAMIC_PROVIDER_KEY,
  omit,
  requireString,
  sameBranch,
  secrecyOf,
  SECRET_PATHS_KEY,
  UNKNOWN,
  unknownPaths,
  withoutUnknowns,
} from "./propertyBags";

/** Outputs the service assigns; never inputs. */
const ASSIGNED_KEYS = ["commandId", "version", "adopted", REPLACED_CREATES_KEY];
/** Keys of the resource that are not command fields. */
const RESOURCE_KEYS = [
  DYNAMIC_PROVIDER_KEY,
  SECRET_PATHS_KEY,
  "applicationId",
  "guildId",
  ...ASSIGNED_KEYS,
];
/** The command's own arguments (SDK shape) from a resource bag. */
export function commandArgs(bag: Bag): Bag {
  return omit(bag, RESOURCE_KEYS);
}

/**
 * A check failure as the engine shows it: the engine only knows top-level keys, so the
 * whole path goes in the reason too (a key the program chose inside a secret value shows
 * as `[secret]`: schema/mapping.ts `shownPath`).
 */
export function failure(issue: SchemaIssue, secrecy: Secrecy): CheckFailure {
  const property = shownPath(issue.path, secrecy) || "(command)";
  return { property, reason: `${property}: ${issue.message} (${issue.code})` };
}

/**
 * Validates SDK arguments, ignoring what is unknown at preview (checked once known): the
 * failures, or the schema's warnings (`path: message (code)`) when there are none.
 */
function validateArgs(
  args: Bag,
  scope: Scope,
  secrecy: Secrecy,
): { failures: CheckFailure[]; warnings: string[] } {
  const unknown = unknownPaths(args);
  const result = validateSdkCommand(withoutUnknowns(args), { scope, secrecy });
  if (result.ok) {
    return { failures: [], warnings: result.warnings.map((w) => failure(w, secrecy).reason) };
  }
  const failures = result.issues
    .filter((issue) => !unknown.some((u) => sameBranch(u, issue.path)))
    .map((issue) => failure(issue, secrecy));
  return { failures, warnings: [] };
}

/** The wire body of known SDK arguments; throws when they are invalid (check prevents that). */
function wireBody(args: Bag, scope: Scope, secrecy: Secrecy): WireCommandBody {
  const result = validateSdkCommand(args, { scope, secrecy });
  if (!result.ok) {
    const lines = result.issues.map((i) => failure(i, secrecy).reason);
    throw new Error(`invalid command:\n${lines.join("\n")}`);
  }
  return result.value;
}

/** The live command in SDK shape, merged into the old inputs field by field. */
export function inputsFromLive(oldInputs: Bag, live: WireCommand, scope: Scope): Bag {
  const oldArgs = commandArgs(oldInputs);
  const oldBody = validateSdkCommand(oldArgs, { scope });
  const liveArgs = wireToSdk(live) as unknown as Bag;
  if (!oldBody.ok) return { ...omit(oldInputs, [DYNAMIC_PROVIDER_KEY]), ...liveArgs };
  const drifted = new Set(diffCommandFields(oldBody.value, live));
  if (drifted.size === 0) return omit(oldInputs, [DYNAMIC_PROVIDER_KEY]);
  // Map the drifted wire fields back to SDK keys through the one mapping.
  const merged: Bag = { ...omit(oldInputs, [DYNAMIC_PROVIDER_KEY]) };
  for (const wireKey of drifted) {
    const sdkKey = WIRE_TO_SDK_KEYS[wireKey] ?? wireKey;
    if (liveArgs[sdkKey] === undefined) delete merged[sdkKey];
    else merged[sdkKey] = liveArgs[sdkKey];
  }
  return merged;
}

/** How the engine's messages (and the timing log) name a command resource. */
function describeCommand(scope: Scope): DescribeResource {
  return (props, id) => {
    const secrecy = secrecyOf(props);
    const name =
      typeof props["name"] === "string" ? secrecy.quote(props["name"], ["name"]) : "(unnamed)";
    const where =
      scope === "guild" && typeof props["guildId"] === "string"
        ? ` in guild ${secrecy.text(props["guildId"], ["guildId"])}`
        : "";
    const known = id !== undefined && id !== "" ? ` (id ${id})` : "";
    return `${scope} command ${name}${where}${known}`;
  };
}

/**
 * A create told to wait longer than the client's budget is, most likely, the daily create
 * limit in its 429 form without code 30034 (a 429 with 30034 is a DailyCreateLimitError,
 * explained by engineErrors.ts). Waiting would hang: the message says so, and when.
 */
function dailyLimitHint(err: unknown, now: number, where: Where): unknown {
  if (err instanceof RateLimitError && !err.global) {
    const resets = new Date(now + err.retryAfterMs).toISOString();
    err.message =
      `${scopeName(where.applicationId, where.guildId)}: ${err.message}; a create asked to wait this long has ` +
      `most likely reached the daily create limit (${Limits.DAILY_CREATES} per day per scope), ` +
      `which has room again after ${resets}`;
  }
  return err;
}

/** Builds the provider of one scope, on the runtime it shares with the other kinds. */
export function commandProvider(scope: Scope, rt: ProviderRuntime): ConfiguredLifecycle {
  const describe = describeCommand(scope);

  /** Where the command of a checked bag lives (a guild command's names its guild), once per call. */
  function whereOf(bag: Bag): Where {
    const { applicationId } = rt.where(bag);
    return {
      applicationId,
      guildId: scope === "guild" ? requireString(bag, "guildId") : undefined,
    };
  }

  function outputs(
    inputs: Bag,
    applicationId: string,
    command: Pick<WireCommand, "id" | "version">,
    adopted: boolean,
    replaced: readonly number[] = [],
  ): Bag {
    return {
      ...omit(inputs, [DYNAMIC_PROVIDER_KEY]),
      applicationId,
      commandId: command.id,
      version: command.version,
      adopted,
      ...replacedCreatesField(replaced, rt.client.serviceNow()),
    };
  }

  /** Where a command of these inputs lives and what it is called; undefined while unknown. */
  function identity(bag: Bag): CommandIdentity | undefined {
    const known = (v: unknown): v is string => typeof v === "string" && v !== UNKNOWN;
    const applicationId = bag["applicationId"]; // `check` wrote the default in
    const guildId = bag["guildId"];
    const type = bag["type"] ?? 1;
    const name = bag["name"];
    if (!known(applicationId) || !known(name) || typeof type !== "number") return undefined;
    if (scope === "guild" && !known(guildId)) return undefined;
    return {
      applicationId,
      guildId: scope === "guild" ? (guildId as string) : undefined,
      type,
      name,
    };
  }

  /** The deployment memory's key of a replaced command (never shown). */
  function replacedKey(c: CommandIdentity): string {
    return `${c.applicationId}/${c.guildId ?? "global"}/${c.type}/${c.name}`;
  }

  /**
   * Whether a replacement must delete the old command first (scopeLimits.ts). Its new
   * command is a create: the scope's daily budget (scopeBudget.ts) is judged, and the old
   * command's creation is kept for the new one's state.
   */
  async function needsRoom(id: string, olds: Bag, news: Bag): Promise<boolean> {
    const c = identity(news);
    if (c === undefined) return false;
    const key = replacedKey(c);
    rt.deployment.rememberReplaced(key, id, replacedCreatesOf(olds));
    let deleteFirst: boolean;
    try {
      deleteFirst = await replacementNeedsRoom(rt, id, c);
    } catch {
      return false; // the scope cannot be read: the create will say why, in the service's words
    }
    const over = await budgetProblemsIfReadable(rt, c.applicationId, c.guildId);
    if (over[0] !== undefined) throw new Error(over[0]);
    return deleteFirst;
  }

  /** What the new command of a replacement keeps: its old command's creation, and record. */
  function replacedBefore(inputs: Bag): number[] {
    const c = identity(inputs);
    if (c === undefined) return [];
    const key = replacedKey(c);
    const old = rt.deployment.replacedCommand(key);
    return old === undefined ? [] : [...old.times, ...createdAt([old.oldId])];
  }

  /** A new resource: the limits its create would meet (scopeLimits.ts). */
  async function limitFailures(inputs: Bag): Promise<CheckFailure[]> {
    const c = identity(inputs);
    if (c === undefined) return [];
    let problems: string[];
    try {
      problems = await createProblems(rt, c);
    } catch {
      return []; // the scope cannot be read (no credentials at preview?): the create will tell
    }
    return problems.map((reason) => ({ property: "name", reason }));
  }

  const provider: ConfiguredLifecycle = {
    async configure(req) {
      rt.configure(req.config);
    },

    async check(olds, news) {
      const inputs = rt.withApplication(news);
      const failures: CheckFailure[] = [];
      if (inputs["applicationId"] === undefined) {
        failures.push({
          property: "applicationId",
          reason:
            "applicationId: no application id: set it on the resource or the stack config discord:applicationId",
        });
      }
      if (scope === "guild" && (inputs["guildId"] === undefined || inputs["guildId"] === "")) {
        failures.push({ property: "guildId", reason: "guildId: a guild command needs a guildId" });
      }
      const secrecy = secrecyOf(inputs);
      failures.push(...idFailures(inputs, secrecy, ["applicationId", "guildId"], false));
      const args = validateArgs(commandArgs(inputs), scope, secrecy);
      failures.push(...args.failures);
      await rt.warnings.forResource(describe(inputs, undefined), args.warnings);
      if (failures.length === 0 && Object.keys(olds).length === 0) {
        failures.push(...(await limitFailures(inputs)));
      }
      return { inputs, failures };
    },

    async diff(id, olds, news) {
      const known = await noteReplacedCreates(rt, olds, id);
      if (known[0] !== undefined) throw new Error(known[0]);
      const replaces: string[] = [];
      for (const key of COMMAND_REPLACE_KEYS) {
        const before = olds[key] ?? (key === "type" ? 1 : undefined);
        const after = news[key] ?? (key === "type" ? 1 : undefined);
        if (after === UNKNOWN || before !== after) replaces.push(key);
      }
      const newArgs = commandArgs(news);
      let changes = replaces.length > 0;
      if (unknownPaths(newArgs).length > 0) {
        changes = true; // unknown until apply: report a change, the update will know
      } else {
        const next = wireBody(newArgs, scope, secrecyOf(news));
        const prev = validateSdkCommand(commandArgs(olds), { scope });
        changes ||= !prev.ok || diffCommandFields(next, prev.value).length > 0;
      }
      // Deleting first frees room only in the same scope (a rename or a type change).
      const sameScope = !replaces.includes("applicationId") && !replaces.includes("guildId");
      const deleteBeforeReplace =
        replaces.length > 0 && sameScope && (await needsRoom(id, olds, news));
      return { changes, replaces, deleteBeforeReplace };
    },

    async create(inputs) {
      const where = whereOf(inputs);
      const { applicationId, guildId } = where;
      const body = wireBody(commandArgs(inputs), scope, secrecyOf(inputs));
      const bulk = rt.settings.writeMode === "bulk";
      const edit = scopeRoutes(guildId).edit;
      const adoption = await adoptLiveTwin(rt, where, body, {
        bulk,
        write: (fn) => writeOneShared(rt, applicationId, guildId, edit, fn),
      });
      if (adoption !== undefined) {
        if (adoption.written) rt.scopes.invalidateScope(applicationId, guildId);
        rt.deployment.commandWritten(adoption.command.id);
        return {
          id: adoption.command.id,
          outs: outputs(inputs, applicationId, adoption.command, true),
        };
      }
      let result: { command: Pick<WireCommand, "id" | "version">; created: boolean };
      try {
        if (bulk) {
          const r = await rt.bulk.write(applicationId, guildId, { kind: "create", body });
          if (r.command === undefined) throw new Error("bulk create answered without a command");
          result = { command: r.command, created: r.created };
        } else {
          // Every write to a scope goes through its lock (scopeWrites.ts).
          result = await createOne(rt, applicationId, guildId, body);
          rt.scopes.invalidateScope(applicationId, guildId);
        }
      } catch (err) {
        throw dailyLimitHint(err, rt.clock.now(), where);
      }
      rt.deployment.commandWritten(result.command.id);
      return {
        id: result.command.id,
        outs: outputs(
          inputs,
          applicationId,
          result.command,
          !result.created,
          replacedBefore(inputs),
        ),
      };
    },

    async read(id, props) {
      const { applicationId, guildId } = whereOf(props);
      const live = (await rt.scopes.scopeCommands(applicationId, guildId)).get(id);
      if (!live) return { id: "" }; // deleted out of band: refresh drops it, up recreates it
      // The inputs name the application: an import's (by id) too, as a declaration's do.
      const inputs = { ...inputsFromLive(props, live, scope), applicationId };
      const props2 = {
        ...inputs,
        commandId: live.id,
        version: live.version,
        adopted: props["adopted"] === true,
        ...replacedCreatesField(replacedCreatesOf(props), rt.client.serviceNow()),
      };
      return { id, props: props2, inputs: omit(inputs, ASSIGNED_KEYS) };
    },

    async update(id, olds, news) {
      const { applicationId, guildId } = whereOf(news);
      const body = wireBody(commandArgs(news), scope, secrecyOf(news));
      const prev = validateSdkCommand(commandArgs(olds), { scope });
      const fields = prev.ok
        ? diffCommandFields(body, prev.value)
        : CANONICAL_COMMAND_FIELDS.filter((f) => (body as Bag)[f] !== undefined);
      let command: Pick<WireCommand, "id" | "version">;
      if (fields.length === 0) {
        // Nothing the service holds differs (only SDK-side spelling changed): no write.
        command = { id, version: String(olds["version"] ?? "") };
      } else {
        const patch = patchBody(body, fields) as WireCommandPatch;
        if (rt.settings.writeMode === "bulk") {
          // A command gone from the live list fails with CommandGoneError (says to refresh).
          const r = await rt.bulk.write(applicationId, guildId, { kind: "update", id, body });
          command = r.command ?? { id, version: String(olds["version"] ?? "") };
        } else {
          // A command deleted outside the stack answers 10063: engineErrors.ts says to refresh.
          command = await editOne(rt, applicationId, guildId, id, patch);
          rt.scopes.invalidateScope(applicationId, guildId);
        }
      }
      rt.deployment.commandWritten(id);
      const adopted = olds["adopted"] === true;
      return { outs: outputs(news, applicationId, command, adopted, replacedCreatesOf(olds)) };
    },

    async delete(id, props) {
      if (rt.deployment.isLiveCommand(id)) {
        // Create is an upsert by name: a create of this deployment returned this id, so
        // it now holds another resource's command (names swapped). Deleting it would
        // delete a live command; the old one is gone already.
        return;
      }
      const { applicationId, guildId } = whereOf(props);
      // An unknown command (404/10063) is already gone: the client answers false, and
      // the delete is done.
      if (rt.settings.writeMode === "bulk") {
        await rt.bulk.write(applicationId, guildId, { kind: "delete", id });
        return;
      }
      await deleteOne(rt, applicationId, guildId, id);
      rt.scopes.invalidateScope(applicationId, guildId);
    },
  };
  return forEngine(provider, describeCommand(scope), rt);
}
