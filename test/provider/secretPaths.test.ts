/**
 * Secrecy by path in both doors, against the emulator: the dynamic resources tell the
 * provider where their secrets are in the hidden input `__secretPaths`; the plugin reads the
 * engine's marks. Every message a check, a failed write, the program-wide claims and the
 * timing log (`DISCORD_TIMING_LOG`) give quotes a value at a secret path as `[secret]`, in
 * no form (as given, lowercased, cut, a suggestion): a name breaking the lowercase rule, a
 * value over 40 characters, a 2-character value, a choice's value, a localization and a
 * permissions entry. A `ScopeCommands`' ids, keyed by the commands' names, are secret when a
 * name is. Ids that say where a command lives cannot be secret: refused, unquoted.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type { RunningEmulator } from "../../emulator";
import { ServiceApiError } from "../../provider/client";
import { commandProvider } from "../../provider/resources/commandLifecycle";
import type { dynamicProviders as DynamicProviders } from "../../provider/resources/dynamicProviders";
import { engineFailure } from "../../provider/resources/engineErrors";
import type { Path } from "../../provider/resources/propertyBags";
import {
  isSecretValue,
  SECRET_PATHS_KEY,
  secretValue,
} from "../../provider/resources/propertyBags";
import { scopeCommandsProvider } from "../../provider/resources/scopeCommandsLifecycle";
import { Secrecy } from "../../provider/schema";
import { SECRETS, secretLeaks } from "../helpers/secretForms";
import type { Bag } from "./helpers";
import { configureAll, errorTexts, rejection, runtime, setup, teardown } from "./helpers";
import { PluginUnderTest } from "./pluginClient";

/** The secrets that break a rule where these tests put them. */
const { commandName: _n, description: _d, ...S } = SECRETS;

/** A command whose secrets all break a rule; `mark` wraps each secret (or leaves it). */
function badCommand(mark: (v: string) => unknown): Bag {
  return {
    applicationId: "1300000000000000001",
    name: mark(S.name),
    description: "A poll",
    nameLocalizations: { de: mark(S.localized) },
    defaultMemberPermissions: mark(S.long),
    options: [
      { type: 3, name: mark(S.short), description: "d" },
      { type: 4, name: "count", description: "d", choices: [{ name: "n", value: mark(S.choice) }] },
    ],
  };
}

const BAD_COMMAND_PATHS: Path[] = [
  ["name"],
  ["nameLocalizations", "de"],
  ["defaultMemberPermissions"],
  ["options", 0, "name"],
  ["options", 1, "choices", 0, "value"],
];

function badPermissions(mark: (v: string) => unknown): Bag {
  return {
    applicationId: "1300000000000000001",
    guildId: "1300000000000000002",
    commandId: "1300000000000000003",
    permissions: [{ id: mark(S.permission), type: 1, permission: true }],
  };
}

const reasons = (failures: readonly { reason: string }[]): string =>
  failures.map((f) => f.reason).join("\n");

describe("the dynamic resources: the secret paths the program sends", () => {
  let providers: typeof DynamicProviders;
  beforeEach(async () => {
    jest.resetModules(); // a fresh host process: its claims start empty
    providers = (await import("../../provider/resources/dynamicProviders")).dynamicProviders;
  });

  test("a command's failures quote none of its secrets (and do, unmarked)", async () => {
    const plain = await providers.globalCommand.check(
      {},
      badCommand((v) => v),
    );
    const found = secretLeaks(reasons(plain.failures), S, "plain reasons");
    expect(found.map((f) => f.split(":")[0])).toEqual([
      "name",
      "long",
      "short",
      "choice",
      "localized",
    ]);
    const inputs = { ...badCommand((v) => v), [SECRET_PATHS_KEY]: BAD_COMMAND_PATHS };
    const checked = await providers.globalCommand.check({}, inputs);
    expect(checked.failures).toHaveLength(plain.failures.length);
    expect(secretLeaks(reasons(checked.failures), S, "the reasons")).toEqual([]);
    expect(reasons(checked.failures)).toContain("[secret]");
    // The paths stay with the inputs: create, diff, update, read and delete know them too.
    expect(checked.inputs[SECRET_PATHS_KEY]).toEqual(BAD_COMMAND_PATHS);
  });

  test("a permissions entry's secret id", async () => {
    const inputs = {
      ...badPermissions((v) => v),
      [SECRET_PATHS_KEY]: [["permissions", 0, "id"]],
    };
    const checked = await providers.guildCommandPermissions.check({}, inputs);
    expect(reasons(checked.failures)).toMatch(
      /permissions\[0\]\.id: Value \[secret\] is not a snowflake/,
    );
    expect(secretLeaks(reasons(checked.failures), S, "the reasons")).toEqual([]);
  });

  test("two resources claiming one secret name: both named, the name not", async () => {
    const claim = (resource: string, secret: boolean) =>
      providers.globalCommand.check(
        {},
        {
          __claimant: resource,
          applicationId: "1300000000000000001",
          name: "qzjxwvkq",
          description: "d",
          ...(secret ? { [SECRET_PATHS_KEY]: [["name"]] } : {}),
        },
      );
    await claim("first", true);
    const second = await claim("second", false);
    expect(reasons(second.failures)).toMatch(
      /'first', 'second' all declare the CHAT_INPUT command \[secret\]/,
    );
    expect(secretLeaks(reasons(second.failures), { name: "qzjxwvkq" }, "the reasons")).toEqual([]);
  });

  test("a secret guild id is refused without being quoted; a secret application id too", async () => {
    const guild = "1357913579135791357";
    const checked = await providers.guildCommand.check(
      {},
      {
        applicationId: "1300000000000000001",
        guildId: guild,
        name: "ping",
        description: "d",
        [SECRET_PATHS_KEY]: [["guildId"], ["applicationId"]],
      },
    );
    expect(checked.failures.map((f) => f.reason.split(":")[0])).toEqual([
      "applicationId",
      "guildId",
    ]);
    expect(reasons(checked.failures)).toContain("cannot be a secret");
    expect(reasons(checked.failures)).not.toContain(guild);
  });
});

describe("against the emulator", () => {
  let emu: RunningEmulator;
  let dir: string;
  beforeAll(async () => {
    emu = await setup();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "secret-paths-"));
  });
  afterAll(async () => {
    await teardown(emu);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("a failed write and the timing log name a secret-named command as [secret]", async () => {
    const file = path.join(dir, "timings.jsonl");
    await configureAll(emu, {}, { env: { DISCORD_TIMING_LOG: file } });
    const provider = commandProvider("guild", runtime);
    const name = "qzjxwvkqzj";
    const inputs = {
      applicationId: emu.applicationId,
      guildId: "1999999999999999999", // a guild the application is not in
      name,
      description: "d",
      [SECRET_PATHS_KEY]: [["name"]],
    };
    const checked = await provider.check({}, inputs);
    const err = await rejection(provider.create(checked.inputs));
    expect(String(err)).toMatch(
      /creating guild command \[secret\] in guild 1999999999999999999 failed/,
    );
    const log = fs.readFileSync(file, "utf8");
    expect(log).toContain('"method":"create"');
    expect(secretLeaks([...errorTexts(err), log].join("\n"), { name }, "the error or log")).toEqual(
      [],
    );
  });

  test("a scope's ids are secret when a key is, and its failures hide the key", async () => {
    await configureAll(emu);
    const provider = scopeCommandsProvider(runtime);
    const secretKey = { [SECRET_PATHS_KEY]: [["commands", "qzjxwv", "name"]] };
    const inputs = {
      applicationId: emu.applicationId,
      guildId: emu.guildId,
      commands: {
        qzjxwv: { name: "qzjxwv", description: "Secret name" },
        kick: { name: "kick", description: "Kick" },
      },
      ...secretKey,
    };
    const checked = await provider.check({}, inputs);
    expect(checked.failures).toEqual([]);
    const created = await provider.create(checked.inputs);
    expect(isSecretValue(created.outs["commandIds"])).toBe(true);
    const read = await provider.read(created.id, {
      ...created.outs,
      commandIds: (created.outs["commandIds"] as { value: unknown }).value,
    });
    expect(isSecretValue(read.props?.["commandIds"])).toBe(true);
    // Without a secret key, the ids stay readable.
    const plain = await provider.create({
      ...checked.inputs,
      [SECRET_PATHS_KEY]: [["commands", "kick", "description"]],
    });
    expect(isSecretValue(plain.outs["commandIds"])).toBe(false);

    const bad = await provider.check(
      {},
      {
        ...inputs,
        commands: { qzjxwv: { name: "qzjxwv", description: "x".repeat(101) } },
      },
    );
    expect(reasons(bad.failures)).toMatch(
      /^commands\[secret\]\.description: Must be between 1 and 100/,
    );
    expect(secretLeaks(reasons(bad.failures), { key: "qzjxwv" }, "the reasons")).toEqual([]);
  });
});

describe("the plugin: the engine's marks", () => {
  let plugin: PluginUnderTest;
  const urn = (type: string): string => `urn:pulumi:dev::bot::discord-commands:index:${type}::r`;
  const check = (type: string, news: Bag): Promise<provproto.CheckResponse> =>
    plugin.check(urn(type), news);

  beforeAll(async () => {
    plugin = await PluginUnderTest.start();
  });
  afterAll(async () => {
    await plugin?.close();
  });

  test("a command's and a permissions entry's failures quote none of their secrets", async () => {
    const command = await check("GlobalCommand", badCommand(secretValue));
    const permissions = await check("GuildCommandPermissions", badPermissions(secretValue));
    const text = [...command.getFailuresList(), ...permissions.getFailuresList()]
      .map((f) => f.getReason())
      .join("\n");
    expect(command.getFailuresList().length).toBeGreaterThanOrEqual(5);
    expect(permissions.getFailuresList()).toHaveLength(1);
    expect(secretLeaks(text, S, "the reasons")).toEqual([]);
    // The secret paths are the engine's marks: they are not handed back as an input.
    expect(command.getInputs()?.toJavaScript()).not.toHaveProperty(SECRET_PATHS_KEY);
  });

  test("a scope secret as a whole (a set's): its ids come back secret, its failures hide the keys", async () => {
    const commands = { qzjxwv: { name: "qzjxwv", description: "x".repeat(101) } };
    const checked = await check("ScopeCommands", {
      guildId: plugin.emu.guildId,
      commands: secretValue(commands),
    });
    const text = checked
      .getFailuresList()
      .map((f) => f.getReason())
      .join("\n");
    expect(text).toMatch(/commands\[secret\]\.description: Must be between 1 and 100/);
    expect(secretLeaks(text, { key: "qzjxwv" }, "the reasons")).toEqual([]);

    const ok = await check("ScopeCommands", {
      guildId: plugin.emu.guildId,
      commands: secretValue({ qzjxwv: { name: "qzjxwv", description: "Fine" } }),
    });
    expect(ok.getFailuresList()).toEqual([]);
    const inputs = ok.getInputs();
    if (inputs === undefined) throw new Error("check gave no inputs");
    const created = await plugin.create(urn("ScopeCommands"), inputs);
    expect(isSecretValue(created.getProperties()?.toJavaScript()["commandIds"])).toBe(true);
  });
});

test("the service's words about a field are left out when the request held secrets", () => {
  const err = new ServiceApiError(
    {
      method: "POST",
      route: "/applications/{applicationId}/commands",
      path: "/applications/1/commands",
    },
    400,
    50035,
    "Invalid Form Body",
    [
      {
        path: "name",
        code: "APPLICATION_COMMAND_INVALID_NAME",
        message: 'Invalid name "QzJxWvKq"',
      },
    ],
  );
  const shown = engineFailure(
    "create",
    "global command [secret]",
    err,
    undefined,
    new Secrecy([["name"]]),
  );
  expect(shown.message).toContain("name: (the service's message is not shown");
  expect(shown.message).toContain("APPLICATION_COMMAND_INVALID_NAME");
  expect(secretLeaks(shown.message, { name: S.name }, "the message")).toEqual([]);
  expect(engineFailure("create", "global command", err).message).toContain(
    'Invalid name "QzJxWvKq"',
  );
});
