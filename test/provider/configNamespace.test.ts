/**
 * Every message, hint and `fix:` line names the settings in the namespace of the door in
 * use: `discord:` for the TypeScript dynamic resources, `discord-commands:` for the
 * resource plugin (provider/resources/settings.ts `inNamespace`, applied where a failure
 * leaves for the engine). Each door's test follows the message literally: it sets the
 * key the message names in a stack config, hands the door what the engine would hand it
 * from that config, and the next call passes.
 */
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import {
  PACKAGE,
  pluginResources,
  pluginStackConfig,
  TOKENS,
} from "../../provider/plugin/resources";
import { commandProvider } from "../../provider/resources/commandLifecycle";
import { permissionsProvider } from "../../provider/resources/permissionsLifecycle";
import type { Bag } from "../../provider/resources/propertyBags";
import { ProviderRuntime } from "../../provider/resources/runtime";
import type { StackConfig } from "../../provider/resources/settings";
import { CONFIG_NAMESPACES, inNamespace, readSettings } from "../../provider/resources/settings";
import { rejection } from "./helpers";

let emu: RunningEmulator;
const runtimes: ProviderRuntime[] = [];

beforeAll(async () => {
  emu = await startEmulator({ port: 0, rateLimits: false });
});
afterAll(async () => {
  await Promise.all(runtimes.map((rt) => rt.close()));
  await emu.close();
});
beforeEach(() => emu.control.reset());

/** A stack's config, key -> value, as `pulumi config set` leaves it. */
type Stack = Record<string, string>;

/**
 * One door over a stack config: `configure` hands it what the engine hands that door
 * (the dynamic resources: the whole stack config; the plugin's default provider: its
 * `discord-commands:*` keys, unprefixed, as its inputs).
 */
interface Door {
  readonly namespace: string;
  readonly other: string;
  configure(stack: Stack): ProviderRuntime;
  createCommand(rt: ProviderRuntime, inputs: Bag): Promise<unknown>;
}

function runtime(): ProviderRuntime {
  const rt = new ProviderRuntime({ env: {} });
  runtimes.push(rt);
  return rt;
}

const dynamicDoor: Door = {
  namespace: "discord",
  other: "discord-commands",
  configure(stack) {
    const rt = runtime();
    const config: StackConfig = { get: (key) => stack[key] };
    rt.configure(config);
    return rt;
  },
  createCommand: (rt, inputs) => commandProvider("global", rt).create(inputs),
};

const pluginDoor: Door = {
  namespace: "discord-commands",
  other: "discord",
  configure(stack) {
    const rt = runtime();
    const args: Bag = {};
    for (const [key, value] of Object.entries(stack)) {
      if (key.startsWith(`${PACKAGE}:`)) args[key.slice(PACKAGE.length + 1)] = value;
    }
    rt.configure(pluginStackConfig(args, new Map()));
    return rt;
  },
  createCommand: (rt, inputs) => {
    const resource = pluginResources(rt).get(TOKENS.globalCommand);
    if (resource === undefined) throw new Error("no GlobalCommand");
    return resource.lifecycle.create(inputs);
  },
};

/** The key of the `pulumi config set --secret <key> <token>` a message says to run. */
function keyToSet(message: string): string {
  const key = /`pulumi config set --secret (\S+) <token>`/.exec(message)?.[1];
  if (key === undefined) throw new Error(`no config command in: ${message}`);
  return key;
}

describe.each([dynamicDoor, pluginDoor])("the $namespace door", (door) => {
  const base = (): Stack => ({
    [`${door.namespace}:apiUrl`]: emu.apiUrl,
    [`${door.namespace}:applicationId`]: emu.applicationId,
  });
  const ping = (): Bag => ({
    applicationId: emu.applicationId,
    name: "ping",
    description: "Ping",
  });

  test("a missing token names the door's key; setting it makes the next call pass", async () => {
    const stack = base();
    const err = (await rejection(door.createCommand(door.configure(stack), ping()))) as Error;
    expect(err.message).toMatch(/^creating global command "ping" failed: command requests need/);
    expect(err.message).toContain(`set ${door.namespace}:botToken`);
    expect(err.message).toContain(
      `or ${door.namespace}:clientId and ${door.namespace}:clientSecret`,
    );
    expect(err.message).not.toContain(`${door.other}:`);
    const key = keyToSet(err.message);
    expect(key).toBe(`${door.namespace}:botToken`);

    stack[key] = emu.botToken;
    await expect(door.createCommand(door.configure(stack), ping())).resolves.toMatchObject({
      outs: { name: "ping" },
    });
  });

  test("a wrong token's fix names the door's key; setting it makes the next call pass", async () => {
    const stack = { ...base(), [`${door.namespace}:botToken`]: "not-the-token" };
    const err = (await rejection(door.createCommand(door.configure(stack), ping()))) as Error;
    expect(err.message).toMatch(/answered 401/);
    expect(err.message).toMatch(/\nfix: the application's credentials were rejected: /);
    expect(err.message).not.toContain(`${door.other}:`);
    expect(err.message).not.toContain("not-the-token");
    const key = keyToSet(err.message);
    expect(key).toBe(`${door.namespace}:botToken`);

    stack[key] = emu.botToken;
    await expect(door.createCommand(door.configure(stack), ping())).resolves.toMatchObject({
      outs: { name: "ping" },
    });
  });

  test("no application id, and no Bearer token for permissions, name the door's keys", async () => {
    const stack: Stack = {
      [`${door.namespace}:apiUrl`]: emu.apiUrl,
      [`${door.namespace}:botToken`]: emu.botToken,
    };
    const rt = door.configure(stack);
    const permissions = permissionsProvider(rt);
    const noApp = (await rejection(
      permissions.create({ guildId: emu.guildId, commandId: emu.applicationId, permissions: [] }),
    )) as Error;
    expect(noApp.message).toContain(
      `\`${door.namespace}:applicationId\` (pulumi config set ${door.namespace}:applicationId <id>)`,
    );
    expect(noApp.message).not.toContain(`${door.other}:`);

    const noBearer = (await rejection(
      permissions.create({
        applicationId: emu.applicationId,
        guildId: emu.guildId,
        commandId: emu.applicationId,
        permissions: [],
      }),
    )) as Error;
    expect(noBearer.message).toContain(
      `set ${door.namespace}:bearerToken (\`discord-commands authorize\` stores it, or ` +
        `\`pulumi config set --secret ${door.namespace}:bearerToken <token>\`)`,
    );
    expect(noBearer.message).not.toContain(`${door.other}:`);
  });

  test("a check failure names the door's key", async () => {
    const rt = door.configure({ [`${door.namespace}:apiUrl`]: emu.apiUrl });
    const { failures } = await commandProvider("global", rt).check(
      {},
      { name: "ping", description: "Ping" },
    );
    expect(failures.map((f) => f.reason)).toContain(
      `applicationId: no application id: set it on the resource or the stack config ${door.namespace}:applicationId`,
    );
  });
});

test("the plugin's import without an application id names its key", async () => {
  const rt = pluginDoor.configure({
    "discord-commands:apiUrl": emu.apiUrl,
    "discord-commands:botToken": emu.botToken,
  });
  const resources = pluginResources(rt);
  for (const [token, id] of [
    [TOKENS.globalCommand, "1300000000000000099"],
    [TOKENS.guildCommand, `${emu.guildId}/1300000000000000099`],
    [TOKENS.guildCommandPermissions, `${emu.guildId}/1300000000000000099`],
  ] as const) {
    // An import's read is planned from the id alone (no properties): it fails there.
    const err = (await rejection(
      Promise.resolve().then(() => resources.get(token)?.importRead(id)),
    )) as Error;
    expect(err.message).toContain(
      "`discord-commands:applicationId` (pulumi config set discord-commands:applicationId <id>)",
    );
    expect(err.message).not.toMatch(/(?<![\w-])discord:/);
  }
});

test("the plugin's CheckConfig names its keys", () => {
  const rt = runtime();
  expect(rt.checkConfiguration(pluginStackConfig({ timeoutMs: "soon" }, new Map()))).toEqual([
    {
      property: "timeoutMs",
      reason: 'discord-commands:timeoutMs must be a number of milliseconds > 0, not "soon"',
    },
  ]);
  expect(rt.checkConfiguration(pluginStackConfig({ writeMode: "batch" }, new Map()))).toEqual([
    {
      property: "writeMode",
      reason:
        'discord-commands:writeMode (or DISCORD_WRITE_MODE) must be one of per-command, bulk, not "batch"',
    },
  ]);
  // The dynamic door's, as before.
  expect(() => readSettings({ get: (k) => ({ "discord:readCacheMs": "-1" })[k] }, {})).toThrow(
    'discord:readCacheMs must be a number of milliseconds >= 0, not "-1"',
  );
});

test("the settings know their door: the plugin's namespace, else the dynamic resources'", () => {
  expect(readSettings(pluginStackConfig({}, new Map()), {}).namespace).toBe(
    CONFIG_NAMESPACES.plugin,
  );
  expect(readSettings({ get: () => undefined }, {}).namespace).toBe(CONFIG_NAMESPACES.dynamic);
  expect(readSettings(undefined, {}).namespace).toBe(CONFIG_NAMESPACES.dynamic);
});

test("inNamespace renames the settings only", () => {
  const text =
    "set discord:botToken, discord:clientId/clientSecret or DISCORD_BOT_TOKEN; " +
    "check discord:apiUrl (discord:writeMode); type pulumi-nodejs:dynamic/discord:GlobalCommand; " +
    "token discord-commands:index:GlobalCommand; already discord-commands:botToken; " +
    "not a setting discord:somethingElse";
  expect(inNamespace(text, "discord-commands")).toBe(
    "set discord-commands:botToken, discord-commands:clientId/clientSecret or DISCORD_BOT_TOKEN; " +
      "check discord-commands:apiUrl (discord-commands:writeMode); type pulumi-nodejs:dynamic/discord:GlobalCommand; " +
      "token discord-commands:index:GlobalCommand; already discord-commands:botToken; " +
      "not a setting discord:somethingElse",
  );
  expect(inNamespace(text, "discord")).toBe(text);
  expect(inNamespace(text, undefined)).toBe(text);
});
