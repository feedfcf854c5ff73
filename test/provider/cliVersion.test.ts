/**
 * The CLI outside the tested range (provider/cliVersion.ts): the wiring of both doors'
 * runtime to the engine's two calls. The engine here is a stand-in serving the two
 * `pulumirpc.Engine` calls the check uses (the version question under the name a given
 * release has, and `Log`), answering as `ValidatePulumiVersionRange` does; the real
 * engines of both ends of the range answer the same questions in
 * test/engine/version-range-*.test.ts.
 */
import * as grpc from "@grpc/grpc-js";
import type * as EngineProto from "@pulumi/pulumi/proto/engine_pb";
import * as engproto from "@pulumi/pulumi/proto/engine_pb";
import { cliOutsideRange, TESTED_CLI_RANGE } from "../../provider/cliVersion";
import { ProviderRuntime } from "../../provider/resources/runtime";
import { compareVersions } from "../../provider/testedRange";

interface StandIn {
  readonly address: string;
  readonly logged: string[];
  readonly asked: string[];
  close(): void;
}

/** The range's test as blang/semver reads the two forms the check sends. */
function satisfies(version: string, range: string): boolean {
  return range.split(" ").every((part) => {
    const m = /^(>=|<=|<|>)(.+)$/.exec(part);
    if (!m) throw new Error(`unexpected range ${range}`);
    const d = compareVersions(version, m[2] ?? "");
    return m[1] === ">=" ? d >= 0 : m[1] === "<=" ? d <= 0 : m[1] === "<" ? d < 0 : d > 0;
  });
}

/**
 * An engine of CLI `version` that knows the version question as `method` (3.217.0 on:
 * RequirePulumiVersion; 3.216.0: CheckPulumiVersion; older: none).
 */
async function standIn(
  version: string,
  method: "RequirePulumiVersion" | "CheckPulumiVersion" | undefined,
): Promise<StandIn> {
  const logged: string[] = [];
  const asked: string[] = [];
  const server = new grpc.Server();
  const unary = <Req>(
    name: string,
    decode: (b: Buffer) => Req,
  ): [string, grpc.MethodDefinition<Req, object>] => [
    name,
    {
      path: `/pulumirpc.Engine/${name}`,
      requestStream: false,
      responseStream: false,
      requestSerialize: () => Buffer.alloc(0),
      requestDeserialize: decode,
      responseSerialize: () => Buffer.alloc(0),
      responseDeserialize: () => ({}),
    },
  ];
  const definitions = [
    unary("Log", (b) => engproto.LogRequest.deserializeBinary(new Uint8Array(b))),
    ...(method
      ? [
          unary(method, (b) =>
            engproto.RequirePulumiVersionRequest.deserializeBinary(new Uint8Array(b)),
          ),
        ]
      : []),
  ];
  const service: grpc.ServiceDefinition = Object.fromEntries(definitions);
  server.addService(service, {
    Log: (
      call: grpc.ServerUnaryCall<EngineProto.LogRequest, object>,
      cb: grpc.sendUnaryData<object>,
    ) => {
      logged.push(`${call.request.getSeverity()} ${call.request.getMessage()}`);
      cb(null, {});
    },
    ...(method
      ? {
          [method]: (
            call: grpc.ServerUnaryCall<EngineProto.RequirePulumiVersionRequest, object>,
            cb: grpc.sendUnaryData<object>,
          ) => {
            const range = call.request.getPulumiVersionRange();
            asked.push(range);
            if (satisfies(version, range)) cb(null, {});
            else
              cb({
                code: grpc.status.UNKNOWN,
                details: `Pulumi CLI version ${version} does not satisfy the version range "${range}"`,
                name: "Error",
                message: "",
              });
          },
        }
      : {}),
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  return { address: `127.0.0.1:${port}`, logged, asked, close: () => server.forceShutdown() };
}

const { oldest, newest } = TESTED_CLI_RANGE;
const TESTED = `pulumi-discord-commands is tested with the Pulumi CLI ${oldest} to ${newest}`;

test.each([
  ["RequirePulumiVersion", "3.259.0", undefined],
  ["CheckPulumiVersion", oldest, undefined],
  ["RequirePulumiVersion", newest, undefined],
  ["RequirePulumiVersion", "3.300.1", `${TESTED}; this CLI is 3.300.1 (newer than tested).`],
  ["RequirePulumiVersion", "4.0.0", `${TESTED}; this CLI is 4.0.0 (newer than tested).`],
  [
    undefined,
    "3.100.0",
    `${TESTED}; this CLI is older than ${oldest}: upgrade it (pulumi version).`,
  ],
] as const)("the engine's %s at CLI %s: %s", async (method, version, line) => {
  const engine = await standIn(version, method);
  try {
    expect(await cliOutsideRange(engine.address)).toBe(line);
    if (method) expect(engine.asked[0]).toBe(`>=${oldest} <=${newest}`);
  } finally {
    engine.close();
  }
});

test("a CLI older than the range that still answers is named, with the version to upgrade to", async () => {
  const engine = await standIn("3.216.0", "CheckPulumiVersion");
  try {
    expect(await cliOutsideRange(engine.address, { oldest: "3.220.0", newest: "3.274.1" })).toBe(
      "pulumi-discord-commands is tested with the Pulumi CLI 3.220.0 to 3.274.1; this CLI is 3.216.0: upgrade it to 3.220.0 or later.",
    );
  } finally {
    engine.close();
  }
});

test("no engine that answers: nothing is said", async () => {
  const engine = await standIn("3.259.0", "RequirePulumiVersion");
  const address = engine.address;
  engine.close();
  expect(await cliOutsideRange(address)).toBeUndefined();
});

test("the runtime gives the line once per process, as a warning through the engine's Log", async () => {
  const engine = await standIn("3.300.1", "RequirePulumiVersion");
  const rt = new ProviderRuntime({ engineAddress: engine.address });
  try {
    await Promise.all([rt.checkCliVersion(), rt.checkCliVersion()]);
    await rt.checkCliVersion();
    // Severity 2 is WARNING (pulumi/engine.proto): the CLI prints it as a `warning:` line.
    expect(engine.logged).toEqual([`2 ${TESTED}; this CLI is 3.300.1 (newer than tested).`]);
    expect(engine.asked).toHaveLength(1);
  } finally {
    engine.close();
    await rt.close();
  }
});

test("inside the range the runtime says nothing", async () => {
  const engine = await standIn("3.259.0", "RequirePulumiVersion");
  const rt = new ProviderRuntime({ engineAddress: engine.address });
  try {
    await rt.checkCliVersion();
    expect(engine.logged).toEqual([]);
    expect(rt.warnings.messages).toEqual([]);
  } finally {
    engine.close();
    await rt.close();
  }
});
