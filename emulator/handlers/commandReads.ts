/** Endpoints 1, 3, 7, 9: list and get global and guild commands. */
import { requesterLocale } from "../localize";
import { FULL, presentCommand } from "../present";
import type { LocalizationMode } from "../present";
import type { HandlerResult, RequestContext } from "./context";
import { findInScope, scopeOf } from "./commandScope";

/** `with_localizations=true` gives the dictionaries; otherwise the requester's locale only. */
function localizationMode(ctx: RequestContext): LocalizationMode {
  const q = ctx.query.get("with_localizations");
  if (q !== null && /^(true|1)$/i.test(q)) return FULL;
  const userLocale = ctx.principal?.kind === "user" ? ctx.principal.locale : undefined;
  return { kind: "localized", locale: requesterLocale(ctx.headers, userLocale) };
}

export function listCommands(ctx: RequestContext, guild: boolean): HandlerResult {
  const s = scopeOf(ctx, guild, false);
  const mode = localizationMode(ctx);
  return {
    status: 200,
    body: ctx.store.commandsIn(s.app.id, s.guildId).map((c) => presentCommand(c, mode)),
  };
}

export function getCommand(ctx: RequestContext, guild: boolean): HandlerResult {
  const s = scopeOf(ctx, guild, false);
  return { status: 200, body: presentCommand(findInScope(ctx, s)) };
}
