/**
 * `CommandSetScopes`: every scope of a packed `CommandSet` as one resource, whose state holds
 * the set's definitions once (commandSetScopesState.ts). Each scope is checked, compared and
 * written by the functions of `ScopeCommands` (scopeCommandsLifecycle.ts) on its view of
 * the state, so a packed set checks, writes and detects drift as the per-scope one does;
 * the scopes are written at once, the client keeping the service's global pace.
 *
 * What the preview shows: a definition's change once, at its place in the set's list
 * (`commands[3].description`), since it is the same in every scope; a scope added or removed
 * (`scopes[2]`); a command of one scope changed out of band (`scopes[1].drift`, the live values
 * the next `up` overwrites) or deleted out of band (its id under `commandIds`).
 */
import { isDeepStrictEqual } from "node:util";
import { ConfigurationError } from "../client";
import { isRecord } from "../schema";
import type { SetScope } from "./commandSetPlan";
import { scopeLabel } from "./commandSetPlan";
import { commandKey } from "./commandKeys";
import { inputsFromLive } from "./commandLifecycle";
import type { DeploymentClaims } from "./claims";
import { scopeClaims } from "./claims";
import type { CheckFailure, ConfiguredLifecycle } from "./lifecycle";
import { idFailures } from "./lifecycle";
import type { DescribeResource } from "./engineErrors";
import { forEngine } from "./engineErrors";
import { eachScope, settleInPool } from "./commandSetScopesRun";
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
import { replacedCreatesOf, withinWindow } from "./dailyBudget";
import type { ProviderRuntime } from "./runtime";
import { noteReplacedCreates } from "./scopeBudget";
import type { Change } from "./scopeCommandChanges";
import { changesBetween, commandIds, definitions } from "./scopeCommandChanges";
import {
  budgetFailures,
  capFailures,
  commandMapFailures,
  scopeResourceId,
  WHOLE_SCOPE,
} from "./scopeCommandChecks";
import { commandPath, keyIsSecret } from "./scopeCommandDefinitions";
import { deleteScope, updateScope, writeOverwrite } from "./scopeCommandWrites";
import {
  ASSIGNED_KEYS,
  definitionList,
  DRIFT_KEY,
  driftOf,
  inputView,
  perScopeOutputs,
  driftIn,
  scopesWithDrift,
  scopeApplication,
  scopePairs,
  scopesOf,
  scopesUnknown,
  stateView,
} from "./commandSetScopesState";
import { scopeKind, scopeName } from "./scopeName";

/** The resource id of a packed set: it names no scope (the scopes change in place). */
export const COMMAND_SET_SCOPES_ID = "command-set";

/** One scope's result: its view and what the state keeps of it. */
interface ScopeResult {
  readonly label: string;
  readonly view: Bag;
  readonly ids: Record<string, string>;
  readonly drift?: Bag;
  readonly replaced?: readonly number[];
}

/** The view's place: `the guild 123 of application 456`. */
function placeOf(bag: Bag): (s: SetScope) => string {
  return (s) => scopeName(scopeApplication(bag, s) ?? "?", s.guildId);
}

/** The failures of the scopes' ids: snowflakes, never secret, an application for each. */
function scopeIdFailures(inputs: Bag): CheckFailure[] {
  const secrecy = secrecyOf(inputs);
  const failures = idFailures(inputs, secrecy, ["applicationId"], false);
  scopesOf(inputs).forEach((scope, i) => {
    const at = `scopes[${i}]`;
    if (scopeApplication(inputs, scope) === undefined) {
      failures.push({
        property: "scopes",
        reason: `${at}: no application id: set it on the scope, the set or the provider's applicationId`,
      });
    }
    const own = { ...scope } as Bag;
    for (const f of idFailures(
      own,
      secrecy.within(["scopes", i]),
      ["applicationId", "guildId"],
      false,
    )) {
      failures.push({ property: "scopes", reason: `${at}.${f.reason}` });
    }
  });
  return failures;
}

/**
 * The definitions' failures, judged once per kind of scope the set reaches (a guild's copy
 * leaves out the global-only fields); a failure of one kind only says which.
 */
function definitionFailures(inputs: Bag): { failures: CheckFailure[]; warnings: string[] } {
  const kinds = new Map<string, SetScope>();
  for (const s of scopesOf(inputs)) {
    const kind = scopeKind(s.guildId);
    if (!kinds.has(kind)) kinds.set(kind, s);
  }
  const byKind = [...kinds].map(([kind, scope]) => {
    const view = inputView(inputs, scope);
    return {
      kind,
      ...commandMapFailures(definitions(view), scopeKind(scope.guildId), secrecyOf(view)),
    };
  });
  const everywhere = (reason: string): boolean =>
    byKind.every((k) => k.failures.some((f) => f.reason === reason));
  const failures: CheckFailure[] = [];
  const seen = new Set<string>();
  for (const k of byKind) {
    for (const f of k.failures) {
      const reason = everywhere(f.reason) ? f.reason : `${f.reason} (in the ${k.kind} scopes)`;
      if (!seen.has(reason)) failures.push({ ...f, reason });
      seen.add(reason);
    }
  }
  return { failures, warnings: [...new Set(byKind.flatMap((k) => k.warnings))] };
}

/**
 * The scopes' caps and daily budgets, read from each scope's list (the write reuses it):
 * caps where the check adds commands, the budget for a scope new to the set.
 */
async function scopeReadFailures(
  rt: ProviderRuntime,
  olds: Bag,
  inputs: Bag,
): Promise<CheckFailure[]> {
  const before = rt.withApplication(olds);
  const oldScopes = new Map(scopesOf(before).map((s) => [scopeLabel(s), s]));
  const known = unknownPaths(inputs["commands"]).length === 0;
  const found = await settleInPool(scopesOf(inputs), async (scope) => {
    const view = inputView(inputs, scope);
    const was = oldScopes.get(scopeLabel(scope));
    const oldView = was === undefined ? {} : inputView(before, was);
    const oldDefs = definitions(oldView);
    const grows = Object.keys(definitions(view)).some((key) => oldDefs[key] === undefined);
    const failures = grows ? await capFailures(rt, oldView, view) : [];
    if (failures.length > 0 || !known || was !== undefined) return failures;
    const over = await budgetFailures(rt, view, undefined, changesBetween({}, view));
    return over.map((reason) => ({ property: WHOLE_SCOPE, reason }));
  });
  // Neither read throws: a scope that cannot be read is left to its write.
  return found.flatMap((r) => (r.status === "fulfilled" ? r.value : []));
}

/** Where each definition sits in a set's list, by key (the first one: a second is a problem). */
function indexByKey(bag: Bag): Map<string, number> {
  const at = new Map<string, number>();
  (definitionList(bag) ?? []).forEach((def, i) => {
    if (!isRecord(def) || typeof def["name"] !== "string") return;
    const type = typeof def["type"] === "number" ? def["type"] : undefined;
    const key = commandKey(type, def["name"]);
    if (!at.has(key)) at.set(key, i);
  });
  return at;
}

/** What the preview's paths of every scope's changes are read against: the two lists. */
interface PathContext {
  readonly oldAt: Map<string, number>;
  readonly newAt: Map<string, number>;
  /** The definitions by key, as the global scope holds them (every field). */
  readonly oldDefs: Record<string, Bag>;
  readonly newDefs: Record<string, Bag>;
  /** Each old scope's drift, and its place in the old list, by label. */
  readonly drift: ReadonlyMap<string, { at: number; drift: Bag }>;
}

function pathContext(olds: Bag, news: Bag): PathContext {
  return {
    oldAt: indexByKey(olds),
    newAt: indexByKey(news),
    oldDefs: definitions(inputView(olds, {})),
    newDefs: definitions(inputView(news, {})),
    drift: new Map(
      scopesOf(olds).map((sc, at) => [
        scopeLabel(sc),
        { at, drift: driftIn(olds, scopeLabel(sc)) ?? {} },
      ]),
    ),
  };
}

/** A path's change; a place in the list that loses a definition and gains one is updated. */
function mark(
  out: Record<string, "add" | "update" | "delete">,
  path: string,
  kind: "add" | "delete",
): void {
  const had = out[path];
  out[path] = had === undefined || had === kind ? kind : "update";
}

/** The preview's paths of one scope's changes (see the module's comment). */
function changePaths(
  changes: readonly Change[],
  label: string,
  ctx: PathContext,
  views: { before: Bag; after: Bag },
  out: Record<string, "add" | "update" | "delete">,
): void {
  const secrecy = secrecyOf(views.before).union(secrecyOf(views.after));
  const old = ctx.drift.get(label);
  const drift = definitions({ commands: old?.drift });
  const q = JSON.stringify(label);
  for (const c of changes) {
    const secretKey = keyIsSecret(secrecy, c.key);
    const key = secretKey ? "" : `[${JSON.stringify(c.key)}]`;
    const inScope = (k: string): string => `${k}[${q}]${key}`;
    const i = ctx.newAt.get(c.key);
    if (c.kind === "delete") mark(out, `commands[${ctx.oldAt.get(c.key) ?? 0}]`, "delete");
    else if (c.kind === "create") {
      if (i !== undefined && !ctx.oldAt.has(c.key)) mark(out, `commands[${i}]`, "add");
      else out[inScope("commandIds")] = "add";
    } else {
      if (drift[c.key] !== undefined) out[`scopes[${old?.at ?? 0}].${DRIFT_KEY}${key}`] = "update";
      if (i === undefined || isDeepStrictEqual(ctx.oldDefs[c.key], ctx.newDefs[c.key])) continue;
      const head = commandPath(c.key, [], secrecy);
      for (const f of c.fields ?? []) {
        out[`commands[${i}]${commandPath(c.key, [f], secrecy).slice(head.length)}`] = "update";
      }
    }
  }
}

/** The outputs: the inputs, per scope its ids and replaced creates, its drift in its entry. */
function outputsOf(inputs: Bag, results: readonly ScopeResult[]): Bag {
  const { outputs, drift } = perScopeOutputs(results);
  const plain = omit(inputs, [DYNAMIC_PROVIDER_KEY, DRIFT_KEY, ...ASSIGNED_KEYS]);
  return { ...plain, scopes: scopesWithDrift(plain, drift), ...outputs };
}

/** One scope's update: the `ScopeCommands` update on its views, or its deletion when gone. */
async function updateOne(
  rt: ProviderRuntime,
  olds: Bag,
  news: Bag,
  pair: { label: string; before?: SetScope; after?: SetScope },
): Promise<ScopeResult | undefined> {
  const before = pair.before === undefined ? {} : stateView(olds, pair.before);
  if (pair.after === undefined) {
    await deleteScope(rt, before);
    return undefined;
  }
  const view = inputView(news, pair.after);
  const { ids, replaced } = await updateScope(rt, before, view);
  return { label: pair.label, view, ids, replaced };
}

/** One scope's refresh: the live commands it manages, and those that drifted. */
async function readOne(rt: ProviderRuntime, props: Bag, scope: SetScope): Promise<ScopeResult> {
  const view = inputView(props, scope);
  const state = stateView(props, scope);
  const { applicationId, guildId } = rt.where(view);
  const live = await rt.scopes.scopeCommands(applicationId, guildId);
  const declared = definitions(view);
  const ids: Record<string, string> = {};
  const found: Record<string, Bag> = {};
  for (const [key, id] of Object.entries(commandIds(state))) {
    const c = live.get(id);
    if (c === undefined) continue; // deleted out of band: the next `up` creates it again
    ids[key] = id;
    found[key] = inputsFromLive(declared[key] ?? {}, c, scopeKind(guildId));
  }
  const replaced = withinWindow(replacedCreatesOf(state), rt.client.serviceNow());
  return { label: scopeLabel(scope), view, ids, drift: driftOf(declared, found), replaced };
}

/** Builds the provider of `CommandSetScopes`, on the runtime it shares with the other kinds. */
export function commandSetScopesProvider(rt: ProviderRuntime): ConfiguredLifecycle {
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
      if (scopesUnknown(inputs)) return { inputs, failures };
      failures.push(...scopeIdFailures(inputs));
      const commands = inputs["commands"];
      if (commands === UNKNOWN) return { inputs, failures };
      if (definitionList(inputs) === undefined) {
        failures.push({ property: "commands", reason: "commands: a list of command definitions" });
        return { inputs, failures };
      }
      const checked = definitionFailures(inputs);
      failures.push(...checked.failures);
      await rt.warnings.forResource(describeSet(inputs, undefined), checked.warnings);
      // Read from each scope's list only by a preview (an update's writes read it anyway).
      if (failures.length === 0 && !updating) {
        failures.push(...(await scopeReadFailures(rt, olds, inputs)));
      }
      return { inputs, failures };
    },

    async diff(id, olds, news) {
      const pairs = scopePairs(olds, news);
      for (const p of pairs) {
        if (p.before === undefined) continue;
        const view = stateView(rt.withApplication(olds), p.before);
        const { applicationId, guildId } = rt.where(view);
        const known = await noteReplacedCreates(rt, view, scopeResourceId(applicationId, guildId));
        if (known[0] !== undefined) throw new Error(known[0]);
      }
      const app = (bag: Bag): unknown => bag["applicationId"] ?? rt.settings.applicationId;
      const replaces = app(news) === UNKNOWN || app(olds) !== app(news) ? ["applicationId"] : [];
      if (scopesUnknown(news) || unknownPaths(news["commands"]).length > 0) {
        return { changes: true, replaces, deleteBeforeReplace: false };
      }
      const ctx = pathContext(olds, news);
      const detailedDiff: Record<string, "add" | "update" | "delete"> = {};
      const budget: Promise<string[]>[] = [];
      const labels = new Map(pairs.map((p) => [p.label, p]));
      scopesOf(olds).forEach((s, i) => {
        if (labels.get(scopeLabel(s))?.after === undefined) detailedDiff[`scopes[${i}]`] = "delete";
      });
      scopesOf(news).forEach((scope, i) => {
        const pair = labels.get(scopeLabel(scope));
        const before = pair?.before === undefined ? {} : stateView(olds, pair.before);
        const after = inputView(news, scope);
        const changes = changesBetween(before, after);
        if (pair?.before === undefined) detailedDiff[`scopes[${i}]`] = "add";
        else changePaths(changes, scopeLabel(scope), ctx, { before, after }, detailedDiff);
        // An update's diff leaves the budget to its preview: no list read of its own.
        if (
          replaces.length === 0 &&
          !rt.deployment.isUpdate &&
          changes.some((c) => c.kind === "create")
        ) {
          const { applicationId, guildId } = rt.where(after);
          budget.push(budgetFailures(rt, after, scopeResourceId(applicationId, guildId), changes));
        }
      });
      const over = (await Promise.all(budget)).flat();
      if (over[0] !== undefined) throw new Error(over[0]);
      const changes = replaces.length > 0 || Object.keys(detailedDiff).length > 0;
      return { changes, replaces, deleteBeforeReplace: false, detailedDiff };
    },

    async create(inputs) {
      const results = await eachScope(
        scopesOf(inputs),
        placeOf(inputs),
        async (scope) => {
          const view = inputView(inputs, scope);
          const { applicationId, guildId } = rt.where(view);
          const ids = await writeOverwrite(
            rt,
            applicationId,
            guildId,
            definitions(view),
            {},
            secrecyOf(view),
          );
          return { label: scopeLabel(scope), view, ids };
        },
        { rt, method: "create", bag: inputs },
      );
      return { id: COMMAND_SET_SCOPES_ID, outs: outputsOf(inputs, results) };
    },

    async read(id, props) {
      if (Object.keys(props).length === 0) {
        throw new ConfigurationError(
          `CommandSetScopes "${id}": a packed set's scopes are not imported as one resource; ` +
            "import each scope as a ScopeCommands (its id is <guildId> or global), or let the " +
            "packed set's first `up` take the scopes' commands over by name",
        );
      }
      const results = await eachScope(
        scopesOf(props),
        placeOf(props),
        (s) => readOne(rt, props, s),
        {
          rt,
          method: "read",
          bag: props,
        },
      );
      const inputs = omit(props, [DYNAMIC_PROVIDER_KEY, DRIFT_KEY, ...ASSIGNED_KEYS]);
      const outs = outputsOf(inputs, results);
      // The refreshed inputs carry the drift too: the dynamic door's preview shows the
      // difference of old and new inputs.
      return { id, props: outs, inputs: { ...inputs, scopes: outs["scopes"] } };
    },

    async update(_id, olds, news) {
      const where = placeOf(news);
      const results = await eachScope(
        scopePairs(olds, news),
        (p) => where(p.after ?? p.before ?? {}),
        (p) => updateOne(rt, olds, news, p),
        { rt, method: "update", bag: news },
      );
      return {
        outs: outputsOf(
          news,
          results.filter((r): r is ScopeResult => r !== undefined),
        ),
      };
    },

    async delete(_id, props) {
      await eachScope(
        scopesOf(props),
        placeOf(props),
        (s) => deleteScope(rt, stateView(props, s)),
        {
          rt,
          method: "delete",
          bag: props,
        },
      );
    },
  };
  return forEngine(provider, describeSet, rt);
}

const describeSet: DescribeResource = (props) => {
  const n = scopesOf(props).length;
  return `the commands of a packed command set (${n} scope${n === 1 ? "" : "s"})`;
};

/**
 * The program-wide claims of a packed set (claims.ts): each scope's commands as a
 * `ScopeCommands` would claim them (named by the set's URN and the scope's label), recorded
 * in one call: one per scope released and judged every claim of the deployment each time,
 * 5.5 s of a 1,000-guild preview's CPU (measured).
 */
export function packedScopeClaims(
  claims: Pick<DeploymentClaims, "claimAll">,
  urn: string,
  inputs: Bag,
): string[] {
  if (scopesUnknown(inputs)) return [];
  const all = scopesOf(inputs).flatMap(
    (s) => scopeClaims(`${urn}[${scopeLabel(s)}]`, inputView(inputs, s)) ?? [],
  );
  return claims.claimAll(urn, all);
}
