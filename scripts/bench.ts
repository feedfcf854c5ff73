/**
 * What a deployment costs through the real CLI against the emulator WITH its default
 * rate limits (not a test; prints figures):
 *  - `pulumi up` of 100 new commands, 50 global + 50 in a guild (two create buckets):
 *    writes, 429s, wall time, and the ratio to `up` of 100 no-op dynamic resources;
 *  - a no-op `up` and a `preview` right after (writes, requests);
 *  - `preview --refresh` of those 100 commands (list GETs);
 *  - the state file's size and the `__provider` bytes per resource.
 *
 *   npm run bench          (a few minutes: creates are limited to 5 per 20 s per scope)
 *
 * Needs `npm run setup` first (the engine runs dist/).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator } from "../emulator";
import type { RunningEmulator } from "../emulator";
import { PulumiProgram } from "./pulumiProgram";
import { PROJECT_ROOT } from "./toolchain";

const PER_SCOPE = 50;
/** Every CLI run is bounded; the whole bench is a few of them. */
const RUN_LIMIT_MS = 15 * 60_000;

const commandsProgram = (guildId: string): string => `
import * as discord from "pulumi-discord-commands";
for (let i = 0; i < ${PER_SCOPE}; i++) {
  new discord.GlobalCommand(\`global-\${i}\`, { name: \`global\${i}\`, description: \`Global command \${i}\` });
  new discord.GuildCommand(\`guild-\${i}\`, { guildId: "${guildId}", name: \`guild\${i}\`, description: \`Guild command \${i}\` });
}
`;

const noopProgram = `
import * as pulumi from "@pulumi/pulumi";
const provider: pulumi.dynamic.ResourceProvider = {
  async create() {
    return { id: "noop", outs: {} };
  },
};
for (let i = 0; i < ${PER_SCOPE * 2}; i++) new pulumi.dynamic.Resource(provider, \`noop-\${i}\`, {}, undefined, "Noop");
`;

function log(line: string): void {
  process.stdout.write(`[bench] ${line}\n`);
}

async function timed(
  prog: PulumiProgram,
  label: string,
  args: string[],
): Promise<{ seconds: number; stdout: string }> {
  log(`${label}: pulumi ${args.join(" ")} ...`);
  const t0 = performance.now();
  const res = await prog.run(args, { echo: false, timeoutMs: RUN_LIMIT_MS });
  const seconds = (performance.now() - t0) / 1000;
  if (res.code !== 0) {
    throw new Error(`${label} failed (exit ${res.code}):\n${res.stdout}\n${res.stderr}`);
  }
  log(`${label}: ${seconds.toFixed(1)} s`);
  return { seconds, stdout: res.stdout };
}

function requests(emu: RunningEmulator): string {
  const c = emu.counters();
  const byRoute = Object.entries(c.byRoute)
    .map(([r, n]) => `${r} ${n}`)
    .join(", ");
  return `requests ${c.total}, writes ${c.writes}, 429s ${c.byStatus["429"] ?? 0} (${byRoute || "none"})`;
}

function linkPackage(prog: PulumiProgram): void {
  const link = path.join(prog.dir, "node_modules", "pulumi-discord-commands");
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.symlinkSync(PROJECT_ROOT, link, "dir");
}

interface StateResource {
  type: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

async function main(): Promise<void> {
  const emu = await startEmulator({ port: 0, rateLimits: true });
  const up = ["up", "--yes", "--non-interactive", "--skip-preview"];
  const noop = new PulumiProgram("bench-noop", { "index.ts": noopProgram });
  const prog = new PulumiProgram("bench-commands", { "index.ts": commandsProgram(emu.guildId) });
  try {
    log(
      `emulator ${emu.url}, default rate limits on; ${PER_SCOPE} global + ${PER_SCOPE} guild commands`,
    );
    await noop.stack("bench");
    const base = await timed(noop, "baseline: up of 100 no-op dynamic resources", up);

    linkPackage(prog);
    await prog.stack("bench");
    await prog.run(["config", "set", "discord:apiUrl", emu.url], { echo: false });
    await prog.run(["config", "set", "discord:applicationId", emu.applicationId], { echo: false });
    await prog.run(["config", "set", "--secret", "discord:botToken", emu.botToken], {
      echo: false,
    });

    emu.control.resetLog();
    const created = await timed(prog, "up of 100 new commands", up);
    const createdFigures = requests(emu);
    const live = emu.control.commands().length;

    emu.control.resetLog();
    const noChange = await timed(prog, "no-op up", up);
    const noChangeFigures = requests(emu);

    emu.control.resetLog();
    const preview = await timed(prog, "preview", ["preview", "--non-interactive"]);
    const previewFigures = requests(emu);

    emu.control.resetLog();
    const refresh = await timed(prog, "preview --refresh", [
      "preview",
      "--refresh",
      "--non-interactive",
    ]);
    const refreshFigures = requests(emu);

    const stateBytes = fs.statSync(prog.stateFile("bench")).size;
    const state = JSON.parse(fs.readFileSync(prog.stateFile("bench"), "utf8")) as {
      checkpoint: { latest?: { resources?: StateResource[] } };
    };
    const ours = (state.checkpoint.latest?.resources ?? []).filter((r) =>
      r.type.startsWith("pulumi-nodejs:dynamic/discord:"),
    );
    const providerBytes = ours.map(
      (r) =>
        String(r.inputs?.["__provider"] ?? "").length +
        String(r.outputs?.["__provider"] ?? "").length,
    );
    const perResource = providerBytes.reduce((a, b) => a + b, 0) / Math.max(1, ours.length);
    const inputsOnly = ours.map((r) => String(r.inputs?.["__provider"] ?? "").length);
    const noopStateBytes = fs.statSync(noop.stateFile("bench")).size;

    const lines = [
      "",
      "results (emulator with its default rate limits):",
      `  up, 100 new commands (50 global + 50 guild): ${created.seconds.toFixed(1)} s; ${createdFigures}; live commands ${live}`,
      `  up, 100 no-op dynamic resources:             ${base.seconds.toFixed(1)} s; ratio ${(created.seconds / base.seconds).toFixed(1)}x`,
      `  no-op up right after:                        ${noChange.seconds.toFixed(1)} s; ${noChangeFigures}`,
      `  preview right after:                         ${preview.seconds.toFixed(1)} s; ${previewFigures}`,
      `  preview --refresh (100 commands, 2 scopes):  ${refresh.seconds.toFixed(1)} s; ${refreshFigures}`,
      `  state file: ${stateBytes} bytes for ${ours.length} commands (${(stateBytes / Math.max(1, ours.length)).toFixed(0)} bytes per command); 100 no-op resources: ${noopStateBytes} bytes`,
      `  __provider: ${perResource.toFixed(0)} bytes per resource (inputs + outputs; ${Math.min(...inputsOnly)}-${Math.max(...inputsOnly)} each)`,
      "",
    ];
    process.stdout.write(lines.join("\n"));
  } finally {
    noop.cleanup();
    prog.cleanup();
    await emu.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
