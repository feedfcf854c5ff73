/**
 * What bringing existing commands under management costs, against the emulator WITH its
 * default rate limits (not a test; prints figures):
 *  - `discord-commands import` of the live set (requests, time);
 *  - the creates of the imported declarations, 8 at a time as `pulumi up` runs them,
 *    when the live commands are equal (adopted with no write) and when each differs in
 *    its description (each create one PATCH of the description, paced by the edit bucket).
 *
 *   npm run bench:adopt     (the PATCHes wait for the edit bucket)
 */
import { startEmulator } from "../emulator";
import type { RunningEmulator } from "../emulator";
import { importCommands, parseImportArgs } from "../cli/import";
import type { ImportDeclarations } from "../cli/importDeclarations";
import { commandProvider } from "../provider/resources/commandLifecycle";
import { ProviderRuntime } from "../provider/resources/runtime";

const PER_SCOPE = 20;
const PARALLEL = 8; // `pulumi up`'s default on these 2-core machines: 4 a CPU (docs/bulk-mode.md)

async function seed(emu: RunningEmulator): Promise<void> {
  emu.control.setRateLimits(false);
  const headers = { authorization: `Bot ${emu.botToken}`, "content-type": "application/json" };
  const app = `${emu.apiUrl}/applications/${emu.applicationId}`;
  for (let i = 0; i < PER_SCOPE; i++) {
    const body = {
      name: `cmd${i}`,
      description: `Command ${i}`,
      description_localizations: { fr: `Commande ${i}` },
      options: [{ type: 3, name: "text", description: "Some text", required: true }],
    };
    for (const url of [`${app}/commands`, `${app}/guilds/${emu.guildId}/commands`]) {
      const res = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
      if (res.status !== 201) throw new Error(`seed: ${res.status} ${await res.text()}`);
    }
  }
  emu.control.setRateLimits(true);
}

/** Runs the creates of the declarations, PARALLEL at a time; a fresh provider process. */
async function createAll(
  emu: RunningEmulator,
  decls: ImportDeclarations,
  edit: (args: Record<string, unknown>) => Record<string, unknown>,
): Promise<{ ms: number; writes: number; gets: number; adopted: number }> {
  const runtime = new ProviderRuntime();
  const globalProvider = commandProvider("global", runtime);
  const guildProvider = commandProvider("guild", runtime);
  const config = {
    get: (key: string): string | undefined =>
      ({
        "discord:apiUrl": emu.url,
        "discord:applicationId": emu.applicationId,
        "discord:botToken": emu.botToken,
      })[key],
  };
  await globalProvider.configure({ config });
  await guildProvider.configure({ config });
  emu.control.resetLog();
  const queue = [...decls.commands];
  let adopted = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      for (let d = queue.shift(); d !== undefined; d = queue.shift()) {
        const p = d.resource === "GlobalCommand" ? globalProvider : guildProvider;
        const inputs = { applicationId: emu.applicationId, ...edit(d.args) };
        const { outs } = await p.create(inputs);
        if (outs["adopted"] === true) adopted++;
      }
    }),
  );
  await runtime.close();
  const log = emu.requestLog();
  return {
    ms: Date.now() - started,
    writes: log.filter((e) => e.method !== "GET").length,
    gets: log.filter((e) => e.method === "GET").length,
    adopted,
  };
}

async function main(): Promise<void> {
  const emu = await startEmulator({ port: 0 });
  try {
    await seed(emu);
    const env = {
      DISCORD_API_URL: emu.url,
      DISCORD_APPLICATION_ID: emu.applicationId,
      DISCORD_BOT_TOKEN: emu.botToken,
    };
    emu.control.resetLog();
    let t = Date.now();
    const json = await importCommands(
      parseImportArgs(["--global", "--guild", emu.guildId, "--format", "json"]),
      env,
    );
    const decls = JSON.parse(json.output) as ImportDeclarations;
    const importMs = Date.now() - t;
    const importRequests = emu.requestLog().length;
    t = Date.now();
    const equal = await createAll(emu, decls, (a) => a);
    const differ = await createAll(emu, decls, (a) => ({
      ...a,
      description: `${String(a["description"])} (edited)`,
    }));
    const row = (label: string, r: typeof equal) =>
      `${label.padEnd(34)} ${String(r.adopted).padStart(3)} adopted  ${String(r.writes).padStart(3)} writes  ${String(r.gets).padStart(2)} GETs  ${(r.ms / 1000).toFixed(1).padStart(6)} s`;
    process.stdout.write(
      [
        `live set: ${PER_SCOPE} global + ${PER_SCOPE} guild commands; rate limits on (emulator defaults)`,
        `import: ${decls.commands.length} declarations from ${importRequests} requests in ${importMs} ms`,
        row("creates, live equal (adopt as is)", equal),
        row("creates, live differs (one PATCH)", differ),
        "",
      ].join("\n"),
    );
  } finally {
    await emu.close();
  }
}

void main();
