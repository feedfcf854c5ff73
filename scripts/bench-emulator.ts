/**
 * Throughput of the emulator on loopback, rate limits off (not a test):
 * - list GETs of a scope holding 100 commands;
 * - creates (new CHAT_INPUT commands spread over guilds, so the per-scope limits hold).
 * Prints requests/s and p50/p99 latency. Bounded in count and time.
 *
 *   npm run bench:emulator [-- --requests 3000 --connections 4 --seconds 10]
 */
import util from "node:util";
import { Pool } from "undici";
import { startEmulator } from "../emulator";

const { values: flags } = util.parseArgs({
  options: {
    requests: { type: "string", default: "3000" },
    connections: { type: "string", default: "4" },
    seconds: { type: "string", default: "10" },
  },
});

function positive(name: keyof typeof flags): number {
  const v = Number(flags[name]);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} must be a positive number`);
  return v;
}

const REQUESTS = positive("requests");
const CONNECTIONS = positive("connections");
const SECONDS = positive("seconds");
const GUILDS = Math.ceil(REQUESTS / 100);

interface Result {
  name: string;
  count: number;
  seconds: number;
  latencies: number[];
  errors: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function run(
  name: string,
  total: number,
  make: (i: number) => Promise<number>,
): Promise<Result> {
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const deadline = Date.now() + SECONDS * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS * 2 }, async () => {
      while (next < total && Date.now() < deadline) {
        const i = next++;
        const start = performance.now();
        const status = await make(i);
        latencies.push(performance.now() - start);
        if (status >= 300) errors++;
      }
    }),
  );
  return {
    name,
    count: latencies.length,
    seconds: (performance.now() - t0) / 1000,
    latencies,
    errors,
  };
}

function report(r: Result): void {
  const sorted = [...r.latencies].sort((a, b) => a - b);
  console.log(
    `${r.name.padEnd(34)} ${String(r.count).padStart(6)} req  ${(r.count / r.seconds).toFixed(0).padStart(6)} req/s` +
      `  p50 ${percentile(sorted, 50).toFixed(2)} ms  p99 ${percentile(sorted, 99).toFixed(2)} ms` +
      (r.errors > 0 ? `  (${r.errors} non-2xx)` : ""),
  );
}

async function main(): Promise<void> {
  const appId = "1300000000000000001";
  const guilds = Array.from({ length: GUILDS }, (_, i) => ({
    id: String(2000000000000000000n + BigInt(i)),
    authorizedApplications: [appId],
  }));
  const emu = await startEmulator({
    rateLimits: false,
    config: { guilds, dailyCreateLimit: 1_000_000 },
  });
  const pool = new Pool(emu.url, { connections: CONNECTIONS });
  const headers = { authorization: `Bot ${emu.botToken}`, "content-type": "application/json" };
  try {
    const seed = Array.from({ length: 100 }, (_, i) => ({
      name: `cmd-${i}`,
      description: `Command number ${i}`,
      name_localizations: { fr: `commande-${i}`, de: `befehl-${i}` },
      options: [
        { type: 3, name: "text", description: "Some text", required: true },
        {
          type: 4,
          name: "n",
          description: "A number",
          choices: [
            { name: "one", value: 1 },
            { name: "two", value: 2 },
          ],
        },
      ],
    }));
    const put = await pool.request({
      path: `/api/v10/applications/${appId}/commands`,
      method: "PUT",
      headers,
      body: JSON.stringify(seed),
    });
    await put.body.text();
    if (put.statusCode !== 200) throw new Error(`seeding failed: ${put.statusCode}`);

    console.log(
      `emulator bench: ${emu.url}, ${CONNECTIONS} connections, at most ${REQUESTS} requests or ${SECONDS} s per case`,
    );
    const list = await run("GET list (100 commands, localized)", REQUESTS, async () => {
      const r = await pool.request({
        path: `/api/v10/applications/${appId}/commands`,
        method: "GET",
        headers: { ...headers, "x-service-locale": "fr" },
      });
      await r.body.text();
      return r.statusCode;
    });
    report(list);
    const create = await run("POST create (new commands)", REQUESTS, async (i) => {
      const guild = guilds[Math.floor(i / 100)]?.id ?? "";
      const r = await pool.request({
        path: `/api/v10/applications/${appId}/guilds/${guild}/commands`,
        method: "POST",
        headers,
        body: JSON.stringify({ name: `bench-${i}`, description: "Created by the benchmark" }),
      });
      await r.body.text();
      return r.statusCode;
    });
    report(create);
  } finally {
    await pool.close();
    await emu.close();
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
