/**
 * A packed `CommandSet` through the plugin (`packed: true`): one child,
 * `discord-commands:index:CommandSetScopes` (`<set>-scopes`, as the TypeScript SDK's
 * component names it, sdk/commandSet.ts), holds every scope, the definitions once
 * (provider/resources/commandSetScopesLifecycle.ts). Its inputs are the TypeScript door's:
 * the definitions as the list the program gave, each secret value marked at its own path
 * (`commands[1].description`; the engine's marks tell the lifecycle where, server.ts
 * `bag`), the scopes, the definitions' problems and whether the engine runs an update.
 * Each scope's answer is the child's `commandIds[label]`, which the permissions children
 * and the set's `commandIds` output follow as they follow a `ScopeCommands`' ids.
 */
import type * as resproto from "@pulumi/pulumi/proto/resource_pb";
import { definitionProblems, scopeLabel } from "../resources/commandSetPlan";
import {
  isSecretValue,
  programProblemsField,
  secretValue,
  UNKNOWN,
  updatingField,
} from "../resources/propertyBags";
import { isRecord } from "../schema";
import type { PlainObject, PlainValue } from "../plainStructs";
import type { Children, RegisteredScopes, ScopeAnswer, SetArguments } from "./setChildren";
import { idsAnswer, markedAt } from "./setChildren";

/** The child's name: the TypeScript door's (sdk/commandSet.ts `packedChild`). */
export function packedChildName(set: string): string {
  return `${set}-scopes`;
}

/**
 * The definitions as the child takes them: secret at their own paths; while any part is
 * unknown (preview), unknown as a whole (as an Output would be), secret when any part is.
 */
function packedCommands(set: SetArguments): PlainValue {
  if (set.definitions === undefined) {
    return (set.secretCommands ? secretValue(UNKNOWN) : UNKNOWN) as PlainValue;
  }
  const paths = set.secrecy.under(["commands"]).paths;
  return (markedAt({ commands: set.definitions }, paths) as PlainObject)["commands"] as PlainValue;
}

/** True when a definition's name or type is secret: the ids are keyed by the names. */
function namesSecret(set: SetArguments): boolean {
  return (set.definitions ?? []).some(
    (_, i) => set.secrecy.covers([i, "name"]) || set.secrecy.covers([i, "type"]),
  );
}

/**
 * One scope's answer from the child's registration: its `commandIds[label]` (secret when
 * the whole map or the scope's entry is); unknown while the map or the entry is (preview).
 */
function labelAnswer(res: resproto.RegisterResourceResponse, label: string): ScopeAnswer {
  const object = res.getObject()?.toJavaScript() ?? {};
  const marked: unknown = object["commandIds"];
  const all = isSecretValue(marked) ? marked.value : marked;
  const entry = isRecord(all) ? all[label] : undefined;
  return idsAnswer(res.getUrn(), entry, isSecretValue(marked));
}

/** The packed set's one child, and every scope's answer from it. */
export function registerPacked(children: Children, set: SetArguments): RegisteredScopes {
  const { name, definitions } = set;
  const registered = children.register(
    "CommandSetScopes",
    packedChildName(name),
    {
      commands: packedCommands(set),
      // Each scope as the set gave it (scopesOf keeps only the keys it has).
      scopes: set.scopes.map((s) => ({ ...s }) as Record<string, string>),
      // The set's own problems fail the child's check, naming the set.
      ...programProblemsField(
        definitions === undefined
          ? UNKNOWN
          : definitionProblems(name, definitions, set.permissions, set.secrecy),
      ),
      // An update's write checks the scopes' caps against the lists it reads anyway.
      ...updatingField(set.updating),
    },
    { commands: set.deps["commands"] ?? [] },
  );
  const labels = set.scopes.map(scopeLabel);
  const answers = new Map(labels.map((l) => [l, registered.then((r) => labelAnswer(r, l))]));
  return { answers, keysSecret: new Set(namesSecret(set) ? labels : []) };
}
