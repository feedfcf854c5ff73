/**
 * The resource plugin `discord-commands`: Pulumi's provider protocol (gRPC) over the same
 * resource lifecycles as the dynamic resources (provider/resources), on one provider
 * runtime per plugin process. Every language reaches it through the package schema
 * (plugin/schema.json) and the SDKs generated from it.
 *
 * Why not `@pulumi/pulumi/provider`'s `main` (3.259): its server answers `Configure`
 * without handing the provider its configuration (the provider interface has no
 * `configure`), leaves `CheckConfig` and `DiffConfig` unimplemented, and its `Read` crashes
 * on an import, whose request carries no properties (`req.getProperties().toJavaScript()`
 * of undefined; verified). This server uses the same generated gRPC
 * stubs and the same grpc-js, and implements those methods.
 *
 * Still so in 3.276.0, the newest end of the tested range (provider/testedRange.ts):
 * `provider/server.js` answers CheckConfig and DiffConfig UNIMPLEMENTED, its Configure drops
 * the configuration, and its Read still calls `req.getProperties().toJavaScript()`. So there
 * is no switch to that server (issue 37): on it the plugin would never see its credentials.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import type * as structproto from "google-protobuf/google/protobuf/struct_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { ConfigurationError } from "../client";
import type { Bag } from "../resources/propertyBags";
import { SECRET_PATHS_KEY, secretPathsIn, unwrapSecrets } from "../resources/propertyBags";
import { ENGINE_FAILURE_PROPERTY } from "../resources/engineErrors";
import type { ProviderRuntime } from "../resources/runtime";
import { ChildFailures } from "./childFailures";
import { flushCompileCache } from "./compileCache";
import type { PlainValue } from "../plainStructs";
import { plainStruct, withPlainStructs, withPlainStructWriter } from "../plainStructs";
import type { PluginResource, ReadTarget } from "./resources";
import { pluginResources, PLUGIN_CONFIG_KEYS, pluginStackConfig, urnType } from "./resources";
import { unmarkedInState, withSecretCredentials, withSecrets } from "./secrets";
import { outsideTestedRange, TESTED_RANGE } from "../testedRange";

/** The package's root: `provider/plugin` is two levels down, three once built into `dist/`. */
const PACKAGE_ROOT =
  ["..", "../.."]
    .map((up) => path.resolve(__dirname, "..", up))
    .find((dir) => fs.existsSync(path.join(dir, "plugin", "PulumiPlugin.yaml"))) ??
  path.resolve(__dirname, "../..");

function packageVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as {
    version?: unknown;
  };
  return typeof pkg.version === "string" ? pkg.version : "0.0.0";
}

/** The package schema, generated from provider/schema (`npm run generate`). */
export function packageSchema(): string {
  return fs.readFileSync(path.join(PACKAGE_ROOT, "plugin", "schema.json"), "utf8");
}

/** The engine's values, secret marks included. */
function raw(struct: structproto.Struct | undefined): unknown {
  return struct?.toJavaScript();
}

/**
 * The engine's values as the lifecycles take them: secrets unwrapped, and where they were
 * told by path in `SECRET_PATHS_KEY` (propertyBags.ts), as the dynamic resources tell it:
 * every message the lifecycles build quotes those values as `[secret]`.
 */
function bag(struct: structproto.Struct | undefined): Bag {
  if (struct === undefined) return {};
  const values = struct.toJavaScript();
  const unwrapped = unwrapSecrets(values) as Bag;
  const paths = secretPathsIn(values);
  return paths.length === 0 ? unwrapped : { ...unwrapped, [SECRET_PATHS_KEY]: paths };
}

function toStruct(value: Bag): structproto.Struct {
  // Struct cannot hold `undefined`: drop those keys. Serialized straight from the values
  // (plainStructs.ts). The secret paths are the engine's own marks here: not kept.
  const { [SECRET_PATHS_KEY]: _paths, ...kept } = value;
  return plainStruct(JSON.parse(JSON.stringify(kept)) as Record<string, PlainValue>);
}

/**
 * A check's failures as the engine takes them: no property (engineErrors.ts
 * `ENGINE_FAILURE_PROPERTY` says why). The reasons quote no secret: the lifecycles built
 * them knowing the secret paths (`bag`).
 */
function engineCheckFailures(
  failures: readonly { readonly reason: string }[],
): provproto.CheckFailure[] {
  return failures.map((f) => {
    const failure = new provproto.CheckFailure();
    failure.setProperty(ENGINE_FAILURE_PROPERTY);
    failure.setReason(f.reason);
    return failure;
  });
}

function failed(err: unknown): grpc.ServiceError {
  const message = err instanceof Error ? err.message : String(err);
  // No `code` of the service's may reach grpc-js (engineErrors.ts): UNKNOWN, one message.
  return Object.assign(new Error(message), {
    code: grpc.status.UNKNOWN,
    details: message,
    metadata: new grpc.Metadata(),
  });
}

type Unary<Req, Res> = grpc.handleUnaryCall<Req, Res>;

/**
 * A unary handler that answers with `fn`'s value, or its failure as one message. The
 * message quotes no secret: the lifecycles name a resource and quote its values knowing
 * which are secret (`bag`). `onFailure` hears of the failure before the engine does.
 */
function unary<Req, Res>(
  fn: (req: Req) => Promise<Res>,
  onFailure?: (req: Req) => void,
): Unary<Req, Res> {
  return (call, callback) => {
    fn(call.request).then(
      (res) => callback(null, res),
      (err: unknown) => {
        onFailure?.(call.request);
        callback(failed(err), null);
      },
    );
  };
}

/** The gRPC service implementation over one runtime. */
export function providerService(rt: ProviderRuntime): Partial<provrpc.IResourceProviderServer> {
  const resources = pluginResources(rt);
  /** The checks and diffs that failed, for the constructs waiting on them (childFailures.ts). */
  const failures = new ChildFailures();
  const report = (req: { getUrn(): string }): void => failures.report(req.getUrn());
  const resourceOf = (urn: string): PluginResource => {
    const type = urnType(urn);
    const resource = resources.get(type);
    if (resource === undefined) throw new Error(`unknown resource type ${type}`);
    return resource;
  };

  return {
    getPluginInfo: unary(async () => {
      const info = new plugproto.PluginInfo();
      info.setVersion(packageVersion());
      return info;
    }),

    getSchema: unary(async (req: provproto.GetSchemaRequest) => {
      if (req.getVersion() !== 0) throw new Error(`unsupported schema version ${req.getVersion()}`);
      const res = new provproto.GetSchemaResponse();
      res.setSchema(packageSchema());
      return res;
    }),

    checkConfig: unary(async (req: provproto.CheckRequest) => {
      const news = req.getNews();
      const res = new provproto.CheckResponse();
      // Handed back with every credential marked secret (secrets.ts says why); only judged here.
      if (news !== undefined) {
        const marked = withSecretCredentials(raw(news) as Bag);
        res.setInputs(Struct.fromJavaScript(marked as Parameters<typeof Struct.fromJavaScript>[0]));
      }
      const problems = rt.checkConfiguration(pluginStackConfig(bag(news), new Map()));
      res.setFailuresList(engineCheckFailures(problems));
      return res;
    }),

    diffConfig: unary(async (req: provproto.DiffRequest) => {
      const res = new provproto.DiffResponse();
      const olds = bag(req.getOldInputs() ?? req.getOlds());
      const news = bag(req.getNews());
      const changed = PLUGIN_CONFIG_KEYS.filter(
        (k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]),
      );
      // A changed setting updates the provider; it never replaces the resources (those
      // whose inputs follow it, such as the default applicationId, diff on their own).
      res.setChanges(
        changed.length > 0
          ? provproto.DiffResponse.DiffChanges.DIFF_SOME
          : provproto.DiffResponse.DiffChanges.DIFF_NONE,
      );
      res.setDiffsList(changed);
      return res;
    }),

    configure: unary(async (req: provproto.ConfigureRequest) => {
      const variables = new Map<string, string>();
      req.getVariablesMap().forEach((value: string, key: string) => variables.set(key, value));
      rt.configure(pluginStackConfig(bag(req.getArgs()), variables));
      await rt.checkCliVersion();
      const res = new provproto.ConfigureResponse();
      // Secrets accepted (the engine requires it of a plugin that constructs components):
      // they arrive marked and are unwrapped (bag); what came in secret, and the outputs the
      // schema marks secret, go back marked (withSecrets).
      res.setAcceptsecrets(true);
      res.setAcceptresources(false);
      res.setAcceptoutputs(false);
      // Create and update never run in a preview: what they return is the service's.
      res.setSupportspreview(false);
      return res;
    }),

    check: unary(async (req: provproto.CheckRequest) => {
      const urn = req.getUrn();
      const resource = resourceOf(urn);
      const checked = await resource.lifecycle.check(bag(req.getOlds()), bag(req.getNews()));
      const result = resource.withClaims(urn, checked);
      if (result.failures.length > 0) {
        failures.report(urn);
      }
      const res = new provproto.CheckResponse();
      res.setInputs(toStruct(withSecrets(result.inputs, raw(req.getNews()))));
      res.setFailuresList(engineCheckFailures(result.failures));
      return res;
    }, report),

    diff: unary(async (req: provproto.DiffRequest) => {
      const urn = req.getUrn();
      // The old outputs, as the dynamic-provider host hands them: one lifecycle for both
      // doors (update reads `version` and `adopted` from them).
      const olds = bag(req.getOlds());
      const resource = resourceOf(urn);
      const result = await resource.lifecycle.diff(req.getId(), olds, bag(req.getNews()));
      const changes = result.changes || resource.rewritesState(olds);
      // Values the state holds in clear that the program marks secret: only an update
      // stores them marked (secrets.ts `unmarkedInState`), and it writes nothing.
      const unmarked = changes ? [] : unmarkedInState(raw(req.getOlds()), raw(req.getNews()));
      const detailedDiff =
        unmarked.length > 0
          ? Object.fromEntries(unmarked.map((k) => [k, "update" as const]))
          : result.detailedDiff;
      const res = new provproto.DiffResponse();
      res.setChanges(
        changes || unmarked.length > 0
          ? provproto.DiffResponse.DiffChanges.DIFF_SOME
          : provproto.DiffResponse.DiffChanges.DIFF_NONE,
      );
      res.setReplacesList(result.replaces);
      res.setDeletebeforereplace(result.deleteBeforeReplace);
      if (detailedDiff !== undefined) {
        // The changed paths (`commands["kick"].description`), so the preview names them.
        const kinds = {
          add: provproto.PropertyDiff.Kind.ADD,
          update: provproto.PropertyDiff.Kind.UPDATE,
          delete: provproto.PropertyDiff.Kind.DELETE,
        };
        const map = res.getDetaileddiffMap();
        const top = new Set<string>();
        for (const [path, kind] of Object.entries(detailedDiff)) {
          const d = new provproto.PropertyDiff();
          d.setKind(kinds[kind]);
          d.setInputdiff(true);
          map.set(path, d);
          top.add(path.split(/[.[]/)[0] ?? path);
        }
        for (const key of result.replaces) {
          const d = new provproto.PropertyDiff();
          d.setKind(provproto.PropertyDiff.Kind.UPDATE_REPLACE);
          d.setInputdiff(true);
          map.set(key, d);
          top.add(key);
        }
        res.setHasdetaileddiff(true);
        res.setDiffsList([...top].filter((k) => k !== ""));
      }
      return res;
    }, report),

    create: unary(async (req: provproto.CreateRequest) => {
      const urn = req.getUrn();
      const result = await resourceOf(urn).lifecycle.create(bag(req.getProperties()));
      const res = new provproto.CreateResponse();
      res.setId(result.id);
      res.setProperties(toStruct(withSecrets(result.outs, raw(req.getProperties()))));
      return res;
    }),

    read: unary(async (req: provproto.ReadRequest) => {
      const resource = resourceOf(req.getUrn());
      // An import's Read carries no properties: the id alone says what to read.
      const read: ReadTarget = req.hasProperties()
        ? { id: req.getId(), props: bag(req.getProperties()) }
        : resource.importRead(req.getId());
      const result = await resource.lifecycle.read(read.id, read.props);
      if (result.id === "" && read.missing !== undefined) {
        throw new ConfigurationError(read.missing);
      }
      const res = new provproto.ReadResponse();
      res.setId(result.id);
      const given = [raw(req.getProperties()), raw(req.getInputs())];
      if (result.props !== undefined)
        res.setProperties(toStruct(withSecrets(result.props, ...given)));
      if (result.inputs !== undefined)
        res.setInputs(toStruct(withSecrets(result.inputs, ...given)));
      return res;
    }),

    update: unary(async (req: provproto.UpdateRequest) => {
      const urn = req.getUrn();
      const olds = bag(req.getOlds()); // old outputs, as in diff
      const result = await resourceOf(urn).lifecycle.update(req.getId(), olds, bag(req.getNews()));
      const res = new provproto.UpdateResponse();
      res.setProperties(toStruct(withSecrets(result.outs, raw(req.getNews()), raw(req.getOlds()))));
      return res;
    }),

    delete: unary(async (req: provproto.DeleteRequest) => {
      const urn = req.getUrn();
      await resourceOf(urn).lifecycle.delete(req.getId(), bag(req.getProperties()));
      return new emptyproto.Empty();
    }),

    // Components (CommandSet): their children are registered from this process, straight
    // with the engine's resource monitor (commandSet.ts, loaded on the first Construct).
    construct: unary(async (req: provproto.ConstructRequest) => {
      const at = rt.timing.time();
      let failed = true;
      try {
        const { constructCommandSet } = await import("./commandSet");
        flushCompileCache();
        const res = await constructCommandSet(req, failures);
        failed = false;
        return res;
      } finally {
        rt.timing.call("construct", `the command set '${req.getName()}'`, at, failed);
      }
    }),

    cancel: unary(async () => {
      await rt.close();
      return new emptyproto.Empty();
    }),

    attach: unary(async () => new emptyproto.Empty()),
  };
}

/**
 * The provider service whose resource calls decode their properties straight into plain
 * values (plainStructs.ts): check, diff, create, read, update, delete and construct only
 * read them; their answers serialize the properties straight from plain values.
 */
function plainStructService(): grpc.ServiceDefinition {
  const plain = new Set(["check", "diff", "create", "read", "update", "delete", "construct"]);
  const methods = Object.entries(provrpc.ResourceProviderService as grpc.ServiceDefinition);
  if (methods.filter(([name]) => plain.has(name)).length !== plain.size) {
    throw new Error("the provider service lacks a resource method");
  }
  return Object.fromEntries(
    methods.map(([name, def]) =>
      plain.has(name)
        ? [
            name,
            {
              ...def,
              requestDeserialize: withPlainStructs(def.requestDeserialize),
              responseSerialize: withPlainStructWriter(def.responseSerialize),
            },
          ]
        : [name, def],
    ),
  );
}

/**
 * Serves the plugin on a free loopback port. Resolves with the server and its port
 * (main.ts prints the port, as the engine expects of a plugin; tests stop the server with
 * `forceShutdown`).
 */
export async function servePlugin(
  rt: ProviderRuntime,
): Promise<{ server: grpc.Server; port: number }> {
  // The protocol's stubs are the installed @pulumi/pulumi's: one line naming the tested
  // range (plugin/index.js prints it) rather than a gRPC error from an SDK that predates it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sdk = (require("@pulumi/pulumi/package.json") as { version: string }).version;
  const outside = outsideTestedRange("@pulumi/pulumi", sdk, TESTED_RANGE.newest.nodejs);
  if (outside?.older) throw new Error(outside.line);
  const server = new grpc.Server({
    "grpc.max_receive_message_length": 400 * 1024 * 1024,
  });
  server.addService(plainStructService(), providerService(rt) as grpc.UntypedServiceImplementation);
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    );
  });
  return { server, port };
}
