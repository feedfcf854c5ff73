/**
 * Secrets through the plugin, over its real gRPC server and the emulator: a value the
 * program marked secret at any depth (an option's description, a localization, a choice's
 * name, a permissions entry's id) goes back marked in every answer the engine keeps
 * (check's inputs, create's, update's and read's properties), no failure quotes it, and
 * CheckConfig marks every credential secret, however it was set. The engine tests prove the same end to end with `pulumi stack export`.
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type { Struct } from "google-protobuf/google/protobuf/struct_pb";
import type { RunningEmulator } from "../../emulator";
import { withSecretCredentials, withSecrets } from "../../provider/plugin/secrets";
import { isSecretValue, secretValue } from "../../provider/resources/propertyBags";
import { clearText, PluginUnderTest, struct } from "./pluginClient";

const GUILD_URN = "urn:pulumi:dev::bot::discord-commands:index:GuildCommand::poll";
const PERMS_URN = "urn:pulumi:dev::bot::discord-commands:index:GuildCommandPermissions::poll";
const SECRET_DESCRIPTION = "the-hidden-option-text-4f1c";
const SECRET_LOCALIZED = "geheime-beschreibung-9a2e";
const SECRET_CHOICE = "secret-choice-name-77b1";
const SECRET_ROLE = "1400000000000004242";

let plugin: PluginUnderTest;
let emu: RunningEmulator;

function call<Req, Res>(method: string, req: Req): Promise<Res> {
  return plugin.call(method, req);
}

async function checkConfig(news: Record<string, unknown>): Promise<provproto.CheckResponse> {
  const req = new provproto.CheckRequest();
  req.setUrn("urn:pulumi:dev::bot::pulumi:providers:discord-commands::default");
  req.setNews(struct(news));
  return call("checkConfig", req);
}

const check = (urn: string, news: Record<string, unknown>) => plugin.check(urn, news);
const create = (urn: string, props: Struct) => plugin.create(urn, props);

function commandNews(description: unknown): Record<string, unknown> {
  return {
    applicationId: emu.applicationId,
    guildId: emu.guildId,
    name: "poll",
    description: "Run a poll",
    options: [
      {
        type: 3,
        name: "topic",
        description,
        descriptionLocalizations: { de: secretValue(SECRET_LOCALIZED) },
        choices: [
          { name: secretValue(SECRET_CHOICE), value: "a" },
          { name: "plain", value: "b" },
        ],
      },
    ],
  };
}

beforeAll(async () => {
  plugin = await PluginUnderTest.start();
  emu = plugin.emu;
});

afterAll(async () => {
  await plugin?.close();
});

describe("a secret nested in a resource's inputs stays marked", () => {
  test("check, create, update and read mark each nested secret where it is, and nothing else", async () => {
    const checked = await check(GUILD_URN, commandNews(secretValue(SECRET_DESCRIPTION)));
    expect(checked.getFailuresList()).toEqual([]);
    const inputs = checked.getInputs()!.toJavaScript();
    for (const s of [SECRET_DESCRIPTION, SECRET_LOCALIZED, SECRET_CHOICE]) {
      expect(JSON.stringify(inputs)).toContain(s); // the value is there, marked
      expect(clearText(inputs)).not.toContain(s);
    }
    // Precise marks: the option's plain fields stay readable (a preview can show them).
    expect(clearText(inputs)).toContain('"name":"topic"');
    expect(clearText(inputs)).toContain('"name":"plain"');

    const created = await create(GUILD_URN, checked.getInputs()!);
    const outs = created.getProperties()!.toJavaScript();
    expect(created.getId()).toMatch(/^\d+$/);
    for (const s of [SECRET_DESCRIPTION, SECRET_LOCALIZED, SECRET_CHOICE]) {
      expect(clearText(outs)).not.toContain(s);
    }
    // The service holds the real values.
    const live = emu.control.commands() as unknown as Record<string, unknown>[];
    expect(JSON.stringify(live)).toContain(SECRET_DESCRIPTION);

    const changed = await check(GUILD_URN, commandNews(secretValue(`${SECRET_DESCRIPTION}-v2`)));
    const upd = new provproto.UpdateRequest();
    upd.setUrn(GUILD_URN);
    upd.setId(created.getId());
    upd.setOlds(created.getProperties()!);
    upd.setNews(changed.getInputs()!);
    const updated: provproto.UpdateResponse = await call("update", upd);
    expect(clearText(updated.getProperties()!.toJavaScript())).not.toContain(SECRET_DESCRIPTION);

    const rd = new provproto.ReadRequest();
    rd.setUrn(GUILD_URN);
    rd.setId(created.getId());
    rd.setProperties(updated.getProperties()!);
    rd.setInputs(changed.getInputs()!);
    const read: provproto.ReadResponse = await call("read", rd);
    expect(clearText(read.getProperties()!.toJavaScript())).not.toContain(SECRET_DESCRIPTION);
    expect(clearText(read.getInputs()!.toJavaScript())).not.toContain(SECRET_LOCALIZED);
  });

  test("a permissions entry's secret id stays marked", async () => {
    const news = {
      applicationId: emu.applicationId,
      guildId: emu.guildId,
      commandId: emu.applicationId,
      permissions: [{ id: secretValue(SECRET_ROLE), type: 1, permission: true }],
    };
    const checked = await check(PERMS_URN, news);
    expect(checked.getFailuresList()).toEqual([]);
    expect(clearText(checked.getInputs()!.toJavaScript())).not.toContain(SECRET_ROLE);
    const created = await create(PERMS_URN, checked.getInputs()!);
    expect(clearText(created.getProperties()!.toJavaScript())).not.toContain(SECRET_ROLE);
  });

  test("a secret name that breaks a rule fails the check without its value", async () => {
    const bad = "Secret Name With Spaces";
    const checked = await check(GUILD_URN, { ...commandNews("plain"), name: secretValue(bad) });
    const reasons = checked.getFailuresList().map((f) => f.getReason());
    expect(reasons.join("\n")).toMatch(/name/);
    expect(reasons.join("\n")).not.toContain(bad);
  });

  test("a failed write names the resource without a secret name", async () => {
    const name = "secret-command-name";
    const checked = await check(GUILD_URN, {
      ...commandNews("plain"),
      name: secretValue(name),
      guildId: "1999999999999999999", // a guild the application is not in
    });
    const err = await create(GUILD_URN, checked.getInputs()!).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(String(err)).toMatch(/failed/);
    expect(String(err)).not.toContain(name);
  });
});

describe("withSecrets", () => {
  test("a list item that matches no input item is marked whole when an unmatched one held a secret; a value that moved marks its property", () => {
    const input = { options: [{ name: "a", description: secretValue("moved-secret") }] };
    const out = withSecrets(
      {
        options: [{ name: "b", description: "changed" }],
        elsewhere: { text: "has moved-secret in it" },
      },
      input,
    );
    expect(isSecretValue((out["options"] as unknown[])[0])).toBe(true);
    expect(isSecretValue(out["elsewhere"])).toBe(true);
    expect(withSecrets({ options: [] }, input)).toEqual({ options: [] }); // nothing left to hide
  });

  test("the kept user tokens are secret whatever came in", () => {
    const out = withSecrets({ accessToken: "a", refreshToken: "r", scope: "x" }, {});
    expect(isSecretValue(out["accessToken"])).toBe(true);
    expect(isSecretValue(out["refreshToken"])).toBe(true);
    expect(out["scope"]).toBe("x");
  });
});

describe("credentials", () => {
  test("CheckConfig hands every credential back marked secret, whatever came in", async () => {
    const res = await checkConfig({
      apiUrl: emu.apiUrl,
      botToken: "plain-token-value",
      clientSecret: secretValue("already-secret"),
      clientId: "123",
    });
    expect(res.getFailuresList()).toEqual([]);
    const inputs = res.getInputs()!.toJavaScript();
    expect(clearText(inputs)).not.toContain("plain-token-value");
    expect(clearText(inputs)).not.toContain("already-secret");
    expect(inputs).toMatchObject({ apiUrl: emu.apiUrl, clientId: "123" });
    expect(withSecretCredentials({ bearerToken: "b" })).toEqual({ bearerToken: secretValue("b") });
  });
});
