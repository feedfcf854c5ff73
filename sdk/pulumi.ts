/**
 * The parts of `@pulumi/pulumi` this SDK uses, from the modules that define them: the
 * package's index also loads the Automation API (npm's arborist) and the closure
 * serializer (TypeScript), about 0.7 s measured, which a program that only declares
 * commands never needs (the language host's runtime loads the rest anyway). The classes
 * are the index's own, so a program's `pulumi.Input`, outputs and resource options mix
 * with these freely.
 */
export { Output, output, all, unsecret } from "@pulumi/pulumi/output";
export type { Input, Inputs } from "@pulumi/pulumi/output";
export { CustomResource, ComponentResource, Resource } from "@pulumi/pulumi/resource";
export type { CustomResourceOptions, ComponentResourceOptions } from "@pulumi/pulumi/resource";
export { RunError } from "@pulumi/pulumi/errors";
export { Config } from "@pulumi/pulumi/config";
export * as log from "@pulumi/pulumi/log";
