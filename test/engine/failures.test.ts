/**
 * A failure reaches the CLI as one message, under the resource: the operation and the
 * resource, the request, the service's status, code and message, and the fix. No
 * JavaScript stack, no gRPC noise ("cardinality violation: received no response message
 * from non-server-streaming RPC" came from a thrown error whose numeric `code`, the
 * service's 0, grpc-js took for the gRPC status OK), and no second copy under the stack.
 * Through the engine: a service error on a write (`up`), and a bad setting, which fails
 * the provider's configuration (another engine path). Each class's exact message, as the
 * host hands it to the engine (refresh, create, update, delete), is
 * test/provider/failureMessages.test.ts; the one on a refresh through the engine is
 * test/engine/recovery.test.ts (a rotated token on `preview --refresh`).
 */
import type { RunningEmulator } from "../../emulator";
import { DEFAULTS } from "../../emulator";
import type { FaultRuleInput } from "../../emulator/faults";
import type { ServiceErrorCode } from "../../provider/schema";
import { PulumiProgram } from "../../scripts/pulumiProgram";
import {
  commandResources,
  commandsProgram,
  configureStack,
  emulator,
  diagnostics,
  expectOneCleanMessage,
  linkPackage,
  readState,
} from "./edgeHelpers";

jest.setTimeout(300_000);

let emu: RunningEmulator;
let prog: PulumiProgram;
let pingId: string;

const program = (description: string): string =>
  commandsProgram(
    `new discord.GlobalCommand("ping", { name: "ping", description: "${description}" });`,
  );

beforeAll(async () => {
  emu = await emulator();
  prog = new PulumiProgram("failures", { "index.ts": program("Ping the bot") });
  linkPackage(prog);
  await prog.stack("dev");
  await configureStack(prog, emu);
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

test("a bad setting on preview", async () => {
  await prog.ok(["config", "set", "discord:timeoutMs", "soon"]);
  try {
    const text = await failing([], ["preview", "--non-interactive"]);
    expect(text).toBe(
      'error: reading the provider\'s configuration failed: discord:timeoutMs must be a number of milliseconds > 0, not "soon"',
    );
  } finally {
    await prog.ok(["config", "rm", "discord:timeoutMs"]);
  }
});
