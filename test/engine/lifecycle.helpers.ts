/**
 * Shared by the engine lifecycle suites (`lifecycle*.test.ts`): a Pulumi program folder
 * configured against an in-process emulator, and views of the emulator's state and
 * request log that the assertions compare.
 */
import type { RequestLogEntry, RunningEmulator } from "../../emulator";
import { DEFAULTS, startEmulator } from "../../emulator";
import { Api } from "../emulator/helpers";
import { PulumiProgram } from "../../scripts/pulumiProgram";

/** The emulator's default ids (emulator/config.ts `DEFAULTS`). */
export const IDS = {
  application: "1300000000000000001",
  guild: "1300000000000000002",
  user: "1300000000000000003",
  role: "1300000000000000004",
  channel: "1300000000000000005",
} as const;

/**
 * The emulator's config of a guild where the default user manages commands (a role with
 * Manage Guild and Manage Roles, the default channel), for permission writes.
 */
export function moderatedGuild(id: string) {
  return {
    id,
    roles: [{ id: DEFAULTS.managerRoleId, permissions: String((1n << 5n) | (1n << 28n)) }],
    channels: [{ id: DEFAULTS.channelId }],
    members: [{ userId: DEFAULTS.userId, roles: [DEFAULTS.managerRoleId] }],
    authorizedApplications: [DEFAULTS.applicationId],
  };
}

/** A command as the emulator's control API presents it (the wire shape). */
export type LiveCommand = Record<string, unknown> & {
  id: string;
  name: string;
  type: number;
  version: string;
};

/**
 * An emulator with two guilds, `a` (moderated: its manager may write permissions) and `b`,
 * each holding a command another tool made (`not-ours`), which a set must never touch.
 */
export async function twoGuildEmulator(a: string, b: string): Promise<RunningEmulator> {
  const emu = await startEmulator({
    port: 0,
    rateLimits: false,
    config: {
      guilds: [
        moderatedGuild(a),
        { id: b, name: "Second Guild", authorizedApplications: [DEFAULTS.applicationId] },
      ],
    },
  });
  const api = new Api(emu);
  for (const g of [a, b]) {
    const res = await api.call("POST", `${api.app}/guilds/${g}/commands`, {
      body: { name: "not-ours", description: "Made by hand" },
    });
    expect(res.status).toBe(201);
  }
  return emu;
}

/** A program folder with stack `dev` whose config points at the emulator. */
export async function programAgainst(
  emu: RunningEmulator,
  name: string,
  source: string,
  options: { readonly transpiled?: boolean } = {},
): Promise<PulumiProgram> {
  const prog = new PulumiProgram(name, { "index.ts": source }, options);
  await prog.stack("dev");
  await prog.setConfig(
    { "discord:apiUrl": emu.url, "discord:applicationId": emu.applicationId },
    { "discord:botToken": emu.botToken, "discord:bearerToken": emu.userBearerToken },
  );
  return prog;
}

/**
 * The resource plugin's settings for the emulator in one `config set-all` (namespace
 * `discord-commands:`, credentials as secrets), plus the program's own plain keys.
 */
export async function configurePluginStack(
  prog: PulumiProgram,
  emu: RunningEmulator,
  plain: Readonly<Record<string, string>> = {},
): Promise<void> {
  await prog.setConfig(
    {
      "discord-commands:apiUrl": emu.url,
      "discord-commands:applicationId": emu.applicationId,
      ...plain,
    },
    {
      "discord-commands:botToken": emu.botToken,
      "discord-commands:bearerToken": emu.userBearerToken,
    },
  );
}

export function liveCommands(emu: RunningEmulator): LiveCommand[] {
  return emu.control.commands() as LiveCommand[];
}

/** `global` or the guild id of a live command. */
export function scopeOf(c: LiveCommand): string {
  return typeof c["guild_id"] === "string" ? c["guild_id"] : "global";
}

/** The live command of a scope, type and name; fails when there is not exactly one. */
export function liveCommand(
  emu: RunningEmulator,
  name: string,
  scope = "global",
  type = 1,
): LiveCommand {
  const found = liveCommands(emu).filter(
    (c) => c.name === name && scopeOf(c) === scope && c.type === type,
  );
  if (found.length !== 1 || found[0] === undefined) {
    throw new Error(
      `expected one live ${scope} command ${name} (type ${type}), saw ${found.length}`,
    );
  }
  return found[0];
}

/** `scope type name`, sorted: the identity of every live command. */
export function commandKeys(emu: RunningEmulator): string[] {
  return liveCommands(emu)
    .map((c) => `${scopeOf(c)} ${c.type} ${c.name}`)
    .sort();
}

/** The live overwrites of a command (or the application id) in a guild; [] when none. */
export function livePermissions(emu: RunningEmulator, targetId: string): unknown[] {
  const found = emu.control.state().permissions.find((p) => p["id"] === targetId);
  const list = found?.["permissions"];
  return Array.isArray(list) ? list : [];
}

/** The last path segments that identify what a request touched. */
function describe(entry: RequestLogEntry, applicationId: string): string {
  const tail = entry.path
    .replace(/^\/api\/v10/, "")
    .replace(`/applications/${applicationId}`, "")
    .replace(/\/guilds\/(\d+)/, " guild:$1")
    .replace(/\/commands\/permissions$/, " permissions")
    .replace(/\/commands\/(\d+)\/permissions$/, " permissions:$1")
    .replace(/\/commands\/(\d+)$/, " command:$1")
    .replace(/\/commands$/, " commands")
    .trim();
  return `${entry.method} ${entry.route ?? "unknown"} ${tail} ${entry.status}`;
}

/** Every logged request since the last reset, as `METHOD route target status`. */
export function requests(emu: RunningEmulator): string[] {
  return emu.requestLog().map((e) => describe(e, emu.applicationId));
}

/** The logged requests that write (anything but GET), sorted (concurrent ones race). */
export function writes(emu: RunningEmulator): string[] {
  return emu
    .requestLog()
    .filter((e) => e.method !== "GET")
    .map((e) => describe(e, emu.applicationId))
    .sort();
}

/** The line the CLI prints for a resource's step (`update`, `replace`...) in a preview. */
export function stepLine(stdout: string, resourceName: string, op: string): string | undefined {
  return stdout.split("\n").find((l) => l.includes(` ${resourceName} ${op}`));
}

/**
 * Options as the service returns them in full: `null` localization dictionaries where an
 * option or choice has none (the emulator, like the service, never leaves them out).
 */
export function asReturned(options: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return options.map((o) => {
    const out: Record<string, unknown> = {
      name_localizations: null,
      description_localizations: null,
      ...o,
    };
    if (Array.isArray(o["options"])) {
      out["options"] = asReturned(o["options"] as Record<string, unknown>[]);
    }
    if (Array.isArray(o["choices"])) {
      out["choices"] = (o["choices"] as Record<string, unknown>[]).map((c) => ({
        name_localizations: null,
        ...c,
      }));
    }
    return out;
  });
}
