/**
 * What one run of `authorize` uses, each from its option, else the stack's config in the
 * namespace of the door the stack uses (cli/stackNamespace.ts), else its default: the
 * service, and the application's client id and secret (the secret also from
 * `DISCORD_CLIENT_SECRET`).
 */
import { DEFAULT_API_URL, normalizeApiUrl } from "../provider/client/config";
import type { ConfigNamespace } from "../provider/resources/settings";
import type { AuthorizeOptions } from "./authorizeOptions";
import { UsageError } from "./authorizeOptions";
import { projectFile, stackNamespace } from "./stackNamespace";
import type { ClientSecretSource, OAuthClient } from "./tokenExchange";

export interface AuthorizeSettings {
  readonly namespace: ConfigNamespace;
  /** Why this namespace, for the messages. */
  readonly because: string;
  /** The service's API base (`.../api/v10`). */
  readonly apiBase: string;
  readonly client: OAuthClient;
}

export function authorizeSettings(
  options: AuthorizeOptions,
  config: ReadonlyMap<string, string>,
  env: NodeJS.ProcessEnv,
): AuthorizeSettings {
  const { namespace, because } = chosenNamespace(options, config.keys());
  const apiUrl = options.apiUrl ?? config.get(`${namespace}:apiUrl`) ?? DEFAULT_API_URL;
  return {
    namespace,
    because,
    apiBase: normalizeApiUrl(apiUrl),
    client: oauthClient(options, config, env, { namespace, because }),
  };
}

/** `--namespace`, else the stack's door as detected; and why, as the messages say it. */
function chosenNamespace(
  options: AuthorizeOptions,
  configKeys: Iterable<string>,
): { namespace: ConfigNamespace; because: string } {
  if (options.namespace !== undefined) {
    return {
      namespace: options.namespace,
      because: `the namespace ${options.namespace}: chosen with --namespace`,
    };
  }
  const { namespace, why } = stackNamespace(projectFile(options.cwd), configKeys);
  return { namespace, because: `the namespace ${namespace}: ${why}; --namespace chooses` };
}

/** The client id (`--client-id`, `<ns>:clientId`, `<ns>:applicationId`) and its secret. */
function oauthClient(
  options: AuthorizeOptions,
  config: ReadonlyMap<string, string>,
  env: NodeJS.ProcessEnv,
  { namespace: ns, because }: { namespace: ConfigNamespace; because: string },
): OAuthClient {
  const clientId =
    options.clientId ?? config.get(`${ns}:clientId`) ?? config.get(`${ns}:applicationId`);
  if (clientId === undefined) {
    throw new UsageError(
      `no client id: pass --client-id, or set ${ns}:clientId or ${ns}:applicationId ` +
        `(${because})`,
    );
  }
  const configSecret = config.get(`${ns}:clientSecret`);
  const clientSecret = configSecret ?? env["DISCORD_CLIENT_SECRET"];
  const secretSource: ClientSecretSource =
    configSecret !== undefined ? "config" : clientSecret !== undefined ? "env" : undefined;
  return { clientId, clientSecret, secretSource };
}
