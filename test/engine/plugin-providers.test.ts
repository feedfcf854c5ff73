/**
 * Explicit providers: two applications (a staging bot and a production bot) in one
 * program, each resource following its own provider's configuration (application,
 * credentials), from a YAML program through the plugin. The same command name in both
 * applications is no duplicate. (The same name twice under one provider failing the
 * preview is test/engine/plugin-yaml.test.ts's "two resources claiming one name", with
 * the application in the message from test/provider/claims.test.ts.)
 */
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import { PulumiProgram } from "../../scripts/pulumiProgram";
import { PROJECT_ROOT } from "../../scripts/toolchain";

jest.setTimeout(300_000);

const STAGING = { id: "1300000000000000101", botToken: "staging-bot-token" };
const PRODUCTION = { id: "1300000000000000201", botToken: "production-bot-token" };

let emu: RunningEmulator;
let prog: PulumiProgram;

function program(extra = ""): string {
  const provider = (app: { id: string; botToken: string }) => `
    type: pulumi:providers:discord-commands
    properties:
      apiUrl: ${emu.url}
      applicationId: "${app.id}"
      botToken:
        fn::secret: ${app.botToken}`;
  return `name: plugin-providers
runtime: yaml
packages:
  discord-commands: ${PROJECT_ROOT}/plugin
resources:
  staging:${provider(STAGING)}
  production:${provider(PRODUCTION)}
  pingStaging:
    type: discord-commands:GlobalCommand
    properties:
      name: ping
      description: Staging ping
    options:
      provider: \${staging}
  pingProduction:
    type: discord-commands:GlobalCommand
    properties:
      name: ping
      description: Production ping
    options:
      provider: \${production}
${extra}`;
}

beforeAll(async () => {
  emu = await startEmulator({
    port: 0,
    rateLimits: false,
    config: {
      applications: [
        { id: STAGING.id, botToken: STAGING.botToken, clientSecret: "staging-secret" },
        { id: PRODUCTION.id, botToken: PRODUCTION.botToken, clientSecret: "production-secret" },
      ],
    },
  });
  prog = new PulumiProgram("plugin-providers", { "Pulumi.yaml": program() });
  await prog.stack("dev");
});

afterAll(async () => {
  prog?.cleanup();
  await emu?.close();
});

const commandsOf = (applicationId: string) =>
  emu.control
    .commands()
    .filter((c) => c["application_id"] === applicationId)
    .map((c) => ({ name: c["name"], description: c["description"] }));

test("each resource acts for its own provider's application, with its credentials", async () => {
  await prog.up();
  expect(commandsOf(STAGING.id)).toEqual([{ name: "ping", description: "Staging ping" }]);
  expect(commandsOf(PRODUCTION.id)).toEqual([{ name: "ping", description: "Production ping" }]);
  const state = (await prog.ok(["stack", "export"])).stdout;
  expect(state).not.toContain(STAGING.botToken);
  expect(state).not.toContain(PRODUCTION.botToken);
  emu.control.resetLog();
  await prog.up();
  expect(emu.requestLog().filter((e) => e.method !== "GET")).toEqual([]);
});

test("a command set under an explicit provider: its children follow it, and depend on what its inputs came from", async () => {
  // The description comes from another resource's output: unknown at the first preview.
  prog.write({
    "Pulumi.yaml": program(`  helloSet:
    type: discord-commands:CommandSet
    properties:
      commands:
        - name: hello
          description: After \${pingStaging.commandId}
      scopes:
        - {}
    options:
      provider: \${staging}
      protect: true
`),
  });
  expect(await prog.previewSummary()).toEqual({ create: 2, same: 5 });
  await prog.up();
  const pingId = emu.control
    .commands()
    .find((c) => c["application_id"] === STAGING.id && c["name"] === "ping")?.["id"];
  expect(pingId).toBeDefined();
  expect(commandsOf(STAGING.id)).toContainEqual({
    name: "hello",
    description: `After ${String(pingId)}`,
  });
  expect(commandsOf(PRODUCTION.id).map((c) => c.name)).toEqual(["ping"]);
  const exported = JSON.parse((await prog.ok(["stack", "export"])).stdout) as {
    deployment: {
      resources: {
        urn: string;
        type: string;
        protect?: boolean;
        provider?: string;
        dependencies?: string[];
        propertyDependencies?: Record<string, string[]>;
      }[];
    };
  };
  const resources = exported.deployment.resources;
  const urnOf = (name: string) => resources.find((r) => r.urn.endsWith(`::${name}`))?.urn;
  const scope = resources.find((r) => r.type === "discord-commands:index:ScopeCommands");
  expect(scope?.provider).toContain("::staging::");
  expect(scope?.protect).toBe(true);
  expect(scope?.dependencies).toContain(urnOf("pingStaging"));
  expect(scope?.propertyDependencies?.["commands"]).toEqual([urnOf("pingStaging")]);
  const set = resources.find((r) => r.type === "discord-commands:index:CommandSet");
  expect(set?.protect).toBe(true);
  // Protected, the set's command outlives a destroy attempt; unprotected, it goes.
  const destroy = await prog.run(["destroy", "--yes", "--non-interactive", "--skip-preview"]);
  expect(destroy.code).not.toBe(0);
  expect(commandsOf(STAGING.id).map((c) => c.name)).toContain("hello");
  await prog.ok(["state", "unprotect", "--all", "--yes"]);
  prog.write({ "Pulumi.yaml": program() });
  await prog.up();
  expect(commandsOf(STAGING.id)).toEqual([{ name: "ping", description: "Staging ping" }]);
});

test("destroy removes both applications' commands, each with its own provider", async () => {
  expect(commandsOf(PRODUCTION.id)).toEqual([{ name: "ping", description: "Production ping" }]);
  await prog.destroy();
  expect(emu.control.commands()).toEqual([]);
});
