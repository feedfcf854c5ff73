/**
 * `discord-commands authorize`: a person at a terminal authorizes the application to
 * edit command permissions on their behalf, and the stack keeps the result.
 *
 * 1. Reads the stack's config (`pulumi config --json --show-secrets`) for the API URL,
 *    the application (client) id and, for a confidential application, the secret.
 * 2. Listens on 127.0.0.1 (a loopback redirect, RFC 8252 section 7.3), prints the
 *    authorize URL (with `state` and a PKCE S256 challenge) and opens the browser when
 *    `xdg-open` or `open` is there.
 * 3. On the redirect, checks `state`, exchanges the code with the PKCE verifier (and the
 *    client secret, if there is one), and stores the access and refresh tokens as
 *    secrets of the stack: `pulumi config set --secret <ns>:bearerToken` and
 *    `<ns>:refreshToken`, the value on stdin (never on a command line, where `ps`
 *    shows it). Neither token is ever printed.
 *
 * `<ns>` is the namespace of the door the stack uses (`stackNamespace`): `discord-commands`
 * for the resource plugin, `discord` for the TypeScript dynamic resources; it reads the
 * settings of step 1 there too. `--namespace` chooses it.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { request } from "undici";
import { parse as parseYaml } from "yaml";
import { isRecord } from "../provider/schema";
import { normalizeApiUrl } from "../provider/client/config";
import type { ConfigNamespace } from "../provider/resources/settings";
import { CONFIG_NAMESPACES } from "../provider/resources/settings";
import {
  buildAuthorizeUrl,
  createAuthorizationCodeVerifier,
  getCommandPermissionsScopes,
} from "../sdk/authorization";

const USAGE = `usage: discord-commands authorize [options]

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

export interface AuthorizeIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly env: NodeJS.ProcessEnv;
}

class UsageError extends Error {}

interface Options {
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

function parseOptions(argv: readonly string[]): Options | "help" {
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
  const namespaces: readonly string[] = Object.values(CONFIG_NAMESPACES);
  const namespace = values.namespace;
  if (namespace !== undefined && !namespaces.includes(namespace)) {
    throw new UsageError(`--namespace: ${namespace} is not one of ${namespaces.join(", ")}`);
  }
  const port = Number(values.port ?? "0");
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port: ${values.port} is not a port number`);
  }
  const timeout = Number(values.timeout ?? "300");
  if (!(timeout > 0))
    throw new UsageError(`--timeout: ${values.timeout} is not a number of seconds`);
  return {
    namespace: namespace as ConfigNamespace | undefined,
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

/** Runs `pulumi <args>` in the project folder; stdin text, if given, is written and closed. */
function pulumi(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  stdin?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("pulumi", [...args], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? "");
  });
}

function stackArgs(stack: string | undefined): string[] {
  return stack === undefined ? [] : ["--stack", stack];
}

/** The stack's config, decrypted (it stays in this process; nothing of it is printed). */
async function stackConfig(o: Options, env: NodeJS.ProcessEnv): Promise<Map<string, string>> {
  const res = await pulumi(
    ["config", "--json", "--show-secrets", ...stackArgs(o.stack)],
    o.cwd,
    env,
  );
  if (res.code !== 0) {
    throw new Error(
      `pulumi config failed (is ${o.cwd} a Pulumi project with a stack?):\n${res.stderr}`,
    );
  }
  const parsed: unknown = JSON.parse(res.stdout);
  const out = new Map<string, string>();
  if (typeof parsed === "object" && parsed !== null) {
    for (const [k, v] of Object.entries(parsed)) {
      const value = (v as { value?: unknown }).value;
      if (typeof value === "string") out.set(k, value);
    }
  }
  return out;
}

async function setSecret(o: Options, env: NodeJS.ProcessEnv, key: string, value: string) {
  const res = await pulumi(
    ["config", "set", "--secret", key, ...stackArgs(o.stack)],
    o.cwd,
    env,
    value,
  );
  if (res.code !== 0) throw new Error(`pulumi config set --secret ${key} failed:\n${res.stderr}`);
}

/** The project file Pulumi would use from `cwd` (it looks upwards), as text. */
function projectFile(cwd: string): string | undefined {
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    for (const name of ["Pulumi.yaml", "Pulumi.yml"]) {
      const file = path.join(dir, name);
      if (fs.existsSync(file)) return fs.readFileSync(file, "utf8");
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * The project's runtime (`runtime: nodejs`, or `runtime: {name: nodejs, options: ...}` in
 * any YAML form) and whether its `packages:` block names the plugin. A file that is not
 * YAML says neither (the CLI reports it when it runs the project).
 */
export function projectDoor(project: string): {
  runtime: string | undefined;
  pluginPackage: boolean;
} {
  let doc: unknown;
  try {
    doc = parseYaml(project);
  } catch {
    return { runtime: undefined, pluginPackage: false };
  }
  if (!isRecord(doc)) return { runtime: undefined, pluginPackage: false };
  const declared = doc["runtime"];
  const name = isRecord(declared) ? declared["name"] : declared;
  const packages = doc["packages"];
  return {
    runtime: typeof name === "string" ? name : undefined,
    pluginPackage: isRecord(packages) && CONFIG_NAMESPACES.plugin in packages,
  };
}

/**
 * The namespace of the door the stack uses, and why: the resource plugin's when the
 * project's `packages:` block names it or the runtime is not Node.js (the dynamic
 * resources are TypeScript only); else the one the stack's config has keys in, if only
 * one; else the dynamic resources'.
 */
export function stackNamespace(
  project: string | undefined,
  configKeys: Iterable<string>,
): { namespace: ConfigNamespace; why: string } {
  const { plugin, dynamic } = CONFIG_NAMESPACES;
  const door = project === undefined ? undefined : projectDoor(project);
  if (door?.pluginPackage === true) {
    return { namespace: plugin, why: `Pulumi.yaml's packages: block names ${plugin}` };
  }
  if (door?.runtime !== undefined && door.runtime !== "nodejs") {
    return { namespace: plugin, why: `the runtime is ${door.runtime}: the resource plugin's` };
  }
  const keys = [...configKeys];
  const has = (ns: string): boolean => keys.some((k) => k.startsWith(`${ns}:`));
  if (has(plugin) && !has(dynamic)) {
    return { namespace: plugin, why: `the stack's config has ${plugin}:* keys` };
  }
  if (has(dynamic) && !has(plugin)) {
    return { namespace: dynamic, why: `the stack's config has ${dynamic}:* keys` };
  }
  return { namespace: dynamic, why: "the TypeScript dynamic resources'" };
}

/** Opens the URL in a browser when a launcher is on PATH; never fails. */
function openBrowser(url: string, env: NodeJS.ProcessEnv): boolean {
  const launcher = process.platform === "darwin" ? "open" : "xdg-open";
  const found = (env["PATH"] ?? "")
    .split(path.delimiter)
    .some((dir) => dir !== "" && fs.existsSync(path.join(dir, launcher)));
  if (!found) return false;
  try {
    const child = spawn(launcher, [url], { stdio: "ignore", detached: true, env });
    child.on("error", () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}

interface Callback {
  readonly code: string;
}

/**
 * Serves the loopback redirect until one request on `/callback` arrives: checks `state`
 * and answers the browser with a short page. Resolves with the code, or rejects.
 */
function awaitRedirect(server: http.Server, state: string, timeoutMs: number): Promise<Callback> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no answer from the browser within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      if (url.pathname !== "/callback") {
        res.writeHead(404).end();
        return;
      }
      const page = (status: number, text: string) => {
        res.writeHead(status, { "content-type": "text/plain; charset=utf-8" }).end(`${text}\n`);
      };
      clearTimeout(timer);
      const q = url.searchParams;
      if (q.get("state") !== state) {
        page(400, "Authorization refused: the state does not match this request.");
        reject(
          new Error(
            "the redirect's state does not match the one sent: the answer may not come from " +
              "your authorization (nothing was stored)",
          ),
        );
        return;
      }
      const error = q.get("error");
      if (error !== null) {
        page(400, `Authorization failed: ${error}`);
        reject(
          new Error(
            `the service refused the authorization: ${error} ${q.get("error_description") ?? ""}`.trim(),
          ),
        );
        return;
      }
      const code = q.get("code");
      if (code === null || code === "") {
        page(400, "Authorization failed: no code.");
        reject(new Error("the redirect carries no code"));
        return;
      }
      page(200, "Authorized. You can close this tab and return to the terminal.");
      resolve({ code });
    });
  });
}

interface TokenReply {
  readonly accessToken: string;
  readonly refreshToken: string | undefined;
  readonly expiresInS: number;
  readonly scope: string;
}

/** The token endpoint's refusal of the code exchange. */
class TokenExchangeError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    description: string,
  ) {
    super(`the code exchange failed (${status} ${error}${description})`);
  }
}

/** Where the client secret sent with the code exchange came from, if one was sent. */
export type ClientSecretSource = "config" | "env" | undefined;

/**
 * The `fix:` of a code exchange the service refused for the client's credentials (401
 * `invalid_client`): a confidential application (every one by default, the emulator's
 * included) must send its client secret, and the one sent must be the application's.
 */
export function invalidClientFix(
  ns: ConfigNamespace,
  clientId: string,
  secret: ClientSecretSource,
): string {
  const set = `\`pulumi config set --secret ${ns}:clientSecret <secret>\``;
  const emulator = "the emulator's: emulator-client-secret";
  const again = "then run `discord-commands authorize` again";
  if (secret === undefined) {
    return (
      `the application ${clientId} is confidential (as the emulator's is) and no client secret was sent: ` +
      `set it with ${set} (${emulator}), ${again}`
    );
  }
  const where = secret === "config" ? `${ns}:clientSecret` : "DISCORD_CLIENT_SECRET";
  return (
    `the service refused the client id ${clientId} with the client secret from ${where}: ` +
    `set the application's secret with ${set} (${emulator})` +
    (secret === "env" ? " or correct DISCORD_CLIENT_SECRET" : "") +
    `, check the client id (${ns}:clientId, --client-id), ${again}`
  );
}

async function exchangeCode(
  apiBase: string,
  clientId: string,
  clientSecret: string | undefined,
  form: Record<string, string>,
): Promise<TokenReply> {
  const body = new URLSearchParams(form);
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    accept: "application/json",
  };
  if (clientSecret === undefined) body.set("client_id", clientId);
  else {
    const raw = `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`;
    headers["authorization"] = `Basic ${Buffer.from(raw).toString("base64")}`;
  }
  const res = await request(`${apiBase}/oauth2/token`, {
    method: "POST",
    headers,
    body: body.toString(),
  });
  const text = await res.body.text();
  let data: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === "object" && parsed !== null) data = parsed as Record<string, unknown>;
  } catch {
    // reported below
  }
  if (res.statusCode !== 200) {
    const error = typeof data["error"] === "string" ? data["error"] : `status ${res.statusCode}`;
    const description =
      typeof data["error_description"] === "string" ? `: ${data["error_description"]}` : "";
    throw new TokenExchangeError(res.statusCode, error, description);
  }
  const access = data["access_token"];
  const expiresIn = data["expires_in"];
  if (typeof access !== "string" || access === "" || typeof expiresIn !== "number") {
    throw new Error("the code exchange's reply lacks access_token or expires_in");
  }
  const refresh = data["refresh_token"];
  return {
    accessToken: access,
    refreshToken: typeof refresh === "string" && refresh !== "" ? refresh : undefined,
    expiresInS: expiresIn,
    scope: typeof data["scope"] === "string" ? data["scope"] : "",
  };
}

export async function authorize(argv: readonly string[], io: AuthorizeIo): Promise<number> {
  let o: Options | "help";
  try {
    o = parseOptions(argv);
  } catch (err) {
    io.stderr.write(`discord-commands authorize: ${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (o === "help") {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const config = await stackConfig(o, io.env);
  const detected =
    o.namespace === undefined ? stackNamespace(projectFile(o.cwd), config.keys()) : undefined;
  const ns = o.namespace ?? detected?.namespace ?? CONFIG_NAMESPACES.dynamic;
  /** Why this namespace, for the messages. */
  const because = `the namespace ${ns}: ${detected === undefined ? "chosen with --namespace" : `${detected.why}; --namespace chooses`}`;
  const apiUrl = o.apiUrl ?? config.get(`${ns}:apiUrl`) ?? "https://discord.com";
  const apiBase = normalizeApiUrl(apiUrl);
  const clientId = o.clientId ?? config.get(`${ns}:clientId`) ?? config.get(`${ns}:applicationId`);
  if (clientId === undefined) {
    throw new UsageError(
      `no client id: pass --client-id, or set ${ns}:clientId or ${ns}:applicationId ` +
        `(${because})`,
    );
  }
  const configSecret = config.get(`${ns}:clientSecret`);
  const clientSecret = configSecret ?? io.env["DISCORD_CLIENT_SECRET"];
  const secretSource: ClientSecretSource =
    configSecret !== undefined ? "config" : clientSecret !== undefined ? "env" : undefined;

  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port, "127.0.0.1", resolve);
  });
  try {
    const address = server.address();
    const port = typeof address === "object" && address !== null ? address.port : o.port;
    const redirectUri = `http://127.0.0.1:${port}/callback`;
    const pkce = createAuthorizationCodeVerifier();
    const { url, args } = buildAuthorizeUrl(
      { clientId, scopes: o.scopes, codeChallenge: pkce.challenge },
      { redirectUri, baseUrl: apiBase },
    );
    const redirected = awaitRedirect(server, args.state, o.timeoutMs);
    io.stdout.write(`Open this URL in a browser and authorize the application:\n\n  ${url}\n\n`);
    if (o.browser && openBrowser(url, io.env)) io.stdout.write("(opened in your browser)\n");
    io.stdout.write(`Waiting for the redirect to ${redirectUri} ...\n`);
    const { code } = await redirected;
    let tokens: TokenReply;
    try {
      tokens = await exchangeCode(apiBase, clientId, clientSecret, {
        grant_type: "authorization_code",
        code,
        redirect_uri: redirectUri,
        code_verifier: pkce.verifier,
      });
    } catch (err) {
      if (
        err instanceof TokenExchangeError &&
        (err.status === 401 || err.error === "invalid_client")
      ) {
        throw new Error(`${err.message}\nfix: ${invalidClientFix(ns, clientId, secretSource)}`, {
          cause: err,
        });
      }
      throw err;
    }
    await setSecret(o, io.env, `${ns}:bearerToken`, tokens.accessToken);
    if (tokens.refreshToken !== undefined) {
      await setSecret(o, io.env, `${ns}:refreshToken`, tokens.refreshToken);
    }
    if (config.get(`${ns}:clientId`) === undefined) {
      const res = await pulumi(
        ["config", "set", `${ns}:clientId`, clientId, ...stackArgs(o.stack)],
        o.cwd,
        io.env,
      );
      if (res.code !== 0)
        throw new Error(`pulumi config set ${ns}:clientId failed:\n${res.stderr}`);
    }
    const days = Math.round((tokens.expiresInS / 86400) * 10) / 10;
    io.stdout.write(
      `Stored ${ns}:bearerToken${tokens.refreshToken === undefined ? "" : ` and ${ns}:refreshToken`} ` +
        `as secrets of the stack${o.stack === undefined ? "" : ` ${o.stack}`} ` +
        `(${because}; scopes: ${tokens.scope || o.scopes}; the Bearer token lasts ${days} days; ` +
        "declare a UserAuthorization resource to keep it refreshed).\n",
    );
    return 0;
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

export async function runAuthorizeCli(argv: readonly string[]): Promise<void> {
  try {
    process.exitCode = await authorize(argv, {
      stdout: process.stdout,
      stderr: process.stderr,
      env: process.env,
    });
  } catch (err) {
    const usage = err instanceof UsageError;
    process.stderr.write(`discord-commands authorize: ${(err as Error).message}\n`);
    process.exitCode = usage ? 2 : 1;
  }
}
