/**
 * Two recoveries a user meets, through the real CLI (3.259) against the emulator:
 *
 * 1. A rotated bot token. The engine hands refresh (also the one in `preview --refresh`)
 *    and destroy the provider configuration recorded in the state at the last update,
 *    not the stack config: after `pulumi config set --secret discord:botToken <new>`,
 *    a plain `preview --refresh` or `refresh` still sends the old token. Nothing inside
 *    the provider can see the new one, so the 401 says exactly what to run:
 *    `--run-program`, with which the engine runs the program and configures the provider
 *    from the current stack config. `pulumi up` also records the new configuration.
 *    Only the `preview` forms are run: in the engine (3.259, pkg/resource/deploy/
 *    deployment_executor.go), `refresh` and `preview --refresh` refresh in the same step
 *    with the state's providers, and with --run-program both run the program and refresh
 *    in the step generator with its providers.
 *
 * 2. A damaged checkpoint of the local backend: the backend writes each state file with a
 *    JSON sidecar `<stack>.json.attrs` (gocloud.dev's fileblob metadata: content type and
 *    MD5). A kill in the middle of writing it leaves 0 bytes, and every command then fails
 *    with `failed to load checkpoint: EOF` (fileblob decodes the sidecar; a missing one is
 *    fine). The engine has no command for it (`pulumi cancel` and `pulumi state repair`
 *    load the checkpoint first and fail the same way): deleting the empty sidecar is the
 *    recovery, and the state is then whole. A state file cut short (a full disk) is put
 *    back from the `.bak` the backend keeps. Both are run as docs/faq.md writes them: its
 *    `sh` blocks, word for word.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import { PulumiProgram } from "../../scripts/pulumiProgram";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import type { Run } from "../helpers/commandRuns";
import { exec } from "../helpers/commandRuns";
import {
  commandResources,
  commandsProgram,
  configureStack,
  emulator,
  diagnostics,
  expectOneCleanMessage,
  linkPackage,
  printed,
  readState,
} from "./edgeHelpers";

jest.setTimeout(300_000);

let emu: RunningEmulator;
let prog: PulumiProgram;

beforeAll(async () => {
  emu = await emulator();
  prog = new PulumiProgram("recovery", {
    "index.ts": commandsProgram(
      `new discord.GlobalCommand("ping", { name: "ping", description: "Ping the bot" });`,
    ),
  });
  linkPackage(prog);
  await prog.stack("dev");
  await configureStack(prog, emu);
  await prog.up();
});
afterAll(async () => {
  prog.cleanup();
  await emu.close();
});

/** Statuses of the list requests made since `from` (the refresh's reads). */
function listStatuses(from: number): number[] {
  return emu
    .requestLog()
    .slice(from)
    .filter((e) => e.method === "GET")
    .map((e) => e.status);
}

test("a rotated token: a refresh without --run-program fails with one message saying to use it; with it, the new token is used; up records it", async () => {
  const rotated = `rotated-bot-token-${Date.now().toString(36)}`;
  emu.control.rotateBotToken(emu.applicationId, rotated);
  await prog.ok(["config", "set", "--secret", "discord:botToken", rotated]);
  // Drift made outside the stack, for the drift check to find.
  const id = String(commandResources(readState(prog, "dev"))[0]?.id);
  emu.control.patchCommand(id, { description: "Edited by hand" });

  let from = emu.requestLog().length;
  const stale = await prog.run(["preview", "--refresh", "--non-interactive"]);
  // One message under the resource, the fix on its own line.
  const text = diagnostics(stale, "pulumi-nodejs:dynamic/discord:GlobalCommand", "ping");
  expectOneCleanMessage(stale, text);
  expect(text).toBe(
    `error: Preview failed: refreshing global command "ping" (id ${id}) failed: ` +
      `GET /applications/${emu.applicationId}/commands answered 401 (code 0): 401: Unauthorized\n` +
      "fix: the application's credentials were rejected: if the token was rotated, set a valid one with " +
      "`pulumi config set --secret discord:botToken <token>` (or discord:clientId and discord:clientSecret), " +
      "then run `pulumi refresh --run-program` (or `pulumi preview --refresh --run-program`): " +
      "without --run-program, refresh uses the credentials recorded in the state at the last `pulumi up`",
  );
  expect(listStatuses(from)).toEqual([401]);

  from = emu.requestLog().length;
  const preview = await prog.run([
    "preview",
    "--refresh",
    "--run-program",
    "--diff",
    "--non-interactive",
  ]);
  expect(preview.code).toBe(0);
  expect(listStatuses(from)).toEqual([200]);
  // The drift check ran with the new token and found the edit.
  expect(preview.stdout).toMatch(/description\s*:\s*"Edited by hand"\s*=>\s*"Ping the bot"/);

  // The edit undone by hand: what follows is about the token.
  emu.control.patchCommand(id, { description: "Ping the bot" });
  // `up` records the new configuration: a refresh without --run-program works from then on.
  await prog.up();
  from = emu.requestLog().length;
  await prog.ok(["refresh", "--yes", "--non-interactive"]);
  expect(listStatuses(from).length).toBeGreaterThan(0);
  expect(listStatuses(from).every((s) => s === 200)).toBe(true);
});

/**
 * The `sh` block of docs/faq.md after the paragraph that starts with `lead`, as written,
 * with `<project>` and `<stack>` filled in (the placeholders the FAQ names).
 */
function faqBlock(lead: string): string {
  const faq = fs.readFileSync(path.join(PROJECT_ROOT, "docs", "faq.md"), "utf8");
  const at = faq.indexOf(`\n${lead}`);
  const block = /```sh\n([\s\S]*?)```/.exec(faq.slice(at))?.[1];
  if (at < 0 || block === undefined) throw new Error(`docs/faq.md: no sh block after "${lead}"`);
  return block.replace(/<project>/g, prog.name).replace(/<stack>/g, "dev");
}

/**
 * Runs a FAQ block as a user would in the project's folder, with the stack's backend in
 * PULUMI_BACKEND_URL; its `pulumi up` confirmed as a CI job confirms it.
 */
function runFaqBlock(block: string): Promise<Run> {
  return exec("bash", ["-c", block], prog.dir, { ...prog.env, PULUMI_SKIP_CONFIRMATIONS: "true" });
}

/**
 * Every command that reads the checkpoint fails on the damaged one with `failure`
 * (`cancel` reads only the file's metadata: `withCancel`, it fails too).
 */
async function everyCommandFails(failure: string | RegExp, withCancel = true): Promise<void> {
  const cancel = withCancel ? [["cancel", "--yes", "--non-interactive"]] : [];
  for (const args of [
    ...cancel,
    ["state", "repair", "--yes", "--non-interactive"],
    ["refresh", "--yes", "--non-interactive"],
    ["up", "--yes", "--non-interactive", "--skip-preview"],
  ]) {
    const res = await prog.run(args);
    expect(res.code).not.toBe(0);
    expect(printed(res)).toMatch(failure);
  }
}

test("an empty <stack>.json.attrs, as a kill during the checkpoint write leaves it: every command fails; the FAQ's steps, word for word, recover", async () => {
  const attrs = `${prog.stateFile("dev")}.attrs`;
  expect(fs.existsSync(attrs)).toBe(true);
  // The backend truncates the sidecar, then writes it: a kill in between leaves 0 bytes.
  fs.truncateSync(attrs, 0);
  await everyCommandFails("failed to load checkpoint: EOF");
  // The state file itself is intact, and a backup of it lies beside it.
  expect(fs.statSync(prog.stateFile("dev")).size).toBeGreaterThan(0);
  expect(fs.existsSync(`${prog.stateFile("dev")}.bak`)).toBe(true);

  const recovered = await runFaqBlock(faqBlock("If every command, `pulumi cancel` included"));
  expect(recovered.code).toBe(0);
  expect(recovered.stdout).toContain(attrs);
  expect(await prog.previewSummary()).toEqual({ same: 2 });
  expect(commandResources(readState(prog, "dev"))).toHaveLength(1);
  expect(emu.control.commands().map((c) => c["name"])).toEqual(["ping"]);
});

test("a state file cut short: the FAQ's steps, word for word, put back the .bak and recover", async () => {
  // A second command: whether or not the .bak (the checkpoint before the last write)
  // records it, the recovery neither loses nor duplicates it.
  prog.write({
    "index.ts": commandsProgram(
      `new discord.GlobalCommand("ping", { name: "ping", description: "Ping the bot" });
new discord.GlobalCommand("pong", { name: "pong", description: "Pong the bot" });`,
    ),
  });
  await prog.up();
  const state = prog.stateFile("dev");
  fs.truncateSync(state, Math.floor(fs.statSync(state).size / 2));
  await everyCommandFails(
    /failed to load checkpoint|unexpected end of JSON|could not deserialize/i,
    false,
  );

  const recovered = await runFaqBlock(faqBlock("If `<stack>.json` itself is empty or cut short"));
  expect(recovered.code).toBe(0);
  expect(await prog.previewSummary()).toEqual({ same: 3 });
  expect(commandResources(readState(prog, "dev"))).toHaveLength(2);
  // Nothing duplicated: the command the restored checkpoint lacked was taken over by name.
  expect(
    emu.control
      .commands()
      .map((c) => c["name"])
      .sort(),
  ).toEqual(["ping", "pong"]);
});
