/**
 * The consent step of `GET /oauth2/authorize` (docs/topics/oauth2, "Authorization Code
 * Grant"): either automatic (the application's consenting user agrees at once: headless
 * runs and the test suites; configuration `oauthConsent: "automatic"`, the default) or a
 * page where a person sees the application, the scopes it asks for and the guilds that
 * `applications.commands.permissions.update` would reach, and approves or denies
 * (`oauthConsent: "page"`, CLI `--consent-page`).
 *
 * The page's form posts back only an unguessable, single-use id of the request held here
 * (10 minutes): what is approved is what the page showed, and another site cannot make
 * the browser approve anything, having no id to post.
 */
import { randomBytes } from "node:crypto";
import { Scopes } from "../auth";
import { documentOf, esc, newNonce } from "../page/html";
import { PermissionFlags } from "../schema";
import type { AuthorizationCode } from "../grants";
import type { Store } from "../store";
import type { HandlerResult } from "./context";

/** Authorization codes expire 10 minutes after they are issued (RFC 6749 section 4.1.2). */
const CODE_TTL_MS = 10 * 60 * 1000;
/** An unanswered consent page is good for as long as a code would be. */
const PENDING_TTL_MS = CODE_TTL_MS;
const MAX_PENDING = 1000;

/** What a consent agrees to: an authorization request that passed every check. */
interface AuthorizationGrant {
  readonly applicationId: string;
  readonly userId: string;
  readonly scopes: readonly string[];
  readonly redirectUri: string;
  readonly redirectUriGiven: boolean;
  readonly codeChallenge: string | undefined;
  readonly state: string | null;
  /** `guild_id` of the request: the guild the person is asked about, when named. */
  readonly guildId: string | undefined;
}

interface PendingConsent {
  readonly grant: AuthorizationGrant;
  readonly expiresAt: number;
}

/** Pending consents per emulator (not persisted: a restart forgets unanswered pages). */
const pendingByStore = new WeakMap<Store, Map<string, PendingConsent>>();

function pendingOf(store: Store): Map<string, PendingConsent> {
  let pending = pendingByStore.get(store);
  if (!pending) {
    pending = new Map();
    pendingByStore.set(store, pending);
  }
  return pending;
}

export function newToken(): string {
  return randomBytes(24).toString("base64url");
}

/** A 302 to the client's redirect URI with `params` and the request's `state`. */
export function redirectTo(
  redirectUri: string,
  params: Record<string, string>,
  state: string | null,
): HandlerResult {
  const target = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
  if (state !== null) target.searchParams.set("state", state);
  return { status: 302, headers: { location: target.toString() } };
}

/** Issues the authorization code of an agreed grant and redirects with it. */
function approve(store: Store, grant: AuthorizationGrant): HandlerResult {
  const code: AuthorizationCode = {
    code: newToken(),
    grantId: newToken(),
    applicationId: grant.applicationId,
    userId: grant.userId,
    scopes: [...grant.scopes],
    redirectUri: grant.redirectUri,
    redirectUriGiven: grant.redirectUriGiven,
    ...(grant.codeChallenge === undefined ? {} : { codeChallenge: grant.codeChallenge }),
    expiresAt: store.clock.now() + CODE_TTL_MS,
    used: false,
  };
  store.transaction(() => store.grants.putCode(code));
  return redirectTo(grant.redirectUri, { code: code.code }, grant.state);
}

function deny(grant: AuthorizationGrant): HandlerResult {
  return redirectTo(
    grant.redirectUri,
    {
      error: "access_denied",
      error_description: "The resource owner or authorization server denied the request",
    },
    grant.state,
  );
}

/** Automatic consent, or the consent page, as the configuration says. */
export function consent(store: Store, grant: AuthorizationGrant): HandlerResult {
  if (store.config.oauthConsent === "automatic") return approve(store, grant);
  const pending = pendingOf(store);
  const now = store.clock.now();
  for (const [id, p] of pending) if (p.expiresAt <= now) pending.delete(id);
  if (pending.size >= MAX_PENDING) {
    const oldest = pending.keys().next().value;
    if (oldest !== undefined) pending.delete(oldest);
  }
  const id = newToken();
  pending.set(id, { grant, expiresAt: now + PENDING_TTL_MS });
  return { status: 200, body: consentPage(store, grant, id) };
}

/** `POST /oauth2/authorize` from the consent page: `consent=<id>&decision=approve|deny`. */
export function decideConsent(store: Store, form: URLSearchParams): HandlerResult {
  const id = form.get("consent") ?? "";
  const pending = pendingOf(store);
  const found = pending.get(id);
  pending.delete(id); // single use, whatever the answer
  if (!found || found.expiresAt <= store.clock.now()) {
    return {
      status: 400,
      body: messagePage(
        "This authorization request has expired or was already answered",
        "Start the authorization again from the application.",
      ),
    };
  }
  const decision = form.get("decision");
  if (decision === "approve") return approve(store, found.grant);
  if (decision === "deny") return deny(found.grant);
  pending.set(id, found); // an answer that is neither leaves the request open
  return {
    status: 400,
    body: messagePage("Unknown decision", "Choose Authorize or Cancel on the consent page."),
  };
}

const SCOPE_TEXT: Readonly<Record<string, string>> = {
  identify: "Know your username and avatar",
  email: "Know your email address",
  guilds: "Know which servers you are in",
  "guilds.members.read": "Read your member information in servers",
  connections: "Know your connected accounts",
  openid: "Sign you in (OpenID Connect)",
  [Scopes.COMMANDS]: "Add commands to servers",
  [Scopes.PERMISSIONS_UPDATE]:
    "Update who may use its commands, in servers where you can manage the server and its roles",
};

/** Guilds where the user could edit the application's command permissions. */
function permissionGuilds(store: Store, grant: AuthorizationGrant): string[] {
  const needed = PermissionFlags.MANAGE_GUILD | PermissionFlags.MANAGE_ROLES;
  const out: string[] = [];
  for (const guild of store.config.guilds) {
    if (!guild.authorizedApplications.includes(grant.applicationId)) continue;
    const bits = store.memberPermissions(guild.id, grant.userId);
    if (bits !== undefined && (bits & needed) === needed) {
      out.push(`${guild.name} (${guild.id})`);
    }
  }
  return out;
}

function guildLine(store: Store, grant: AuthorizationGrant): string {
  if (!grant.scopes.includes(Scopes.PERMISSIONS_UPDATE)) return "";
  if (grant.guildId !== undefined) {
    const guild = store.guild(grant.guildId);
    const named = guild
      ? `${esc(guild.name)} <span class="muted">(${esc(guild.id)})</span>`
      : `<span class="error">unknown guild ${esc(grant.guildId)}</span>`;
    return `<p>The permissions scope applies to the guild <strong id="consent-guild">${named}</strong>.</p>`;
  }
  const guilds = permissionGuilds(store, grant);
  return guilds.length === 0
    ? '<p id="consent-guild" class="error">You can manage command permissions in no guild where the application is installed.</p>'
    : `<p>The permissions scope applies to the guilds where you can manage the server and its roles: <strong id="consent-guild">${guilds.map(esc).join(", ")}</strong>.</p>`;
}

function consentPage(store: Store, grant: AuthorizationGrant, id: string) {
  const app = store.application(grant.applicationId);
  const user = store.user(grant.userId);
  const nonce = newNonce();
  const scopes = grant.scopes
    .map(
      (s) =>
        `<li><code>${esc(s)}</code> <span class="muted">${esc(SCOPE_TEXT[s] ?? "")}</span></li>`,
    )
    .join("");
  const body = `<main class="consent"><section>
<h2 id="consent-app">${esc(app?.name ?? grant.applicationId)} wants to access your account</h2>
<p class="muted">Application ${esc(grant.applicationId)} · signed in as ${esc(user?.username ?? grant.userId)} (${esc(grant.userId)})</p>
<p>This will allow the application to:</p>
<ul id="consent-scopes">${scopes}</ul>
${guildLine(store, grant)}
<p class="muted">You will be sent to <code>${esc(new URL(grant.redirectUri).origin)}</code>.</p>
<form method="post" action="/oauth2/authorize" class="actions">
<input type="hidden" name="consent" value="${esc(id)}">
<button type="submit" name="decision" value="deny" class="deny" id="deny">Cancel</button>
<button type="submit" name="decision" value="approve" class="approve" id="approve">Authorize</button>
</form>
</section></main>`;
  return documentOf(`Authorize ${app?.name ?? "application"}`, body, nonce);
}

function messagePage(title: string, text: string) {
  return documentOf(
    title,
    `<main class="consent"><section><h2>${esc(title)}</h2><p>${esc(text)}</p></section></main>`,
    newNonce(),
  );
}
