/**
 * Every class of failure reaches the CLI as one message, under the resource: the
 * operation and the resource, the request, the service's status, code and message, and
 * the fix. No JavaScript stack, no gRPC noise ("cardinality violation: received no
 * response message from non-server-streaming RPC" came from a thrown error whose numeric
 * `code`, the service's 0, grpc-js took for the gRPC status OK), and no second copy under
 * the stack. One stack, one class per run, across `preview`, `preview --refresh`, `up`
 * and `destroy`; the emulator's fault injection supplies each class.
 */
import * as net from "node:net";
import type { RunningEmulator } from "../../emulator";
import { DEFAULTS } from "../../emulator";
import type { FaultRuleInput } from "../../emulator/faults";
import type { ServiceErrorCode } from "../../provider/schema";
import { PulumiProgram } from "../../scripts/pulumiProgram";
import type { CliResult } from "../../scripts/pulumiProgram";
import {
  commandResources,
  commandsProgram,
  configureStack,
  emulator,
  linkPackage,
  printed,
  readState,
} from "./edgeHelpers";

jest.setTimeout(300_000);

const TIMEOUT_MS = 1500;

let emu: RunningEmulator;
let prog: PulumiProgram;
let pingId: string;

const program = (description: string, extra = ""): string =>
  commandsProgram(
    `new discord.GlobalCommand("ping", { name: "ping", description: "${description}" });\n${extra}`,
  );

beforeAll(async () => {
  emu = await emulator();
  prog = new PulumiProgram("failures", { "index.ts": program("Ping the bot") });
  linkPackage(prog);
  await prog.stack("dev");
  await configureStack(prog, emu);
  await prog.ok(["config", "set", "discord:timeoutMs", String(TIMEOUT_MS)]);
  await prog.up();
  const ping = commandResources(readState(prog, "dev"))[0];
  pingId = String(ping?.id);
});
afterAll(async () => {
  prog.cleanup();
  await emu.close();
});
afterEach(() => {
  emu.control.clearFaults();
  prog.write({ "index.ts": program("Ping the bot") });
});

const APP = DEFAULTS.applicationId;
const GLOBAL = `/applications/${APP}/commands`;

/** The diagnostics block of one resource, without its indentation. */
function diagnostics(res: CliResult, type: string, name: string): string {
  const out = printed(res);
  const start = out.indexOf(`\n  ${type} (${name}):\n`);
  if (start < 0) throw new Error(`no diagnostics for ${name} in:\n${out}`);
  const body = out.slice(start).split("\n").slice(2);
  const lines: string[] = [];
  for (const line of body) {
    if (!line.startsWith("    ")) break;
    lines.push(line.slice(4));
  }
  return lines.join("\n").trim();
}

/** Nothing but the one message: no stack frames, no gRPC text, no second copy. */
function expectOneCleanMessage(res: CliResult, message: string): void {
  const out = printed(res);
  expect(res.code).not.toBe(0);
  expect(out).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(out).not.toMatch(/cardinality|grpc|RPC|ServiceApiError|HttpError|NetworkError/);
  const firstLine = message.split("\n")[0] ?? message;
  const copies = out.split("Diagnostics:")[1]?.split(firstLine).length ?? 0;
  expect(copies - 1).toBe(1);
}

async function failing(
  rules: FaultRuleInput[],
  args: string[],
  resource: { type: string; name: string } = {
    type: "pulumi-nodejs:dynamic/discord:GlobalCommand",
    name: "ping",
  },
): Promise<string> {
  emu.control.setFaults({ rules });
  const res = await prog.run(args);
  const text = diagnostics(res, resource.type, resource.name);
  expectOneCleanMessage(res, text);
  return text;
}

const PREVIEW_REFRESH = ["preview", "--refresh", "--non-interactive"];
const UP = ["up", "--yes", "--non-interactive", "--skip-preview"];
const error = (
  status: number,
  code: ServiceErrorCode,
  message: string,
): FaultRuleInput["action"] => ({
  type: "error",
  status,
  code,
  message,
});
const ping = (): string => `global command "ping" (id ${pingId})`;

test("401 on preview --refresh", async () => {
  const text = await failing(
    [{ route: "listGlobalCommands", action: error(401, 0, "401: Unauthorized") }],
    PREVIEW_REFRESH,
  );
  expect(text).toBe(
    `error: Preview failed: refreshing ${ping()} failed: GET ${GLOBAL} answered 401 (code 0): 401: Unauthorized\n` +
      "fix: the application's credentials were rejected: if the token was rotated, set a valid one with " +
      "`pulumi config set --secret discord:botToken <token>` (or discord:clientId and discord:clientSecret), " +
      "then run `pulumi refresh --run-program` (or `pulumi preview --refresh --run-program`): " +
      "without --run-program, refresh uses the credentials recorded in the state at the last `pulumi up`",
  );
});

test("a malformed answer on preview --refresh", async () => {
  const text = await failing(
    [{ route: "listGlobalCommands", action: { type: "malformed" } }],
    PREVIEW_REFRESH,
  );
  expect(text).toBe(
    `error: Preview failed: refreshing ${ping()} failed: GET ${GLOBAL} failed with 200: the service's reply does not have the expected shape\n` +
      `fix: the answer is not the service's API: check that discord:apiUrl (${emu.url}) is the service's address`,
  );
});

test("a timeout on preview --refresh", async () => {
  const text = await failing(
    [{ route: "listGlobalCommands", action: { type: "delay", ms: TIMEOUT_MS * 3 } }],
    PREVIEW_REFRESH,
  );
  expect(text).toBe(
    `error: Preview failed: refreshing ${ping()} failed: GET ${GLOBAL} failed after 5 attempts: no headers from the service within ${TIMEOUT_MS} ms (UND_ERR_HEADERS_TIMEOUT)\n` +
      `fix: the service at ${emu.url} did not answer in time: try again, or allow more time with \`pulumi config set discord:timeoutMs <ms>\``,
  );
});

test("404 (unknown command) on up", async () => {
  prog.write({ "index.ts": program("Changed") });
  const text = await failing(
    [{ route: "editGlobalCommand", action: error(404, 10063, "Unknown application command") }],
    UP,
  );
  expect(text).toBe(
    `error: updating ${ping()} failed: PATCH ${GLOBAL}/${pingId} answered 404 (code 10063): Unknown application command\n` +
      "fix: the command was deleted outside the stack: run `pulumi refresh`, and the next `pulumi up` creates it again",
  );
});

test("403 (missing access) on up", async () => {
  const guildId = DEFAULTS.guildId;
  prog.write({
    "index.ts": program(
      "Ping the bot",
      `new discord.GuildCommand("report", { guildId: "${guildId}", name: "report", description: "Report" });`,
    ),
  });
  const text = await failing(
    [{ route: "createGuildCommand", action: error(403, 50001, "Missing Access") }],
    UP,
    { type: "pulumi-nodejs:dynamic/discord:GuildCommand", name: "report" },
  );
  expect(text).toBe(
    `error: creating guild command "report" in guild ${guildId} failed: POST /applications/${APP}/guilds/${guildId}/commands answered 403 (code 50001): Missing Access\n` +
      "fix: the application cannot act there: check guildId and that the application is in the guild with the applications.commands scope",
  );
});

const withPong = (): void =>
  prog.write({
    "index.ts": program(
      "Ping the bot",
      `new discord.GlobalCommand("pong", { name: "pong", description: "Pong" });`,
    ),
  });
const pong = { type: "pulumi-nodejs:dynamic/discord:GlobalCommand", name: "pong" };

test("30032 (too many commands) on up quotes the service's limit", async () => {
  withPong();
  const said = "Maximum number of application commands reached (75)";
  const text = await failing(
    [{ route: "createGlobalCommand", action: error(400, 30032, said) }],
    UP,
    pong,
  );
  expect(text).toBe(
    `error: creating global command "pong" failed: POST ${GLOBAL} answered 400 (code 30032): ${said}\n` +
      "fix: the scope already holds 75 commands of this type: remove commands from the program, or delete ones this stack does not manage",
  );
});

test("30034 (daily creates) on up quotes the service's limit", async () => {
  withPong();
  const said = "Max number of daily application command creates has been reached (150)";
  const text = await failing(
    [{ route: "createGlobalCommand", action: error(400, 30034, said) }],
    UP,
    pong,
  );
  expect(text).toBe(
    `error: creating global command "pong" failed: POST ${GLOBAL} answered 400 (code 30034): ${said}\n` +
      "fix: the daily budget of command creates is spent (the service allows 150 a day): the service does not say when the day's budget resets: run `pulumi up` again a day later; it resumes where it stopped",
  );
});

test("connection refused on up", async () => {
  const closed = await new Promise<number>((resolve) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
  const url = `http://127.0.0.1:${closed}`;
  await prog.ok(["config", "set", "discord:apiUrl", url]);
  try {
    prog.write({ "index.ts": program("Changed") });
    const text = await failing([], UP);
    expect(text).toBe(
      `error: updating ${ping()} failed: PATCH ${GLOBAL}/${pingId} failed after 5 attempts: connect ECONNREFUSED 127.0.0.1:${closed} (ECONNREFUSED)\n` +
        `fix: nothing answered at ${url}: check discord:apiUrl and that the service is reachable, then run the command again`,
    );
  } finally {
    // The failed `up` recorded the unreachable URL in the state's provider configuration,
    // which destroy and refresh would use: a good `up` records the right one again.
    await prog.ok(["config", "set", "discord:apiUrl", emu.url]);
    prog.write({ "index.ts": program("Ping the bot") });
    await prog.up();
  }
});

test("a bad setting on preview", async () => {
  await prog.ok(["config", "set", "discord:timeoutMs", "soon"]);
  try {
    const text = await failing([], ["preview", "--non-interactive"]);
    expect(text).toBe(
      'error: reading the provider\'s configuration failed: discord:timeoutMs must be a number of milliseconds > 0, not "soon"',
    );
  } finally {
    await prog.ok(["config", "set", "discord:timeoutMs", String(TIMEOUT_MS)]);
  }
});

test("no token on up names discord:botToken; set as it says, the next up passes", async () => {
  await prog.ok(["config", "rm", "discord:botToken"]);
  try {
    prog.write({ "index.ts": program("Changed") });
    const text = await failing([], UP);
    expect(text).toBe(
      `error: updating ${ping()} failed: command requests need the application's credentials: ` +
        "set discord:botToken (`pulumi config set --secret discord:botToken <token>`), " +
        "or discord:clientId and discord:clientSecret (a secret) for a client-credentials token",
    );
    // Followed literally: the key the message names, set as it says.
    const key = /`pulumi config set --secret (\S+) <token>`/.exec(text)?.[1] ?? "";
    await prog.ok(["config", "set", "--secret", key, emu.botToken]);
    await prog.up();
    const live = emu.control.commands().find((c) => c["name"] === "ping");
    expect(live?.["description"]).toBe("Changed");
  } finally {
    await prog.ok(["config", "set", "--secret", "discord:botToken", emu.botToken]);
  }
});

// Last: the 5xx class fails a destroy, which leaves the stack as it was.
test("5xx after every retry on destroy", async () => {
  const text = await failing(
    [{ route: "deleteGlobalCommand", action: { type: "status", status: 500 } }],
    ["destroy", "--yes", "--non-interactive"],
  );
  expect(text).toBe(
    `error: deleting ${ping()} failed: DELETE ${GLOBAL}/${pingId} failed with 500 after 5 attempts: 500: Internal Server Error\n` +
      "fix: the service kept failing: try again later (`pulumi up` resumes where it stopped)",
  );
});
