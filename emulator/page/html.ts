/**
 * HTML for the emulator's pages, server-rendered: every value goes through `esc` (text and
 * attribute values alike), and each page carries a Content-Security-Policy that allows
 * only its own inline style and script (by nonce) and requests to its own origin, so
 * markup that slipped through would still not run, and nothing is loaded from elsewhere.
 */
import { randomBytes } from "node:crypto";

/** A rendered page, told apart from JSON bodies by `send` (emulator/response.ts). */
export class HtmlDocument {
  constructor(
    readonly html: string,
    readonly headers: Readonly<Record<string, string>>,
  ) {}
}

const ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Text and attribute values: the five characters that can end a context are replaced. */
export function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

/** The headers of every page: its own style and script only, not framed, not cached. */
function pageHeaders(nonce: string): Record<string, string> {
  return {
    "Content-Security-Policy": [
      "default-src 'none'",
      `style-src 'nonce-${nonce}'`,
      `script-src 'nonce-${nonce}'`,
      "connect-src 'self'",
      "img-src 'self' data:",
      "form-action 'self' http: https:",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ].join("; "),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
  };
}

/** A whole document around `body`, with the shared style (and a script when given). */
export function documentOf(
  title: string,
  body: string,
  nonce: string,
  script?: string,
): HtmlDocument {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style nonce="${nonce}">${STYLE}</style>
</head><body>
${body}
${script === undefined ? "" : `<script nonce="${nonce}">${script}</script>`}
</body></html>`;
  return new HtmlDocument(html, pageHeaders(nonce));
}

/** One small stylesheet for the page and the consent page (no fonts or images fetched). */
const STYLE = `
:root{color-scheme:light dark;--bg:#f6f7f9;--card:#fff;--line:#d9dce1;--muted:#5c6370;--accent:#4752c4;--ok:#1f7a3d;--no:#b3261e;--warn:#8a5a00}
@media (prefers-color-scheme:dark){:root{--bg:#1e1f22;--card:#2b2d31;--line:#3f4147;--muted:#a0a4ab;--accent:#8c96ff;--ok:#5fd38a;--no:#ff8a80;--warn:#f0c36b}}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:inherit}
header{padding:10px 20px;border-bottom:1px solid var(--line);background:var(--card);display:flex;gap:16px;align-items:center;flex-wrap:wrap}
header h1{font-size:16px;margin:0}
main{padding:16px 20px;display:grid;gap:16px;max-width:1400px}
section{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px 16px;min-width:0}
section h2{font-size:15px;margin:0 0 8px}
nav.scopes{display:flex;flex-wrap:wrap;gap:6px;margin-bottom:8px}
nav.scopes a,.chip{display:inline-block;padding:2px 8px;border:1px solid var(--line);border-radius:12px;text-decoration:none;color:inherit;font-size:13px}
nav.scopes a[aria-current=page]{background:var(--accent);color:#fff;border-color:var(--accent)}
a{color:var(--accent)}
form.inline{display:flex;flex-wrap:wrap;gap:8px;align-items:end;margin:6px 0}
label{display:flex;flex-direction:column;font-size:12px;color:var(--muted)}
label.toggle{flex-direction:row;gap:4px}
input,select,button{font:inherit;padding:3px 6px}
button{cursor:pointer}
.cmd{border-top:1px solid var(--line);padding:8px 0}
.cmd:first-of-type{border-top:0}
.cmd summary{cursor:pointer;list-style:none}
.cmd summary::-webkit-details-marker{display:none}
.name{font-weight:600}
.desc{color:var(--muted);overflow-wrap:anywhere}
.type{font-size:11px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);margin-right:6px}
.loc{font-size:11px;color:var(--warn);margin-left:4px}
.muted{color:var(--muted)}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:6px 0 6px 12px;font-size:13px}
.facts dt{color:var(--muted)}
.facts dd{margin:0;overflow-wrap:anywhere}
ul.tree{margin:4px 0 4px 12px;padding-left:14px;font-size:13px}
ul.tree li{margin:2px 0;overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%;font-size:13px}
th,td{text-align:left;padding:3px 6px;border-bottom:1px solid var(--line);vertical-align:top;overflow-wrap:anywhere}
th{color:var(--muted);font-weight:500}
.yes{color:var(--ok);font-weight:600}
.no{color:var(--no);font-weight:600}
.error{color:var(--no)}
code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}
pre{white-space:pre-wrap;overflow-wrap:anywhere;max-height:300px;overflow:auto;margin:4px 0}
.pager{display:flex;gap:10px;align-items:center;margin:6px 0;flex-wrap:wrap}
.status-4,.status-5,.status-0{color:var(--no)}
.consent{max-width:520px;margin:40px auto}
.consent .actions{display:flex;gap:12px;margin-top:16px}
.consent .approve{background:var(--accent);color:#fff;border:0;border-radius:4px;padding:8px 18px}
.consent .deny{border-radius:4px;padding:8px 18px}
`;
