/**
 * The lifecycle shared by global and guild commands. `globalCommand.ts` and
 * `guildCommand.ts` each bind it to one scope and export the provider the engine calls.
 *
 * Inputs are the SDK's camelCase arguments plus `applicationId` (and `guildId` for a
 * guild command). Outputs are those inputs plus what the service assigned: `commandId`,
 * `version`, and `adopted` (true when create found a command of the same name and
 * overwrote it, which is how existing commands come under management).
 */
import type { WireCommand, WireCommandBody, WireCommandPatch } from "../client";
import type { Scope, SchemaIssue } from "../schema";
import {
  CANONICAL_COMMAND_FIELDS,
  diffCommandFields,
  formatPath,
  patchBody,
  validateSdkCommand,
  WIRE_TO_SDK_KEYS,
  wireToSdk,
} from "../schema";
import type { DescribeResource } from "./engineErrors";
import { forEngine } from "./engineErrors";
import { client, configure, deployment, resolveApplicationId, settings } from "./providerProcess";
import type { StackConfig } from "./providerProcess";
import { invalidateScope, scopeCommands } from "./scopeCache";
import type { Bag, Path } from "./propertyBags";
import {
  omit,
  optionalString,
  requireString,
  sameBranch,
  UNKNOWN,
  unknownPaths,
  withoutUnknowns,
} from "./propertyBags";

/** Outputs the service assigns; never inputs. */
const ASSIGNED_KEYS = ["commandId", "version", "adopted"];
/**
 * The program-wide problems (duplicate names, too many commands in a scope) the SDK's
 * registry found for this resource (`sdk/registry.ts`); present only when there are any.
 */
const PROGRAM_PROBLEMS_KEY = "__programProblems";
/** Keys of the resource that are not command fields. */
const RESOURCE_KEYS = [
  "__provider",
  PROGRAM_PROBLEMS_KEY,
  "applicationId",
  "guildId",
  ...ASSIGNED_KEYS,
];
/** A change of any of these makes a new command: a new id, and its permissions dropped. */
const REPLACE_KEYS = ["name", "type", "applicationId", "guildId"] as const;

export interface CheckFailure {
  readonly property: string;
  readonly reason: string;
}

export interface CommandProvider {
  configure(req: { config: StackConfig }): Promise<void>;
  check(olds: Bag, news: Bag): Promise<{ inputs: Bag; failures: CheckFailure[] }>;
  diff(
    id: string,
    olds: Bag,
    news: Bag,
  ): Promise<{ changes: boolean; replaces: string[]; deleteBeforeReplace: boolean }>;
  create(inputs: Bag): Promise<{ id: string; outs: Bag }>;
  read(id: string, props: Bag): Promise<{ id: string; props?: Bag; inputs?: Bag }>;
  update(id: string, olds: Bag, news: Bag): Promise<{ outs: Bag }>;
  delete(id: string, props: Bag): Promise<void>;
}

/** The command's own arguments (SDK shape) from a resource bag. */
export function commandArgs(bag: Bag): Bag {
  return omit(bag, RESOURCE_KEYS);
}

/** A check failure as the engine shows it: the engine only knows top-level keys, so the
 * whole path goes in the reason too. */
export function failure(issue: SchemaIssue, prefix: Path = []): CheckFailure {
  const property = formatPath([...prefix, ...issue.path]) || "(command)";
  return { property, reason: `${property}: ${issue.message} (${issue.code})` };
}

/** Validates SDK arguments, ignoring what is unknown at preview (checked once known). */
export function validateArgs(
  args: Bag,
  scope: Scope,
): { body: WireCommandBody | undefined; failures: CheckFailure[] } {
  const unknown = unknownPaths(args);
  const result = validateSdkCommand(withoutUnknowns(args), { scope });
  if (result.ok) return { body: unknown.length === 0 ? result.value : undefined, failures: [] };
  const failures = result.issues
    .filter((issue) => !unknown.some((u) => sameBranch(u, issue.path)))
    .map((issue) => failure(issue));
  return { body: undefined, failures };
}

/** The wire body of known SDK arguments; throws when they are invalid (check prevents that). */
function wireBody(args: Bag, scope: Scope): WireCommandBody {
  const result = validateSdkCommand(args, { scope });
  if (!result.ok) {
    const lines = result.issues.map((i) => failure(i).reason);
    throw new Error(`invalid command:\n${lines.join("\n")}`);
  }
  return result.value;
}

/** The live command in SDK shape, merged into the old inputs field by field. */
function inputsFromLive(oldInputs: Bag, live: WireCommand, scope: Scope): Bag {
  const oldArgs = commandArgs(oldInputs);
  const oldBody = validateSdkCommand(oldArgs, { scope });
  const liveArgs = wireToSdk(live) as unknown as Bag;
  if (!oldBody.ok) return { ...omit(oldInputs, ["__provider"]), ...liveArgs };
  const drifted = new Set(diffCommandFields(oldBody.value, live));
  if (drifted.size === 0) return omit(oldInputs, ["__provider"]);
  // Map the drifted wire fields back to SDK keys through the one mapping.
  const merged: Bag = { ...omit(oldInputs, ["__provider"]) };
  for (const wireKey of drifted) {
    const sdkKey = WIRE_TO_SDK_KEYS[wireKey] ?? wireKey;
    if (liveArgs[sdkKey] === undefined) delete merged[sdkKey];
    else merged[sdkKey] = liveArgs[sdkKey];
  }
  return merged;
}

/** How the engine's messages name a command resource. */
function describeCommand(scope: Scope): DescribeResource {
  return (props, id) => {
    const name = typeof props["name"] === "string" ? `"${props["name"]}"` : "(unnamed)";
    const where =
      scope === "guild" && typeof props["guildId"] === "string"
        ? ` in guild ${props["guildId"]}`
        : "";
    const known = id !== undefined && id !== "" ? ` (id ${id})` : "";
    return `${scope} command ${name}${where}${known}`;
  };
}

/** Builds the provider of one scope. */
export function commandProvider(scope: Scope): CommandProvider {
  const guildOf = (bag: Bag): string | undefined =>
    scope === "guild" ? requireString(bag, "guildId") : undefined;

  function outputs(
    inputs: Bag,
    applicationId: string,
    command: Pick<WireCommand, "id" | "version">,
    adopted: boolean,
  ): Bag {
    return {
      ...omit(inputs, ["__provider"]),
      applicationId,
      commandId: command.id,
      version: command.version,
      adopted,
    };
  }

  const provider: CommandProvider = {
    async configure(req) {
      configure(req.config);
    },

    async check(_olds, news) {
      const inputs: Bag = omit(news, [PROGRAM_PROBLEMS_KEY]);
      const failures: CheckFailure[] = [];
      const problems = news[PROGRAM_PROBLEMS_KEY];
      if (typeof problems === "string" && problems !== UNKNOWN) {
        failures.push({ property: "name", reason: problems });
      }
      if (inputs["applicationId"] === undefined && settings().applicationId !== undefined) {
        inputs["applicationId"] = settings().applicationId;
      }
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
      for (const key of ["applicationId", "guildId"]) {
        const v = inputs[key];
        if (v !== undefined && v !== UNKNOWN && !(typeof v === "string" && /^\d{1,20}$/.test(v))) {
          failures.push({ property: key, reason: `${key}: must be a snowflake (a decimal id)` });
        }
      }
      failures.push(...validateArgs(commandArgs(inputs), scope).failures);
      return { inputs, failures };
    },

    async diff(_id, olds, news) {
      const replaces: string[] = [];
      for (const key of REPLACE_KEYS) {
        const before = olds[key] ?? (key === "type" ? 1 : undefined);
        const after = news[key] ?? (key === "type" ? 1 : undefined);
        if (after === UNKNOWN || before !== after) replaces.push(key);
      }
      const newArgs = commandArgs(news);
      let changes = replaces.length > 0;
      if (unknownPaths(newArgs).length > 0) {
        changes = true; // unknown until apply: report a change, the update will know
      } else {
        const next = wireBody(newArgs, scope);
        const prev = validateSdkCommand(commandArgs(olds), { scope });
        changes ||= !prev.ok || diffCommandFields(next, prev.value).length > 0;
      }
      return { changes, replaces, deleteBeforeReplace: false };
    },

    async create(inputs) {
      const applicationId = resolveApplicationId(optionalString(inputs, "applicationId"));
      const guildId = guildOf(inputs);
      const body = wireBody(commandArgs(inputs), scope);
      const api = client();
      const result =
        guildId === undefined
          ? await api.createGlobalCommand(applicationId, body)
          : await api.createGuildCommand(applicationId, guildId, body);
      invalidateScope(applicationId, guildId);
      deployment.commandWritten(result.command.id);
      return {
        id: result.command.id,
        outs: outputs(inputs, applicationId, result.command, !result.created),
      };
    },

    async read(id, props) {
      const applicationId = resolveApplicationId(optionalString(props, "applicationId"));
      const guildId = guildOf(props);
      const live = (await scopeCommands(applicationId, guildId)).get(id);
      if (!live) return { id: "" }; // deleted out of band: refresh drops it, up recreates it
      const inputs = inputsFromLive(props, live, scope);
      const props2 = {
        ...inputs,
        applicationId,
        commandId: live.id,
        version: live.version,
        adopted: props["adopted"] === true,
      };
      return { id, props: props2, inputs: omit(inputs, ASSIGNED_KEYS) };
    },

    async update(id, olds, news) {
      const applicationId = resolveApplicationId(optionalString(news, "applicationId"));
      const guildId = guildOf(news);
      const body = wireBody(commandArgs(news), scope);
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
        const api = client();
        // A command deleted outside the stack answers 10063: engineErrors.ts says to refresh.
        command =
          guildId === undefined
            ? await api.editGlobalCommand(applicationId, id, patch)
            : await api.editGuildCommand(applicationId, guildId, id, patch);
        invalidateScope(applicationId, guildId);
      }
      deployment.commandWritten(id);
      return { outs: outputs(news, applicationId, command, olds["adopted"] === true) };
    },

    async delete(id, props) {
      if (deployment.isLiveCommand(id)) {
        // Create is an upsert by name: a create of this deployment returned this id, so
        // it now holds another resource's command (names swapped). Deleting it would
        // delete a live command; the old one is gone already.
        return;
      }
      const applicationId = resolveApplicationId(optionalString(props, "applicationId"));
      const guildId = guildOf(props);
      // An unknown command (404/10063) is already gone: the client answers false, and
      // the delete is done.
      const api = client();
      if (guildId === undefined) await api.deleteGlobalCommand(applicationId, id);
      else await api.deleteGuildCommand(applicationId, guildId, id);
      invalidateScope(applicationId, guildId);
    },
  };
  return forEngine(provider, describeCommand(scope));
}
