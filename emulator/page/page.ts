/**
 * The emulator's page at `/`: per application and scope the commands as the picker lists
 * them (locale switch, finder), "as a member", the request log (live while a deployment
 * runs) and the interactions delivered. Server-rendered: one request renders one scope
 * and one page of the log, and the small inline script only adds new log rows.
 */
import type { InteractionService } from "../interactions/service";
import type { RequestLog } from "../log";
import { LOCALES } from "../schema";
import type { Application, Store } from "../store";
import { renderScope } from "./commands";
import { documentOf, esc, newNonce } from "./html";
import type { HtmlDocument } from "./html";
import { renderInteractions } from "./interactions";
import { formValue, renderMemberForm, renderMemberResult } from "./member";
import type { Redactor } from "./redact";
import { LOG_PAGE_SIZE, logPage } from "./requests";

interface PageParts {
  readonly store: Store;
  readonly log: RequestLog;
  readonly interactions: InteractionService;
  readonly redactor: Redactor;
}

/** The page's parameters, each checked against what exists (anything else: the default). */
interface PageQuery {
  readonly app: Application | undefined;
  /** undefined = global. */
  readonly guildId: string | undefined;
  readonly locale: string | undefined;
  readonly find: string;
  readonly logScope: string;
  readonly logPage: number;
}

function readQuery(store: Store, query: URLSearchParams): PageQuery {
  const apps = store.applications();
  const app = store.application(query.get("app") ?? "") ?? apps[0];
  const scope = query.get("scope") ?? "global";
  const guildId = scope !== "global" && store.guild(scope) ? scope : undefined;
  const locale = (LOCALES as readonly string[]).find((l) => l === query.get("locale"));
  const logScopeAsked = query.get("logscope") ?? "all";
  const logScope =
    logScopeAsked === "all" ||
    logScopeAsked === "global" ||
    logScopeAsked === "other" ||
    store.guild(logScopeAsked)
      ? logScopeAsked
      : "all";
  const pageNumber = Number(query.get("logpage") ?? "1");
  return {
    app,
    guildId,
    locale,
    find: formValue(query, "q"),
    logScope,
    logPage: Number.isSafeInteger(pageNumber) && pageNumber > 0 ? pageNumber : 1,
  };
}

/** A link to the page with some parameters changed (empty string = removed). */
function link(query: URLSearchParams, changes: Record<string, string>, anchor = ""): string {
  const next = new URLSearchParams();
  for (const [k, v] of query) if (!(k in changes)) next.set(k, v.slice(0, 100));
  for (const [k, v] of Object.entries(changes)) if (v !== "") next.set(k, v);
  const text = next.toString();
  return esc(`/${text === "" ? "" : `?${text}`}${anchor}`);
}

function hidden(query: URLSearchParams, keys: readonly string[]): string {
  return keys
    .map((k) => {
      const v = query.get(k);
      return v === null
        ? ""
        : `<input type="hidden" name="${esc(k)}" value="${esc(v.slice(0, 100))}">`;
    })
    .join("");
}

function scopesNav(store: Store, app: Application, q: PageQuery, query: URLSearchParams): string {
  const scopes: [string, string, number][] = [
    ["global", "Global", store.commandsIn(app.id, undefined).length],
  ];
  for (const g of store.config.guilds) {
    if (!g.authorizedApplications.includes(app.id) && store.commandsIn(app.id, g.id).length === 0)
      continue;
    scopes.push([g.id, g.name, store.commandsIn(app.id, g.id).length]);
  }
  const current = q.guildId ?? "global";
  return `<nav class="scopes" aria-label="scopes" id="scopes-nav">${scopes
    .map(
      ([id, name, count]) =>
        `<a href="${link(query, { scope: id, q: "" })}" data-scope="${esc(id)}"${id === current ? ' aria-current="page"' : ""}>${esc(name)}${id === "global" ? "" : ` <span class="muted">${esc(id)}</span>`} · ${count}</a>`,
    )
    .join("")}</nav>`;
}

function commandsSection(store: Store, app: Application, q: PageQuery, query: URLSearchParams) {
  const locales = ["", ...LOCALES]
    .map(
      (l) =>
        `<option value="${esc(l)}"${(q.locale ?? "") === l ? " selected" : ""}>${l === "" ? "default (no locale)" : esc(l)}</option>`,
    )
    .join("");
  const guild = q.guildId === undefined ? undefined : store.guild(q.guildId);
  const title = guild ? `Guild ${guild.name} (${guild.id})` : "Global";
  return `<section id="commands"><h2>Commands: ${esc(title)}</h2>
${scopesNav(store, app, q, query)}
<form class="inline" method="get" action="/" id="find-form">${hidden(query, ["app", "scope", "mguild", "member", "channel", "logscope"])}
<label>Find<input type="search" name="q" value="${esc(q.find)}" placeholder="name or description" id="find"></label>
<label>Locale<select name="locale" id="locale">${locales}</select></label>
<button type="submit">Show</button>
</form>
<div id="scope">${renderScope(store, { app, guildId: q.guildId, locale: q.locale, find: q.find })}</div>
</section>`;
}

function memberSection(store: Store, app: Application, q: PageQuery, query: URLSearchParams) {
  const asked = query.has("member") || query.has("mguild");
  const result = asked
    ? renderMemberResult(store, app, {
        guildId: formValue(query, "mguild"),
        userId: formValue(query, "member"),
        channelId: formValue(query, "channel"),
        locale: q.locale,
      })
    : '<p class="muted">Pick a guild, a member and a channel: the table says which commands the picker shows and which the member may use, and the rule that decided.</p>';
  return `<section id="member"><h2>As a member</h2>${renderMemberForm(store, app, query)}<div id="member-result">${result}</div></section>`;
}

function logSection(parts: PageParts, q: PageQuery, query: URLSearchParams) {
  const { store, log, redactor } = parts;
  const started = performance.now();
  const page = logPage(log, q.logScope, q.logPage, redactor);
  const ms = performance.now() - started;
  const scopes = [
    ["all", "all scopes"],
    ["global", "global"],
    ...store.config.guilds.map((g) => [g.id, `guild ${g.name} (${g.id})`]),
    ["other", "OAuth2 and other"],
  ];
  const options = scopes
    .map(
      ([id = "", label = ""]) =>
        `<option value="${esc(id)}"${id === q.logScope ? " selected" : ""}>${esc(label)}</option>`,
    )
    .join("");
  const pager = (where: string) =>
    `<div class="pager" id="pager-${where}">${
      page.page > 1
        ? `<a href="${link(query, { logpage: "1" }, "#log")}">newest</a><a href="${link(query, { logpage: String(page.page - 1) }, "#log")}" rel="prev">newer</a>`
        : ""
    }<span>page <span class="page-number">${page.page}</span> of ${page.pages.toLocaleString("en-US")}</span>${
      page.page < page.pages
        ? `<a href="${link(query, { logpage: String(page.page + 1) }, "#log")}" rel="next">older</a><a href="${link(query, { logpage: String(page.pages) }, "#log")}">oldest</a>`
        : ""
    }</div>`;
  const liveUrl = `/__page/log.json?${new URLSearchParams({ logscope: q.logScope }).toString()}`;
  const live =
    page.page === 1
      ? `<label class="toggle"><input type="checkbox" id="live" checked data-after="${page.sequence}" data-url="${esc(liveUrl)}" data-writes="${log.counters().writes}"> live</label>`
      : "";
  return `<section id="log"><h2>Requests</h2>
<form class="inline" method="get" action="/#log">${hidden(query, ["app", "scope", "locale", "q", "mguild", "member", "channel"])}
<label>Scope<select name="logscope" id="logscope">${options}</select></label><button type="submit">Filter</button>${live}
<span class="muted" id="log-total">${page.matching.toLocaleString("en-US")} requests (${log.counters().total.toLocaleString("en-US")} in all) · page rendered in ${ms.toFixed(1)} ms</span>
</form>
<p id="changed" class="muted" hidden>The commands above and the member's table follow the writes as they come.</p>
${pager("top")}
<table id="log-table"><thead><tr><th>#</th><th>time</th><th>method</th><th>path</th><th>status</th><th>bucket</th><th>left</th><th>fault, note, error body</th></tr></thead>
<tbody id="log-rows">${page.rows.join("")}</tbody></table>
${pager("bottom")}
</section>`;
}

/**
 * While the page is open (log page 1, "live" on): adds the requests that arrive, and after
 * a write renders the scope, its counts and the member's table again (the same page from
 * the server; the open commands stay open).
 */
const LIVE_SCRIPT = `(() => {
  const live = document.getElementById("live");
  if (!live) return;
  const rows = document.getElementById("log-rows");
  const total = document.getElementById("log-total");
  const changed = document.getElementById("changed");
  let after = Number(live.dataset.after);
  let writes = Number(live.dataset.writes);
  let busy = false;
  async function refreshCommands() {
    const res = await fetch(location.href, { cache: "no-store" });
    const fresh = new DOMParser().parseFromString(await res.text(), "text/html");
    const open = [...document.querySelectorAll("#scope details[open]")].map((d) => d.id);
    for (const id of ["scopes-nav", "scope", "member-result"]) {
      const next = fresh.getElementById(id);
      const here = document.getElementById(id);
      if (next && here) here.replaceWith(document.adoptNode(next));
    }
    for (const id of open) document.getElementById(id)?.setAttribute("open", "");
    changed.hidden = false;
  }
  async function poll() {
    if (!live.checked || busy) return;
    busy = true;
    try {
      const res = await fetch(live.dataset.url + "&after=" + after, { cache: "no-store" });
      const update = await res.json();
      if (update.rows.length > 0) {
        rows.insertAdjacentHTML("afterbegin", update.rows.join(""));
        while (rows.rows.length > ${LOG_PAGE_SIZE}) rows.deleteRow(-1);
      }
      after = update.sequence;
      total.textContent = update.total;
      if (update.writes !== writes) {
        writes = update.writes;
        await refreshCommands();
      }
    } catch (err) {
      total.textContent = "live updates stopped: " + err;
    } finally {
      busy = false;
    }
  }
  setInterval(poll, 500);
})();`;

export function renderPage(parts: PageParts, query: URLSearchParams): HtmlDocument {
  const { store } = parts;
  const q = readQuery(store, query);
  const nonce = newNonce();
  const app = q.app;
  if (!app) {
    return documentOf("Emulator", "<main><p>No application is configured.</p></main>", nonce);
  }
  const apps = store.applications();
  const appNav =
    apps.length > 1
      ? `<nav class="scopes" aria-label="applications">${apps
          .map(
            (a) =>
              `<a href="${link(query, { app: a.id, scope: "", q: "" })}"${a.id === app.id ? ' aria-current="page"' : ""}>${esc(a.name)} <span class="muted">${esc(a.id)}</span></a>`,
          )
          .join("")}</nav>`
      : `<span class="muted">${esc(app.name)} · application ${esc(app.id)}</span>`;
  const body = `<header><h1>Command service emulator</h1>${appNav}
<a href="#commands">Commands</a><a href="#member">As a member</a><a href="#log">Requests</a><a href="#interactions">Interactions</a></header>
<main>
${commandsSection(store, app, q, query)}
${memberSection(store, app, q, query)}
${logSection(parts, q, query)}
<section id="interactions"><h2>Interactions delivered</h2>${renderInteractions(parts.interactions, parts.redactor)}</section>
</main>`;
  return documentOf(`Emulator: ${app.name}`, body, nonce, LIVE_SCRIPT);
}
