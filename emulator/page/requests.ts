/**
 * The request log on the page: newest first, filtered by scope, 50 to a page. A log of
 * 100,000 entries is read in place (no copy) and only the shown page is rendered, so a
 * page costs one pass over the log at most, whatever its length.
 */
import type { RequestLogEntry } from "../log";
import type { RequestLog } from "../log";
import { esc } from "./html";
import type { Redactor } from "./redact";

export const LOG_PAGE_SIZE = 50;

const SCOPE_OF_PATH = /\/applications\/\d+\/(?:guilds\/(\d+)\/)?commands(?:\/|$)/;

/** `global`, a guild id, or `other` (OAuth2, unknown paths, notes without a scope). */
function scopeOfPath(path: string): string {
  const m = SCOPE_OF_PATH.exec(path);
  if (!m) return "other";
  return m[1] ?? "global";
}

function matchesScope(entry: RequestLogEntry, scope: string): boolean {
  return scope === "all" || scopeOfPath(entry.path) === scope;
}

interface LogPage {
  readonly rows: string[];
  readonly matching: number;
  readonly page: number;
  readonly pages: number;
  /** The sequence number of the newest entry: live updates ask for what comes after it. */
  readonly sequence: number;
}

function logRow(entry: RequestLogEntry, sequence: number, redactor: Redactor): string {
  const statusClass = `status-${String(entry.status).charAt(0)}`;
  const notes = [entry.fault ? `fault ${entry.fault}` : "", entry.event ?? "", entry.warning ?? ""]
    .filter((x) => x !== "")
    .map((x) => esc(redactor.text(x)))
    .join("<br>");
  const error =
    entry.error === undefined
      ? ""
      : `<pre class="error-body">${esc(redactor.text(prettyJson(entry.error)))}</pre>`;
  return `<tr data-seq="${sequence}" data-scope="${esc(scopeOfPath(entry.path))}"><td>${sequence}</td><td>${esc(entry.time.slice(11, 23))}</td><td>${esc(entry.method)}</td><td><code>${esc(redactor.text(entry.path))}</code><div class="muted">${esc(entry.route ?? "")}</div></td><td class="${statusClass}">${entry.status}</td><td>${esc(entry.bucket ?? "")}</td><td>${entry.remaining === undefined ? "" : entry.remaining}</td><td>${notes}${error}</td></tr>`;
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 1);
  } catch {
    return text;
  }
}

/** One page (1 = the newest) of the entries in `scope`. */
export function logPage(log: RequestLog, scope: string, page: number, redactor: Redactor): LogPage {
  const entries = log.view();
  const newest = log.sequence();
  const first = newest - entries.length + 1; // the sequence number of entries[0]
  const wanted = Math.max(1, Math.floor(page));
  const skip = (wanted - 1) * LOG_PAGE_SIZE;
  const rows: string[] = [];
  let matching = 0;
  if (scope === "all") {
    matching = entries.length;
    const start = entries.length - 1 - skip;
    for (let i = start; i >= 0 && i > start - LOG_PAGE_SIZE; i--) {
      const e = entries[i];
      if (e) rows.push(logRow(e, first + i, redactor));
    }
  } else {
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i];
      if (!e || !matchesScope(e, scope)) continue;
      if (matching >= skip && matching < skip + LOG_PAGE_SIZE)
        rows.push(logRow(e, first + i, redactor));
      matching++;
    }
  }
  const pages = Math.max(1, Math.ceil(matching / LOG_PAGE_SIZE));
  return { rows, matching, page: Math.min(wanted, pages), pages, sequence: newest };
}

/** Entries after `after` in `scope`, newest first, at most a page of them (live updates). */
export function logSince(
  log: RequestLog,
  scope: string,
  after: number,
  redactor: Redactor,
): { rows: string[]; sequence: number } {
  const entries = log.view();
  const newest = log.sequence();
  const first = newest - entries.length + 1;
  const rows: string[] = [];
  for (
    let i = entries.length - 1;
    i >= 0 && first + i > after && rows.length < LOG_PAGE_SIZE;
    i--
  ) {
    const e = entries[i];
    if (e && matchesScope(e, scope)) rows.push(logRow(e, first + i, redactor));
  }
  return { rows, sequence: newest };
}
