/**
 * `discord-commands authorize`: a person at a terminal authorizes the application to
 * edit command permissions on their behalf, and the stack keeps the result.
 *
 * 1. Reads the stack's config (cli/stackConfig.ts) for the API URL, the application
 *    (client) id and, for a confidential application, the secret (cli/authorizeSettings.ts).
 * 2. Listens on 127.0.0.1, prints the authorize URL (with `state` and a PKCE S256
 *    challenge) and opens the browser when `xdg-open` or `open` is there
 *    (cli/loopbackRedirect.ts).
 * 3. On the redirect, checks `state`, exchanges the code with the PKCE verifier (and the
 *    client secret, if there is one; cli/tokenExchange.ts), and stores the access and
 *    refresh tokens as secrets of the stack: `<ns>:bearerToken` and `<ns>:refreshToken`,
 *    the value on stdin. Neither token is ever printed.
 *
 * `<ns>` is the namespace of the door the stack uses (cli/stackNamespace.ts):
 * `discord-commands` for the resource plugin, `discord` for the TypeScript dynamic
 * resources; it reads the settings of step 1 there too. `--namespace` chooses it.
 */
import { buildAuthorizeUrl, createAuthorizationCodeVerifier } from "../sdk/authorization";
import type { AuthorizeOptions } from "./authorizeOptions";
import { parseAuthorizeOptions, USAGE, UsageError } from "./authorizeOptions";
import type { AuthorizeSettings } from "./authorizeSettings";
import { authorizeSettings } from "./authorizeSettings";
import { awaitRedirect, closeLoopback, listenOnLoopback, openBrowser } from "./loopbackRedirect";
import { readStackConfig, setStackConfig } from "./stackConfig";
import type { TokenReply } from "./tokenExchange";
import { exchangeCode } from "./tokenExchange";

interface AuthorizeIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly env: NodeJS.ProcessEnv;
}

/** Runs the subcommand; resolves with its exit code, rejects on a failure after parsing. */
export async function authorize(argv: readonly string[], io: AuthorizeIo): Promise<number> {
  let options: AuthorizeOptions | "help";
  try {
    options = parseAuthorizeOptions(argv);
  } catch (err) {
    io.stderr.write(`discord-commands authorize: ${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (options === "help") {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const config = await readStackConfig(options, io.env);
  const settings = authorizeSettings(options, config, io.env);
  const tokens = await obtainTokens(options, settings, io);
  await storeTokens(options, settings, config, tokens, io.env);
  io.stdout.write(storedMessage(options, settings, tokens));
  return 0;
}

/** The browser's round trip: the authorize URL, the redirect, the code exchange. */
async function obtainTokens(
  options: AuthorizeOptions,
  settings: AuthorizeSettings,
  io: AuthorizeIo,
): Promise<TokenReply> {
  const loopback = await listenOnLoopback(options.port);
  try {
    const { redirectUri } = loopback;
    const pkce = createAuthorizationCodeVerifier();
    const { url, args } = buildAuthorizeUrl(
      { clientId: settings.client.clientId, scopes: options.scopes, codeChallenge: pkce.challenge },
      { redirectUri, baseUrl: settings.apiBase },
    );
    const redirected = awaitRedirect(loopback, args.state, options.timeoutMs);
    io.stdout.write(`Open this URL in a browser and authorize the application:\n\n  ${url}\n\n`);
    if (options.browser && openBrowser(url, io.env)) io.stdout.write("(opened in your browser)\n");
    io.stdout.write(`Waiting for the redirect to ${redirectUri} ...\n`);
    const code = await redirected;
    const grant = { code, redirectUri, codeVerifier: pkce.verifier };
    return await exchangeCode(settings.apiBase, settings.client, grant, settings.namespace);
  } finally {
    closeLoopback(loopback);
  }
}

/** The tokens as secrets of the stack, and the client id when the stack has none yet. */
async function storeTokens(
  options: AuthorizeOptions,
  { namespace: ns, client }: AuthorizeSettings,
  config: ReadonlyMap<string, string>,
  tokens: TokenReply,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  await setStackConfig(options, env, `${ns}:bearerToken`, { secret: tokens.accessToken });
  if (tokens.refreshToken !== undefined) {
    await setStackConfig(options, env, `${ns}:refreshToken`, { secret: tokens.refreshToken });
  }
  if (config.get(`${ns}:clientId`) === undefined) {
    await setStackConfig(options, env, `${ns}:clientId`, { plain: client.clientId });
  }
}

/** What was stored, where and why, for how long: never a token. */
function storedMessage(
  options: AuthorizeOptions,
  { namespace: ns, because }: AuthorizeSettings,
  tokens: TokenReply,
): string {
  const days = Math.round((tokens.expiresInS / 86400) * 10) / 10;
  return (
    `Stored ${ns}:bearerToken${tokens.refreshToken === undefined ? "" : ` and ${ns}:refreshToken`} ` +
    `as secrets of the stack${options.stack === undefined ? "" : ` ${options.stack}`} ` +
    `(${because}; scopes: ${tokens.scope || options.scopes}; the Bearer token lasts ${days} days; ` +
    "declare a UserAuthorization resource to keep it refreshed).\n"
  );
}

/** The subcommand's entry (cli/main.ts). Exit 2 on a usage error, 1 on any other. */
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
