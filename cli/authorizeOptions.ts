/** The command line of `discord-commands authorize`: its usage text and its options. */
import * as path from "node:path";
import { parseArgs } from "node:util";
import type { ConfigNamespace } from "../provider/resources/settings";
import { CONFIG_NAMESPACES } from "../provider/resources/settings";
import { getCommandPermissionsScopes } from "../sdk/authorization";

export const USAGE = `usage: discord-commands authorize [options]

Authorizes the application to edit command permissions as you, and stores the Bearer
and refresh tokens as secrets of the current Pulumi stack (<ns>:bearerToken,
<ns>:refreshToken). Run it in the Pulumi project's folder.

<ns> is the stack config namespace of the door the stack uses, read and written alike:
discord-commands (the resource plugin) when the Pulumi.yaml's packages: block names
discord-commands or its runtime is not nodejs; else the one namespace the stack's
config has keys in; else discord (the TypeScript dynamic resources).

options:
  --namespace <ns>     discord-commands or discord: the namespace to read and write
                       (default: detected, as above)
  --stack <name>       the stack to store the tokens in (default: the selected stack)
  --api-url <url>      the service (default: <ns>:apiUrl, else https://discord.com);
                       an emulator's URL works too
  --client-id <id>     the application's client id (default: <ns>:clientId, else
                       <ns>:applicationId)
  --scopes <scopes>    space-separated scopes (default:
                       applications.commands.permissions.update)
  --port <n>           the loopback redirect's port (default: any free port); register
                       http://127.0.0.1/callback as a redirect URI of the application
  --timeout <seconds>  how long to wait for the browser (default: 300)
  --no-browser         print the URL only
  --cwd <dir>          the Pulumi project's folder (default: the current folder)`;

/** A command line or setting the subcommand cannot run with: exit 2. */
export class UsageError extends Error {}

export interface AuthorizeOptions {
  readonly namespace: ConfigNamespace | undefined;
  readonly stack: string | undefined;
  readonly apiUrl: string | undefined;
  readonly clientId: string | undefined;
  readonly scopes: string;
  readonly port: number;
  readonly timeoutMs: number;
  readonly browser: boolean;
  readonly cwd: string;
}

export function parseAuthorizeOptions(argv: readonly string[]): AuthorizeOptions | "help" {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      namespace: { type: "string" },
      stack: { type: "string" },
      "api-url": { type: "string" },
      "client-id": { type: "string" },
      scopes: { type: "string" },
      port: { type: "string" },
      timeout: { type: "string" },
      "no-browser": { type: "boolean" },
      cwd: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help === true) return "help";
  const namespace = namespaceOption(values.namespace);
  const port = portOption(values.port);
  const timeout = Number(values.timeout ?? "300");
  if (!(timeout > 0))
    throw new UsageError(`--timeout: ${values.timeout} is not a number of seconds`);
  return {
    namespace,
    stack: values.stack,
    apiUrl: values["api-url"],
    clientId: values["client-id"],
    scopes: values.scopes ?? getCommandPermissionsScopes(),
    port,
    timeoutMs: timeout * 1000,
    browser: values["no-browser"] !== true,
    cwd: path.resolve(values.cwd ?? "."),
  };
}

function namespaceOption(namespace: string | undefined): ConfigNamespace | undefined {
  const namespaces: readonly string[] = Object.values(CONFIG_NAMESPACES);
  if (namespace !== undefined && !namespaces.includes(namespace)) {
    throw new UsageError(`--namespace: ${namespace} is not one of ${namespaces.join(", ")}`);
  }
  return namespace as ConfigNamespace | undefined;
}

function portOption(value: string | undefined): number {
  const port = Number(value ?? "0");
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port: ${value} is not a port number`);
  }
  return port;
}
