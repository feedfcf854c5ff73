/**
 * A live command set for the import tests: the project's corpus of generated commands
 * (test/provider/corpus.ts), registered out of band as a deploy script would, with a few
 * permission overwrites in the guild.
 */
import type { EmulatorOptions, RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import { validateSdkCommand } from "../../provider/schema";
import { Api, rec, str } from "../emulator/helpers";
import { scopeCorpus } from "../provider/corpus";

export const APP = "1300000000000000001";

/** The application with Activities (for the corpus's entry point) and both install types. */
export function corpusEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({
    port: 0,
    rateLimits: false,
    ...options,
    config: {
      applications: [
        {
          id: APP,
          botToken: "emulator-bot-token",
          clientSecret: "emulator-client-secret",
          activities: true,
          installationContexts: [0, 1],
        },
      ],
    },
  });
}

export interface CorpusCounts {
  readonly chatInput: number;
  readonly user: number;
  readonly message: number;
}

/**
 * Registers the corpus in the global scope and the emulator's guild (the entry point
 * replaces the auto-created "Launch": the one entry point of the application), and
 * overwrites for the first two guild commands and the app-wide defaults. Returns the
 * registered ids.
 */
export async function seedCorpus(emu: RunningEmulator, counts: CorpusCounts): Promise<string[]> {
  const api = new Api(emu);
  const ids: string[] = [];
  for (const [scope, seed, path] of [
    ["global", 20261122, `${api.app}/commands`],
    ["guild", 4242, `${api.guild}/commands`],
  ] as const) {
    for (const args of scopeCorpus(seed, scope, counts)) {
      const body = validateSdkCommand(args, { scope });
      if (!body.ok) throw new Error(`corpus command invalid: ${JSON.stringify(body.issues)}`);
      if (body.value.type === 4) {
        for (const c of emu.control.commands()) {
          if (c["type"] === 4) emu.control.deleteCommand(String(c["id"]));
        }
      }
      const r = await api.post(path, body.value);
      if (r.status !== 201) throw new Error(`seed ${String(args["name"])}: ${r.status}`);
      ids.push(str(rec(r.body)["id"]));
    }
  }
  const guildIds = ids.slice(-(counts.chatInput + counts.user + counts.message));
  const bearer = { auth: `Bearer ${emu.userBearerToken}` };
  const targets: [string, { id: string; type: number; permission: boolean }[]][] = [
    [guildIds[0] ?? "", [{ id: emu.guildId, type: 1, permission: false }]],
    [
      guildIds[1] ?? "",
      [
        { id: "1300000000000000004", type: 1, permission: true },
        { id: (BigInt(emu.guildId) - 1n).toString(), type: 3, permission: false },
      ],
    ],
    [APP, [{ id: "1300000000000000003", type: 2, permission: true }]],
  ];
  for (const [target, permissions] of targets) {
    const r = await api.put(`${api.guild}/commands/${target}/permissions`, { permissions }, bearer);
    if (r.status !== 200) throw new Error(`seed permissions ${target}: ${r.status}`);
  }
  return ids;
}

/** The provider's environment variables for the emulator (what `import` reads). */
export function importEnv(emu: RunningEmulator): Record<string, string> {
  return {
    DISCORD_API_URL: emu.url,
    DISCORD_APPLICATION_ID: emu.applicationId,
    DISCORD_BOT_TOKEN: emu.botToken,
    DISCORD_BEARER_TOKEN: emu.userBearerToken,
  };
}
