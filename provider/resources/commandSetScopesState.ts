/**
 * What a packed `CommandSet`'s one resource (`CommandSetScopes`, commandSetScopesLifecycle.ts)
 * holds, and each scope's view of it as a `ScopeCommands` would hold it, so that every
 * scope is checked, compared and written by the same functions as a `ScopeCommands`.
 *
 * Inputs: `commands`, the set's definitions once, as a list in the program's order;
 * `scopes`, a list of `{ guildId?, applicationId? }`; `applicationId`, the default one.
 * Outputs add, per scope label (commandSetPlan.ts `scopeLabel`): `commandIds` (key -> id)
 * and `replacedCreates` (dailyBudget.ts); and a refresh adds to a scope's own entry of
 * `scopes` its `drift` (key -> the live command in the SDK's shape, only for the commands it
 * found changed out of band). So the state holds the
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

/**
 * Where a refresh puts a scope's drift: in the scope's own entry of `scopes` (state and
 * refreshed inputs), so the preview shows it under the scope that drifted
 * (`scopes[1].drift.kick.description`), as the live values the next `up` puts back.
 */
export const DRIFT_KEY = "drift";
/** The outputs a packed set adds, each keyed by scope label. */
export const ASSIGNED_KEYS = ["commandIds", REPLACED_CREATES_KEY];

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
  const drift = driftIn(bag, label);
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

/** The drift a state keeps for a scope label (in its `scopes` entry), unwrapped. */
export function driftIn(bag: Bag, label: string): Bag | undefined {
  const list = bag["scopes"];
  if (!Array.isArray(list)) return undefined;
  for (const raw of list) {
    const entry = unwrapSecrets(raw);
    if (!isRecord(entry) || scopeLabel(scopesOf({ scopes: [entry] })[0] ?? {}) !== label) continue;
    const drift = unwrapSecrets(entry[DRIFT_KEY]);
    return isRecord(drift) ? drift : undefined;
  }
  return undefined;
}

/** The bag's `scopes` with each scope's drift (by label) in its entry, and no other. */
export function scopesWithDrift(bag: Bag, drift: Readonly<Record<string, unknown>>): unknown {
  const list = bag["scopes"];
  if (!Array.isArray(list)) return list;
  return list.map((raw) => {
    if (!isRecord(raw)) return raw;
    const { [DRIFT_KEY]: _old, ...entry } = raw;
    const label = scopeLabel(scopesOf({ scopes: [entry] })[0] ?? {});
    return drift[label] === undefined ? entry : { ...entry, [DRIFT_KEY]: drift[label] };
  });
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
 * The outputs per scope label, and each scope's drift (for its `scopes` entry), marked
 * secret where the values are: a scope's ids and drift are keyed by the commands' names
 * (secret when a name or a type is), and a drifted command is secret as a whole when any
 * value of its definition is.
 */
export function perScopeOutputs(
  views: readonly {
    label: string;
    view: Bag;
    ids: Record<string, string>;
    drift?: Bag;
    replaced?: readonly number[];
  }[],
): { outputs: Bag; drift: Bag } {
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
    outputs: {
      commandIds,
      ...(Object.keys(replaced).length > 0 ? { [REPLACED_CREATES_KEY]: replaced } : {}),
    },
    drift,
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
