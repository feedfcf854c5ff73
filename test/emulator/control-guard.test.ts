/**
 * The one guard in front of everything the emulator serves (emulator/requestGuard.ts),
 * over real HTTP on a free port: a server on loopback answers loopback Host names only (a
 * page of another site whose name was rebound to 127.0.0.1 sends its own name); the
 * control API's state changes refuse what a web page of another site can send (a form or
 * `text/plain` body, a foreign Origin, Sec-Fetch-Site cross-site); `/__emulator/info`
 * gives credentials to loopback callers only.
 */
import { request } from "undici";
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import { loopbackCaller, loopbackHostName } from "../../emulator/requestGuard";
import { slash } from "./helpers";

interface Answer {
  status: number;
  text: string;
  json: unknown;
}

async function send(
  emu: RunningEmulator,
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  const res = await request(`http://127.0.0.1:${emu.port}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, text, json };
}

const JSON_TYPE = { "content-type": "application/json" };
const hostOf = (emu: RunningEmulator) => `127.0.0.1:${emu.port}`;

let emu: RunningEmulator;
afterEach(async () => {
  await emu?.close();
});

async function createCommand(): Promise<void> {
  const res = await send(
    emu,
    "POST",
    `/api/v10/applications/${emu.applicationId}/commands`,
    { authorization: `Bot ${emu.botToken}`, ...JSON_TYPE },
    JSON.stringify(slash("survivor")),
  );
  expect(res.status).toBe(201);
}

describe("on loopback, loopback Host names only, for everything the emulator serves", () => {
  test("a rebound name gets 403 with what to use instead, never the tokens", async () => {
    emu = await startEmulator({ rateLimits: false });
    const info = await send(emu, "GET", "/__emulator/info", { host: "rebind.example" });
    expect(info.status).toBe(403);
    expect(info.text).not.toContain(emu.botToken);
    expect(info.text).not.toContain(emu.userBearerToken);
    expect(info.text).not.toContain(emu.clientSecret);
    expect(info.json).toEqual({
      code: 0,
      message: expect.stringMatching(
        /loopback host names only.*Host "rebind\.example".*http:\/\/127\.0\.0\.1:\d+/s,
      ) as unknown,
    });
    const elsewhere = [
      ["GET", `/api/v10/applications/${emu.applicationId}/commands`],
      ["GET", "/"],
      ["GET", "/__page/log.json?after=0"],
      ["GET", "/__emulator/health"],
      ["POST", "/__emulator/reset"],
    ] as const;
    for (const [method, path] of elsewhere) {
      const res = await send(emu, method, path, {
        host: `rebind.example:${emu.port}`,
        authorization: `Bot ${emu.botToken}`,
        ...JSON_TYPE,
      });
      expect([method, path, res.status]).toEqual([method, path, 403]);
    }
  });

  test("names that only look local are refused too", async () => {
    emu = await startEmulator({ rateLimits: false });
    for (const host of [
      "127.0.0.1.rebind.example",
      `localhost.rebind.example:${emu.port}`,
      "rebind.example@127.0.0.1",
      "127.0.0.1/evil",
      "[::2]",
      "0.0.0.0",
      "",
    ]) {
      const res = await send(emu, "GET", "/__emulator/info", { host });
      expect([host, res.status]).toEqual([host, 403]);
    }
  });

  test("loopback names answer: any port or none, 127/8, [::1], localhost and localhost.", async () => {
    emu = await startEmulator({ rateLimits: false });
    for (const host of [
      hostOf(emu),
      "127.0.0.1",
      "127.1.2.3:1",
      "localhost",
      `LOCALHOST:${emu.port}`,
      "localhost.",
      `localhost.:${emu.port}`,
      "[::1]",
      `[::1]:${emu.port}`,
      "[0:0:0:0:0:0:0:1]",
    ]) {
      const res = await send(emu, "GET", "/__emulator/info", { host });
      expect([host, res.status]).toEqual([host, 200]);
    }
  });
});

describe("the control API refuses state changes a page of another site can send", () => {
  test("a text/plain POST from another origin does not reset the state", async () => {
    emu = await startEmulator({ rateLimits: false });
    await createCommand();
    const res = await send(
      emu,
      "POST",
      "/__emulator/reset",
      { "content-type": "text/plain", origin: "http://evil.example" },
      "{}",
    );
    expect(res.status).toBe(403);
    expect(res.json).toEqual({
      code: 0,
      message: expect.stringMatching(/another site \(Origin "http:\/\/evil\.example"\)/) as unknown,
    });
    expect(emu.store.allCommands().map((c) => c.name)).toEqual(["survivor"]);
  });

  test("a body that is not application/json gets 415 saying what to send, without an Origin too", async () => {
    emu = await startEmulator({ rateLimits: false });
    await createCommand();
    const cases: [string, Record<string, string>, string | undefined][] = [
      ["text/plain", { "content-type": "text/plain" }, "{}"],
      ["a form", { "content-type": "application/x-www-form-urlencoded" }, "a=1"],
      ["multipart", { "content-type": "multipart/form-data; boundary=x" }, "--x--"],
      ["no content type, no body", {}, undefined],
      ["a look-alike", { "content-type": "application/jsonp" }, "{}"],
    ];
    for (const [what, headers, body] of cases) {
      const res = await send(emu, "POST", "/__emulator/reset", headers, body);
      expect([what, res.status]).toEqual([what, 415]);
      expect(res.json).toEqual({
        code: 0,
        message: expect.stringContaining("Content-Type: application/json") as unknown,
      });
    }
    const interactions = await send(
      emu,
      "POST",
      "/__emulator/interactions",
      { "content-type": "text/plain" },
      JSON.stringify({ name: "survivor" }),
    );
    expect(interactions.status).toBe(415);
    const drift = await send(
      emu,
      "DELETE",
      `/__emulator/commands/${emu.store.allCommands()[0]?.id}`,
    );
    expect(drift.status).toBe(415);
    expect(emu.store.allCommands().map((c) => c.name)).toEqual(["survivor"]);
  });

  test("a foreign Origin or Sec-Fetch-Site is refused even with application/json", async () => {
    emu = await startEmulator({ rateLimits: false });
    await createCommand();
    const refused: Record<string, string>[] = [
      { origin: "http://evil.example" },
      { origin: "null" },
      { origin: `http://localhost:${emu.port}` }, // another origin than the Host's
      { origin: `http://127.0.0.1:${emu.port + 1}` },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
      { origin: `http://${hostOf(emu)}`, "sec-fetch-site": "cross-site" },
    ];
    for (const headers of refused) {
      const res = await send(emu, "POST", "/__emulator/reset", { ...JSON_TYPE, ...headers });
      expect([headers, res.status]).toEqual([headers, 403]);
    }
    expect(emu.store.allCommands().map((c) => c.name)).toEqual(["survivor"]);
  });

  test("what scripts, tools and the emulator's own origin send is obeyed", async () => {
    emu = await startEmulator({ rateLimits: false });
    const accepted: Record<string, string>[] = [
      JSON_TYPE,
      { "content-type": "Application/JSON; charset=utf-8" },
      { ...JSON_TYPE, origin: `http://${hostOf(emu)}`, "sec-fetch-site": "same-origin" },
      { ...JSON_TYPE, "sec-fetch-site": "none" },
    ];
    for (const headers of accepted) {
      await createCommand();
      const res = await send(emu, "POST", "/__emulator/reset", headers);
      expect([headers, res.status]).toEqual([headers, 204]);
      expect(emu.store.allCommands()).toEqual([]);
    }
    // Reads stay open to a foreign Origin: a browser keeps their answer from the other site.
    const read = await send(emu, "GET", "/__emulator/state", { origin: "http://evil.example" });
    expect(read.status).toBe(200);
  });
});

describe("/__emulator/info gives credentials to loopback callers only", () => {
  test("on 0.0.0.0 with the control API on, a rebound Host name gets no token", async () => {
    emu = await startEmulator({ rateLimits: false, host: "0.0.0.0", control: true });
    const local = await send(emu, "GET", "/__emulator/info", { host: hostOf(emu) });
    expect(local.json).toMatchObject({
      botToken: emu.botToken,
      clientSecret: emu.clientSecret,
      bearerToken: emu.userBearerToken,
    });
    const rebound = await send(emu, "GET", "/__emulator/info", { host: "rebind.example" });
    expect(rebound.status).toBe(200);
    expect(rebound.text).not.toContain(emu.botToken);
    expect(rebound.text).not.toContain(emu.clientSecret);
    expect(rebound.text).not.toContain(emu.userBearerToken);
    expect(rebound.json).toMatchObject({
      applicationId: emu.applicationId,
      publicKey: emu.publicKey,
      credentials: expect.stringContaining("loopback") as unknown,
    });
  });

  test("a loopback caller: a loopback peer address and a loopback Host name", () => {
    const table: [string | undefined, string | undefined, boolean][] = [
      ["127.0.0.1", "127.0.0.1:8787", true],
      ["::1", "[::1]:8787", true],
      ["::ffff:127.0.0.1", "localhost", true],
      ["127.0.0.1", "rebind.example", false],
      ["192.0.2.7", "127.0.0.1:8787", false],
      ["::ffff:192.0.2.7", "localhost", false],
      ["fd00::7", "[::1]", false],
      [undefined, "localhost", false],
      ["127.0.0.1", undefined, false],
    ];
    for (const [address, host, expected] of table) {
      expect([address, host, loopbackCaller(address, host)]).toEqual([address, host, expected]);
    }
    expect(loopbackHostName("LocalHost.:1")).toBe(true);
    expect(loopbackHostName("2130706433")).toBe(true); // 127.0.0.1 written as one number
    expect(loopbackHostName("[::ffff:127.0.0.1]")).toBe(true);
    expect(loopbackHostName("[::ffff:192.0.2.7]")).toBe(false);
  });
});
