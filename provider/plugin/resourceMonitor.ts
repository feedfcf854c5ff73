/**
 * The engine's resource monitor as a construct (commandSet.ts) speaks to it: straight over
 * its gRPC, with the properties as plain values (plainStructs.ts), and the registrations
 * the set's component and children take.
 */
import * as grpc from "@grpc/grpc-js";
import * as resproto from "@pulumi/pulumi/proto/resource_pb";
import { ResourceMonitorService } from "@pulumi/pulumi/proto/resource_grpc_pb";
import type { PlainObject } from "../plainStructs";
import { plainStruct, withPlainStructs, withPlainStructWriter } from "../plainStructs";

/** The engine's resource monitor, spoken to directly (commandSet.ts says why). */
export class ResourceMonitor {
  private readonly client: grpc.Client;

  constructor(address: string) {
    this.client = new grpc.Client(address, grpc.credentials.createInsecure(), {
      "grpc.max_receive_message_length": 400 * 1024 * 1024,
    });
  }

  private unary<Req, Res>(
    method: grpc.MethodDefinition<Req, Res>,
    req: Req,
    label: string,
  ): Promise<Res> {
    return new Promise((resolve, reject) => {
      this.client.makeUnaryRequest(
        method.path,
        withPlainStructWriter(method.requestSerialize),
        withPlainStructs(method.responseDeserialize),
        req,
        (err, res) => {
          if (err) reject(new Error(`${label}: ${err.details || err.message}`));
          else if (res === undefined) reject(new Error(`${label}: no answer`));
          else resolve(res);
        },
      );
    });
  }

  /** Registers a resource; fails when the engine reports that it failed or was skipped. */
  async register(
    req: resproto.RegisterResourceRequest,
  ): Promise<resproto.RegisterResourceResponse> {
    const label = `registering ${req.getName()} [${req.getType()}]`;
    const method = ResourceMonitorService.registerResource as grpc.MethodDefinition<
      resproto.RegisterResourceRequest,
      resproto.RegisterResourceResponse
    >;
    const res = await this.unary(method, req, label);
    if (res.getResult() !== resproto.Result.SUCCESS) throw new ChildFailedError(req.getName());
    return res;
  }

  async registerOutputs(urn: string, outputs: PlainObject): Promise<void> {
    const req = new resproto.RegisterResourceOutputsRequest();
    req.setUrn(urn);
    req.setOutputs(plainStruct(outputs));
    const method = ResourceMonitorService.registerResourceOutputs as grpc.MethodDefinition<
      resproto.RegisterResourceOutputsRequest,
      unknown
    >;
    await this.unary(method, req, `registering the outputs of ${urn}`);
  }

  close(): void {
    this.client.close();
  }
}

/**
 * The engine answered a child's registration as failed or skipped (its error is its own):
 * under `--continue-on-error`, after a failed create, update or delete. Without that flag
 * the engine never answers it (pulumi/pulumi 3.259: it stops the deployment and closes the
 * plugin 27-76 ms later, measured), and the Construct call is cut: the engine then adds
 * "CommandSet resource '<name>' has a problem: grpc: the client connection is closing" to
 * the child's own error. Answering before that could not be done safely: under
 * `--continue-on-error` the engine answers the failed child 4-15 ms after its failure,
 * and a construct that answered first would stop the set's other children.
 */
export class ChildFailedError extends Error {
  constructor(readonly childName: string) {
    super(childFailedMessage(childName));
  }
}

export function childFailedMessage(childName: string): string {
  return `its resource '${childName}' failed (that resource's error says why)`;
}

/** A registration with the options every one of ours takes. */
export function registration(
  type: string,
  name: string,
  parent: string,
  custom: boolean,
  object: PlainObject,
): resproto.RegisterResourceRequest {
  const req = new resproto.RegisterResourceRequest();
  req.setType(type);
  req.setName(name);
  req.setParent(parent);
  req.setCustom(custom);
  req.setObject(plainStruct(object));
  req.setAcceptsecrets(true);
  req.setAcceptresources(false);
  req.setSupportspartialvalues(true);
  req.setAliasspecs(true);
  req.setSupportsresultreporting(true);
  return req;
}

/** The URNs a resource depends on, by input property. */
export type Deps = Readonly<Record<string, readonly string[]>>;

export function setDependencies(req: resproto.RegisterResourceRequest, byProperty: Deps): void {
  const all = new Set<string>();
  const map = req.getPropertydependenciesMap();
  for (const [key, urns] of Object.entries(byProperty)) {
    if (urns.length === 0) continue;
    const deps = new resproto.RegisterResourceRequest.PropertyDependencies();
    deps.setUrnsList([...urns]);
    map.set(key, deps);
    for (const u of urns) all.add(u);
  }
  req.setDependenciesList([...all]);
}
