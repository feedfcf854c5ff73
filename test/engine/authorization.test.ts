/**
 * The Bearer token's whole life through the real CLI and the emulator, with no browser
 * (the test plays it by following the URL the command prints):
 * `discord-commands authorize` stores the tokens in the stack's config; `pulumi up` of
 * examples/permissions writes with them; a wrong `state` stores nothing; `up --refresh`
 * on days 1, 7, 8 and 14 of the emulated clock keeps converging (the access token expires
 * every 7 days, the refresh token rotates, `UserAuthorization` keeps the new one in the
 * state; thirty daily deployments run below the CLI, test/provider/userAuthorization.test.ts); a
 * revoked authorization fails with advice to authorize again; and the tokens' bytes are
 * nowhere in the output, the state, the stack config file or the emulator's log.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import { DEFAULTS } from "../../emulator";
import type { PulumiProgram } from "../../scripts/pulumiProgram";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import {
  emulator,
  livePermissions as permissionsOf,
  PERMISSIONS_EXAMPLE_IDS,
  permissionsExample,
} from "../examples/helpers";

jest.setTimeout(900_000);

const DAY_MS = 24 * 3600 * 1000;
const { role: ROLE, user: USER } = PERMISSIONS_EXAMPLE_IDS;

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
  extra: readonly string[] = [],
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
        ...extra,
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

  test("a redirect whose state was tampered with stores nothing", async () => {
    const run = await authorizeCommand(prog, async (url) => {
      const u = new URL(url);
      u.searchParams.set("state", "forged");
      await followBrowser(u.toString());
    });
    outputs.push(run.stdout, run.stderr);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/state does not match/);
    expect(await configValue(prog, "discord:bearerToken")).toBeUndefined();
    expect(await configValue(prog, "discord:refreshToken")).toBeUndefined();
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

    outputs.push((await prog.up()).stdout);
    expect(livePermissions().filter((p) => p.permissions.length > 0)).toHaveLength(3);
    // A token that needs no refresh shows no change: the preview is clean.
    expect(await prog.previewSummary()).toEqual({ same: 7 });
  });

  test("up on days 1, 7, 8 and 14: the token is refreshed as it expires and keeps converging", async () => {
    // Through the CLI the rotated pair must survive in the state between runs; a month of
    // daily deployments runs below the CLI (test/provider/userAuthorization.test.ts).
    const guild = emu.guildId;
    let refreshes = 0;
    for (const days of [1, 6, 1, 6]) {
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

  test("a revoked authorization fails with advice to run authorize again", async () => {
    const kept = await keptTokens(prog);
    const res = await fetch(`${emu.apiUrl}/oauth2/token/revoke`, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Authorization: `Basic ${Buffer.from(`${emu.clientId}:${emu.clientSecret}`).toString("base64")}`,
      },
      body: new URLSearchParams({ token: kept.refresh }).toString(),
    });
    expect(res.status).toBe(200);
    emu.control.setPermissions(emu.applicationId, emu.guildId, emu.applicationId, []);
    const up = await prog.run(["up", "--yes", "--non-interactive", "--skip-preview", "--refresh"]);
    expect(up.code).not.toBe(0);
    const said = up.stdout + up.stderr;
    expect(said).toMatch(/refused the user's refresh token/);
    expect(said).toMatch(/run `discord-commands authorize` again/);
    expect(said.includes(kept.refresh) || said.includes(kept.access)).toBe(false);

    // And authorizing again mends it: the new config refresh token is adopted.
    const again = await authorizeCommand(prog, followBrowser);
    expect(again.code).toBe(0);
    await prog.up(["--refresh"]);
    const app = livePermissions().find((p) => p.id === emu.applicationId);
    expect(app?.permissions).toEqual([{ id: ROLE, type: 1, permission: true }]);
    expect(DEFAULTS.userId).toBe(USER);
  });

  test("destroy --refresh empties the permissions with the kept session, expired or not", async () => {
    emu.control.advanceClock(8 * DAY_MS);
    const before = await keptTokens(prog);
    emu.control.resetLog();
    const down = await prog.destroy(["--refresh"]);
    outputs.push(down.stdout, down.stderr);
    expect(livePermissions().filter((p) => p.permissions.length > 0)).toEqual([]);
    const log = emu.control.requestLog();
    expect(log.filter((e) => e.route === "oauth2Token" && e.status === 200)).toHaveLength(1);
    expect(before.refresh.length).toBeGreaterThan(20);
  });
});
