/**
 * Secrets through the plugin. The plugin accepts secrets (the engine requires it of a
 * plugin that constructs components), so the engine stops marking what it hands back: a
 * value the program marked secret, at any depth, must go back marked by us, or the state
 * and the preview hold it in clear. Marks are kept as precisely as the value's place
 * allows (the engine's own rule for providers that do not accept secrets, `annotateSecrets`
 * in pkg/resource/plugin/provider_plugin.go, recurses into objects), and a backstop marks
 * a whole top-level property when a secret string shows anywhere else in it (a value that
 * moved, or became part of another).
 */
import type { Bag } from "../resources/propertyBags";
import { CREDENTIAL_SETTINGS } from "../resources/settings";
import {
  containsSecret,
  isRecord,
  isSecretValue,
  secretStrings,
  secretValue,
} from "../resources/propertyBags";

/** Outputs that are always secret (the schema marks them): the kept user tokens. */
const SECRET_OUTPUTS: ReadonlySet<string> = new Set(["accessToken", "refreshToken"]);

/**
 * `out` with a secret mark wherever `input` (the engine's value, marks included) held a
 * secret: objects recur key by key, arrays of one length item by item (options and
 * choices keep their order through the normalizer); any other value is marked whole when
 * its input counterpart contains a secret.
 */
function annotate(out: unknown, input: unknown): unknown {
  if (out === undefined || isSecretValue(out) || !containsSecret(input)) return out;
  if (isSecretValue(input)) return secretValue(out);
  if (isRecord(out) && isRecord(input)) {
    const result: Bag = {};
    for (const [k, v] of Object.entries(out)) result[k] = annotate(v, input[k]);
    return result;
  }
  if (Array.isArray(out) && Array.isArray(input) && out.length === input.length) {
    return out.map((v, i) => annotate(v, input[i]));
  }
  return secretValue(out);
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
