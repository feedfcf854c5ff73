/**
 * Cost of the interactions side of the emulator (not a test): an invocation (access
 * rules, payload, Ed25519 signature, delivery on loopback to a handler that verifies the
 * signature with discord-interactions, callback check), and a `canUse` evaluation.
 * Prints counts per second and p50/p99 latency. Bounded in count.
 *
 *   npm run bench:interactions [-- --invocations 500 --checks 20000]
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { verifyKey } from "discord-interactions";
import { startEmulator } from "../emulator";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

const INVOCATIONS = arg("invocations", 500);
const CHECKS = arg("checks", 20000);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function report(name: string, latencies: number[], seconds: number): void {
  const sorted = [...latencies].sort((a, b) => a - b);
  console.log(
    `${name.padEnd(28)} ${latencies.length} in ${seconds.toFixed(2)} s = ${(latencies.length / seconds).toFixed(0)}/s` +
      `  p50 ${percentile(sorted, 50).toFixed(3)} ms  p99 ${percentile(sorted, 99).toFixed(3)} ms`,
  );
}

async function main(): Promise<void> {
  const emu = await startEmulator({ rateLimits: false });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      void verifyKey(
        raw,
        String(req.headers["x-signature-ed25519"]),
        String(req.headers["x-signature-timestamp"]),
        emu.publicKey,
      ).then((ok) => {
        if (!ok) return void res.writeHead(401).end();
        const type = (JSON.parse(raw) as { type: number }).type;
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify(type === 1 ? { type: 1 } : { type: 4, data: { content: "ok" } }));
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  try {
    await emu.setInteractionsEndpoint(url);
    await fetch(`${emu.apiUrl}/applications/${emu.applicationId}/commands`, {
      method: "POST",
      headers: { Authorization: `Bot ${emu.botToken}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        name: "echo",
        description: "Echo",
        options: [{ type: 3, name: "text", description: "Text", required: true }],
      }),
    });
    const where = {
      guildId: emu.guildId,
      channelId: emu.config.guilds[0]?.channels[0]?.id ?? "",
      userId: emu.userId,
    };
    const invoked: number[] = [];
    let t0 = performance.now();
    for (let i = 0; i < INVOCATIONS; i++) {
      const s = performance.now();
      const r = await emu.invoke({ ...where, name: "echo", options: { text: `hello ${i}` } });
      if (r.outcome !== "delivered") throw new Error(`invocation ${i}: ${r.reason}`);
      invoked.push(performance.now() - s);
    }
    report("invoke (signed, delivered)", invoked, (performance.now() - t0) / 1000);
    const checked: number[] = [];
    t0 = performance.now();
    for (let i = 0; i < CHECKS; i++) {
      const s = performance.now();
      emu.canUse({ ...where, name: "echo" });
      checked.push(performance.now() - s);
    }
    report("canUse", checked, (performance.now() - t0) / 1000);
  } finally {
    server.close();
    await emu.close();
  }
}

void main();
