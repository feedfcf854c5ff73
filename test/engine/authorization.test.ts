/**
 * The Bearer token's whole life through the real CLI and the emulator, with no browser
 * (the test plays it by following the URL the command prints):
 * `discord-commands authorize` stores the tokens in the stack's config; `pulumi up` of
 * examples/permissions writes its overwrites with them (each list exactly as declared);
 * `up --refresh` on days 7 and 14 of the emulated clock keeps converging (the access
 * token expires every 7 days, the refresh token rotates, and `UserAuthorization` keeps
 * the new pair in the state, from which the next run takes it); `destroy --refresh`
 * empties every list and deletes the commands with the kept session; and the tokens'
 * bytes are nowhere in the output, the state, the stack config file or the emulator's log.
 *
 * Below the CLI: thirty daily deployments, and a revoked authorization (its message, and
 * the mend by authorizing again), in test/provider/userAuthorization.test.ts; a redirect
 * whose `state` was tampered with storing nothing, in test/cli/authorize.test.ts.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import type { PulumiProgram } from "../../scripts/pulumiProgram";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import type { LivePermissions } from "../examples/helpers";
import {
  emulator,
  liveCommands,
  livePermissions as permissionsOf,
  PERMISSIONS_EXAMPLE_IDS,
  permissionsExample,
} from "../examples/helpers";

jest.setTimeout(900_000);

const DAY_MS = 24 * 3600 * 1000;
const { role: ROLE, user: USER, channel: CHANNEL } = PERMISSIONS_EXAMPLE_IDS;

interface CommandRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `discord-commands authorize` in the program's folder as a user does; `browser`
 * gets the printed authorize URL and plays the browser.
 */
function authorizeCommand(
  prog: PulumiProgram,
  browser: (url: string) => Promise<void>,
): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const tsNode = path.join(PROJECT_ROOT, "node_modules", ".bin", "ts-node");
    const child = spawn(
      tsNode,
      [
        "--transpile-only",
        path.join(PROJECT_ROOT, "cli", "main.ts"),
        "authorize",
        "--no-browser",
        "--stack",
        "dev",
        "--cwd",
        prog.dir,
        "--timeout",
        "60",
      ],
      { cwd: PROJECT_ROOT, env: prog.env, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    let opened = false;
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /^\s+(http:\/\/\S+\/oauth2\/authorize\?\S+)$/m.exec(stdout)?.[1];
      if (url !== undefined && !opened) {
        opened = true;
        browser(url).catch(reject);
      }
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A browser that follows the service's redirect to the command's loopback server. */
async function followBrowser(url: string): Promise<void> {
  const res = await fetch(url);
  await res.text();
}

async function configValue(prog: PulumiProgram, key: string): Promise<string | undefined> {
  const res = await prog.run(["config", "get", key, "--stack", "dev"], { echo: false });
  return res.code === 0 ? res.stdout.trim() : undefined;
}

/** The kept session's tokens, from the state (decrypted by the CLI). */
async function keptTokens(prog: PulumiProgram): Promise<{ access: string; refresh: string }> {
  const res = await prog.run(["stack", "export", "--show-secrets", "--stack", "dev"], {
    echo: false,
  });
  const doc = JSON.parse(res.stdout) as {
    deployment: { resources?: { type: string; outputs?: Record<string, unknown> }[] };
  };
  const keeper = (doc.deployment.resources ?? []).find((r) =>
    r.type.endsWith("discord:UserAuthorization"),
  );
  const outs = keeper?.outputs ?? {};
  // A secret exported with --show-secrets: {<signature>: ..., plaintext: "<JSON text>"}.
  const plain = (v: unknown): string => {
    const text = (v as { plaintext?: unknown } | undefined)?.plaintext;
    if (typeof text !== "string") throw new Error(`not a secret output: ${typeof v}`);
    return JSON.parse(text) as string;
  };
  return { access: plain(outs["accessToken"]), refresh: plain(outs["refreshToken"]) };
}

describe("authorize, then keep permissions converging without a person", () => {
  let emu: RunningEmulator;
  let prog: PulumiProgram;
  const outputs: string[] = [];
  const seen = new Set<string>();

  const livePermissions = () => permissionsOf(emu);

  beforeAll(async () => {
    emu = await emulator();
    prog = await permissionsExample(emu, {
      "discord:botToken": emu.botToken,
      "discord:clientSecret": emu.clientSecret,
    });
  });
  afterAll(async () => {
    prog.cleanup();
    await emu.close();
  });

  test("the command stores both tokens as secrets; up writes the permissions", async () => {
    const run = await authorizeCommand(prog, followBrowser);
    outputs.push(run.stdout, run.stderr);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Stored discord:bearerToken and discord:refreshToken as secrets/);
    const bearer = await configValue(prog, "discord:bearerToken");
    const refresh = await configValue(prog, "discord:refreshToken");
    expect(bearer).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(refresh).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    seen.add(bearer ?? "");
    seen.add(refresh ?? "");
    expect(await configValue(prog, "discord:clientId")).toBe(emu.clientId);
    const yaml = fs.readFileSync(path.join(prog.dir, "Pulumi.dev.yaml"), "utf8");
    expect(yaml).toMatch(/discord:bearerToken:\s*\n\s*secure:/);

    // The example's ids are the emulator's default guild's role, user and channel.
    expect([ROLE, USER, CHANNEL]).toEqual([
      emu.config.guilds[0]?.roles[0]?.id,
      emu.userId,
      emu.config.guilds[0]?.channels[0]?.id,
    ]);
    outputs.push((await prog.up()).stdout);
    // Each list exactly as examples/permissions declares it, the @everyone and All
    // Channels constants included; the app-wide defaults too.
    const ids = Object.fromEntries(liveCommands(emu).map((c) => [c.name, c.id]));
    const byTarget = Object.fromEntries(livePermissions().map((p) => [p.id, p]));
    const sorted = (p: LivePermissions | undefined) =>
      [...(p?.permissions ?? [])].sort((x, y) => x.id.localeCompare(y.id));
    const byId = <T extends { id: string }>(list: T[]): T[] =>
      [...list].sort((x, y) => x.id.localeCompare(y.id));
    const everyone = emu.guildId;
    const allChannels = (BigInt(emu.guildId) - 1n).toString();
    expect(sorted(byTarget[ids["ban"] ?? ""])).toEqual(
      byId([
        { id: everyone, type: 1, permission: false },
        { id: ROLE, type: 1, permission: true },
        { id: USER, type: 2, permission: true },
      ]),
    );
    expect(sorted(byTarget[ids["poll"] ?? ""])).toEqual(
      byId([
        { id: allChannels, type: 3, permission: false },
        { id: CHANNEL, type: 3, permission: true },
      ]),
    );
    expect(sorted(byTarget[emu.applicationId])).toEqual([{ id: ROLE, type: 1, permission: true }]);
    expect(livePermissions().filter((p) => p.permissions.length > 0)).toHaveLength(3);
    expect(livePermissions().every((p) => p.guild_id === emu.guildId)).toBe(true);
    // A token that needs no refresh shows no change: the preview is clean.
    expect(await prog.previewSummary()).toEqual({ same: 7 });
  });

  test("up on days 7 and 14: the token is refreshed as it expires and keeps converging", async () => {
    // Through the CLI the rotated pair must survive in the state between runs: day 14's
    // refresh spends the refresh token that day 7's run kept there (the one in the stack
    // config was spent on day 7). A month of daily deployments runs below the CLI
    // (test/provider/userAuthorization.test.ts).
    const guild = emu.guildId;
    let refreshes = 0;
    for (const days of [7, 7]) {
      emu.control.advanceClock(days * DAY_MS);
      // Drift every day, so every up must write with the user's token.
      emu.control.setPermissions(emu.applicationId, guild, emu.applicationId, [
        { id: ROLE, type: 1, permission: false },
      ]);
      emu.control.resetLog();
      const up = await prog.up(["--refresh"]);
      outputs.push(up.stdout, up.stderr);
      const log = emu.control.requestLog();
      refreshes += log.filter((e) => e.route === "oauth2Token" && e.status === 200).length;
      // The only refusal: UserAuthorization's probe of an expired token (GET /oauth2/@me).
      const refused = log.filter((e) => e.status === 401 || e.status === 400);
      expect(refused.every((e) => e.route === "oauth2CurrentAuthorization")).toBe(true);
      const app = livePermissions().find((p) => p.id === emu.applicationId);
      expect(app?.permissions).toEqual([{ id: ROLE, type: 1, permission: true }]);
      const kept = await keptTokens(prog);
      seen.add(kept.access);
      seen.add(kept.refresh);
    }
    // The access token lives 7 days of the emulator's clock: refreshed on days 7 and 14.
    expect(refreshes).toBe(2);
    expect(seen.size).toBe(2 + 2 * 2);
  });

  test("no token's bytes in any output, the state, the config file or the emulator log", async () => {
    const state = fs.readFileSync(prog.stateFile("dev"), "utf8");
    const exported = (await prog.ok(["stack", "export", "--stack", "dev"])).stdout;
    const yaml = fs.readFileSync(path.join(prog.dir, "Pulumi.dev.yaml"), "utf8");
    const log = JSON.stringify(emu.control.requestLog());
    const haystacks = { outputs: outputs.join("\n"), state, exported, yaml, log };
    expect(seen.size).toBeGreaterThan(2);
    for (const token of seen) {
      expect(token.length).toBeGreaterThan(20);
      for (const [where, text] of Object.entries(haystacks)) {
        expect({ where, found: text.includes(token) }).toEqual({ where, found: false });
      }
    }
  });

  test("destroy --refresh empties the permissions with the kept session, expired or not, and deletes the commands", async () => {
    emu.control.advanceClock(8 * DAY_MS);
    const before = await keptTokens(prog);
    emu.control.resetLog();
    const down = await prog.destroy(["--refresh"]);
    outputs.push(down.stdout, down.stderr);
    expect(livePermissions().filter((p) => p.permissions.length > 0)).toEqual([]);
    expect(liveCommands(emu)).toEqual([]);
    const log = emu.control.requestLog();
    expect(log.filter((e) => e.route === "oauth2Token" && e.status === 200)).toHaveLength(1);
    expect(before.refresh.length).toBeGreaterThan(20);
  });
});
