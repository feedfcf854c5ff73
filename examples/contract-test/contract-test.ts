/**
 * The contract test: deploys this program to a local emulator of the service with
 * `pulumi up`, starts the bot's own interaction handler (handler.ts), points the
 * emulator's interactions endpoint URL at it (verified as the service verifies it), then
 * invokes every deployed command as a user would, autocomplete included, and checks
 * the answers. A deployed command without a case below fails the test, so a new command
 * cannot ship untested. Exits 1 on any failure; destroys the stack at the end.
 *
 *   npm run contract-test     (the `pulumi` CLI on PATH, a backend: e.g.
 *                              PULUMI_BACKEND_URL=file://... PULUMI_CONFIG_PASSPHRASE=...)
 */
import { spawn } from "node:child_process";
import { startEmulator } from "pulumi-discord-commands/emulator";
import type { RunningEmulator } from "pulumi-discord-commands/emulator";
import { startInteractionHandler } from "./handler";

const STACK = process.env["CONTRACT_STACK"] ?? "contract";

/**
 * Runs `pulumi <args>` on the stack. Asynchronously: the emulator serves the engine from
 * this very process, so its event loop must keep running.
 */
function pulumi(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("pulumi", [...args, "--stack", STACK], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve(stdout)
        : reject(new Error(`pulumi ${args.join(" ")} failed:\n${stdout}`)),
    );
  });
}

type Result = Awaited<ReturnType<RunningEmulator["invoke"]>>;
interface Case {
  readonly label: string;
  run(emu: RunningEmulator, commandId: string): Promise<Result>;
  /** What the answer must hold; a problem in words, or undefined. */
  check(body: Record<string, unknown>): string | undefined;
}

const content = (b: Record<string, unknown>) =>
  String((b["data"] as { content?: unknown } | undefined)?.content);
const expectContent = (text: string) => (b: Record<string, unknown>) =>
  content(b) === text ? undefined : `expected "${text}", got "${content(b)}"`;

/** Who invokes, where: the emulator's default user in its default guild's first channel. */
function where(emu: RunningEmulator) {
  const channelId = emu.config.guilds[0]?.channels[0]?.id ?? "";
  return { guildId: emu.guildId, channelId, userId: emu.userId };
}

const CASES: Record<string, Case[]> = {
  ping: [
    {
      label: "/ping",
      run: (emu, commandId) => emu.invoke({ ...where(emu), commandId }),
      check: expectContent("pong"),
    },
  ],
  weather: [
    {
      label: '/weather city: typing "pa"',
      run: (emu, commandId) =>
        emu.autocomplete({ ...where(emu), commandId, focused: "city", value: "pa" }),
      check: (b) => {
        const choices = (b["data"] as { choices?: { value: unknown }[] }).choices ?? [];
        const values = choices.map((c) => c.value).join(",");
        return values === "paris" ? undefined : `expected the choice paris, got ${values}`;
      },
    },
    {
      label: "/weather city:paris units:metric",
      run: (emu, commandId) =>
        emu.invoke({ ...where(emu), commandId, options: { city: "paris", units: "metric" } }),
      check: expectContent("Sunny in paris"),
    },
  ],
  mod: [
    {
      label: "/mod warn",
      run: (emu, commandId) =>
        emu.invoke({
          ...where(emu),
          commandId,
          subcommand: "warn",
          options: { member: emu.userId, reason: "spam" },
        }),
      check: (b) =>
        b["type"] === 5 ? undefined : `expected a deferred answer (5), got ${String(b["type"])}`,
    },
  ],
  highFive: [
    {
      label: "High Five (on a user)",
      run: (emu, commandId) => emu.invoke({ ...where(emu), commandId, targetId: emu.userId }),
      check: expectContent("High five, <@USER>!"),
    },
  ],
};

async function main(): Promise<number> {
  const emu = await startEmulator({ rateLimits: false });
  const handler = await startInteractionHandler(emu.publicKey);
  let failures = 0;
  let deployed = false;
  try {
    await pulumi(["stack", "select", "--create", "--non-interactive"]);
    await pulumi(["config", "set", "discord:apiUrl", emu.url]);
    await pulumi(["config", "set", "discord:applicationId", emu.applicationId]);
    await pulumi(["config", "set", "--secret", "discord:botToken", emu.botToken]);
    deployed = true;
    await pulumi(["up", "--yes", "--non-interactive", "--skip-preview", "--refresh"]);
    const ids = JSON.parse(await pulumi(["stack", "output", "commandIds", "--json"])) as Record<
      string,
      string
    >;
    await emu.setInteractionsEndpoint(handler.url);

    const mod = emu.canUse({ ...where(emu), commandId: ids["mod"] ?? "" });
    console.log(`who can use /mod here? the default user: ${mod.usable} (${mod.reason})`);

    let count = 0;
    // The cases in their order, then any deployed command that has none.
    const keys = [...Object.keys(CASES), ...Object.keys(ids).filter((k) => !(k in CASES))];
    for (const key of keys) {
      const cases = CASES[key];
      const commandId = ids[key];
      if (!cases || commandId === undefined) {
        failures++;
        console.log(
          `FAIL ${key}: ${cases ? "has a case but is not deployed" : "deployed, but the contract test has no case for it"}`,
        );
        continue;
      }
      for (const c of cases) {
        count++;
        const r = await c.run(emu, commandId);
        const body = (r.response?.body ?? {}) as Record<string, unknown>;
        const problem =
          r.outcome !== "delivered" ? `${r.outcome}: ${r.reason}` : c.check(fill(body, emu.userId));
        if (problem) failures++;
        console.log(`${problem ? "FAIL" : "ok  "} ${c.label}${problem ? `: ${problem}` : ""}`);
      }
    }
    console.log(
      `${Object.keys(ids).length} commands, ${count} interactions, ${failures === 0 ? "all passed" : `${failures} failed`}`,
    );
  } finally {
    await handler.close();
    if (deployed) await pulumi(["destroy", "--yes", "--non-interactive"]);
    await emu.close();
  }
  return failures === 0 ? 0 : 1;
}

/** Answers that mention the invoking user compare with the placeholder USER. */
function fill(body: Record<string, unknown>, userId: string): Record<string, unknown> {
  return JSON.parse(JSON.stringify(body).split(userId).join("USER")) as Record<string, unknown>;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`contract test failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
