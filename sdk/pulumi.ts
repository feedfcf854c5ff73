/**
 * The parts of `@pulumi/pulumi` this SDK uses, from the modules that define them: the
 * package's index also loads the Automation API (npm's arborist) and the closure
 * serializer (TypeScript), about 0.7 s measured, which a program that only declares
 * commands never needs (the language host's runtime loads the rest anyway). The classes
 * are the index's own, so a program's `pulumi.Input`, outputs and resource options mix
 * with these freely.
 */
export { Output, output, all, isSecret, unsecret } from "@pulumi/pulumi/output";
export type { Input, Inputs } from "@pulumi/pulumi/output";
export { CustomResource, ComponentResource, Resource, createUrn } from "@pulumi/pulumi/resource";
export type { CustomResourceOptions, ComponentResourceOptions } from "@pulumi/pulumi/resource";
export { RunError } from "@pulumi/pulumi/errors";
export { Config } from "@pulumi/pulumi/config";
export { isDryRun } from "@pulumi/pulumi/runtime/settings";

import { RunError as SdkRunError } from "@pulumi/pulumi/errors";
import { warn } from "@pulumi/pulumi/log";
import { outsideTestedRange, TESTED_RANGE } from "../provider/testedRange";
import { installPlainStructs } from "../provider/plainStructs";

/**
 * The program's `@pulumi/pulumi` against the tested range (provider/testedRange.ts): one
 * line naming the range, rather than whatever an untested SDK fails with later. Older than
 * the range fails the program (it lacks what the package uses); newer warns.
 */
function checkSdkVersion(): void {
  let version: unknown;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    version = (require("@pulumi/pulumi/package.json") as { version?: unknown }).version;
  } catch {
    return; // a bundler that left package.json out: nothing to say
  }
  if (typeof version !== "string") return;
  const outside = outsideTestedRange("@pulumi/pulumi", version, TESTED_RANGE.newest.nodejs);
  if (outside?.older) throw new SdkRunError(outside.line);
  if (outside) void warn(outside.line);
}
checkSdkVersion();

// The program's registrations encoded from plain values (provider/plainStructs.ts).
installPlainStructs();
