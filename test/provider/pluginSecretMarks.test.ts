/**
 * Outputs derived from a secret keep its mark, through the plugin's real gRPC server and the
 * emulator (issue 45): marks follow values, not places (a refresh that returns a list
 * re-ordered keeps each mark on its value); outputs keyed by a secret command name are
 * secret (a ScopeCommands' commandIds, a CommandSet's, packed or not); and a field the program declares
 * secret on an imported resource (whose import Read carries no inputs) is stored marked by
 * the update its diff asks for, an update that writes nothing to the service. The engine
 * test proves the same end to end with `pulumi stack export`
 * (test/engine/plugin-secret-marks.test.ts).
 */
import * as grpc from "@grpc/grpc-js";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as resproto from "@pulumi/pulumi/proto/resource_pb";
import { ResourceMonitorService } from "@pulumi/pulumi/proto/resource_grpc_pb";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import type { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { childUrn } from "../../provider/plugin/childFailures";
import { COMMAND_SET_TOKEN } from "../../provider/plugin/commandSet";
import { withSecrets } from "../../provider/plugin/secrets";
import type { Bag } from "../../provider/resources/propertyBags";
import { isSecretValue, secretValue } from "../../provider/resources/propertyBags";
import { clearText, inClear, PluginUnderTest, struct } from "./pluginClient";

const GLOBAL_URN = "urn:pulumi:dev::bot::discord-commands:index:GlobalCommand::";
const SCOPE_URN = "urn:pulumi:dev::bot::discord-commands:index:ScopeCommands::";

let plugin: PluginUnderTest;

beforeAll(async () => {
  plugin = await PluginUnderTest.start();
});

afterAll(async () => {
  await plugin?.close();
});

/** A resource checked and created as the engine does it: its id, properties and inputs. */
async function deploy(
  urn: string,
  news: Bag,
): Promise<{ id: string; props: Struct; inputs: Struct }> {
  const checked = await plugin.check(urn, news);
  expect(checked.getFailuresList().map((f) => f.getReason())).toEqual([]);
  const created = await plugin.create(urn, checked.getInputs()!);
  return { id: created.getId(), props: created.getProperties()!, inputs: checked.getInputs()! };
}

function read(
  urn: string,
  id: string,
  props?: Struct,
  inputs?: Struct,
): Promise<provproto.ReadResponse> {
  const req = new provproto.ReadRequest();
  req.setUrn(urn);
  req.setId(id);
  if (props !== undefined) req.setProperties(props);
  if (inputs !== undefined) req.setInputs(inputs);
  return plugin.call("read", req);
}

function diff(
  urn: string,
  id: string,
  olds: Struct,
  news: Struct,
): Promise<provproto.DiffResponse> {
  const req = new provproto.DiffRequest();
  req.setUrn(urn);
  req.setId(id);
  req.setOlds(olds);
  req.setNews(news);
  return plugin.call("diff", req);
}

function writes(): string[] {
  return plugin.emu
    .requestLog()
    .filter((e) => e.method !== "GET")
    .map((e) => `${e.method} ${e.path}`);
}

describe("marks follow values, not places", () => {
  test("a refresh that returns contexts re-ordered keeps the mark on the secret value", async () => {
    const urn = `${GLOBAL_URN}dm`;
    // PRIVATE_CHANNEL (2) declared secret, GUILD (0) not.
    const made = await deploy(urn, {
      applicationId: plugin.emu.applicationId,
      name: "dm",
      description: "Talk in private",
      contexts: [secretValue(2), 0],
    });
    // Out of band: GUILD dropped, BOT_DM (1) added; the service lists 2 second.
    plugin.emu.control.patchCommand(made.id, { contexts: [1, 2] });
    const refreshed = await read(urn, made.id, made.props, made.inputs);
    for (const answer of [refreshed.getProperties()!, refreshed.getInputs()!]) {
      const contexts = answer.toJavaScript()["contexts"];
      expect(inClear(contexts)).toEqual([1, "[secret]"]);
    }
  });

  test("options re-ordered keep each mark on its own option", () => {
    const input = {
      options: [
        { type: 3, name: "topic", description: secretValue("the-hidden-topic-text") },
        { type: 3, name: "when", description: "When to meet" },
      ],
    };
    const out = withSecrets(
      {
        options: [
          { type: 3, name: "when", description: "When to meet" },
          // drifted: the option of the secret description, required now
          { type: 3, name: "topic", description: "the-hidden-topic-text", required: true },
        ],
      },
      input,
    );
    expect(inClear(out["options"])).toEqual([
      { type: 3, name: "when", description: "When to meet" },
      { type: 3, name: "topic", description: "[secret]", required: true },
    ]);
  });
});

describe("outputs keyed by a secret name are secret", () => {
  test("a ScopeCommands' commandIds, when its commands (and so their names) are secret", async () => {
    // A CommandSet with a secret definition marks its scope's whole `commands` map secret;
    // the key of a USER command `ab` is `user:ab`.
    const made = await deploy(`${SCOPE_URN}keyed`, {
      applicationId: plugin.emu.applicationId,
      guildId: plugin.emu.guildId,
      commands: secretValue({ "user:ab": { type: 2, name: "ab" } }),
    });
    const outs = made.props.toJavaScript();
    expect(isSecretValue(outs["commandIds"])).toBe(true);
    expect(clearText(outs)).not.toMatch(/\bab\b/i);
  });

  // Names of their own: the plugin's claims (claims.ts) span its process, so the two sets
  // declaring one command would be a problem.
  test.each([
    ["one ScopeCommands per scope", false, "hidden-name"],
    ["packed: one CommandSetScopes", true, "hidden-packed"],
  ])(
    "a CommandSet's commandIds, when a command's name is secret (%s)",
    async (_, packed, hidden) => {
      const help = `help-${hidden}`;
      const monitor = await StandInMonitor.start(plugin);
      try {
        const req = new provproto.ConstructRequest();
        req.setType(COMMAND_SET_TOKEN);
        req.setName("mods");
        req.setMonitorendpoint(`127.0.0.1:${monitor.port}`);
        req.setInputs(
          struct({
            commands: [
              { name: secretValue(hidden), description: "Not for everyone" },
              { name: help, description: "How to use the bot" },
            ],
            scopes: [{ guildId: plugin.emu.guildId }, {}],
            packed,
          }),
        );
        const res: provproto.ConstructResponse = await plugin.call("construct", req);
        const state = res.getState()!.toJavaScript();
        expect(JSON.stringify(state)).toContain(hidden); // there, marked
        expect(clearText(state)).not.toContain(hidden);
        expect(clearText(monitor.outputs)).not.toContain(hidden);
        // Each scope's ids: known, every command's, secret as a whole (keyed by the names).
        const ids = state["commandIds"] as Record<string, unknown>;
        expect(Object.keys(ids).sort()).toEqual([plugin.emu.guildId, "global"].sort());
        for (const scope of Object.values(ids)) {
          expect(isSecretValue(scope)).toBe(true);
          expect(Object.keys((scope as { value: object }).value).sort()).toEqual(
            [help, hidden].sort(),
          );
        }
      } finally {
        monitor.close();
      }
    },
  );
});

describe("an imported resource whose program declares a field secret", () => {
  test("its diff asks for the update that stores the field marked, which writes nothing", async () => {
    const urn = `${GLOBAL_URN}hello`;
    const live = plugin.emu.control.commands().length;
    const created = await deploy(`${GLOBAL_URN}existing`, {
      applicationId: plugin.emu.applicationId,
      name: "hello",
      description: "Say hello quietly",
    });
    expect(plugin.emu.control.commands()).toHaveLength(live + 1);
    // The import: a Read by id, no properties, no inputs (pulumi/pulumi ImportStep.Apply).
    const imported = await read(urn, created.id);
    const olds = imported.getProperties()!;
    // The program declares the description secret.
    const checked = await plugin.check(urn, {
      applicationId: plugin.emu.applicationId,
      name: "hello",
      description: secretValue("Say hello quietly"),
    });
    plugin.emu.control.resetLog();
    const diffed = await diff(urn, created.id, olds, checked.getInputs()!);
    expect(diffed.getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_SOME);
    expect(diffed.getDiffsList()).toEqual(["description"]);
    expect(diffed.getReplacesList()).toEqual([]);

    const upd = new provproto.UpdateRequest();
    upd.setUrn(urn);
    upd.setId(created.id);
    upd.setOlds(olds);
    upd.setNews(checked.getInputs()!);
    const updated: provproto.UpdateResponse = await plugin.call("update", upd);
    expect(clearText(updated.getProperties()!.toJavaScript())).not.toMatch(/say hello quietly/i);
    expect(writes()).toEqual([]);

    // Stored marked, the next diff finds nothing.
    const again = await diff(urn, created.id, updated.getProperties()!, checked.getInputs()!);
    expect(again.getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_NONE);
  });
});

/**
 * A stand-in for the engine's resource monitor, for the construct alone (a wiring test):
 * each child's registration is checked and created by the plugin itself, as the engine
 * would, and its answer carries the plugin's properties; the component's outputs are kept.
 */
class StandInMonitor {
  private constructor(
    private readonly server: grpc.Server,
    readonly port: number,
    private readonly kept: { outputs?: unknown },
  ) {}

  /** The component's outputs, as registered. */
  get outputs(): unknown {
    return this.kept.outputs;
  }

  static async start(plugin: PluginUnderTest): Promise<StandInMonitor> {
    const server = new grpc.Server();
    const kept: { outputs?: unknown } = {};
    server.addService(ResourceMonitorService, {
      registerResource: (
        call: grpc.ServerUnaryCall<
          resproto.RegisterResourceRequest,
          resproto.RegisterResourceResponse
        >,
        done: grpc.sendUnaryData<resproto.RegisterResourceResponse>,
      ) => {
        StandInMonitor.register(plugin, call.request).then(
          (res) => done(null, res),
          (err: Error) => done(err, null),
        );
      },
      registerResourceOutputs: (
        call: grpc.ServerUnaryCall<resproto.RegisterResourceOutputsRequest, emptyproto.Empty>,
        done: grpc.sendUnaryData<emptyproto.Empty>,
      ) => {
        kept.outputs = call.request.getOutputs()?.toJavaScript();
        done(null, new emptyproto.Empty());
      },
    });
    const port = await new Promise<number>((resolve, reject) => {
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) =>
        err ? reject(err) : resolve(p),
      );
    });
    return new StandInMonitor(server, port, kept);
  }

  private static async register(
    plugin: PluginUnderTest,
    req: resproto.RegisterResourceRequest,
  ): Promise<resproto.RegisterResourceResponse> {
    const parent = req.getParent();
    const urn =
      parent === ""
        ? `urn:pulumi:dev::bot::${req.getType()}::${req.getName()}`
        : childUrn(parent, req.getType(), req.getName());
    const res = new resproto.RegisterResourceResponse();
    res.setUrn(urn);
    if (req.getCustom()) {
      const checked = await plugin.check(urn, req.getObject()!.toJavaScript());
      const created = await plugin.create(urn, checked.getInputs()!);
      res.setId(created.getId());
      res.setObject(created.getProperties());
    }
    return res;
  }

  close(): void {
    this.server.forceShutdown();
  }
}
