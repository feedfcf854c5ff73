/**
 * `npm start`: the demo. Starts the embedded emulator (state kept in `.work/demo/`),
 * selects or creates the `demo` stack on a local file backend in `.work/demo/`, runs
 * `pulumi up` through the real CLI on `examples/demo/index.ts`, and prints the commands
 * the emulator then holds. A second run shows no change and makes no write.
 * No token and no network needed: the emulator's fixed development credentials are used.
 * It prints the address of the emulator's page; `npm start -- --keep` keeps the emulator
 * (and the page) running after the deployment, until Ctrl+C.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator } from "../emulator";
import type { RunningEmulator } from "../emulator";
import { PROJECT_ROOT, requireToolchain, SetupError, toolchainPath } from "./toolchain";

const WORK = path.join(PROJECT_ROOT, ".work", "demo");
const STACK = "demo";
const KEEP = process.argv.slice(2).includes("--keep");

/** Runs the CLI without blocking this process, which serves the emulator meanwhile. */
function pulumi(
  env: NodeJS.ProcessEnv,
  args: string[],
  options: { quiet?: boolean } = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn("pulumi", args, {
      cwd: PROJECT_ROOT,
      env,
      stdio: options.quiet ? ["ignore", "pipe", "pipe"] : "inherit",
    });
    let output = "";
    child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      if (options.quiet && code !== 0) process.stderr.write(output);
      resolve(code ?? 1);
    });
  });
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  return rows
    .map((r, n) => {
      const line = r.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join("  ");
      return n === 0 ? `${line}\n${widths.map((w) => "-".repeat(w)).join("  ")}` : line;
    })
    .join("\n");
}

const TYPES: Record<number, string> = { 1: "slash", 2: "user", 3: "message", 4: "entry point" };

function describeLive(emu: RunningEmulator): string {
  const { commands, permissions } = emu.control.state();
  const rows = [["scope", "type", "name", "id", "options", "locales", "nsfw", "permissions"]];
  for (const c of commands) {
    const options = Array.isArray(c["options"]) ? c["options"].length : 0;
    const locales = new Set(Object.keys((c["name_localizations"] as object | null) ?? {}));
    for (const k of Object.keys((c["description_localizations"] as object | null) ?? {}))
      locales.add(k);
    const perms = permissions.find((p) => p["id"] === c["id"]);
    const permCount = Array.isArray(perms?.["permissions"]) ? perms["permissions"].length : 0;
    rows.push([
      typeof c["guild_id"] === "string" ? `guild ${c["guild_id"]}` : "global",
      TYPES[Number(c["type"] ?? 1)] ?? String(c["type"]),
      String(c["name"]),
      String(c["id"]),
      String(options),
      [...locales].sort().join(",") || "-",
      c["nsfw"] === true ? "yes" : "no",
      permCount > 0 ? `${permCount} overwrites` : "-",
    ]);
  }
  return table(rows);
}

async function main(): Promise<void> {
  const tc = requireToolchain();
  fs.mkdirSync(path.join(WORK, "backend"), { recursive: true });
  fs.mkdirSync(path.join(WORK, "pulumi-home"), { recursive: true });
  // Rate limits off: the demo shows the result, not the waiting (the bench measures that).
  const emu = await startEmulator({
    port: 0,
    statePath: path.join(WORK, "emulator-state.json"),
    rateLimits: false,
  });
  try {
    console.log(
      `Emulator of the command service at ${emu.url} (state: .work/demo/emulator-state.json)`,
    );
    console.log(`Emulator page (commands, members, requests): ${emu.pageUrl ?? "off"}`);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: toolchainPath(tc),
      PULUMI_BACKEND_URL: `file://${path.join(WORK, "backend")}`,
      PULUMI_HOME: path.join(WORK, "pulumi-home"),
      PULUMI_CONFIG_PASSPHRASE: "demo",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    };
    if (
      (await pulumi(env, ["stack", "select", STACK, "--create", "--non-interactive"], {
        quiet: true,
      })) !== 0
    ) {
      throw new SetupError("could not select or create the demo stack");
    }
    const guild = emu.config.guilds[0];
    const settings: [string, string, boolean][] = [
      ["discord:apiUrl", emu.url, false],
      ["discord:applicationId", emu.applicationId, false],
      ["discord:botToken", emu.botToken, true],
      ["discord:bearerToken", emu.userBearerToken, true],
      ["guildId", emu.guildId, false],
      ["moderatorRoleId", guild?.roles[0]?.id ?? emu.guildId, false],
      ["ownerUserId", emu.userId, false],
      ["announcementsChannelId", guild?.channels[0]?.id ?? emu.guildId, false],
    ];
    for (const [key, value, secret] of settings) {
      const args = ["config", "set", "--stack", STACK, key, value, ...(secret ? ["--secret"] : [])];
      if ((await pulumi(env, args, { quiet: true })) !== 0)
        throw new SetupError(`could not set ${key}`);
    }
    emu.control.resetLog();
    // The project refreshes before every preview and up (`options.refresh` in Pulumi.yaml),
    // so a command changed in `.work/demo/emulator-state.json` between runs shows as drift.
    // `--run-program`: the refresh reads with this run's config (the emulator's port
    // changes from run to run), not the config recorded at the last deployment.
    const code = await pulumi(env, [
      "up",
      "--yes",
      "--non-interactive",
      "--run-program",
      "--stack",
      STACK,
    ]);
    if (code !== 0) {
      process.exitCode = code;
      return;
    }
    const writes = emu.requestLog().filter((r) => r.method !== "GET").length;
    console.log(`\nCommands the emulator holds now:\n\n${describeLive(emu)}\n`);
    console.log(
      `Requests this run: ${emu.requestLog().length} (${writes} writes). ` +
        "Run `npm start` again: no change, no write.",
    );
    if (KEEP) await keepServing(emu);
  } finally {
    await emu.close();
  }
}

/** `--keep`: the emulator and its page stay up until Ctrl+C (or SIGTERM). */
function keepServing(emu: RunningEmulator): Promise<void> {
  console.log(
    `\nThe emulator keeps running: open ${emu.pageUrl ?? emu.url} in a browser. Press Ctrl+C to stop.`,
  );
  return new Promise((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
}

main().catch((err: unknown) => {
  console.error(`demo failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
