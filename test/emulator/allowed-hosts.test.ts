/**
 * The guard's Host allow-list (emulator/requestGuard.ts) on any listen address, over real
 * HTTP to 127.0.0.1 with the Host header another machine (or a rebound page) sends:
 * listening on 0.0.0.0, a name not listed in `allowedHosts` (`--allowed-host`) is refused
 * with a message naming the option, a listed name is answered (service API, control API),
 * loopback names always are; the CLI flag reaches the guard; `url` names loopback.
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { spawn } from "node:child_process";
import path from "node:path";
import type { RunningEmulator } from "../../emulator";
import { resolveConfig, startEmulator } from "../../emulator";
import { parseArgs } from "../../emulator/cli";
import { hostAllowList, hostRefusal } from "../../emulator/requestGuard";
import { slash } from "./helpers";
import { JSON_TYPE, send } from "./rawHttp";

let emu: RunningEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

const NAMES_THE_OPTION = /--allowed-host emulator \(allowedHosts in startEmulator's options/;

type Method = Parameters<typeof send>[1];

/** Every part the guard stands in front of, as [method, path, headers, body]. */
function everyPart(e: RunningEmulator): [Method, string, Record<string, string>, string?][] {
  const bot = { authorization: `Bot ${e.botToken}` };
  return [
    ["GET", `/api/v10/applications/${e.applicationId}/commands`, bot],
    ["POST", `/api/v10/applications/${e.applicationId}/commands`, { ...bot, ...JSON_TYPE }, "{}"],
    ["GET", "/__emulator/info", {}],
    ["POST", "/__emulator/reset", JSON_TYPE],
    ["GET", "/", {}],
    ["GET", "/__emulator/health", {}],
  ];
}

async function createCommand(e: RunningEmulator, host: string, name: string) {
  return send(
    e,
    "POST",
    `/api/v10/applications/${e.applicationId}/commands`,
    { host, authorization: `Bot ${e.botToken}`, ...JSON_TYPE },
    JSON.stringify(slash(name)),
  );
}

describe("listening on 0.0.0.0", () => {
  test("a Host name not listed is refused everywhere, with a 403 naming --allowed-host", async () => {
    emu = await startEmulator({ rateLimits: false, host: "0.0.0.0", control: true, page: true });
    expect((await createCommand(emu, "127.0.0.1", "survivor")).status).toBe(201);
    for (const [method, path, headers, body] of everyPart(emu)) {
      const res = await send(emu, method, path, { ...headers, host: `emulator:${emu.port}` }, body);
      expect([method, path, res.status]).toEqual([method, path, 403]);
      expect(res.json).toEqual({
        code: 0,
        message: expect.stringMatching(NAMES_THE_OPTION) as unknown,
      });
      expect(res.text).not.toContain(emu.botToken);
    }
    expect(emu.store.allCommands().map((c) => c.name)).toEqual(["survivor"]);
  });

  test("loopback names are answered without any option", async () => {
    emu = await startEmulator({ rateLimits: false, host: "0.0.0.0", control: true });
    for (const host of [`127.0.0.1:${emu.port}`, "localhost", `[::1]:${emu.port}`]) {
      const commands = await send(
        emu,
        "GET",
        `/api/v10/applications/${emu.applicationId}/commands`,
        {
          host,
          authorization: `Bot ${emu.botToken}`,
        },
      );
      const info = await send(emu, "GET", "/__emulator/info", { host });
      expect([host, commands.status, info.status]).toEqual([host, 200, 200]);
    }
  });

  test("a listed name is answered: the service API and the control API", async () => {
    emu = await startEmulator({
      rateLimits: false,
      host: "0.0.0.0",
      control: true,
      allowedHosts: ["emulator", ".ci.internal"],
    });
    expect(emu.allowedHosts).toEqual(["emulator", ".ci.internal"]);
    const host = `emulator:${emu.port}`;
    expect((await createCommand(emu, host, "first")).status).toBe(201);
    const list = await send(emu, "GET", `/api/v10/applications/${emu.applicationId}/commands`, {
      host,
      authorization: `Bot ${emu.botToken}`,
    });
    expect([list.status, list.json]).toEqual([200, [expect.objectContaining({ name: "first" })]]);
    // The emulator's own origin under that name may change state, as on loopback.
    const reset = await send(emu, "POST", "/__emulator/reset", {
      host,
      origin: `http://${host}`,
      ...JSON_TYPE,
    });
    expect(reset.status).toBe(204);
    expect(emu.store.allCommands()).toEqual([]);
    for (const answered of ["EMULATOR.", "ci.internal", `runner-7.ci.internal:${emu.port}`]) {
      const res = await send(emu, "GET", "/__emulator/state", { host: answered });
      expect([answered, res.status]).toEqual([answered, 200]);
    }
    for (const refused of ["evil.example", "emulator.evil.example", "notci.internal"]) {
      const res = await send(emu, "GET", "/__emulator/state", { host: refused });
      expect([refused, res.status]).toEqual([refused, 403]);
      expect(res.json).toEqual({
        code: 0,
        message: expect.stringContaining(
          "answers loopback host names and emulator, .ci.internal only",
        ) as unknown,
      });
    }
  });

  test("url and info.url name 127.0.0.1, an address a client can use", async () => {
    emu = await startEmulator({ rateLimits: false, host: "0.0.0.0", control: true });
    expect(emu.url).toBe(`http://127.0.0.1:${emu.port}`);
    expect(emu.apiUrl).toBe(`http://127.0.0.1:${emu.port}/api/v10`);
    expect(emu.host).toBe("0.0.0.0");
    const info = await fetch(`${emu.url}/__emulator/info`);
    expect(info.status).toBe(200);
    expect(await info.json()).toMatchObject({ url: emu.url, apiUrl: emu.apiUrl });
  });
});

describe("the allow-list on any listen address", () => {
  test("on loopback, a listed name is answered too; others are refused naming the list", async () => {
    emu = await startEmulator({ rateLimits: false, allowedHosts: ["Emulator"] });
    expect((await send(emu, "GET", "/__emulator/info", { host: "emulator" })).status).toBe(200);
    const other = await send(emu, "GET", "/__emulator/info", { host: "rebind.example" });
    expect(other.status).toBe(403);
    expect(other.json).toEqual({
      code: 0,
      message: expect.stringMatching(
        /loopback host names and emulator only.*--allowed-host rebind\.example/,
      ) as unknown,
    });
  });

  test("the listen address itself is answered when it is one address, not when it is 0.0.0.0", () => {
    const headers = { host: "192.0.2.5:8080" };
    expect(hostRefusal(headers, hostAllowList("192.0.2.5", []), 8080)).toBeUndefined();
    expect(hostRefusal(headers, hostAllowList("0.0.0.0", []), 8080)?.status).toBe(403);
    expect(hostRefusal(headers, hostAllowList("::", []), 8080)?.status).toBe(403);
    expect(hostRefusal(headers, hostAllowList("0.0.0.0", ["192.0.2.5"]), 8080)).toBeUndefined();
    expect(hostRefusal({ host: "[fd00::1]" }, hostAllowList("::", ["fd00::1"]), 1)).toBeUndefined();
  });

  test("allowedHosts in the config file; the option overrides it; a wrong entry says what to give", async () => {
    const config = { allowedHosts: ["emulator"] };
    emu = await startEmulator({ rateLimits: false, host: "0.0.0.0", config });
    expect((await send(emu, "GET", "/__emulator/health", { host: "emulator" })).status).toBe(200);
    await emu.close();
    emu = await startEmulator({ rateLimits: false, host: "0.0.0.0", config, allowedHosts: ["b"] });
    expect((await send(emu, "GET", "/__emulator/health", { host: "emulator" })).status).toBe(403);
    expect((await send(emu, "GET", "/__emulator/health", { host: "b" })).status).toBe(200);
    for (const wrong of ["emulator:8080", "http://emulator", "*.ci.internal", "0.0.0.0", ""]) {
      expect(() => resolveConfig({ allowedHosts: [wrong] })).toThrow(
        /allowedHosts\.0.*not a host name clients use/s,
      );
      await expect(startEmulator({ allowedHosts: [wrong] })).rejects.toThrow(/not a host name/);
    }
  });

  test("--allowed-host is repeatable and checked as it is read", () => {
    const args = ["--host", "0.0.0.0", "--allowed-host", "emulator", "--allowed-host=.ci.internal"];
    expect(parseArgs(args).options).toMatchObject({
      host: "0.0.0.0",
      allowedHosts: ["emulator", ".ci.internal"],
    });
    expect(() => parseArgs(["--allowed-host", "emulator:8080"])).toThrow(
      /^--allowed-host: allowed host "emulator:8080" is not a host name/,
    );
    expect(() => parseArgs(["--allowed-host"])).toThrow(/--allowed-host needs a value/);
  });
});

interface Cli {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
}

/** `discord-commands emulator <args>` (cli/main.ts), once its stdout has `until`. */
async function startCli(args: string[], until: RegExp): Promise<Cli> {
  const root = path.resolve(__dirname, "../..");
  const bin = path.join(root, "node_modules", ".bin");
  const child = spawn(
    path.join(bin, "ts-node"),
    ["--transpile-only", "cli/main.ts", "emulator", "--port", "0", "--no-rate-limits", ...args],
    { cwd: root, env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env["PATH"]}` } },
  );
  let out = "";
  let err = "";
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (until.test(out)) resolve();
    });
    child.on("exit", (code) => reject(new Error(`cli exited early with ${code}: ${err}`)));
  });
  return { child, stdout: () => out, stderr: () => err };
}

async function stopCli(cli: Cli): Promise<void> {
  const exited = new Promise((resolve) => cli.child.on("exit", resolve));
  cli.child.kill("SIGTERM");
  await exited;
}

test("`discord-commands emulator --host 0.0.0.0` says which names it answers; --allowed-host reaches the guard", async () => {
  const bare = await startCli(["--host", "0.0.0.0", "--json"], /\n/);
  try {
    const { url } = JSON.parse(bare.stdout()) as { url: string };
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${url}/__emulator/health`)).status).toBe(200);
    const port = Number(new URL(url).port);
    const named = await send({ port }, "GET", "/__emulator/health", { host: "emulator" });
    expect(named.status).toBe(403);
    expect(bare.stderr()).toMatch(
      /^emulator: listening on 0\.0\.0\.0, the emulator answers loopback host names only .*--allowed-host NAME/m,
    );
  } finally {
    await stopCli(bare);
  }
  const listed = await startCli(
    ["--host", "0.0.0.0", "--allowed-host", "emulator"],
    /Press Ctrl\+C/,
  );
  try {
    expect(listed.stdout()).toContain("Host names      loopback host names and emulator\n");
    expect(listed.stdout()).toMatch(/\(API at [^)]+\), on every address \(--host 0\.0\.0\.0\)\n/);
    const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(listed.stdout())?.[1]);
    const named = await send({ port }, "GET", "/__emulator/health", { host: "emulator" });
    expect(named.status).toBe(200);
    expect(listed.stderr()).not.toContain("--allowed-host");
  } finally {
    await stopCli(listed);
  }
}, 60_000);
