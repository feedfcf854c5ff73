/**
 * What the engine tests of the resource plugin from Python, Go and TypeScript programs
 * share: one of `examples/<language>` copied into a scratch project as a user copies it,
 * the npm package installed beside it (`node_modules/pulumi-discord-commands`, where the
 * example's `packages:` block finds the plugin and Go's `replace` the SDK: here a link to
 * this checkout), a stack
 * configured with the emulator's URL and credentials, and the emulator's view of what
 * the runs wrote.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import { PulumiProgram } from "../../scripts/pulumiProgram";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import { Api } from "../emulator/helpers";
import { exampleFiles } from "../examples/helpers";
import { configurePluginStack, IDS } from "./lifecycle.helpers";

export interface PluginExample {
  readonly emu: RunningEmulator;
  readonly api: Api;
  readonly prog: PulumiProgram;
  /** The example's files as committed (file name -> content). */
  readonly files: Readonly<Record<string, string>>;
  /** The requests of the runs since the log was last reset that write (not GETs). */
  writes(): { method: string; route: string | null }[];
  liveNamed(name: string): Record<string, unknown> | undefined;
  /** The overwrites the emulator holds for a command id. */
  livePermissions(commandId: unknown): unknown;
  close(): Promise<void>;
}

/** `text` with `from` replaced by `to`; fails when the example no longer has `from`. */
export function edit(text: string | undefined, from: string, to: string): string {
  if (text === undefined || !text.includes(from)) {
    throw new Error(`the example no longer contains ${JSON.stringify(from)}: update the test`);
  }
  return text.replace(from, to);
}

/**
 * Starts an emulator holding one command the stack does not manage ("other"), copies
 * `examples/<example>` into a scratch project (`adapt` changes what must differ in a
 * scratch folder, such as paths), and creates stack `dev` with the plugin's settings
 * and the example's own (`guildId`, `moderatorRoleId`).
 */
export async function startPluginExample(
  example: string,
  adapt: (files: Record<string, string>) => Record<string, string> = (files) => files,
): Promise<PluginExample> {
  const emu = await startEmulator({ port: 0, rateLimits: false });
  const api = new Api(emu);
  const other = await api.post(`${api.app}/commands`, { name: "other", description: "Not ours" });
  if (other.status !== 201) throw new Error(`creating "other" answered ${other.status}`);

  const { name, files } = exampleFiles(example);
  const prog = new PulumiProgram(name, adapt({ ...files }));
  // What `npm install pulumi-discord-commands` leaves in the project: the package, whose
  // plugin/ folder the example's `packages:` block names.
  const modules = path.join(prog.dir, "node_modules");
  fs.mkdirSync(modules, { recursive: true });
  fs.symlinkSync(PROJECT_ROOT, path.join(modules, "pulumi-discord-commands"), "dir");

  await prog.stack("dev");
  await configurePluginStack(prog, emu, { guildId: IDS.guild, moderatorRoleId: IDS.role });

  return {
    emu,
    api,
    prog,
    files,
    writes: () =>
      emu
        .requestLog()
        .filter((e) => e.method !== "GET")
        .map((e) => ({ method: e.method, route: e.route })),
    liveNamed: (command) => emu.control.commands().find((c) => c["name"] === command),
    livePermissions: (commandId) =>
      emu.control.state().permissions.find((p) => p["id"] === commandId)?.["permissions"],
    close: async () => {
      prog.cleanup();
      await emu.close();
    },
  };
}
