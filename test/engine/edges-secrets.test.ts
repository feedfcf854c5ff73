/**
 * Credentials never leave the provider's memory: the bot token, the client-credentials
 * secret (and the Basic credentials built from it) and the user's Bearer token appear
 * nowhere in the state (the file, its history and backups, `pulumi stack export`), in
 * the CLI's output of any run (`--debug` included), or in any file under the stack's
 * scratch root (logs in PULUMI_HOME, the backend, the program folder).
 *
 * The emulator is configured with long, unique credentials so a byte search means
 * something. One stack covers both kinds of application credential: its first `up`
 * exchanges client credentials for a token; then the bot token is added, so the later
 * runs hand the engine both in the stack config.
 *
 * Two things of the engine's own, outside the provider's reach (verified here, CLI 3.259):
 *  - the engine keeps the stack config it hands to dynamic providers in the state, so the
 *    state holds the credentials as secrets, encrypted by the stack's secrets provider:
 *    `pulumi stack export --show-secrets` prints them (the file and a plain export hold
 *    only ciphertext), as it prints every secret of the stack config;
 *  - `--logtostderr -v=9` logs every property marshaled over gRPC, including the
 *    decrypted config sent to `Configure`: that verbose engine log is the one place a
 *    credential appears, and the test holds it to exactly those lines. The program's own
 *    secrets nested in a command (an option's description, a localization, a choice, a
 *    permissions entry's id) appear there too, in the lines of values marshaled for the
 *    dynamic-provider host (which does not accept secrets), and nowhere else.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import { DEFAULTS } from "../../emulator";
import { PulumiProgram } from "../../scripts/pulumiProgram";
import type { CliResult } from "../../scripts/pulumiProgram";
import {
  commandResources,
  commandsProgram,
  configureStack,
  emulator,
  linkPackage,
  printed,
  readState,
} from "./edgeHelpers";

jest.setTimeout(240_000);

const unique = (label: string): string =>
  `${label}-${Date.now().toString(36)}-7c1f0a9e4b6d2c8f3a5e1b7d9c0f2a4e6b8d0c2f4a6e8b0d`;
const BOT_TOKEN = unique("edge-bot-token");
const CLIENT_SECRET = unique("edge-client-secret");
const BEARER = unique("edge-user-bearer");

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await emulator({
    config: {
      applications: [
        {
          id: DEFAULTS.applicationId,
          botToken: BOT_TOKEN,
          clientSecret: CLIENT_SECRET,
        },
      ],
      users: [
        {
          id: DEFAULTS.userId,
          tokens: [
            { token: BEARER, scopes: ["applications.commands.permissions.update", "identify"] },
          ],
        },
      ],
    },
  });
});
afterAll(async () => {
  await emu.close();
});

/** Values the program marks secret, nested in a command's option and a permissions entry. */
const USER_SECRETS = {
  description: unique("nested-option-description"),
  localized: unique("nested-localization"),
  choice: unique("nested-choice").slice(0, 90),
  role: "1400000000000003131",
};

/** The byte patterns that must never be written anywhere. */
function needles(): Record<string, string> {
  const basic = Buffer.from(`${emu.clientId}:${CLIENT_SECRET}`).toString("base64");
  return {
    "bot token": BOT_TOKEN,
    "bot token (base64)": Buffer.from(BOT_TOKEN).toString("base64"),
    "client secret": CLIENT_SECRET,
    "client secret (base64)": Buffer.from(CLIENT_SECRET).toString("base64"),
    "Basic credentials": basic,
    "Bearer token": BEARER,
    "Bearer token (base64)": Buffer.from(BEARER).toString("base64"),
    ...Object.fromEntries(Object.entries(USER_SECRETS).map(([k, v]) => [`nested secret ${k}`, v])),
  };
}

/** Every file under `dir`, recursively (symlinks not followed). */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

/** Where each needle was found, e.g. `["bot token in backend/.pulumi/stacks/x/dev.json"]`. */
function leaks(where: string, bytes: Buffer): string[] {
  return Object.entries(needles())
    .filter(([, needle]) => bytes.includes(Buffer.from(needle)))
    .map(([what]) => `${what} in ${where}`);
}

const program = commandsProgram(`
const ping = new discord.GlobalCommand("ping", { name: "ping", description: "Ping the bot" });
const report = new discord.GuildCommand("report", {
  guildId: "${DEFAULTS.guildId}",
  name: "report",
  description: "Report a message",
});
new discord.GuildCommandPermissions("report-permissions", {
  guildId: "${DEFAULTS.guildId}",
  commandId: report.commandId,
  permissions: [{ id: "${DEFAULTS.managerRoleId}", type: discord.PermissionType.ROLE, permission: true }],
});
const poll = new discord.GuildCommand("poll", {
  guildId: "${DEFAULTS.guildId}",
  name: "poll",
  description: "Run a poll",
  options: [
    {
      type: discord.OptionType.STRING,
      name: "topic",
      description: pulumi.secret("${USER_SECRETS.description}"),
      descriptionLocalizations: { de: pulumi.secret("${USER_SECRETS.localized}") },
      choices: [{ name: pulumi.secret("${USER_SECRETS.choice}"), value: "a" }, { name: "plain", value: "b" }],
    },
  ],
});
new discord.GuildCommandPermissions("poll-permissions", {
  guildId: "${DEFAULTS.guildId}",
  commandId: poll.commandId,
  permissions: [{ id: pulumi.secret("${USER_SECRETS.role}"), type: discord.PermissionType.ROLE, permission: true }],
});
export const pingId = ping.commandId;
`);

// One stack for both kinds of application credential: the first `up` runs on client
// credentials alone (the provider exchanges them for a token), then the bot token is
// added (it wins over client credentials: test/client/auth.test.ts), so every later run
// hands the engine both secrets in its config, and the bot token does the requests of
// the second `up` and the `destroy`.
describe("a stack using client credentials, then a bot token too", () => {
  test("leaves no credential in state, CLI output or logs", async () => {
    const stack = "dev";
    // The CLI's automatic log as users have it: its files are searched too.
    const prog = new PulumiProgram(
      "edges-secrets",
      { "index.ts": program },
      { automaticLogs: true },
    );
    const runs: [string, CliResult][] = [];
    const run = async (args: string[], echo = true): Promise<CliResult> => {
      const res = await prog.run(args, { echo });
      runs.push([`pulumi ${args.join(" ")}`, res]);
      if (res.code !== 0) throw new Error(`pulumi ${args.join(" ")} exited ${res.code}`);
      return res;
    };
    try {
      linkPackage(prog);
      await prog.stack(stack);
      await configureStack(prog, emu, {
        clientId: emu.clientId,
        clientSecret: CLIENT_SECRET,
        bearerToken: BEARER,
      });
      emu.control.resetLog();
      await run(["up", "--yes", "--non-interactive", "--skip-preview", "--debug"]);
      // The credentials were used: commands written on an exchanged token, permissions PUT
      // with the Bearer token.
      expect(emu.control.commands()).toHaveLength(3);
      expect(emu.counters().byRoute["editCommandPermissions"]).toBe(2);
      expect(JSON.stringify(emu.control.commands())).toContain(USER_SECRETS.description);
      const exchanges = emu.counters().byRoute["oauth2Token"] ?? 0;
      expect(exchanges).toBeGreaterThan(0);

      await configureStack(prog, emu, { botToken: BOT_TOKEN });
      // Its refresh reads with the last deployment's provider config: client credentials.
      await run(["preview", "--non-interactive", "--refresh", "--diff"]);
      const exchanged = emu.counters().byRoute["oauth2Token"];
      await run(
        ["up", "--yes", "--non-interactive", "--skip-preview", "--logtostderr", "-v=9"],
        false,
      );
      const exported = await run(["stack", "export"]);
      expect(JSON.parse(exported.stdout)).toHaveProperty("deployment");
      expect(commandResources(readState(prog, stack))).toHaveLength(5);
      await run(["destroy", "--yes", "--non-interactive", "--debug"]);
      expect(emu.control.commands()).toHaveLength(0);
      // The `up` and the `destroy` ran on the bot token: no exchange more.
      expect(emu.counters().byRoute["oauth2Token"]).toBe(exchanged);

      const found: string[] = [];
      const verbose = runs.find(([cmd]) => cmd.includes("-v=9"));
      const engineConfigureLog =
        /"msg":"Marshaling property for RPC\[Provider\[0x[0-9a-f]+\]\.Configure\(\)\.inputs\]: value=\{[^}]*\}"/;
      // Pulumi's own debug logs print the values the engine and the SDK exchange, the
      // program's secrets included: the engine's -v=9 log (values marshaled for the
      // dynamic-provider host, which does not accept secrets) and @pulumi/pulumi's
      // `--debug` lines ("RegisterResource RPC finished: ... resp: <outputs>"). The
      // credentials, which are never resource values, must not be there either.
      const ours = (hits: string[], cmd: string): string[] =>
        /--debug|-v=9/.test(cmd) ? hits.filter((h) => !h.startsWith("nested")) : hits;
      const verboseLines = printed(verbose?.[1] ?? { code: 0, stdout: "", stderr: "" }).split("\n");
      for (const line of verboseLines) {
        if (!engineConfigureLog.test(line))
          found.push(...ours(leaks("a -v=9 log line", Buffer.from(line)), "-v=9"));
      }
      // Both kinds of credential did reach the engine: its Configure line holds them.
      const configure = verboseLines.filter((l) => engineConfigureLog.test(l)).join("\n");
      expect(configure).toContain(BOT_TOKEN);
      expect(configure).toContain(CLIENT_SECRET);
      for (const [cmd, res] of runs.filter((r) => r !== verbose))
        found.push(...ours(leaks(`the output of ${cmd}`, Buffer.from(printed(res))), cmd));
      const files = filesUnder(prog.root);
      expect(files.some((f) => f.endsWith(`${stack}.json`))).toBe(true);
      expect(files.some((f) => f.includes(`${path.sep}logs${path.sep}pulumi-`))).toBe(true);
      for (const file of files) {
        const hits = leaks(path.relative(prog.root, file), fs.readFileSync(file));
        // The program's source holds its own secrets, of course.
        found.push(...(prog.sourceFiles("index.ts").includes(file) ? ours(hits, "--debug") : hits));
      }
      expect(found).toEqual([]);
    } finally {
      prog.cleanup();
      for (const entry of emu.control.commands()) emu.control.deleteCommand(String(entry["id"]));
    }
  });
});
