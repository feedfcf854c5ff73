/** The interactions delivered: who invoked what, the signed payload, the handler's answer. */
import type { InteractionService } from "../interactions/service";
import { esc } from "./html";
import type { Redactor } from "./redact";

const SHOWN = 20;

export function renderInteractions(interactions: InteractionService, redactor: Redactor): string {
  const list = interactions.history.list();
  if (list.length === 0) {
    return '<p class="muted">None yet. Invoke a command with <code>emu.invoke(...)</code> or <code>POST /__emulator/interactions</code>.</p>';
  }
  const rows = list
    .slice(-SHOWN)
    .reverse()
    .map((d) => {
      const r = d.result;
      const payload =
        r.interaction === null
          ? '<span class="muted">no payload built</span>'
          : `<details><summary>payload (signed Ed25519, key ${esc(interactions.publicKey(d.applicationId).slice(0, 16))}…)</summary><pre>${esc(JSON.stringify(redactor.json(r.interaction), null, 1))}</pre></details>`;
      const answer =
        r.response === null
          ? '<span class="muted">no answer</span>'
          : `<details><summary>HTTP ${r.response.status} in ${r.response.durationMs} ms${r.response.valid ? "" : " (invalid)"}</summary><pre>${esc(JSON.stringify(redactor.json(r.response.body ?? null), null, 1))}</pre>${r.response.problems.map((p) => `<div class="error">${esc(p)}</div>`).join("")}</details>`;
      return `<tr><td>${d.sequence}</td><td>${esc(d.time.slice(11, 23))}</td><td>${esc(d.kind)}</td><td>${esc(d.commandName ?? d.commandId ?? "")}</td><td>${esc(d.userId)}</td><td>${esc(d.guildId ?? "DM")}/${esc(d.channelId)}</td><td class="${r.outcome === "delivered" ? "yes" : "no"}">${esc(r.outcome)}</td><td>${esc(redactor.text(r.reason))}${payload}${answer}</td></tr>`;
    })
    .join("");
  return `<table id="interactions-table"><thead><tr><th>#</th><th>time</th><th>kind</th><th>command</th><th>user</th><th>where</th><th>outcome</th><th>details</th></tr></thead><tbody>${rows}</tbody></table>`;
}
