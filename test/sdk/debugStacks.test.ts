/**
 * Resources are constructed without the SDK's per-promise debug stacks (sdk/debugStacks.ts):
 * the stacks are not built, the limit is restored, an error thrown inside the SDK's
 * constructor still has frames, and `PULUMI_DEBUG_PROMISE_LEAKS` keeps them all. Pulumi's
 * mocks stand in for the engine.
 */
import type * as pulumi from "@pulumi/pulumi";
import { GlobalCommand, GuildCommandPermissions } from "../../sdk/resources";
import { registered, useEchoMocks } from "../helpers/pulumiMocks";
import { suspendPromiseStacks } from "../../sdk/debugStacks";

const APP = "1300000000000000001";
const GUILD = "1300000000000000002";

useEchoMocks();
/** Resources made by a test: each test waits for their registration (ids) before it ends. */
const made: pulumi.CustomResource[] = [];
afterEach(async () => {
  delete process.env["PULUMI_DEBUG_PROMISE_LEAKS"];
  await registered(made.splice(0));
});

/** How many stacks with at least one frame `construct` formats, and its result. */
function stacksBuiltBy<T>(construct: () => T): { stacks: number; value: T } {
  const original = Error.prepareStackTrace;
  let stacks = 0;
  Error.prepareStackTrace = (err, frames) => {
    if (frames.length > 0) stacks++;
    return original
      ? original(err, frames)
      : `${String(err)}\n${frames.map((f) => `    at ${String(f)}`).join("\n")}`;
  };
  try {
    return { value: construct(), stacks };
  } finally {
    Error.prepareStackTrace = original;
  }
}

let n = 0;
function command(): GlobalCommand {
  n++;
  const c = new GlobalCommand(`c${n}`, { name: `c${n}`, description: "d", applicationId: APP });
  made.push(c);
  return c;
}

test("a command builds one stack (its place in the program), not one per promise", () => {
  const limit = Error.stackTraceLimit;
  const { stacks } = stacksBuiltBy(command);
  // The SDK's own `Resource.callsites` (source position kept in state) raises the limit itself.
  expect(stacks).toBe(1);
  expect(Error.stackTraceLimit).toBe(limit);
});

test("permissions too", () => {
  const { stacks } = stacksBuiltBy(() => {
    const p = new GuildCommandPermissions("p", {
      guildId: GUILD,
      commandId: APP,
      permissions: [],
      applicationId: APP,
    });
    made.push(p);
    return p;
  });
  expect(stacks).toBe(1);
});

test("with PULUMI_DEBUG_PROMISE_LEAKS set, every promise keeps its stack", () => {
  process.env["PULUMI_DEBUG_PROMISE_LEAKS"] = "1";
  const { stacks } = stacksBuiltBy(command);
  // 4 promises per property (7 of a command's arguments and outputs), plus urn and id.
  expect(stacks).toBeGreaterThan(28);
});

test("an error thrown inside the SDK's constructor keeps frames and the limit is restored", () => {
  const limit = Error.stackTraceLimit;
  let caught: unknown;
  try {
    new GlobalCommand(
      "boom",
      { name: "boom", description: "d", applicationId: APP },
      {
        transformations: [
          () => {
            throw new Error("a transformation failed");
          },
        ],
      },
    );
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(Error);
  expect((caught as Error).message).toBe("a transformation failed");
  expect((caught as Error).stack).toMatch(/\n\s+at /);
  expect((caught as Error).stack).toContain("debugStacks.test.ts");
  expect(Error.stackTraceLimit).toBe(limit);
});

test("restore puts back whatever limit was set, and may be called twice", () => {
  const before = Error.stackTraceLimit;
  Error.stackTraceLimit = 37;
  try {
    const restore = suspendPromiseStacks();
    expect(Error.stackTraceLimit).toBe(0);
    restore();
    restore();
    expect(Error.stackTraceLimit).toBe(37);
  } finally {
    Error.stackTraceLimit = before;
  }
});
