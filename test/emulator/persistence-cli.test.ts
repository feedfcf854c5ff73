/** State persistence (atomic writes, corrupt files), configuration errors and the CLI. */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEFAULTS, startEmulator } from "../../emulator";
import { Api, rec, slash, str } from "./helpers";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "emulator-state-"));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

test("state persists across restarts; new ids are greater; no temp files are left", async () => {
  const statePath = path.join(dir, "state.json");
  const first = await startEmulator({ rateLimits: false, statePath });
  const api1 = new Api(first);
  const created = rec((await api1.post(`${api1.guild}/commands`, slash("kept"))).body);
  const id = str(created["id"]);
  await api1.put(
    `${api1.guild}/commands/${id}/permissions`,
    { permissions: [{ id: first.guildId, type: 1, permission: false }] },
    { auth: `Bearer ${first.userBearerToken}` },
  );
  await first.close();
  expect(fs.readdirSync(dir)).toEqual(["state.json"]);

  const second = await startEmulator({ rateLimits: false, statePath });
  const api2 = new Api(second);
  try {
    expect((await api2.get(`${api2.guild}/commands/${id}`)).body).toEqual(created);
    expect((await api2.get(`${api2.guild}/commands/${id}/permissions`)).status).toBe(200);
    const next = str(rec((await api2.post(`${api2.guild}/commands`, slash("new"))).body)["id"]);
    expect(BigInt(next) > BigInt(id)).toBe(true);
  } finally {
    await second.close();
  }
});

test("a corrupt state file is a clear error at start, and is left alone", async () => {
  const statePath = path.join(dir, "state.json");
  fs.writeFileSync(statePath, '{"format": "pulumi-discord-commands-emulator/1", "commands": [');
  await expect(startEmulator({ statePath })).rejects.toThrow(/corrupt/);
  fs.writeFileSync(statePath, JSON.stringify({ format: "something-else" }));
  await expect(startEmulator({ statePath })).rejects.toThrow(/corrupt or of another format/);
  expect(fs.readFileSync(statePath, "utf8")).toContain("something-else");
});

test("an invalid configuration names the problem", async () => {
  await expect(
    startEmulator({ config: { applications: [{ id: "x", botToken: "", clientSecret: "s" }] } }),
  ).rejects.toThrow(/applications\.0\.id/);
  const file = path.join(dir, "config.json");
  fs.writeFileSync(file, "{nope");
  await expect(startEmulator({ configFile: file })).rejects.toThrow(/cannot read emulator config/);
});

test("`discord-commands emulator` prints one JSON line, serves, and stops on SIGTERM", async () => {
  const root = path.resolve(__dirname, "../..");
  const bin = path.join(root, "node_modules", ".bin");
  const child = spawn(
    path.join(bin, "ts-node"),
    ["--transpile-only", "cli/main.ts", "emulator", "--port", "0", "--json", "--no-rate-limits"],
    {
      cwd: root,
      env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env["PATH"] ?? ""}` },
    },
  );
  const line = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    child.on("exit", (code) => reject(new Error(`cli exited early with ${code}`)));
  });
  const info = rec(JSON.parse(line));
  expect(info).toEqual({
    url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
    applicationId: DEFAULTS.applicationId,
    botToken: DEFAULTS.botToken,
    clientId: DEFAULTS.clientId,
    clientSecret: DEFAULTS.clientSecret,
    guildId: DEFAULTS.guildId,
    bearerToken: DEFAULTS.userBearerToken,
    publicKey: expect.stringMatching(/^[0-9a-f]{64}$/),
  });
  const res = await fetch(
    `${str(info["url"])}/api/v10/applications/${DEFAULTS.applicationId}/commands`,
    {
      headers: { Authorization: `Bot ${DEFAULTS.botToken}` },
    },
  );
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual([]);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  child.kill("SIGTERM");
  expect(await exited).toBe(0);
}, 30_000);

test.each(["SIGINT", "SIGTERM"] as const)(
  "`--ready-file` is written once listening; `--state` is written on %s before exit",
  async (signal) => {
    const root = path.resolve(__dirname, "../..");
    const bin = path.join(root, "node_modules", ".bin");
    const ready = path.join(dir, "ready.json");
    const statePath = path.join(dir, "state.json");
    const child = spawn(
      path.join(bin, "ts-node"),
      [
        "--transpile-only",
        "cli/main.ts",
        "emulator",
        "--port",
        "0",
        "--no-rate-limits",
        "--no-control",
        "--ready-file",
        ready,
        "--state",
        statePath,
      ],
      {
        cwd: root,
        stdio: "ignore",
        env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env["PATH"] ?? ""}` },
      },
    );
    const exited = new Promise<number | null>((resolve) =>
      child.on("exit", (code) => resolve(code)),
    );
    const deadline = Date.now() + 25_000;
    while (!fs.existsSync(ready) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const info = rec(JSON.parse(fs.readFileSync(ready, "utf8")));
    expect(info["botToken"]).toBe(DEFAULTS.botToken);
    const url = str(info["url"]);
    // The readiness probe answers with the control API off.
    expect((await fetch(`${url}/__emulator/health`)).status).toBe(200);
    const created = await fetch(`${url}/api/v10/applications/${DEFAULTS.applicationId}/commands`, {
      method: "POST",
      headers: { Authorization: `Bot ${DEFAULTS.botToken}`, "Content-Type": "application/json" },
      body: JSON.stringify(slash("saved")),
    });
    expect(created.status).toBe(201);
    // Written after the change already; removed, it must be written again on the signal.
    fs.rmSync(statePath);
    child.kill(signal);
    expect(await exited).toBe(0);
    const state = fs.readFileSync(statePath, "utf8");
    expect(state).toContain('"saved"');
  },
  30_000,
);
