/**
 * `discord-commands authorize` reads and writes the stack config of the door the stack
 * uses: `discord-commands:*` for the resource plugin, `discord:*` for the TypeScript
 * dynamic resources, detected from the project (and the stack's config) or chosen with
 * `--namespace`. Run in process against the emulator's OAuth2 endpoints, with a stand-in
 * `pulumi` on PATH that keeps the stack's config in a JSON file.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PassThrough } from "node:stream";
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import { authorize, runAuthorizeCli } from "../../cli/authorize";
import { stackNamespace } from "../../cli/stackNamespace";

jest.setTimeout(60_000);

/** `pulumi config --json` and `pulumi config set [--secret] <key> [value]` over a JSON file. */
const FAKE_PULUMI = `#!/usr/bin/env node
const fs = require("fs");
const file = process.env.FAKE_PULUMI_CONFIG;
const args = process.argv.slice(2);
const stack = args.indexOf("--stack");
if (stack >= 0) args.splice(stack, 2);
const config = JSON.parse(fs.readFileSync(file, "utf8"));
if (args[0] === "config" && args[1] === "--json") {
  process.stdout.write(JSON.stringify(config));
} else if (args[0] === "config" && args[1] === "set") {
  const secret = args.includes("--secret");
  const [key, value] = args.slice(2).filter((a) => a !== "--secret");
  config[key] = { value: value ?? fs.readFileSync(0, "utf8"), secret };
  fs.writeFileSync(file, JSON.stringify(config));
} else {
  process.stderr.write("unexpected: " + args.join(" "));
  process.exit(1);
}
`;

const PLUGIN_PROJECT = `name: app
runtime: yaml
packages:
  # The resource plugin ships in the npm package.
  discord-commands: ./node_modules/pulumi-discord-commands/plugin
resources: {}
`;
const DYNAMIC_PROJECT = "name: app\nruntime: nodejs\n";

let emu: RunningEmulator;
let dir: string;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, rateLimits: false });
});
afterAll(() => emu.close());
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "authorize-"));
  fs.mkdirSync(path.join(dir, "bin"));
  fs.writeFileSync(path.join(dir, "bin", "pulumi"), FAKE_PULUMI, { mode: 0o755 });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

type Config = Record<string, { value: string; secret: boolean }>;

/** Runs the command in a project with `project` as its Pulumi.yaml and `config` as its stack's. */
async function run(
  project: string,
  config: Record<string, string>,
  extra: string[] = [],
): Promise<{ code: number; stdout: string; stderr: string; stored: Config }> {
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), project);
  const file = path.join(dir, "config.json");
  fs.writeFileSync(
    file,
    JSON.stringify(
      Object.fromEntries(Object.entries(config).map(([k, v]) => [k, { value: v, secret: false }])),
    ),
  );
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let errors = "";
  stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  let printed = "";
  let browsed: Promise<unknown> | undefined;
  stdout.on("data", (chunk: Buffer) => {
    printed += chunk.toString();
    const url = /^\s+(http:\/\/\S+\/oauth2\/authorize\?\S+)$/m.exec(printed)?.[1];
    // The browser: follows the service's redirect to the command's loopback server.
    if (url !== undefined && browsed === undefined) browsed = fetch(url).then((r) => r.text());
  });
  const code = await authorize(["--no-browser", "--cwd", dir, "--timeout", "30", ...extra], {
    stdout,
    stderr,
    env: {
      ...process.env,
      PATH: `${path.join(dir, "bin")}${path.delimiter}${process.env["PATH"] ?? ""}`,
      FAKE_PULUMI_CONFIG: file,
      DISCORD_CLIENT_SECRET: undefined,
    },
  });
  await browsed;
  return {
    code,
    stdout: printed,
    stderr: errors,
    stored: JSON.parse(fs.readFileSync(file, "utf8")) as Config,
  };
}

const settings = (ns: string): Record<string, string> => ({
  [`${ns}:apiUrl`]: emu.url,
  [`${ns}:applicationId`]: emu.applicationId,
  [`${ns}:clientSecret`]: emu.clientSecret,
});

/** The keys the command wrote (the settings given are left as they were). */
function written(stored: Config, given: Record<string, string>): Record<string, boolean> {
  return Object.fromEntries(
    Object.entries(stored)
      .filter(([k]) => !(k in given))
      .map(([k, v]) => [k, v.secret]),
  );
}

test("a plugin project: reads and writes discord-commands:*", async () => {
  const given = settings("discord-commands");
  const res = await run(PLUGIN_PROJECT, given);
  expect(res.code).toBe(0);
  expect(written(res.stored, given)).toEqual({
    "discord-commands:bearerToken": true,
    "discord-commands:refreshToken": true,
    "discord-commands:clientId": false,
  });
  expect(res.stored["discord-commands:clientId"]?.value).toBe(emu.applicationId);
  expect(res.stdout).toMatch(
    /Stored discord-commands:bearerToken and discord-commands:refreshToken as secrets of the stack \(the namespace discord-commands: Pulumi.yaml's packages: block names discord-commands;/,
  );
});

test("a TypeScript project on the dynamic resources: reads and writes discord:*", async () => {
  const given = settings("discord");
  const res = await run(DYNAMIC_PROJECT, given);
  expect(res.code).toBe(0);
  expect(written(res.stored, given)).toEqual({
    "discord:bearerToken": true,
    "discord:refreshToken": true,
    "discord:clientId": false,
  });
});

test("--namespace chooses; with the other door's settings only, no client id is found", async () => {
  // Both namespaces in the config of a nodejs project: detected as discord, unless chosen.
  const given = { ...settings("discord"), ...settings("discord-commands") };
  const res = await run(DYNAMIC_PROJECT, given, ["--namespace", "discord-commands"]);
  expect(res.code).toBe(0);
  expect(Object.keys(written(res.stored, given)).sort()).toEqual([
    "discord-commands:bearerToken",
    "discord-commands:clientId",
    "discord-commands:refreshToken",
  ]);
  expect(res.stdout).toMatch(/\(the namespace discord-commands: chosen with --namespace; scopes:/);
  // The plugin project reads only discord-commands:*: the discord:* settings are not its.
  await expect(run(PLUGIN_PROJECT, settings("discord"))).rejects.toThrow(
    "no client id: pass --client-id, or set discord-commands:clientId or discord-commands:applicationId " +
      "(the namespace discord-commands: Pulumi.yaml's packages: block names discord-commands; --namespace chooses)",
  );
});

test("a redirect whose state was tampered with: exit 1, the reason, nothing stored", async () => {
  // As a user runs it (`discord-commands authorize`): the exit code and stderr of the
  // command's entry, with process.env naming the stand-in pulumi.
  const given = settings("discord");
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), DYNAMIC_PROJECT);
  const file = path.join(dir, "config.json");
  const before = JSON.stringify(
    Object.fromEntries(Object.entries(given).map(([k, v]) => [k, { value: v, secret: false }])),
  );
  fs.writeFileSync(file, before);
  const envKeys = ["PATH", "FAKE_PULUMI_CONFIG", "DISCORD_CLIENT_SECRET"] as const;
  const savedEnv = envKeys.map((k) => [k, process.env[k]] as const);
  const savedExitCode = process.exitCode;
  let printed = "";
  let said = "";
  let browsed: Promise<unknown> | undefined;
  const out = jest.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    printed += String(chunk);
    const url = /^\s+(http:\/\/\S+\/oauth2\/authorize\?\S+)$/m.exec(printed)?.[1];
    if (url !== undefined && browsed === undefined) {
      // The browser, handed a URL whose state an attacker replaced: the service sends it
      // back in the redirect to the command's loopback server.
      const forged = new URL(url);
      forged.searchParams.set("state", "forged");
      // (The command closes its server as it fails: the page may be cut short.)
      browsed = fetch(forged)
        .then((r) => r.text())
        .catch(() => "");
    }
    return true;
  });
  const err = jest.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    said += String(chunk);
    return true;
  });
  let exitCode: typeof process.exitCode;
  try {
    process.env["PATH"] = `${path.join(dir, "bin")}${path.delimiter}${process.env["PATH"] ?? ""}`;
    process.env["FAKE_PULUMI_CONFIG"] = file;
    delete process.env["DISCORD_CLIENT_SECRET"];
    await runAuthorizeCli(["--no-browser", "--cwd", dir, "--timeout", "30"]);
    exitCode = process.exitCode;
    await browsed;
  } finally {
    process.exitCode = savedExitCode;
    for (const [k, v] of savedEnv) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    out.mockRestore();
    err.mockRestore();
  }
  expect(browsed).toBeDefined();
  expect(exitCode).toBe(1);
  expect(said).toBe(
    "discord-commands authorize: the redirect's state does not match the one sent: the answer " +
      "may not come from your authorization (nothing was stored)\n",
  );
  // Neither token (nor the client id) was written: the stack's config is as it was.
  expect(fs.readFileSync(file, "utf8")).toBe(before);
});

test.each([
  ["no client secret", {}, "no client secret was sent: set it with"],
  [
    "a wrong one",
    { "discord:clientSecret": "wrong" },
    "with the client secret from discord:clientSecret",
  ],
])(
  "the emulator's confidential application refuses the exchange with %s: the fix names the setting and its value, nothing stored",
  async (_what, secret, reason) => {
    const given = {
      "discord:apiUrl": emu.url,
      "discord:applicationId": emu.applicationId,
      ...secret,
    };
    const failure = await run(DYNAMIC_PROJECT, given).then(
      () => new Error("authorize succeeded"),
      (err: unknown) => err as Error,
    );
    const [first, fix] = failure.message.split("\n");
    expect(first).toBe("the code exchange failed (401 invalid_client: Invalid client credentials)");
    expect(fix).toContain(reason);
    expect(fix).toMatch(
      /^fix: .*`pulumi config set --secret discord:clientSecret <secret>` \(the emulator's: emulator-client-secret\)/,
    );
    const stored = JSON.parse(fs.readFileSync(path.join(dir, "config.json"), "utf8")) as Config;
    expect(written(stored, given)).toEqual({});
  },
);

test("a bad --namespace is a usage error", async () => {
  const stderr = new PassThrough();
  let said = "";
  stderr.on("data", (c: Buffer) => (said += c.toString()));
  const code = await authorize(["--namespace", "discord-command"], {
    stdout: new PassThrough(),
    stderr,
    env: {},
  });
  expect(code).toBe(2);
  expect(said).toMatch(/--namespace: discord-command is not one of discord, discord-commands/);
  expect(said).toMatch(/--namespace <ns> +discord-commands or discord/);
});

describe("the door the stack uses", () => {
  const ns = (project: string | undefined, keys: string[] = []): string =>
    stackNamespace(project, keys).namespace;

  test("the project's packages: block, or a runtime other than nodejs: the plugin's", () => {
    expect(ns(PLUGIN_PROJECT)).toBe("discord-commands");
    const tsPlugin =
      "name: app\nruntime: nodejs\npackages:\n  discord-commands:\n    source: ./node_modules/pulumi-discord-commands/plugin\n";
    expect(ns(tsPlugin, ["discord:apiUrl"])).toBe("discord-commands");
    expect(ns('name: app\nruntime: "go"\n')).toBe("discord-commands");
    expect(ns("name: app\nruntime:\n  name: python\n  options:\n    toolchain: pip\n")).toBe(
      "discord-commands",
    );
    expect(ns("name: app\nruntime: yaml # a comment\n")).toBe("discord-commands");
    expect(ns("name: app\nruntime: {name: python, options: {toolchain: pip}}\n")).toBe(
      "discord-commands",
    );
    expect(ns('{"name": "app", "runtime": "go"}')).toBe("discord-commands");
    expect(ns("name: app\nruntime: nodejs\npackages: {discord-commands: ./plugin}\n")).toBe(
      "discord-commands",
    );
  });

  test("any YAML form of a nodejs runtime is the dynamic resources' (issue 45)", () => {
    for (const project of [
      "name: app\nruntime: {name: nodejs, options: {typescript: true}}\n",
      "name: app\nruntime: { name: 'nodejs' } # TypeScript\n",
      "name: app\nruntime:\n  options:\n    typescript: true\n  name: nodejs\n",
      "name: app\n'runtime': \"nodejs\"\n",
      "name: app\nruntime: >-\n  nodejs\n",
    ]) {
      expect({ project, ns: ns(project) }).toEqual({ project, ns: "discord" });
    }
    // A nested key named like the plugin is not the packages: block.
    expect(ns("name: app\nruntime: nodejs\nplugins:\n  packages:\n    discord-commands: x\n")).toBe(
      "discord",
    );
    // Not YAML: no runtime, no packages (the stack's config decides).
    expect(ns("name: app\nruntime: [nodejs\n", ["discord-commands:apiUrl"])).toBe(
      "discord-commands",
    );
    expect(ns("name: app\nruntime: [nodejs\n")).toBe("discord");
  });

  test("a nodejs project: the namespace its stack config has keys in, else discord", () => {
    expect(ns(DYNAMIC_PROJECT)).toBe("discord");
    expect(ns(DYNAMIC_PROJECT, ["app:guildId", "discord-commands:apiUrl"])).toBe(
      "discord-commands",
    );
    expect(ns(DYNAMIC_PROJECT, ["discord:apiUrl"])).toBe("discord");
    expect(ns(DYNAMIC_PROJECT, ["discord:apiUrl", "discord-commands:apiUrl"])).toBe("discord");
    expect(ns(undefined, ["discord-commands:botToken"])).toBe("discord-commands");
    // A config block or a resource type naming the plugin is not a packages: block.
    expect(
      ns(
        "name: app\nruntime: nodejs\nconfig:\n  discord-commands:apiUrl: x\nresources:\n  a:\n    type: discord-commands:GlobalCommand\n",
      ),
    ).toBe("discord");
  });
});
