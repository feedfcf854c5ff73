/**
 * `npm run bench -- --chaos`: the window of a bulk overwrite under injected faults (not a
 * test; prints figures). No CLI: the providers run in this process, on one provider runtime,
 * against the emulator's realistic rate limits, as an engine would call them.
 *
 * The window is the time in which another writer's change to the scope can be lost: from
 * the list GET a PUT's body was built from to that PUT's answer. Each scenario runs one
 * deployment in bulk mode: 50 new guild commands, 8 at a time (the engine's default slots
 * on 2 cores), and a `ScopeCommands` set of 30 global commands created then edited twice,
 * while another client creates a command every 250 ms, in the guild and the global scope
 * in turn (the create buckets are opened to 50 per s for it; every other bucket is as the
 * service's). Faults hit a `fraction` of the scopes' list GETs and bulk PUTs: 500s, 429s
 * (Retry-After 0.5 s), and dropped connections (half before the service applies the
 * request, half after). Each scenario runs `--rounds` times (seeds `--seed`, +1, ...).
 *
 * Per scenario: the PUTs that may have taken effect and their windows as the service saw
 * them (from the arrival of the last list GET of that scope before the PUT to the PUT's
 * answer: the emulator's request log; the provider reads a list nowhere else while a
 * deployment writes, its read cache being longer than the run), their median, p95 and
 * max; the same from the provider's timing log (every PUT sent, `DISCORD_TIMING_LOG`,
 * from the GET's sending to the PUT's answer); the tries after the first; operations that
 * failed; and how many of the other client's commands are gone.
 *
 *   npm run bench -- --chaos [--fraction 0.25] [--seed 7] [--rounds 3]   (about 4 minutes)
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { RateLimitConfig, startEmulator } from "../emulator";
import type { FaultRuleInput, RequestLogEntry, RunningEmulator } from "../emulator";
import { commandProvider } from "../provider/resources/commandLifecycle";
import { ProviderRuntime } from "../provider/resources/runtime";
import { commandKey, scopeCommandsProvider } from "../provider/resources/scopeCommandsLifecycle";
import type { TimingLine } from "../provider/resources/timingLog";

const SINGLES = 50;
const SET = 30;
const SLOTS = 8;
const OTHER_EVERY_MS = 250;

function arg(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  const value = at < 0 ? undefined : Number(process.argv[at + 1]);
  return value === undefined || !Number.isFinite(value) ? fallback : value;
}

const LISTS_AND_PUTS: FaultRuleInput["route"] = [
  "listGuildCommands",
  "bulkOverwriteGuildCommands",
  "listGlobalCommands",
  "bulkOverwriteGlobalCommands",
];

type Action = NonNullable<FaultRuleInput["action"]>;

function rules(fraction: number, actions: readonly Action[]): FaultRuleInput[] {
  const out: FaultRuleInput[] = [];
  for (const action of actions) {
    const each = fraction / actions.length;
    if (action.type === "drop") {
      out.push({ route: LISTS_AND_PUTS, action, fraction: each / 2, phase: "before" });
      out.push({ route: LISTS_AND_PUTS, action, fraction: each / 2, phase: "after" });
    } else {
      out.push({ route: LISTS_AND_PUTS, action, fraction: each });
    }
  }
  return out;
}

const STATUS: Action = { type: "status", status: 500 };
const LIMITED: Action = { type: "rate_limit", retryAfterMs: 500 };
const DROP: Action = { type: "drop" };

function scenarios(fraction: number): { name: string; actions: Action[] }[] {
  return [
    { name: "no faults", actions: [] },
    { name: "5xx", actions: [STATUS] },
    { name: "429", actions: [LIMITED] },
    { name: "drops", actions: [DROP] },
    { name: "all three", actions: [STATUS, LIMITED, DROP] },
  ].map((s) => ({ ...s, name: s.actions.length === 0 ? s.name : `${s.name} (${fraction})` }));
}

/** The other client: a command every OTHER_EVERY_MS in the guild and the global scope. */
function otherWriter(emu: RunningEmulator): { stop: () => Promise<string[]> } {
  const ids: string[] = [];
  let stop = false;
  const headers = { authorization: `Bot ${emu.botToken}`, "content-type": "application/json" };
  const app = `${emu.apiUrl}/applications/${emu.applicationId}`;
  const loop = (async () => {
    for (let n = 0; !stop; n++) {
      await sleep(OTHER_EVERY_MS);
      // USER, MESSAGE, then slash: room for ~45 in each scope next to the deployment's.
      const type = [2, 3, 1][n % 3] ?? 1;
      const name = type === 1 ? `theirs-${n}` : `Theirs ${n}`;
      const body = type === 1 ? { name, description: "not ours" } : { type, name };
      const url = n % 2 === 0 ? `${app}/guilds/${emu.guildId}/commands` : `${app}/commands`;
      const res = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
      const made = (await res.json()) as { id?: unknown };
      if (res.status < 300 && typeof made.id === "string") ids.push(made.id);
    }
  })();
  return {
    stop: async () => {
      stop = true;
      await loop;
      return ids;
    },
  };
}

/** Windows as the service saw them: each PUT that may have applied, from its list GET. */
function serviceWindows(log: readonly RequestLogEntry[]): number[] {
  const lastList = new Map<string, RequestLogEntry>();
  const windows: number[] = [];
  for (const e of log) {
    const scope = e.route?.includes("Guild") === true ? "guild" : "global";
    if (e.route === "listGuildCommands" || e.route === "listGlobalCommands") {
      if (e.status === 200) lastList.set(scope, e);
      continue;
    }
    if (e.route !== "bulkOverwriteGuildCommands" && e.route !== "bulkOverwriteGlobalCommands") {
      continue;
    }
    const applied = e.status === 200 || e.fault === "drop";
    const list = lastList.get(scope);
    if (!applied || list === undefined) continue;
    windows.push(Date.parse(e.time) + e.durationMs - Date.parse(list.time));
  }
  return windows;
}

function figures(windows: readonly number[]): string {
  if (windows.length === 0) return "none";
  const sorted = [...windows].sort((a, b) => a - b);
  const at = (q: number): number =>
    sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
  const ms = (v: number): string => `${Math.round(v)}`;
  return `${sorted.length}: median ${ms(at(0.5))}, p95 ${ms(at(0.95))}, max ${ms(at(1))} ms`;
}

async function deploy(rt: ProviderRuntime, emu: RunningEmulator): Promise<number> {
  const guild = commandProvider("guild", rt);
  const set = scopeCommandsProvider(rt);
  let failed = 0;
  const tally = async (op: Promise<unknown>): Promise<void> => {
    try {
      await op;
    } catch {
      failed++;
    }
  };
  const names = Array.from({ length: SINGLES }, (_, i) => `mine${i}`);
  let next = 0;
  const slot = async (): Promise<void> => {
    while (next < names.length) {
      const name = names[next++] ?? "";
      const inputs = { applicationId: emu.applicationId, guildId: emu.guildId, name };
      await tally(guild.create({ ...inputs, description: `The ${name}` }));
    }
  };
  const declared = (round: number) => ({
    applicationId: emu.applicationId,
    commands: Object.fromEntries(
      Array.from({ length: SET }, (_, i) => [
        commandKey(1, `set${i}`),
        { name: `set${i}`, description: `Set ${i}, round ${round}` },
      ]),
    ),
  });
  const setRounds = async (): Promise<void> => {
    try {
      let outs = (await set.create(declared(0))).outs;
      for (const round of [1, 2]) {
        outs = (await set.update(`${emu.applicationId}/global`, outs, declared(round))).outs;
      }
    } catch {
      failed++;
    }
  };
  await Promise.all([...Array.from({ length: SLOTS - 1 }, slot), setRounds()]);
  return failed;
}

/** What one round of a scenario saw. */
interface Round {
  tookMs: number;
  requests: number;
  faults: number;
  putsSent: number;
  laterTries: number;
  failed: number;
  warnings: number;
  theirs: number;
  lost: number;
  serviceWindows: number[];
  providerWindows: number[];
}

async function round(
  emu: RunningEmulator,
  timingLog: string,
  faults: FaultRuleInput[],
  seed: number,
): Promise<Round> {
  emu.control.reset();
  let warnings = 0;
  const rt = new ProviderRuntime({
    engineAddress: null,
    env: { DISCORD_TIMING_LOG: timingLog },
    warn: async () => void warnings++,
  });
  const config = {
    get: (key: string): string | undefined =>
      ({
        "discord:apiUrl": emu.url,
        "discord:applicationId": emu.applicationId,
        "discord:botToken": emu.botToken,
        "discord:writeMode": "bulk",
        "discord:readCacheMs": "600000",
      })[key],
  };
  rt.configure(config);
  emu.control.setFaults({ seed, rules: faults });
  const other = otherWriter(emu);
  const started = Date.now();
  const failed = await deploy(rt, emu);
  const tookMs = Date.now() - started;
  const theirs = await other.stop();
  emu.control.clearFaults();
  await rt.close();

  const live = new Set(emu.control.commands().map((c) => String(c["id"])));
  const log = emu.requestLog();
  const lines = fs.existsSync(timingLog)
    ? fs
        .readFileSync(timingLog, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as TimingLine)
    : [];
  const puts = lines.flatMap((l) => (l.type === "overwrite" ? [l] : []));
  return {
    tookMs,
    requests: log.length,
    faults: log.filter((e) => e.fault !== undefined).length,
    putsSent: puts.length,
    laterTries: puts.filter((l) => l.attempt > 1).length,
    failed,
    warnings,
    theirs: theirs.length,
    lost: theirs.filter((id) => !live.has(id)).length,
    serviceWindows: serviceWindows(log),
    providerWindows: puts.map((l) => l.windowMs),
  };
}

async function scenario(
  emu: RunningEmulator,
  dir: string,
  name: string,
  faults: FaultRuleInput[],
  seeds: readonly number[],
): Promise<void> {
  const rounds: Round[] = [];
  for (const seed of seeds) {
    rounds.push(
      await round(emu, path.join(dir, `${name.replace(/\W+/g, "-")}-${seed}.jsonl`), faults, seed),
    );
  }
  const sum = (f: (r: Round) => number): number => rounds.reduce((n, r) => n + f(r), 0);
  const seconds = rounds.map((r) => (r.tookMs / 1000).toFixed(1)).join("/");
  process.stdout.write(
    `[chaos] ${name}: ${seconds} s, ${sum((r) => r.requests)} requests, ${sum((r) => r.faults)} faults, ` +
      `${sum((r) => r.putsSent)} PUTs sent (${sum((r) => r.laterTries)} on a later try), ` +
      `${sum((r) => r.failed)} operations failed, ${sum((r) => r.warnings)} warnings; ` +
      `the other client's commands gone: ${sum((r) => r.lost)} of ${sum((r) => r.theirs)}\n` +
      `[chaos]   windows, service side: ${figures(rounds.flatMap((r) => r.serviceWindows))}\n` +
      `[chaos]   windows, provider side: ${figures(rounds.flatMap((r) => r.providerWindows))}\n`,
  );
}

export async function main(): Promise<void> {
  const fraction = arg("--fraction", 0.25);
  const seed = arg("--seed", 7);
  const seeds = Array.from({ length: Math.max(1, arg("--rounds", 3)) }, (_, i) => seed + i);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-chaos-"));
  // The other client's creates must not wait: its create buckets are opened.
  const opened = { limit: 50, windowMs: 1000 };
  const limits = RateLimitConfig.parse({});
  const emu = await startEmulator({
    port: 0,
    rateLimits: {
      ...limits,
      routes: {
        ...limits.routes,
        "guild-commands-create": opened,
        "global-commands-create": opened,
      },
    },
  });
  try {
    process.stdout.write(
      `[chaos] ${SINGLES} guild creates (${SLOTS} slots) and a set of ${SET} global commands ` +
        `(created, then edited twice), bulk mode, realistic rate limits; another client ` +
        `creates a command every ${OTHER_EVERY_MS} ms; faults on a ${fraction} fraction of ` +
        `list GETs and bulk PUTs (seeds ${seeds.join(", ")}, summed)\n`,
    );
    for (const s of scenarios(fraction)) {
      await scenario(emu, dir, s.name, rules(fraction, s.actions), seeds);
    }
  } finally {
    await emu.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
