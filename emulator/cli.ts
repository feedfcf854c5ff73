#!/usr/bin/env node
/**
 * `npm run emulator -- [--port <p>] [--host 127.0.0.1] [--allowed-host <name>]...
 *                      [--config <file>] [--state <file>] [--json] [--ready-file <file>] [--no-rate-limits]
 *                      [--control|--no-control] [--page|--no-page]
 *                      [--consent-page|--auto-consent] [--verbose]`
 *
 * Prints the URL and the default credentials (with `--json`: exactly one JSON line on
 * stdout; with `--ready-file`: the same JSON written to that file once listening, so a
 * CI script can wait for it), then serves until SIGINT or SIGTERM, and on either writes
 * the `--state` file before it exits.
 */
import fs from "node:fs";
import path from "node:path";
import util from "node:util";
import type { EmulatorOptions } from "./options";
import type { RunningEmulator } from "./server";
import {
  allowedHostEntry,
  answeredNames,
  hostAllowList,
  hostNotice,
  unspecifiedAddress,
} from "./requestGuard";
import { startEmulator } from "./server";

const USAGE = `usage: discord-commands emulator [options]   (in this repository: npm run emulator -- [options])
  --port <p>          port (default 8787; 0 = a free port)
  --host <h>          host (default 127.0.0.1; 0.0.0.0 for other machines: add --allowed-host)
  --allowed-host <n>  also answer requests naming host <n> (repeatable; .name: a domain),
                      as other machines call it (emulator, 10.0.0.5); loopback names always
  --config <file>     JSON config (applications, users, guilds, rate limits...)
  --state <file>      persist state to this JSON file
  --json              print one JSON line with the URL and credentials
  --ready-file <file> once listening, write that same JSON to <file> (for scripts to wait on)
  --no-rate-limits    turn rate limiting off
  --control           serve the control API even on a non-loopback host
  --no-control        do not serve the control API
  --page              serve the page at / even on a non-loopback host
  --no-page           do not serve the page at /
  --consent-page      GET /oauth2/authorize shows a consent page (approve or deny)
  --auto-consent      the consenting user agrees at once (the default: headless runs)
  --verbose           log every request on stderr
  --help              this text`;

/** The flags of USAGE; the `--no-` ones are flags of their own, not negations. */
const FLAGS = {
  port: { type: "string" },
  host: { type: "string" },
  "allowed-host": { type: "string" },
  config: { type: "string" },
  state: { type: "string" },
  json: { type: "boolean" },
  "ready-file": { type: "string" },
  "no-rate-limits": { type: "boolean" },
  control: { type: "boolean" },
  "no-control": { type: "boolean" },
  page: { type: "boolean" },
  "no-page": { type: "boolean" },
  "consent-page": { type: "boolean" },
  "auto-consent": { type: "boolean" },
  verbose: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const satisfies util.ParseArgsConfig["options"];
type Flag = keyof typeof FLAGS;

const isFlag = (name: string): name is Flag => Object.hasOwn(FLAGS, name);

interface CliArgs {
  options: EmulatorOptions;
  json: boolean;
  /** `--ready-file`: where to write the JSON summary once listening. */
  readyFile?: string;
  verbose: boolean;
  /** `--help`: print USAGE and exit. */
  help: boolean;
}

/**
 * Reads the command line. Tokens, not util.parseArgs' strict mode, so that an unknown
 * flag is reported by name with the usage (strict mode's message talks of positionals),
 * and so that the last of `--control` / `--no-control` wins.
 */
export function parseArgs(argv: readonly string[]): CliArgs {
  const { tokens } = util.parseArgs({
    args: [...argv],
    options: FLAGS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const args: CliArgs = { options: { port: 8787 }, json: false, verbose: false, help: false };
  for (const token of tokens) {
    if (token.kind !== "option" || !isFlag(token.name)) {
      const arg =
        token.kind === "option" ? token.rawName : token.kind === "positional" ? token.value : "--";
      throw new Error(`unknown argument ${arg}\n${USAGE}`);
    }
    const { name, rawName, value, inlineValue } = token;
    if (FLAGS[name].type === "boolean") {
      if (value !== undefined) throw new Error(`${rawName} takes no value`);
    } else if (value === undefined || (!inlineValue && value.startsWith("--"))) {
      throw new Error(`${rawName} needs a value`);
    }
    if (applyFlag(args, name, value ?? "")) return { ...args, help: true };
  }
  return args;
}

/** One flag's effect on `args`; true for `--help` (nothing after it is read). */
function applyFlag(args: CliArgs, name: Flag, text: string): boolean {
  const { options } = args;
  switch (name) {
    case "port": {
      const p = Number(text);
      if (!Number.isInteger(p) || p < 0 || p > 65535) throw new Error("--port must be 0-65535");
      options.port = p;
      break;
    }
    case "host":
      options.host = text;
      break;
    case "allowed-host":
      // Checked here, so that a wrong name is a usage error (exit 2), not a failed start.
      options.allowedHosts = [...(options.allowedHosts ?? []), allowedHostOption(text)];
      break;
    case "config":
      options.configFile = text;
      break;
    case "state":
      options.statePath = text;
      break;
    case "json":
      args.json = true;
      break;
    case "ready-file":
      args.readyFile = text;
      break;
    case "no-rate-limits":
      options.rateLimits = false;
      break;
    case "control":
    case "no-control":
      options.control = name === "control";
      break;
    case "page":
    case "no-page":
      options.page = name === "page";
      break;
    case "consent-page":
    case "auto-consent":
      options.oauthConsent = name === "consent-page" ? "page" : "automatic";
      break;
    case "verbose":
      args.verbose = true;
      break;
    case "help":
      // Asking for help is never an error.
      return true;
  }
  return false;
}

/** An `--allowed-host` value, normalized, or a usage error naming the flag. */
function allowedHostOption(text: string): string {
  try {
    return allowedHostEntry(text);
  } catch (err) {
    throw new Error(`--allowed-host: ${(err as Error).message}`, { cause: err });
  }
}

/** `discord-commands emulator [options]`: serves until SIGINT or SIGTERM. */
export async function runEmulatorCli(argv: readonly string[]): Promise<void> {
  let args: CliArgs;
  try {
    args = parseArgs(argv);
  } catch (err) {
    process.stderr.write(`emulator: ${(err as Error).message}\n`);
    process.exit(2);
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (args.verbose) {
    args.options.onRequest = (e) =>
      process.stderr.write(
        `${e.time} ${e.method} ${e.path} ${e.status} ${e.durationMs}ms${e.fault ? ` fault=${e.fault}` : ""}${e.warning ? ` warning: ${e.warning}` : ""}\n`,
      );
  }
  args.options.onInternalError = (err) =>
    process.stderr.write(
      `emulator: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
  let emu;
  try {
    emu = await startEmulator(args.options);
  } catch (err) {
    process.stderr.write(`emulator: ${(err as Error).message}\n`);
    process.exit(1);
  }
  const summary = {
    url: emu.url,
    applicationId: emu.applicationId,
    botToken: emu.botToken,
    clientId: emu.clientId,
    clientSecret: emu.clientSecret,
    guildId: emu.guildId,
    bearerToken: emu.userBearerToken,
    publicKey: emu.publicKey,
  };
  if (args.readyFile !== undefined) {
    try {
      writeAtomically(args.readyFile, `${JSON.stringify(summary)}\n`);
    } catch (err) {
      process.stderr.write(`emulator: cannot write --ready-file: ${(err as Error).message}\n`);
      await emu.close();
      process.exit(1);
    }
  }
  printStart(emu, args, summary);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    if (!args.json) process.stderr.write(`emulator: ${signal}, stopping\n`);
    // The state file is written after every change already; writing it once more here
    // makes "stopped" mean "saved", whatever the last request was.
    try {
      emu.store.persist();
    } catch (err) {
      process.stderr.write(`emulator: cannot write --state: ${(err as Error).message}\n`);
      process.exitCode = 1;
    }
    void emu.close().then(() => process.exit());
    setTimeout(() => process.exit(), 3000).unref();
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

/**
 * What the CLI prints once listening: the `--json` line or the summary for people, and
 * on stderr (so that `--json` keeps stdout to its one line) the guard's notice, if any.
 */
function printStart(emu: RunningEmulator, args: CliArgs, summary: Record<string, string>): void {
  const allowList = hostAllowList(emu.host, emu.allowedHosts);
  const notice = hostNotice(allowList);
  if (notice !== undefined) process.stderr.write(`emulator: ${notice}\n`);
  if (args.json) {
    process.stdout.write(`${JSON.stringify(summary)}\n`);
    return;
  }
  const everyAddress = unspecifiedAddress(emu.host)
    ? `, on every address (--host ${emu.host})`
    : "";
  const rateLimitsOff = emu.config.rateLimits === false || args.options.rateLimits === false;
  process.stdout.write(
    [
      `Command service emulator listening on ${emu.url} (API at ${emu.apiUrl})${everyAddress}`,
      `  application id  ${summary["applicationId"]}`,
      `  bot token       ${summary["botToken"]}`,
      `  client id       ${summary["clientId"]}`,
      `  client secret   ${summary["clientSecret"]}`,
      `  guild id        ${summary["guildId"]}`,
      `  user bearer     ${summary["bearerToken"]}  (applications.commands.permissions.update)`,
      `  public key      ${summary["publicKey"]}  (Ed25519, verifies interactions)`,
      `  Host names      ${answeredNames(allowList)}`,
      `  rate limits     ${rateLimitsOff ? "off" : "on"}`,
      `  control API     ${emu.controlEnabled ? `${emu.url}/__emulator/` : "off"}`,
      `  page            ${emu.pageUrl ?? "off"}`,
      `  OAuth2 consent  ${emu.config.oauthConsent === "page" ? "consent page (approve or deny)" : "automatic"}`,
      "Press Ctrl+C to stop.",
      "",
    ].join("\n"),
  );
}

/** Writes a whole file or nothing (a reader never sees half of it): temp file, then rename. */
function writeAtomically(file: string, text: string): void {
  const target = path.resolve(file);
  const tmp = `${target}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, target);
}

if (require.main === module) void runEmulatorCli(process.argv.slice(2));
