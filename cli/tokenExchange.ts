/**
 * The authorization code exchanged at the token endpoint (`POST /oauth2/token`) for an
 * access token and a refresh token, with the PKCE verifier and, for a confidential
 * application, the client secret; and what to do when the service refuses the client.
 */
import { request } from "undici";
import type { ConfigNamespace } from "../provider/resources/settings";

/** Where the client secret sent with the code exchange came from, if one was sent. */
export type ClientSecretSource = "config" | "env" | undefined;

/** The application as the token endpoint knows it. */
export interface OAuthClient {
  readonly clientId: string;
  readonly clientSecret: string | undefined;
  readonly secretSource: ClientSecretSource;
}

/** The redirect's code, and what the token endpoint checks it against. */
interface AuthorizationGrant {
  readonly code: string;
  readonly redirectUri: string;
  readonly codeVerifier: string;
}

export interface TokenReply {
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

/**
 * The `fix:` of a code exchange the service refused for the client's credentials (401
 * `invalid_client`): a confidential application (every one by default, the emulator's
 * included) must send its client secret, and the one sent must be the application's.
 */
function invalidClientFix(
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

/**
 * Exchanges the code for tokens. A refusal of the client's credentials says how to set
 * them in the namespace `ns`.
 */
export async function exchangeCode(
  apiBase: string,
  client: OAuthClient,
  grant: AuthorizationGrant,
  ns: ConfigNamespace,
): Promise<TokenReply> {
  try {
    return await postTokenRequest(apiBase, client, {
      grant_type: "authorization_code",
      code: grant.code,
      redirect_uri: grant.redirectUri,
      code_verifier: grant.codeVerifier,
    });
  } catch (err) {
    if (
      err instanceof TokenExchangeError &&
      (err.status === 401 || err.error === "invalid_client")
    ) {
      const fix = invalidClientFix(ns, client.clientId, client.secretSource);
      throw new Error(`${err.message}\nfix: ${fix}`, { cause: err });
    }
    throw err;
  }
}

/**
 * The token request: the client authenticates with HTTP Basic when it has a secret,
 * else names itself with `client_id` in the form (a public client).
 */
async function postTokenRequest(
  apiBase: string,
  client: OAuthClient,
  form: Record<string, string>,
): Promise<TokenReply> {
  const body = new URLSearchParams(form);
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    accept: "application/json",
  };
  if (client.clientSecret === undefined) body.set("client_id", client.clientId);
  else {
    const raw = `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`;
    headers["authorization"] = `Basic ${Buffer.from(raw).toString("base64")}`;
  }
  const res = await request(`${apiBase}/oauth2/token`, {
    method: "POST",
    headers,
    body: body.toString(),
  });
  return tokenReplyOf(res.statusCode, await res.body.text());
}

/** The token endpoint's answer: the tokens, or a `TokenExchangeError` naming its refusal. */
function tokenReplyOf(status: number, text: string): TokenReply {
  let data: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === "object" && parsed !== null) data = parsed as Record<string, unknown>;
  } catch {
    // reported below
  }
  if (status !== 200) {
    const error = typeof data["error"] === "string" ? data["error"] : `status ${status}`;
    const description =
      typeof data["error_description"] === "string" ? `: ${data["error_description"]}` : "";
    throw new TokenExchangeError(status, error, description);
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
