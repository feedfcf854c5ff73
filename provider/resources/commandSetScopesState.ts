/**
 * What a packed `CommandSet`'s one resource (`CommandSetScopes`, commandSetScopesLifecycle.ts)
 * holds, and each scope's view of it as a `ScopeCommands` would hold it, so that every
 * scope is checked, compared and written by the same functions as a `ScopeCommands`.
 *
 * Inputs: `commands`, the set's definitions once, as a list in the program's order;
 * `scopes`, a list of `{ guildId?, applicationId? }`; `applicationId`, the default one.
 * Outputs add, per scope label (commandSetPlan.ts `scopeLabel`): `commandIds` (key -> id),
 * `drift` (key -> the live command in the SDK's shape, only for the commands a refresh found
 * changed out of band) and `replacedCreates` (dailyBudget.ts). So the state holds the
 * definitions once, whatever the number of scopes: the engine carries, checkpoints and logs
 * every byte of every resource's state, and one copy per scope was most of the time of a
 * large set (docs/performance.md, "the state's shape").
 */
import { isDeepStrictEqual } from "node:util";
import { isRecord } from "../schema";
import type { SetScope } from "./commandSetPlan";
import { scopeCommandMap, scopeLabel } from "./commandSetPlan";
import { REPLACED_CREATES_KEY } from "./dailyBudget";
import type { Bag } from "./propertyBags";
import {
  isSecretValue,
  optionalString,
  SECRET_PATHS_KEY,
  secrecyOf,
  secretValue,
  UNKNOWN,
  unwrapSecrets,
} from "./propertyBags";
import { keyIsSecret } from "./scopeCommandDefinitions";

/** The outputs a packed set adds, each keyed by scope label. */
export const DRIFT_KEY = "drift";
export const ASSIGNED_KEYS = ["commandIds", DRIFT_KEY, REPLACED_CREATES_KEY];

/** The scopes of a packed set's bag (inputs or state): those that are objects. */
export function scopesOf(bag: Bag): SetScope[] {
  const list = unwrapSecrets(bag["scopes"]);
  if (!Array.isArray(list)) return [];
  return list.filter(isRecord).map((s) => ({
    ...(typeof s["guildId"] === "string" ? { guildId: s["guildId"] } : {}),
    ...(typeof s["applicationId"] === "string" ? { applicationId: s["applicationId"] } : {}),
  }));
}

/** The set's definitions (a list), or undefined while unknown or not a list. */
export function definitionList(bag: Bag): unknown[] | undefined {
  const list = bag["commands"];
  return Array.isArray(list) ? list : undefined;
}

/**
 * One output of the state for a scope label (`commandIds`, `drift`, `replacedCreates`).
 * Only the label's entry is unwrapped: unwrapping the whole map once per scope was
 * quadratic (a 1,000-guild refresh spent most of its 23 s of CPU there).
 */
function perScope(bag: Bag, key: string, label: string): unknown {
  const all = bag[key];
  const map = isSecretValue(all) ? all.value : all;
  return isRecord(map) ? unwrapSecrets(map[label]) : undefined;
}

/**
 * A scope's view of the inputs, as a `ScopeCommands`' inputs: its application (the scope's
 * own, or the set's default), its guild, the definitions by key without the fields the
 * scope does not keep, and the secret paths of that map (the set's are by index).
 */
export function inputView(bag: Bag, scope: SetScope): Bag {
  const secrecy = secrecyOf(bag);
  const map = scopeCommandMap(
    "",
    definitionList(bag) ?? [],
    scope,
    [],
    secrecy.within(["commands"]),
  );
  const applicationId = scope.applicationId ?? bag["applicationId"];
  return {
    ...(applicationId === undefined ? {} : { applicationId }),
    ...(scope.guildId === undefined ? {} : { guildId: scope.guildId }),
    commands: map.commands,
    [SECRET_PATHS_KEY]: map.secretPaths,
  };
}

/**
 * A scope's view of the state, as a `ScopeCommands`' state after a refresh: the declared
 * definitions with the drift the refresh found in their place, the ids, the replaced creates.
 */
export function stateView(bag: Bag, scope: SetScope): Bag {
  const label = scopeLabel(scope);
  const view = inputView(bag, scope);
  const drift = perScope(bag, DRIFT_KEY, label);
  const commands = { ...(view["commands"] as Record<string, unknown>) };
  if (isRecord(drift)) {
    for (const [key, live] of Object.entries(drift)) commands[key] = unwrapSecrets(live);
  }
  const ids = perScope(bag, "commandIds", label);
  const replaced = perScope(bag, REPLACED_CREATES_KEY, label);
  return {
    ...view,
    commands,
    ...(isRecord(ids) ? { commandIds: ids } : {}),
    ...(Array.isArray(replaced) ? { [REPLACED_CREATES_KEY]: replaced } : {}),
  };
}

/** The scopes of the old state and of the new inputs, by label: what each one was and is. */
export function scopePairs(
  olds: Bag,
  news: Bag,
): { label: string; before?: SetScope; after?: SetScope }[] {
  const pairs = new Map<string, { label: string; before?: SetScope; after?: SetScope }>();
  for (const s of scopesOf(olds)) pairs.set(scopeLabel(s), { label: scopeLabel(s), before: s });
  for (const s of scopesOf(news)) {
    const label = scopeLabel(s);
    pairs.set(label, { ...(pairs.get(label) ?? { label }), after: s });
  }
  return [...pairs.values()];
}

/** True when the bag's `scopes` or default application are not known yet (a preview). */
export function scopesUnknown(bag: Bag): boolean {
  const scopes = bag["scopes"];
  if (scopes === UNKNOWN || !Array.isArray(scopes)) return true;
  return scopes.some(
    (s) => !isRecord(s) || s["guildId"] === UNKNOWN || s["applicationId"] === UNKNOWN,
  );
}

/** A scope's output value, secret as a whole when its view's secrecy says so. */
function marked(value: unknown, secret: boolean): unknown {
  return secret && !isSecretValue(value) ? secretValue(value) : value;
}

/**
 * The outputs per scope label, marked secret where the values are: a scope's ids and
 * drift are keyed by the commands' names (secret when a name or a type is), and a drifted
 * command is secret as a whole when any value of its definition is.
 */
export function perScopeOutputs(
  views: readonly {
    label: string;
    view: Bag;
    ids: Record<string, string>;
    drift?: Bag;
    replaced?: readonly number[];
  }[],
): Bag {
  const commandIds: Bag = {};
  const drift: Bag = {};
  const replaced: Bag = {};
  for (const v of views) {
    const secrecy = secrecyOf(v.view);
    const keys = Object.keys(v.ids);
    commandIds[v.label] = marked(
      v.ids,
      keys.some((k) => keyIsSecret(secrecy, k)),
    );
    if (v.drift !== undefined && Object.keys(v.drift).length > 0) {
      const entries: Bag = {};
      for (const [key, live] of Object.entries(v.drift)) {
        entries[key] = marked(live, secrecy.touches(["commands", key]));
      }
      drift[v.label] = marked(
        entries,
        Object.keys(entries).some((k) => keyIsSecret(secrecy, k)),
      );
    }
    if (v.replaced !== undefined && v.replaced.length > 0) replaced[v.label] = v.replaced;
  }
  return {
    commandIds,
    [DRIFT_KEY]: drift,
    ...(Object.keys(replaced).length > 0 ? { [REPLACED_CREATES_KEY]: replaced } : {}),
  };
}

/** The definitions that drifted: the live ones (SDK shape) that differ from the declared. */
export function driftOf(declared: Record<string, unknown>, live: Record<string, Bag>): Bag {
  const out: Bag = {};
  for (const [key, value] of Object.entries(live)) {
    if (!isDeepStrictEqual(declared[key], value)) out[key] = value;
  }
  return out;
}

/** The application of a scope in a bag: its own, the set's default, or undefined. */
export function scopeApplication(bag: Bag, scope: SetScope): string | undefined {
  return scope.applicationId ?? optionalString(bag, "applicationId");
}
