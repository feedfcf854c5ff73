/**
 * Runs an example of `examples/` as a user would: its files copied into a scratch
 * Pulumi project under `.work/tests/` (so `pulumi-discord-commands` and `@pulumi/pulumi`
 * resolve from the repository), then driven through the real CLI against an
 * in-process emulator.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator } from "../../emulator";
import type { RunningEmulator } from "../../emulator";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import type { ProgramFiles } from "../../scripts/pulumiProgram";
import { PulumiProgram } from "../../scripts/pulumiProgram";

export const EXAMPLES_DIR = path.join(PROJECT_ROOT, "examples");

/** The example's files (not its README) and its project name from `Pulumi.yaml`. */
export function exampleFiles(example: string): { name: string; files: ProgramFiles } {
  const dir = path.join(EXAMPLES_DIR, example);
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isFile() || entry.name === "README.md") continue;
    files[entry.name] = fs.readFileSync(path.join(dir, entry.name), "utf8");
  }
  const name = /^name:\s*(\S+)\s*$/m.exec(files["Pulumi.yaml"] ?? "")?.[1];
  if (name === undefined) throw new Error(`examples/${example}/Pulumi.yaml has no name`);
  return { name, files };
}

/** A scratch copy of the example as a Pulumi project (the state file path uses its name). */
export function exampleProgram(example: string, env: Record<string, string> = {}): PulumiProgram {
  const { name, files } = exampleFiles(example);
  return new PulumiProgram(name, files, { env });
}

/** An emulator for one test file; rate limits off, the result is what is checked. */
export function emulator(): Promise<RunningEmulator> {
  return startEmulator({ rateLimits: false });
}

/** Sets stack config the way a user does: `pulumi config set [--secret] key value`. */
export async function setConfig(
  prog: PulumiProgram,
  stack: string,
  settings: Record<string, string>,
  secrets: Record<string, string> = {},
): Promise<void> {
  for (const [key, value] of Object.entries(settings)) {
    await prog.ok(["config", "set", "--stack", stack, key, value]);
  }
  for (const [key, value] of Object.entries(secrets)) {
    await prog.ok(["config", "set", "--stack", stack, "--secret", key, value]);
  }
}

/** A command as the emulator's control API shows it. */
export interface LiveCommand {
  readonly id: string;
  readonly name: string;
  readonly type?: number;
  readonly guild_id?: string;
  readonly application_id: string;
}

export function liveCommands(emu: RunningEmulator): LiveCommand[] {
  return emu.control.state().commands as unknown as LiveCommand[];
}

/** A command's overwrites as the emulator's control API shows them. */
export interface LivePermissions {
  readonly id: string;
  readonly guild_id: string;
  readonly permissions: { id: string; type: number; permission: boolean }[];
}

export function livePermissions(emu: RunningEmulator): LivePermissions[] {
  return emu.control.state().permissions as unknown as LivePermissions[];
}

/** The role, user and channel of the emulator's default guild that examples/permissions uses. */
export const PERMISSIONS_EXAMPLE_IDS = {
  role: "1300000000000000004",
  user: "1300000000000000003",
  channel: "1300000000000000005",
} as const;

/**
 * examples/permissions as a stack `dev` against `emu`: its plain settings, and the
 * secrets the test gives (a Bearer token, or what `discord-commands authorize` needs).
 */
export async function permissionsExample(
  emu: RunningEmulator,
  secrets: Record<string, string>,
): Promise<PulumiProgram> {
  const prog = exampleProgram("permissions");
  await prog.stack("dev");
  const { role, user, channel } = PERMISSIONS_EXAMPLE_IDS;
  await setConfig(
    prog,
    "dev",
    {
      "discord:apiUrl": emu.url,
      "discord:applicationId": emu.applicationId,
      guildId: emu.guildId,
      moderatorRoleId: role,
      ownerUserId: user,
      botChannelId: channel,
    },
    secrets,
  );
  return prog;
}
