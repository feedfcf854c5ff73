/**
 * Warnings the provider gives the user while an operation still succeeds (a bulk
 * overwrite that made again a command another writer deleted in its window: issue 39;
 * its text tells the stack's own commands from another writer's, `racedOverwriteWarning`).
 *
 * How they reach the user, in both front doors: the engine starts the dynamic-provider
 * host (`pulumi-resource-pulumi-nodejs`) and the resource plugin with its own address as
 * the last argument, and serves the `pulumirpc.Engine` `Log` call there: a message sent
 * with severity WARNING is printed by the CLI as a `warning:` line of the deployment's
 * diagnostics, like `pulumi.log.warn` in a program. Neither process connects to it by
 * itself (the dynamic-provider host takes the address and ignores it), so this does. Where
 * there is no engine (tests, the CLI's commands), or the call fails, the line goes to
 * stderr, which the engine also shows (as an info line of the stack) for a plugin.
 *
 * Every warning is also kept (`messages`), for tests and for callers that report them.
 *
 * Also the schema's warnings about a resource's inputs (deprecated fields, a context that
 * has no effect), which each lifecycle's `check` gives, in both doors (`forResource`).
 */
import type * as Grpc from "@grpc/grpc-js";
import type * as EngineGrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as EngineProto from "@pulumi/pulumi/proto/engine_pb";
import type { Claim } from "./claims";
import { claimLabels } from "./claims";
import { Secrecy } from "../schema";

/** A command a bulk overwrite carried, that another writer deleted in its window. */
export interface RacedCommand {
  /** The scope, as messages name it. */
  readonly where: string;
  readonly name: string;
  /** The id the overwrite carried it by. */
  readonly id: string;
  /** The id the service made it again under; undefined when the answer lacks it. */
  readonly newId: string | undefined;
  /** The claim of the stack's resource that declares it, if one of this deployment does. */
  readonly declaredBy: Claim | undefined;
}

/**
 * The warning of a carried command that another writer deleted while the overwrite was
 * built. Whose it is decides the advice: another writer's command is the user's to delete
 * again; a command of the stack's own resource (another resource than the one writing)
 * now has an id its state does not hold, which a refresh, then an `up`, takes over.
 */
export function racedOverwriteWarning(c: RacedCommand): string {
  const command = `${c.where}: the command ${racedCommandName(c)}`;
  if (c.declaredBy !== undefined) {
    const resource = claimLabels([c.declaredBy]).join("");
    const what =
      c.newId !== undefined
        ? `was deleted by another writer while a bulk overwrite was built, and the overwrite made it again under the new id ${c.newId}`
        : "is not in a bulk overwrite's answer (another writer changed it meanwhile)";
    return (
      `${command}, which this stack's resource ${resource} declares, ${what}; ` +
      `the stack's state still holds the id ${c.id}: run \`pulumi refresh\`, then \`pulumi up\` ` +
      "takes the command over by name"
    );
  }
  return c.newId !== undefined
    ? `${command}, which this stack does not manage, was deleted by another writer while the ` +
        `bulk overwrite was built, and the overwrite made it again under the new id ${c.newId}; ` +
        "delete it again if it should be gone"
    : `${command}, which this stack does not manage, is not in the bulk overwrite's answer ` +
        "(another writer changed it meanwhile)";
}

/**
 * How the warning names the command: by the name the stack's resource declares (`[secret]`
 * when its claim marks it secret), else by id alone: a command no resource checked so far
 * declares may be the secret name of a resource checked later (issue 50).
 */
function racedCommandName(c: RacedCommand): string {
  if (c.declaredBy === undefined) return `of id ${c.id}`;
  const secrecy = c.declaredBy.secret === true ? Secrecy.ALL : Secrecy.NONE;
  return `${secrecy.quote(c.name, [])} (id ${c.id})`;
}

/** The engine's address among a plugin process's arguments (the last one), if any. */
export function engineAddress(argv: readonly string[] = process.argv): string | undefined {
  const last = argv.length > 2 ? argv[argv.length - 1] : undefined;
  return last !== undefined && /^(\[[0-9a-fA-F:]+\]|[\w.-]+):\d{1,5}$/.test(last)
    ? last
    : undefined;
}

/** Where a warning line goes. */
export type WarningSink = (message: string) => Promise<void>;

/** Severity WARNING of pulumirpc.LogSeverity (pulumi/engine.proto). */
const LOG_SEVERITY_WARNING = 2;

/** Sends warnings to the engine at `address` through its `Log` call. */
export function engineSink(address: string): WarningSink {
  let client: EngineGrpc.EngineClient | undefined;
  return (message) =>
    new Promise<void>((resolve, reject) => {
      try {
        // Loaded on the first warning only: most deployments never give one.
        /* eslint-disable @typescript-eslint/no-require-imports */
        const grpc = require("@grpc/grpc-js") as typeof Grpc;
        const engrpc = require("@pulumi/pulumi/proto/engine_grpc_pb") as typeof EngineGrpc;
        const engproto = require("@pulumi/pulumi/proto/engine_pb") as typeof EngineProto;
        /* eslint-enable @typescript-eslint/no-require-imports */
        client ??= new engrpc.EngineClient(address, grpc.credentials.createInsecure());
        const req = new engproto.LogRequest();
        req.setSeverity(LOG_SEVERITY_WARNING as EngineProto.LogSeverity);
        req.setMessage(message);
        const deadline = Date.now() + 5_000;
        client.log(req, new grpc.Metadata(), { deadline }, (err) =>
          err ? reject(err) : resolve(),
        );
      } catch (err) {
        reject(err);
      }
    });
}

/** stderr: what the engine shows of a plugin's own output. */
export const stderrSink: WarningSink = async (message) => {
  process.stderr.write(`warning: ${message}\n`);
};

export class Warnings {
  /** Every warning given, in order. */
  readonly messages: string[] = [];
  private readonly sink: WarningSink;
  /** The lines `forResource` gave. */
  private readonly given = new Set<string>();

  /** `sink`: the engine's `Log` (engineSink) where there is an engine, else stderrSink. */
  constructor(sink: WarningSink) {
    this.sink = sink;
  }

  /**
   * Gives one warning line; resolves once it was handed over (never rejects: a warning
   * that cannot reach the engine goes to stderr instead).
   */
  async warn(message: string): Promise<void> {
    this.messages.push(message);
    try {
      await this.sink(message);
    } catch {
      await stderrSink(message);
    }
  }

  /**
   * Gives each of a resource's warnings (`lines`: `path: message (code)`), headed by how
   * messages name the resource, unless this process gave it already: `check` may run more
   * than once per resource in one deployment, and the user needs each warning once.
   */
  async forResource(resource: string, lines: readonly string[]): Promise<void> {
    for (const line of lines) {
      const message = `${resource}: ${line}`;
      if (this.given.has(message)) continue;
      this.given.add(message);
      await this.warn(message);
    }
  }
}
