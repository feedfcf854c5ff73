/**
 * The command rules that need state or the application's settings, beyond the body's
 * own (those are the emulator's, rules/): the entry point needs Activities, discovery
 * forbids nsfw, integration types must be the application's, the size of the result,
 * counts per type and scope (30032) and daily creates (30034), all from the one limits
 * table.
 */
import { Errors, errorAt } from "../errors";
import type { CommandRecordFields } from "../commandRecord";
import { oversize } from "../rules/command";
import { commandsPerScope, ServiceLimits } from "../rules/limits";
import type { RequestContext } from "./context";
import type { CommandScope } from "./commandScope";
import { scopeKey } from "./commandScope";

export function applicationRules(
  f: CommandRecordFields,
  s: CommandScope,
  activities: boolean,
  prefix: (string | number)[],
): void {
  if (f.type === 4 && s.guildId === undefined && !activities) {
    throw Errors.fieldError(
      [...prefix, "type"],
      "APPLICATION_COMMAND_ENTRY_POINT_NOT_EMBEDDED",
      "Entry point commands require an application with Activities enabled.",
    );
  }
  if (f.nsfw && s.app.discovery) {
    throw Errors.fieldError(
      [...prefix, "nsfw"],
      "APPLICATION_COMMAND_NSFW_DISCOVERABLE",
      "Applications with discovery enabled cannot have age-restricted commands.",
    );
  }
  if (f.integration_types) {
    const bad = f.integration_types.findIndex((t) => !s.app.installationContexts.includes(t));
    if (bad >= 0) {
      throw Errors.fieldError(
        [...prefix, "integration_types", bad],
        "APPLICATION_COMMAND_INTEGRATION_TYPE_UNSUPPORTED",
        "Integration type is not supported by the application.",
      );
    }
  }
  if (oversize(f)) {
    throw Errors.invalidFormBody(
      errorAt(
        prefix,
        "APPLICATION_COMMAND_TOO_LARGE",
        `Command exceeds maximum size (${ServiceLimits.COMMAND_SIZE_MAX})`,
      ),
    );
  }
}

/** How many commands of `type` the scope may hold. */
export function countLimit(type: number, s: CommandScope): number {
  return commandsPerScope(type, s.guildId === undefined ? "global" : "guild");
}

export function checkDailyCreates(ctx: RequestContext, s: CommandScope, adding: number): void {
  const { dailyCreateLimit: limit, dailyCreateLimitStatus: status } = ctx.store.config;
  if (adding > 0 && ctx.store.dailyCreates.today(scopeKey(s)) + adding > limit) {
    throw Errors.dailyCreates(limit, status, ctx.store.dailyCreates.roomInMs(scopeKey(s), adding));
  }
}
