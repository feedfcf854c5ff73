/**
 * The schema's warnings about a resource's inputs, given at check time in both doors
 * (provider/resources/warnings.ts `forResource`): a deprecated field (`dmPermission`: use
 * `contexts`; `defaultPermission`: use `defaultMemberPermissions`). Each names the
 * resource and the field's path, quotes no secret value, and is given once per resource in
 * one provider process (a check may run again). The schema's third warning, `BOT_DM` in a
 * guild command's `contexts`, cannot arise from a provider: it validates a guild command as
 * a create, which takes no `contexts` at all (a check failure, tested here).
 * The CLI's `warning:` line of them: test/engine/check-warnings.test.ts.
 */
import type { dynamicProviders as DynamicProviders } from "../../provider/resources/dynamicProviders";
import type { Bag } from "../../provider/resources/propertyBags";
import { secretValue } from "../../provider/resources/propertyBags";
import { PluginUnderTest } from "./pluginClient";

const APP = "1300000000000000001";
const GUILD = "1300000000000000002";

const DM_PERMISSION =
  /dmPermission: dm_permission is deprecated: use contexts .*\(FIELD_DEPRECATED\)$/;
const DEFAULT_PERMISSION =
  /defaultPermission: default_permission is deprecated: use default_member_permissions .*\(FIELD_DEPRECATED\)$/;

const legacy: Bag = { name: "legacy", description: "Old style", dmPermission: true };
const oldDefault: Bag = { name: "olddefault", description: "Old style", defaultPermission: false };
const guildDm: Bag = { name: "guilddm", description: "In a guild", contexts: [0, 1] };

describe("the dynamic door's check", () => {
  let providers: typeof DynamicProviders;
  let warned: string[];

  /** A fresh host process per test; its warnings go to stderr (no engine here). */
  beforeEach(async () => {
    jest.resetModules();
    providers = (await import("../../provider/resources/dynamicProviders")).dynamicProviders;
    warned = [];
    jest.spyOn(process.stderr, "write").mockImplementation((chunk: unknown) => {
      const text = String(chunk);
      if (text.startsWith("warning: ")) warned.push(text.slice("warning: ".length).trimEnd());
      return true;
    });
  });
  afterEach(() => jest.restoreAllMocks());

  test("dmPermission and defaultPermission on a global command, once each however often checked", async () => {
    for (let i = 0; i < 2; i++) {
      await providers.globalCommand.check({}, { applicationId: APP, ...legacy });
      await providers.globalCommand.check({}, { applicationId: APP, ...oldDefault });
    }
    expect(warned).toHaveLength(2);
    expect(warned[0]).toMatch(/^global command "legacy": /);
    expect(warned[0]).toMatch(DM_PERMISSION);
    expect(warned[1]).toMatch(/^global command "olddefault": /);
    expect(warned[1]).toMatch(DEFAULT_PERMISSION);
  });

  test("defaultPermission on a guild command, and in a ScopeCommands' definition of a guild", async () => {
    await providers.guildCommand.check({}, { applicationId: APP, guildId: GUILD, ...oldDefault });
    await providers.scopeCommands.check(
      {},
      { applicationId: APP, guildId: GUILD, commands: { olddefault: oldDefault } },
    );
    expect(warned).toHaveLength(2);
    expect(warned[0]).toMatch(new RegExp(`^guild command "olddefault" in guild ${GUILD}: `));
    expect(warned[0]).toMatch(DEFAULT_PERMISSION);
    expect(warned[1]).toMatch(
      new RegExp(
        `^the commands of guild ${GUILD} of application ${APP}: commands\\["olddefault"\\]\\.`,
      ),
    );
    expect(warned[1]).toMatch(DEFAULT_PERMISSION);
  });

  test("BOT_DM in a guild command's contexts: no warning, since a guild command takes no contexts at all (a check failure)", async () => {
    const checked = await providers.guildCommand.check(
      {},
      { applicationId: APP, guildId: GUILD, ...guildDm },
    );
    expect(checked.failures.map((f) => f.reason).join("\n")).toMatch(
      /contexts: "contexts" is not accepted when creating a guild command/,
    );
    expect(warned).toEqual([]);
  });

  test("a secret name is not quoted: the resource reads [secret]", async () => {
    await providers.globalCommand.check(
      {},
      { applicationId: APP, ...legacy, name: "hushhush", __secretPaths: [["name"]] },
    );
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/^global command \[secret\]: dmPermission: /);
    expect(warned.join("\n")).not.toContain("hushhush");
  });

  test("an invalid command fails its check and gives no warning", async () => {
    const checked = await providers.globalCommand.check(
      {},
      { applicationId: APP, ...legacy, name: "Legacy" },
    );
    expect(checked.failures).not.toEqual([]);
    expect(warned).toEqual([]);
  });
});

describe("the plugin's check", () => {
  let plugin: PluginUnderTest;
  const urn = (type: string, name: string): string =>
    `urn:pulumi:dev::bot::discord-commands:index:${type}::${name}`;

  beforeAll(async () => {
    jest.spyOn(process.stderr, "write").mockImplementation(() => true);
    plugin = await PluginUnderTest.start();
  });
  afterAll(async () => {
    await plugin?.close();
    jest.restoreAllMocks();
  });

  test("each warning, in each kind of resource, once however often checked", async () => {
    for (let i = 0; i < 2; i++) {
      await plugin.check(urn("GlobalCommand", "legacy"), legacy);
      await plugin.check(urn("GlobalCommand", "olddefault"), oldDefault);
      await plugin.check(urn("GuildCommand", "olddefault"), { guildId: GUILD, ...oldDefault });
      // In the global scope BOT_DM is meant: no warning of it.
      await plugin.check(urn("ScopeCommands", "mods"), { commands: { legacy, guilddm: guildDm } });
    }
    const app = plugin.emu.applicationId;
    const warned = plugin.rt.warnings.messages;
    expect(warned).toHaveLength(4);
    expect(warned[0]).toMatch(/^global command "legacy": /);
    expect(warned[0]).toMatch(DM_PERMISSION);
    expect(warned[1]).toMatch(/^global command "olddefault": /);
    expect(warned[1]).toMatch(DEFAULT_PERMISSION);
    expect(warned[2]).toMatch(new RegExp(`^guild command "olddefault" in guild ${GUILD}: `));
    expect(warned[2]).toMatch(DEFAULT_PERMISSION);
    expect(warned[3]).toMatch(
      new RegExp(
        `^the commands of the global scope of application ${app}: commands\\["legacy"\\]\\.`,
      ),
    );
    expect(warned[3]).toMatch(DM_PERMISSION);
  });

  test("a secret name is not quoted: the resource reads [secret]", async () => {
    await plugin.check(urn("GlobalCommand", "hidden"), {
      ...legacy,
      name: secretValue("hushhush"),
    });
    const last = plugin.rt.warnings.messages.at(-1) ?? "";
    expect(last).toMatch(/^global command \[secret\]: dmPermission: /);
    expect(plugin.rt.warnings.messages.join("\n")).not.toContain("hushhush");
  });
});
