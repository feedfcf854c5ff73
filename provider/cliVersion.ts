/**
 * The Pulumi CLI running a deployment, against the tested range (testedRange.ts): one
 * warning line naming the range when the CLI lies outside it (issue 37).
 *
 * Neither a plugin nor a program is told the CLI's version. The engine answers one
 * question instead, through its public `pulumirpc.Engine` service (the address every
 * plugin process gets as its last argument): does the CLI satisfy a version range? The
 * call is `RequirePulumiVersion` from CLI 3.217.0 on; 3.216.0 answers the same request
 * under its first name, `CheckPulumiVersion` (pulumi/pulumi sdk/go/common/resource/plugin/
 * host_server.go at each tag); older CLIs answer neither, and are older than the range.
 * The engine's refusal names the CLI's version ("Pulumi CLI version 3.280.0 does not
 * satisfy the version range ..."; ValidatePulumiVersionRange), which the line repeats.
 *
 * A warning, not a failure: a CLI newer than the range is untested and most likely fine,
 * and one older than it may still work; the line is there so that whatever it fails with
 * next comes with the reason. Anything else (no engine, an engine that does not answer in
 * time) says nothing.
 */
import type * as Grpc from "@grpc/grpc-js";
import { BinaryWriter } from "google-protobuf";
import { compareVersions, TESTED_RANGE } from "./testedRange";

export interface CliRange {
  readonly oldest: string;
  readonly newest: string;
}

/** The CLI's part of the tested range. */
export const TESTED_CLI_RANGE: CliRange = {
  oldest: TESTED_RANGE.oldest.cli,
  newest: TESTED_RANGE.newest.cli,
};

/** The engine's two names of the call, newest first. */
const METHODS = ["/pulumirpc.Engine/RequirePulumiVersion", "/pulumirpc.Engine/CheckPulumiVersion"];

/** gRPC status UNIMPLEMENTED: the engine has no such call. */
const UNIMPLEMENTED = 12;

/** How long the engine has to answer (it answers in well under a millisecond). */
const DEADLINE_MS = 5_000;

/**
 * `RequirePulumiVersionRequest { string pulumi_version_range = 1; }`, the same shape as
 * `CheckPulumiVersionRequest`: written with google-protobuf's writer rather than the
 * installed @pulumi/pulumi's message class, which is named after whichever call its
 * release has.
 */
function encodeRange(range: string): Buffer {
  const writer = new BinaryWriter();
  writer.writeString(1, range);
  return Buffer.from(writer.getResultBuffer());
}

/** What the engine said of one range. */
export type RangeAnswer =
  | { readonly satisfied: true }
  | { readonly satisfied: false; readonly message: string }
  /** Neither call exists: a CLI older than 3.216.0. */
  | { readonly satisfied: "unknown" };

/** Asks the engine at `address` whether its CLI satisfies `range` (blang/semver syntax). */
export async function askEngine(address: string, range: string): Promise<RangeAnswer> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const grpc = require("@grpc/grpc-js") as typeof Grpc;
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  try {
    for (const method of METHODS) {
      const answer = await new Promise<RangeAnswer | "unimplemented">((resolve, reject) => {
        client.makeUnaryRequest(
          method,
          (range: string) => encodeRange(range),
          () => ({}),
          range,
          new grpc.Metadata(),
          { deadline: Date.now() + DEADLINE_MS },
          (err) => {
            if (!err) resolve({ satisfied: true });
            else if (err.code === UNIMPLEMENTED) resolve("unimplemented");
            else if (/does not satisfy/.test(err.details))
              resolve({ satisfied: false, message: err.details });
            else reject(err);
          },
        );
      });
      if (answer !== "unimplemented") return answer;
    }
    return { satisfied: "unknown" };
  } finally {
    client.close();
  }
}

/** The CLI's version in the engine's refusal, if it names one. */
function versionIn(message: string): string | undefined {
  return /version v?(\d+\.\d+\.\d+\S*) does not satisfy/.exec(message)?.[1];
}

/**
 * The line for the CLI behind the engine at `address`, or undefined inside `range` (or
 * when the engine cannot be asked).
 */
export async function cliOutsideRange(
  address: string,
  range: CliRange = TESTED_CLI_RANGE,
): Promise<string | undefined> {
  const tested = `pulumi-discord-commands is tested with the Pulumi CLI ${range.oldest} to ${range.newest}`;
  let answer: RangeAnswer;
  try {
    answer = await askEngine(address, `>=${range.oldest} <=${range.newest}`);
  } catch {
    return undefined;
  }
  if (answer.satisfied === true) return undefined;
  if (answer.satisfied === "unknown") {
    return `${tested}; this CLI is older than ${range.oldest}: upgrade it (pulumi version).`;
  }
  const version = versionIn(answer.message);
  const older =
    version !== undefined
      ? compareVersions(version, range.oldest) < 0
      : (await askEngine(address, `<${range.oldest}`).catch(() => undefined))?.satisfied === true;
  const running = version !== undefined ? `this CLI is ${version}` : "this CLI is outside it";
  return older
    ? `${tested}; ${running}: upgrade it to ${range.oldest} or later.`
    : `${tested}; ${running} (newer than tested).`;
}
