/**
 * The pack's rules as pure functions of what the policies see (commands.ts) and of their
 * configuration: each returns the violations' messages, every one naming the resource and
 * the command, and quoting nothing the program marked secret. policy/index.ts wires them
 * into `@pulumi/policy`'s policies.
 */
import type { SeenCommand } from "./commands";
import { scopeKeyOf, scopeLabel } from "./commands";

/** A name or `/regex/` of a configuration list. */
export function matches(patterns: readonly string[] | undefined, name: string): string | undefined {
  for (const p of patterns ?? []) {
    const re = /^\/(.*)\/([a-z]*)$/.exec(p);
    if (re ? new RegExp(re[1] ?? "", re[2]).test(name) : p === name) return p;
  }
  return undefined;
}

/** Whether a policy configured for `stacks` (a regex; absent: every stack) runs in `stack`. */
export function runsIn(stacks: string | undefined, stack: string): boolean {
  return stacks === undefined || stacks === "" || new RegExp(stacks).test(stack);
}

function head(c: SeenCommand): string {
  return `${c.resource} (${c.label})`;
}

function missingLocales(value: unknown, locales: readonly string[]): string[] {
  const present = value !== null && typeof value === "object" ? Object.keys(value) : [];
  return locales.filter((l) => !present.includes(l));
}

function isChatInput(body: Record<string, unknown>): boolean {
  return body["type"] === undefined || body["type"] === null || body["type"] === 1;
}

export interface LocalesConfig {
  readonly locales?: string[];
  /** Command names, `command.option` paths (`ban.reason`), or `/regex/` of either. */
  readonly exempt?: string[];
}

/** Required locales of names and descriptions, of the command and of its options. */
export function requiredLocales(c: SeenCommand, config: LocalesConfig): string[] {
  const locales = config.locales ?? [];
  const name = String(c.body["name"]);
  if (locales.length === 0 || matches(config.exempt, name) !== undefined) return [];
  const out: string[] = [];
  // `shown`: how the message names the command or option; `dotted`: its exempt path.
  const check = (
    shown: string,
    dotted: string,
    body: Record<string, unknown>,
    described: boolean,
    path: (string | number)[],
  ): void => {
    const fields = described ? (["name", "description"] as const) : (["name"] as const);
    for (const what of fields) {
      const missing = missingLocales(body[`${what}Localizations`], locales);
      if (missing.length > 0) {
        out.push(`${head(c)}: ${shown}${what} lacks the locales ${missing.join(", ")}`);
      }
    }
    const options = Array.isArray(body["options"]) ? (body["options"] as unknown[]) : [];
    options.forEach((o, i) => {
      if (o === null || typeof o !== "object") return;
      const option = o as Record<string, unknown>;
      const optionDotted = `${dotted}.${String(option["name"])}`;
      if (matches(config.exempt, optionDotted) !== undefined) return;
      const optionPath = [...path, "options", i];
      const label = c.secretAt([...optionPath, "name"])
        ? `option #${i + 1} (its name is secret)`
        : `option "${String(option["name"])}"`;
      check(`${shown}${label}: its `, optionDotted, option, true, optionPath);
    });
  };
  check("its ", name, c.body, isChatInput(c.body), []);
  return out;
}

export interface HiddenConfig {
  /** Command names or `/regex/` that must set default member permissions. */
  readonly commands?: string[];
}

/** Commands matching the configured names must set `defaultMemberPermissions`. */
export function mustBeHidden(c: SeenCommand, config: HiddenConfig): string[] {
  const pattern = matches(config.commands, String(c.body["name"]));
  if (pattern === undefined) return [];
  const dmp = c.body["defaultMemberPermissions"];
  if (dmp !== undefined && dmp !== null) return [];
  const why = c.secretAt(["name"]) ? "it matches a configured name" : `it matches "${pattern}"`;
  return [
    `${head(c)}: must set defaultMemberPermissions (hidden from members unless granted): ${why}`,
  ];
}

export interface StageConfig {
  /** Guilds where this stage may hold guild commands; absent: any guild. */
  readonly allowedGuilds?: string[];
  /** Only global commands in this stage. */
  readonly globalOnly?: boolean;
  /** No nsfw commands in this stage. */
  readonly noNsfw?: boolean;
}

/** A stage's rules (the stack already matched the configured pattern). */
export function stageRules(c: SeenCommand, stack: string, config: StageConfig): string[] {
  const out: string[] = [];
  if (c.guildId !== undefined) {
    const guild = String(c.guildId);
    if (config.globalOnly === true) {
      out.push(`${head(c)}: stack "${stack}" holds only global commands, not guild ${guild}'s`);
    } else if (config.allowedGuilds !== undefined && !config.allowedGuilds.includes(guild)) {
      out.push(
        `${head(c)}: guild ${guild} is not among the guilds stack "${stack}" may hold ` +
          `commands in (${config.allowedGuilds.join(", ") || "none"})`,
      );
    }
  }
  if (config.noNsfw === true && c.body["nsfw"] === true) {
    out.push(`${head(c)}: stack "${stack}" holds no nsfw commands`);
  }
  return out;
}

export interface CapConfig {
  /**
   * The most commands this stack may declare in one scope: a number, or per stage, a map
   * from a regex of stack names to a number (the first that matches the stack counts).
   */
  readonly maxPerScope?: number | Readonly<Record<string, number>>;
}

/** The cap that applies in `stack`, if any. */
export function capIn(config: CapConfig, stack: string): number | undefined {
  const cap = config.maxPerScope;
  if (cap === undefined || typeof cap === "number") return cap;
  return Object.entries(cap).find(([stacks]) => new RegExp(stacks).test(stack))?.[1];
}

/** A cap per scope tighter than the service's, over every command the stack declares. */
export function scopeCap(
  commands: readonly SeenCommand[],
  config: CapConfig,
  stack: string,
): string[] {
  const cap = capIn(config, stack);
  if (cap === undefined) return [];
  const byScope = new Map<string, SeenCommand[]>();
  for (const c of commands) {
    const key = scopeKeyOf(c);
    byScope.set(key, [...(byScope.get(key) ?? []), c]);
  }
  const out: string[] = [];
  for (const list of byScope.values()) {
    if (list.length <= cap) continue;
    const resources = [...new Set(list.map((c) => c.resource))];
    const last = list[list.length - 1] as SeenCommand;
    out.push(
      `${scopeLabel(last)} would hold ${list.length} commands of this stack, more than the ` +
        `cap of ${cap}, declared by ${resources.slice(0, 5).join(", ")}` +
        `${resources.length > 5 ? ", ..." : ""} (the last: ${head(last)})`,
    );
  }
  return out;
}

/** A permissions entry as the service takes it. */
export interface Overwrite {
  readonly id?: unknown;
  readonly type?: unknown;
  readonly permission?: unknown;
}

/**
 * The entries that let everyone use a command that its default member permissions
 * restrict: `@everyone` (the role whose id is the guild's) or all channels (the guild's
 * id minus one), allowed.
 */
export function everyoneGrants(
  c: SeenCommand,
  guildId: string,
  overwrites: readonly Overwrite[],
): string[] {
  const dmp = c.body["defaultMemberPermissions"];
  if (dmp === undefined || dmp === null || !/^\d+$/.test(guildId)) return [];
  const allChannels = (BigInt(guildId) - 1n).toString();
  const out: string[] = [];
  for (const o of overwrites) {
    if (o.permission !== true) continue;
    const target =
      String(o.id) === guildId
        ? "@everyone"
        : String(o.id) === allChannels
          ? "all channels"
          : undefined;
    if (target === undefined) continue;
    out.push(
      `${head(c)}: a permissions entry in guild ${guildId} allows ${target} to use it, ` +
        "though its default member permissions restrict it",
    );
  }
  return out;
}
