/**
 * The resource plugin as the engine reaches it, for the plugin's provider tests: its real
 * gRPC server on a free loopback port, configured against an in-process emulator, and a
 * client that makes the engine's calls. Values go in and come back with the engine's
 * secret marks; `clearText` is what the engine would keep in clear of them.
 */
import * as grpc from "@grpc/grpc-js";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import { servePlugin } from "../../provider/plugin/server";
import { isRecord, isSecretValue, secretValue } from "../../provider/resources/propertyBags";
import { ProviderRuntime } from "../../provider/resources/runtime";

type Callback<Res> = (err: grpc.ServiceError | null, res: Res) => void;

/** `value` with every secret-marked subtree replaced: what the engine would keep in clear. */
export function inClear(value: unknown): unknown {
  if (isSecretValue(value)) return "[secret]";
  if (Array.isArray(value)) return value.map(inClear);
  if (isRecord(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inClear(v)]));
  return value;
}

export function clearText(value: unknown): string {
  return JSON.stringify(inClear(value));
}

export function struct(value: Record<string, unknown>): Struct {
  return Struct.fromJavaScript(value as Parameters<typeof Struct.fromJavaScript>[0]);
}

/** The plugin served over a fresh runtime, its client, and the emulator it talks to. */
export class PluginUnderTest {
  private constructor(
    readonly emu: RunningEmulator,
    readonly rt: ProviderRuntime,
    readonly server: grpc.Server,
    readonly port: number,
    readonly client: provrpc.ResourceProviderClient,
  ) {}

  /** Starts the emulator (rate limits off) and the plugin, configured with its tokens (secret). */
  static async start(): Promise<PluginUnderTest> {
    const emu = await startEmulator({ port: 0, rateLimits: false });
    const rt = new ProviderRuntime();
    const { server, port } = await servePlugin(rt);
    const client = new provrpc.ResourceProviderClient(
      `127.0.0.1:${port}`,
      grpc.credentials.createInsecure(),
    );
    const plugin = new PluginUnderTest(emu, rt, server, port, client);
    const req = new provproto.ConfigureRequest();
    req.setArgs(
      struct({
        apiUrl: emu.apiUrl,
        applicationId: emu.applicationId,
        botToken: secretValue(emu.botToken),
        bearerToken: secretValue(emu.userBearerToken),
      }),
    );
    await plugin.call("configure", req);
    return plugin;
  }

  call<Req, Res>(method: string, req: Req): Promise<Res> {
    const client = this.client as unknown as Record<string, (r: Req, cb: Callback<Res>) => void>;
    const fn = client[method];
    return new Promise((resolve, reject) => {
      fn!.call(this.client, req, (err, res) => (err ? reject(err) : resolve(res)));
    });
  }

  check(urn: string, news: Record<string, unknown>): Promise<provproto.CheckResponse> {
    const req = new provproto.CheckRequest();
    req.setUrn(urn);
    req.setNews(struct(news));
    return this.call("check", req);
  }

  create(urn: string, props: Struct): Promise<provproto.CreateResponse> {
    const req = new provproto.CreateRequest();
    req.setUrn(urn);
    req.setProperties(props);
    return this.call("create", req);
  }

  async close(): Promise<void> {
    this.client.close();
    this.server.forceShutdown();
    await this.rt.close();
    await this.emu.close();
  }
}
