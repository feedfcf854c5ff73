/**
 * Secrets through the plugin. The plugin accepts secrets (the engine requires it of a
 * plugin that constructs components), so the engine stops marking what it hands back: a
 * value the program marked secret, at any depth, must go back marked by us, or the state
 * and the preview hold it in clear. Marks are kept as precisely as the value's place
 * allows (the engine's own rule for providers that do not accept secrets, `annotateSecrets`
 * in pkg/resource/plugin/provider_plugin.go, recurses into objects) and follow values, not
 * positions (a list the service re-ordered keeps each mark on its value); an output keyed
 * by what may be secret is marked whole; and a backstop marks a whole top-level property
 * when a secret string shows anywhere else in it (a value that moved, or became part of
 * another).
 */
import type { Bag } from "../resources/propertyBags";
import { CREDENTIAL_SETTINGS } from "../resources/settings";
import {
  containsSecret,
  isRecord,
  isSecretValue,
  secretStrings,
  secretValue,
  unwrapSecrets,
} from "../resources/propertyBags";
import { deepEqual } from "../schema";

/** Outputs that are always secret (the schema marks them): the kept user tokens. */
const SECRET_OUTPUTS: ReadonlySet<string> = new Set(["accessToken", "refreshToken"]);

/**
 * Outputs keyed by the keys of an input map, by output: `commandIds` (ScopeCommands) by
 * the keys of `commands`, which are the commands' types and names (commandKeys.ts).
 */
const KEYED_BY: Readonly<Record<string, { readonly map: string; readonly keyFields: string[] }>> = {
  commandIds: { map: "commands", keyFields: ["type", "name"] },
};

/**
 * `out` with a secret mark wherever `input` (the engine's value, marks included) held a
 * secret: objects recur key by key, lists item by matching item (annotateList); any other
 * value is marked whole when its input counterpart contains a secret.
 */
function annotate(out: unknown, input: unknown): unknown {
  if (out === undefined || isSecretValue(out) || !containsSecret(input)) return out;
  if (isSecretValue(input)) return secretValue(out);
  if (isRecord(out) && isRecord(input)) {
    const result: Bag = {};
    for (const [k, v] of Object.entries(out)) result[k] = annotate(v, input[k]);
    return result;
  }
  if (Array.isArray(out) && Array.isArray(input)) return annotateList(out, input);
  return secretValue(out);
}

/**
 * What a list item is known by, plain: its `name` (options, choices) and `id` (permissions
 * entries); undefined for an item with neither.
 */
function identityOf(item: unknown): unknown {
  if (!isRecord(item) || (item["name"] === undefined && item["id"] === undefined)) return undefined;
  return unwrapSecrets([item["name"], item["id"]]);
}

/**
 * A list's items, each marked as the input item it came from: the input item of the same
 * plain value (at the same place first), else the object of the same name or id (an option,
 * a choice or a permissions entry that drifted); an item with neither is marked whole when an input item left
 * unmatched holds a secret (it may be that item, changed). Marks follow values, never
 * places: a refresh that returns the list re-ordered keeps each mark on its value.
 */
function annotateList(out: readonly unknown[], input: readonly unknown[]): unknown[] {
  const plainInput = input.map(unwrapSecrets);
  const used = new Set<number>();
  const match = (at: number, same: (j: number) => boolean): number | undefined => {
    const j =
      at < input.length && !used.has(at) && same(at)
        ? at
        : plainInput.findIndex((_, k) => !used.has(k) && same(k));
    if (j < 0) return undefined;
    used.add(j);
    return j;
  };
  const source = out.map((v, i) => {
    const plain = unwrapSecrets(v);
    return match(i, (j) => deepEqual(plainInput[j], plain));
  });
  out.forEach((v, i) => {
    const identity = identityOf(v);
    if (source[i] === undefined && identity !== undefined) {
      source[i] = match(i, (j) => deepEqual(identityOf(plainInput[j]), identity));
    }
  });
  const unmatchedSecret = input.some((v, j) => !used.has(j) && containsSecret(v));
  return out.map((v, i) => {
    const j = source[i];
    if (j !== undefined) return annotate(v, input[j]);
    return unmatchedSecret && !isSecretValue(v) ? secretValue(v) : v;
  });
}

/**
 * True when a key of the map `input[map]` may show a secret: the map is secret, or one of
 * its entries, or a field of an entry that its key is made of.
 */
function secretKeys(input: unknown, map: string, keyFields: readonly string[]): boolean {
  const entries = isRecord(input) ? input[map] : undefined;
  if (isSecretValue(entries)) return true;
  if (!isRecord(entries)) return false;
  return Object.values(entries).some(
    (e) => isSecretValue(e) || (isRecord(e) && keyFields.some((f) => containsSecret(e[f]))),
  );
}

/**
 * True when `text` shows a secret: holds one of 4 characters or more, or is one (a shorter
 * secret inside other text is too common a string to judge by).
 */
function holdsSecret(text: string, secrets: readonly string[]): boolean {
  return secrets.some((s) => text === s || (s.length >= 4 && text.includes(s)));
}

/** True when a secret string shows in `value` outside a secret mark (in a value or a key). */
function showsSecret(value: unknown, secrets: readonly string[]): boolean {
  if (isSecretValue(value)) return false;
  if (typeof value === "string") return holdsSecret(value, secrets);
  if (Array.isArray(value)) return value.some((v) => showsSecret(v, secrets));
  if (isRecord(value)) {
    return Object.entries(value).some(
      ([k, v]) => holdsSecret(k, secrets) || showsSecret(v, secrets),
    );
  }
  return false;
}

/**
 * Properties as the engine takes them from a provider that accepts secrets: every secret
 * of `inputs` (the request's values, marks included: new inputs, old state) marked again
 * in `value`, and the outputs the schema marks secret marked whatever came in.
 */
export function withSecrets(value: Bag, ...inputs: readonly unknown[]): Bag {
  let marked: Bag = value;
  for (const input of inputs) marked = annotate(marked, input) as Bag;
  for (const [k, { map, keyFields }] of Object.entries(KEYED_BY)) {
    const v = marked[k];
    if (v !== undefined && inputs.some((i) => secretKeys(i, map, keyFields))) {
      marked = { ...marked, [k]: isSecretValue(v) ? v : secretValue(v) };
    }
  }
  const secrets = [...new Set(inputs.flatMap((i) => secretStrings(i)))].filter((s) => s !== "");
  const out: Bag = {};
  for (const [k, v] of Object.entries(marked)) {
    const secret =
      v !== undefined &&
      !isSecretValue(v) &&
      (SECRET_OUTPUTS.has(k) || (secrets.length > 0 && showsSecret(v, secrets)));
    out[k] = secret ? secretValue(v) : v;
  }
  return out;
}

/** True when `expected` marks secret a value that `actual` (the same plain value) holds in clear. */
function lacksMark(actual: unknown, expected: unknown): boolean {
  if (isSecretValue(actual)) return false;
  if (isSecretValue(expected)) return true;
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && expected.some((v, i) => lacksMark(actual[i], v));
  }
  if (isRecord(expected)) {
    return isRecord(actual) && Object.entries(expected).some(([k, v]) => lacksMark(actual[k], v));
  }
  return false;
}

/**
 * The top-level properties of a resource's state (`olds`, the engine's values) that hold in
 * clear a value the new inputs (`news`) mark secret: what an import stored (the engine's
 * Read of an import carries no inputs, pulumi/pulumi pkg/resource/deploy/step.go
 * `ImportStep.Apply`), or a field the program marks secret after it was deployed plain. The
 * engine keeps a resource's state when its diff finds no change (the import's, or the old
 * outputs of a `same` step), so only an update stores these marked.
 */
export function unmarkedInState(olds: unknown, news: unknown): string[] {
  if (!isRecord(olds) || !containsSecret(news)) return [];
  const expected = withSecrets(unwrapSecrets(olds) as Bag, news);
  return Object.keys(expected).filter((k) => lacksMark(olds[k], expected[k]));
}

/**
 * A provider configuration (the engine's values) with every credential marked secret. The
 * engine hands CheckConfig the configuration unmarked whether the stack set it with
 * `--secret` or `--plaintext` (CLI 3.259: a `--secret` botToken arrived as plain text), so
 * the plugin cannot refuse plain text as the dynamic door does (sdk/credentials.ts); it
 * marks what it keeps instead, and the provider's state holds only ciphertext.
 */
export function withSecretCredentials(config: Bag): Bag {
  const out: Bag = { ...config };
  for (const key of CREDENTIAL_SETTINGS) {
    const value = out[key];
    if (value !== undefined && value !== null && !isSecretValue(value)) {
      out[key] = secretValue(value);
    }
  }
  return out;
}
