/**
 * The provider of `UserAuthorization`: keeps the user's authorization (the Bearer token
 * that permission edits need, and its refresh token) alive from one deployment to the
 * next, in the stack's state, encrypted as Pulumi secrets.
 *
 * Why a resource: the service rotates the refresh token on every refresh (the one spent
 * is refused from then on: discord/discord-api-docs#5942, member-gentei/member-gentei#18),
 * so the new one must be kept somewhere the next run reads. A provider cannot write
 * stack config, and in CI the config file is a fresh checkout each run; the state is the
 * one place that every backend keeps between runs, and a resource's outputs are the only
 * part of it a provider writes. So this resource's outputs hold the session, marked as
 * secrets by the SDK (`additionalSecretOutputs`): the state has only their ciphertext.
 *
 * How: the resource is declared before the permissions (they depend on it). Its `diff`
 * (which the engine calls in every `up`, before the dependents run) hands the kept
 * session to the deployment's client, and reports a change when the access token needs
 * a refresh: past half its known lifetime, or refused by `GET /oauth2/@me` (the service's
 * own clock decides expiry). Its `update` then refreshes and writes the rotated pair.
 * Running `discord-commands authorize` again changes `discord:refreshToken`, which this
 * resource notices (`seed`, a SHA-256 prefix of it) and adopts.
 */
import { createHash } from "node:crypto";
import type { UserSession } from "../client";
import { ConfigurationError, ServiceApiError } from "../client";
import { forEngine } from "./engineErrors";
import type { ProviderRuntime } from "./runtime";
import type { StackConfig } from "./settings";
import type { Bag } from "./propertyBags";

const ID = "user-authorization";

function keptSession(olds: Bag): UserSession | undefined {
  const access = olds["accessToken"];
  const refresh = olds["refreshToken"];
  if (typeof access !== "string" && typeof refresh !== "string") return undefined;
  const num = (v: unknown) => (typeof v === "number" ? v : undefined);
  return {
    accessToken: typeof access === "string" ? access : undefined,
    refreshToken: typeof refresh === "string" ? refresh : undefined,
    expiresAt: num(olds["expiresAt"]),
    expiresInS: num(olds["expiresInS"]),
  };
}

/** The provider of `UserAuthorization`, on the runtime it shares with the other kinds. */
export function userAuthorizationProvider(rt: ProviderRuntime) {
  /** Which `discord:refreshToken` the kept session descends from (never the token itself). */
  function configSeed(): string {
    const token = rt.settings.client.refreshToken;
    if (token === undefined) return "";
    return createHash("sha256").update(token).digest("hex").slice(0, 16);
  }

  function outputs(session: UserSession): Bag {
    return {
      accessToken: session.accessToken ?? null,
      refreshToken: session.refreshToken ?? null,
      expiresAt: session.expiresAt ?? null,
      expiresInS: session.expiresInS ?? null,
      seed: configSeed(),
    };
  }

  const credentials = () => rt.client.rest.credentials;

  /** The access token should be refreshed now: past half its lifetime, or refused. */
  async function refreshDue(): Promise<boolean> {
    const c = credentials();
    if (!c.canRefreshUser) return false;
    const s = c.userSession();
    if (s.accessToken === undefined) return true;
    if (s.expiresAt !== undefined && s.expiresInS !== undefined) {
      if (rt.clock.now() >= s.expiresAt - (s.expiresInS * 1000) / 2) return true;
    }
    try {
      await rt.client.currentAuthorization();
      return false;
    } catch (err) {
      if (err instanceof ServiceApiError && err.status === 401) return true;
      throw err;
    }
  }

  /** Takes the kept session (unless stack config holds a newer authorization), refreshes if due. */
  async function keep(olds: Bag | undefined): Promise<Bag> {
    const c = credentials();
    const kept = olds === undefined ? undefined : keptSession(olds);
    c.keepUserSession(olds?.["seed"] === configSeed() ? kept : undefined);
    const session = c.userSession();
    if (session.accessToken === undefined && !c.canRefreshUser) {
      throw new ConfigurationError(
        "UserAuthorization: no user authorization to keep: run `discord-commands authorize` " +
          "(it stores discord:bearerToken and discord:refreshToken in the stack's config)",
      );
    }
    if (await refreshDue()) await c.refreshUser();
    return outputs(c.userSession());
  }

  const provider = {
    async configure(req: { config: StackConfig }): Promise<void> {
      rt.configure(req.config);
    },

    async check(_olds: Bag, news: Bag): Promise<{ inputs: Bag; failures: never[] }> {
      return { inputs: { ...news }, failures: [] };
    },

    async diff(
      _id: string,
      olds: Bag,
      _news: Bag,
    ): Promise<{ changes: boolean; replaces: string[]; deleteBeforeReplace: boolean }> {
      const kept = keptSession(olds);
      const same = { replaces: [], deleteBeforeReplace: false };
      if (kept === undefined || olds["seed"] !== configSeed()) return { changes: true, ...same };
      credentials().keepUserSession(kept);
      return { changes: await refreshDue(), ...same };
    },

    async create(_inputs: Bag): Promise<{ id: string; outs: Bag }> {
      return { id: ID, outs: await keep(undefined) };
    },

    async update(_id: string, olds: Bag, _news: Bag): Promise<{ outs: Bag }> {
      return { outs: await keep(olds) };
    },

    async read(id: string, props: Bag): Promise<{ id: string; props: Bag }> {
      // Nothing on the service to compare with: what is kept stays as it is. A refresh may
      // be a preview's, whose state is not saved: never rotate here. The kept session is
      // lent to the deployment's client, so that `destroy --refresh` can empty the
      // permissions with it (their `delete` refreshes it if it expired).
      const kept = keptSession(props);
      if (kept !== undefined && props["seed"] === configSeed()) {
        credentials().adoptUserSession(kept);
      }
      return { id, props };
    },

    async delete(): Promise<void> {
      // The authorization stays the user's: revoking it is theirs to decide.
    },
  };
  // Its failures reach the engine like every other resource's (engineErrors.ts).
  return forEngine(provider, () => "the user authorization", rt);
}
