/**
 * examples/post-deploy-check: a `command.local.Command` that lists the deployed commands
 * and fails the deployment when one is missing.
 *
 * Its provider plugin, `pulumi-resource-command`, cannot be had on every machine (on the
 * development machines of this project the Go module proxy refuses its module and the
 * plugin download needs the internet). So:
 *  - where the plugin is present, the program runs through the CLI against the emulator
 *    (`up` deploys the commands and the check reports all of them; `destroy`);
 *  - otherwise the program is checked with Pulumi's mocks (the example's index.ts
 *    imported in this process): the Command's interpreter, create script, environment
 *    and dependencies. The log says plainly that the engine run was not possible, and why.
 * In both cases the Command's create script then runs with `node -e` against the
 * emulator: it passes with every command present and fails with one deleted.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Output } from "@pulumi/pulumi";
import type { RunningEmulator } from "../../emulator";
import type { PulumiProgram } from "../../scripts/pulumiProgram";
import { emulator, exampleProgram, liveCommands, setConfig } from "./helpers";

// The SDK as the example imports it, from this checkout's sources.
jest.mock("pulumi-discord-commands", () => jest.requireActual("../../index"), { virtual: true });

jest.setTimeout(300_000);

const PROJECT = "discord-post-deploy-check";
const EXPECTED = ["ping", "help", "Bookmark"];

interface PluginCheck {
  readonly present: boolean;
  /** How it was found, or why it was not. */
  readonly reason: string;
  /** A folder to put on the engine's PATH (an installed plugin outside PULUMI_HOME). */
  readonly pathDir?: string;
}

/** Is `pulumi-resource-command` available to the engine the harness runs? */
function findCommandPlugin(prog: PulumiProgram): PluginCheck {
  const ls = spawnSync("pulumi", ["plugin", "ls", "--json"], { env: prog.env, encoding: "utf8" });
  const listed: unknown = ls.status === 0 ? JSON.parse(ls.stdout || "[]") : [];
  if (
    Array.isArray(listed) &&
    listed.some(
      (p: { name?: string; kind?: string }) => p.name === "command" && p.kind === "resource",
    )
  ) {
    return { present: true, reason: "`pulumi plugin ls` lists resource plugin 'command'" };
  }
  for (const dir of (prog.env["PATH"] ?? "").split(path.delimiter)) {
    if (dir && fs.existsSync(path.join(dir, "pulumi-resource-command"))) {
      return { present: true, reason: `pulumi-resource-command is on PATH in ${dir}` };
    }
  }
  const installed = path.join(os.homedir(), ".pulumi", "plugins", "resource-command-v1.2.1");
  if (fs.existsSync(path.join(installed, "pulumi-resource-command"))) {
    return { present: true, reason: `installed in ${installed}`, pathDir: installed };
  }
  return {
    present: false,
    reason:
      "the pulumi-resource-command plugin is not installed: `pulumi plugin ls` in the " +
      "harness's PULUMI_HOME does not list it, no pulumi-resource-command is on PATH or in " +
      "~/.pulumi/plugins, and it cannot be obtained offline here (the Go module proxy " +
      "refuses its module; `pulumi plugin install` needs the internet), so the engine " +
      "would stop with \"no resource plugin 'pulumi-resource-command' found\"",
  };
}

/** Runs a script with `node -e` in a child process, as the Command's interpreter does. */
function runNode(
  script: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", script], {
      env: { PATH: process.env["PATH"] ?? "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

interface Registration {
  readonly type: string;
  readonly name: string;
  readonly inputs: Record<string, unknown>;
  readonly dependencies: string[];
}

/** Runs the example's index.ts with Pulumi's mocks; returns every registration. */
async function runWithMocks(emu: RunningEmulator): Promise<Registration[]> {
  const pulumi = await import("@pulumi/pulumi");
  const { MockMonitor } = await import("@pulumi/pulumi/runtime/mocks");
  const registrations: Registration[] = [];
  const dependencies = new Map<string, string[]>();
  // The mocks hand `newResource` no dependencies: read them off the request.
  const register = MockMonitor.prototype.registerResource;
  MockMonitor.prototype.registerResource = function (
    this: InstanceType<typeof MockMonitor>,
    req: { getName(): string; getDependenciesList(): string[] },
    callback: (err: unknown, response: unknown) => void,
  ) {
    dependencies.set(req.getName(), req.getDependenciesList());
    return register.call(this, req, callback);
  };
  await pulumi.runtime.setMocks(
    {
      newResource(args) {
        const inputs = args.inputs as Record<string, unknown>;
        registrations.push({
          type: args.type,
          name: args.name,
          inputs,
          get dependencies() {
            return dependencies.get(args.name) ?? [];
          },
        });
        const state = args.type.endsWith(":GlobalCommand")
          ? { ...inputs, commandId: `id-${args.name}`, version: `v-${args.name}`, adopted: false }
          : { ...inputs, stdout: "mocked", stderr: "" };
        return { id: `id-${args.name}`, state };
      },
      call: (args) => args.inputs as Record<string, unknown>,
    },
    PROJECT,
    "dev",
    false,
  );
  pulumi.runtime.setConfig("discord:applicationId", emu.applicationId);
  pulumi.runtime.setConfig("discord:apiUrl", emu.url);
  const program = (await import("../../examples/post-deploy-check/index")) as {
    checkResult: Output<string>;
  };
  // The check's output resolves once every resource of the program is registered.
  await new Promise<void>((resolve) => program.checkResult.apply(() => resolve()));
  return registrations;
}

describe("examples/post-deploy-check", () => {
  let emu: RunningEmulator;
  let prog: PulumiProgram;
  let plugin: PluginCheck;

  beforeAll(async () => {
    emu = await emulator();
    prog = exampleProgram("post-deploy-check", { DISCORD_BOT_TOKEN: "" });
    prog.env["DISCORD_BOT_TOKEN"] = emu.botToken;
    plugin = findCommandPlugin(prog);
    if (plugin.pathDir) prog.env["PATH"] = `${plugin.pathDir}${path.delimiter}${prog.env["PATH"]}`;
    if (plugin.present)
      console.log(
        `pulumi-resource-command found (${plugin.reason}): running the example through the CLI.`,
      );
    else {
      console.log(
        `ENGINE RUN NOT POSSIBLE for examples/post-deploy-check: ${plugin.reason}. ` +
          "Checking the program with Pulumi's mocks instead, and running its check script " +
          "against the emulator.",
      );
    }
  });
  afterAll(async () => {
    prog.cleanup();
    await emu.close();
  });

  /** Runs the check script as the Command would, with every command present, then without "help". */
  async function scriptFailsWhenOneIsMissing(
    script: string,
    environment: Record<string, string>,
  ): Promise<void> {
    const env = { ...environment, DISCORD_BOT_TOKEN: emu.botToken };
    const pass = await runNode(script, env);
    expect(pass).toMatchObject({
      code: 0,
      stdout: "all 3 commands are deployed: ping, help, Bookmark\n",
    });
    const help = liveCommands(emu).find((c) => c.name === "help");
    expect(help?.guild_id).toBeUndefined();
    emu.control.deleteCommand(help?.id ?? "");
    const fail = await runNode(script, env);
    expect(fail.code).toBe(1);
    expect(fail.stderr).toContain("post-deploy check failed: missing commands: help");
    // A wrong token fails the check too, without printing the token.
    const denied = await runNode(script, { ...env, DISCORD_BOT_TOKEN: "wrong-token" });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain("listing the commands failed: HTTP 401");
    expect(denied.stderr).not.toContain("wrong-token");
  }

  test("the check runs after the commands, lists them, and fails when one is missing", async () => {
    if (plugin.present) {
      // Through the CLI, as a user runs it: the token only in the environment.
      await prog.stack("dev");
      await setConfig(prog, "dev", {
        "discord:apiUrl": emu.url,
        "discord:applicationId": emu.applicationId,
      });
      const up = await prog.up();
      expect(
        liveCommands(emu)
          .map((c) => c.name)
          .sort(),
      ).toEqual([...EXPECTED].sort());
      expect(up.stdout).not.toContain(emu.botToken);
      expect((await prog.outputs())["checkResult"]).toBe(
        `all 3 commands are deployed: ${EXPECTED.join(", ")}`,
      );
      const state = fs.readFileSync(prog.stateFile("dev"), "utf8");
      expect(state).not.toContain(emu.botToken);
      const deployed = (
        JSON.parse(state) as {
          checkpoint: {
            latest: { resources: { type: string; inputs: Record<string, unknown> }[] };
          };
        }
      ).checkpoint.latest.resources.find((r) => r.type === "command:local:Command");
      await scriptFailsWhenOneIsMissing(
        String(deployed?.inputs["create"]),
        deployed?.inputs["environment"] as Record<string, string>,
      );
      await prog.destroy();
      expect(liveCommands(emu)).toEqual([]);
      return;
    }

    // With mocks: what the program declares.
    const registrations = await runWithMocks(emu);
    const commands = registrations.filter((r) => r.type.endsWith("discord:GlobalCommand"));
    // The engine registers resources as their inputs resolve, in no promised order.
    expect(commands.map((c) => c.inputs["name"]).sort()).toEqual([...EXPECTED].sort());
    const check = registrations.find((r) => r.type === "command:local:Command");
    expect(check?.name).toBe("check-commands");
    const inputs = check?.inputs ?? {};
    expect(inputs["interpreter"]).toEqual(["node", "-e"]);
    const script = String(inputs["create"]);
    expect(script).toContain(
      '"/api/v10/applications/" + process.env.DISCORD_APPLICATION_ID + "/commands"',
    );
    expect(script).toContain('Authorization: "Bot " + process.env.DISCORD_BOT_TOKEN');
    expect(script).toContain("process.exit(1)");
    expect(inputs["environment"]).toEqual({
      DISCORD_API_URL: emu.url,
      DISCORD_APPLICATION_ID: emu.applicationId,
      EXPECTED_COMMANDS: JSON.stringify(EXPECTED),
    });
    expect(JSON.stringify(inputs)).not.toContain(emu.botToken);
    expect(inputs["triggers"]).toEqual(["v-ping", "v-help", "v-bookmark"]);
    const commandUrns = ["ping", "help", "bookmark"].map(
      (n) => `urn:pulumi:dev::${PROJECT}::pulumi-nodejs:dynamic/discord:GlobalCommand::${n}`,
    );
    expect([...(check?.dependencies ?? [])].sort()).toEqual([...commandUrns].sort());

    // The commands as the deployment would have created them, then the script itself.
    for (const body of [
      { name: "ping", description: "Check that the bot is alive" },
      { name: "help", description: "What the bot can do" },
      { type: 3, name: "Bookmark" },
    ]) {
      const res = await fetch(`${emu.apiUrl}/applications/${emu.applicationId}/commands`, {
        method: "POST",
        headers: { Authorization: `Bot ${emu.botToken}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(201);
    }
    await scriptFailsWhenOneIsMissing(script, inputs["environment"] as Record<string, string>);
  });
});
