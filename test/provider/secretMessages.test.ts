/**
 * The messages of issue 50 name a command through `Secrecy`, by id or by position, never
 * by a name the program marked secret, and leave out the service's words when the request
 * may have carried a secret: the raced-overwrite warning, the bulk overwrite's answer that
 * lacks a command, the service's message and a non-JSON answer that echoes the request,
 * and the plugin's `CommandSet` marks (by path, not the whole map). A state written by an
 * earlier version (no secret paths) is test/provider/failureMessages.test.ts's; the engine
 * runs are test/engine/edges-secret-messages.test.ts.
 */
import { HttpError, ServiceApiError } from "../../provider/client";
import type { WireCommand } from "../../provider/client";
import { markedAt } from "../../provider/plugin/setChildren";
import type { Claim } from "../../provider/resources/claims";
import { DeploymentClaims } from "../../provider/resources/claims";
import { engineFailure } from "../../provider/resources/engineErrors";
import { isSecretValue, secretPathsIn, secretValue } from "../../provider/resources/propertyBags";
import type { ScopeParts } from "../../provider/resources/scopeOverwrite";
import { putScope } from "../../provider/resources/scopeOverwrite";
import type { ListedWrite } from "../../provider/resources/scopeWrites";
import { racedOverwriteWarning, Warnings } from "../../provider/resources/warnings";
import { Secrecy } from "../../provider/schema";

const SECRET = "hidden-name-7q";
const WHERE = "guild 1300000000000000002 of application 1300000000000000001";
const claim = (secret: boolean): Claim => ({
  urn: "urn:pulumi:dev::app::discord:index:GuildCommand::mine",
  applicationId: "1300000000000000001",
  guildId: "1300000000000000002",
  type: 1,
  name: SECRET,
  secret,
});

describe("the raced-overwrite warning", () => {
  const raced = { where: WHERE, name: SECRET, id: "101", newId: "202" };

  test("a command the stack's resource declares secret: [secret], with its id", () => {
    const text = racedOverwriteWarning({ ...raced, declaredBy: claim(true) });
    expect(text).toContain(
      `${WHERE}: the command [secret] (id 101), which this stack's resource 'mine' declares`,
    );
    expect(text).not.toContain(SECRET);
  });

  test("a command no resource checked so far declares: by id alone (a later one may mark it secret)", () => {
    for (const newId of ["202", undefined]) {
      const text = racedOverwriteWarning({ ...raced, newId, declaredBy: undefined });
      expect(text).toContain(`${WHERE}: the command of id 101, which this stack does not manage`);
      expect(text).not.toContain(SECRET);
    }
  });

  test("a plain command of the stack's: by its name", () => {
    const text = racedOverwriteWarning({ ...raced, declaredBy: claim(false) });
    expect(text).toContain(`the command "${SECRET}" (id 101)`);
  });
});

test("a bulk overwrite's answer that lacks commands: each named by id, or as the new command of its type", async () => {
  const write = {
    api: { bulkOverwriteGuildCommands: async (): Promise<WireCommand[]> => [] },
    putting: () => undefined,
    putSettled: () => undefined,
  } as unknown as ListedWrite;
  const warned: string[] = [];
  const rt: ScopeParts = {
    scopes: { invalidateScope: () => undefined, primeScope: () => undefined },
    warnings: new Warnings(async (m) => void warned.push(m)),
    claims: new DeploymentClaims(),
  } as unknown as ScopeParts;
  const results = await putScope(rt, write, "1300000000000000001", "1300000000000000002", [
    { id: "101", intended: { name: SECRET, description: "x" } },
    { id: undefined, intended: { type: 2, name: `${SECRET} user` } },
    { id: "103", intended: { name: `${SECRET}-carried`, description: "x" }, carried: true },
  ]);
  const texts = results.map((r) => (r.ok ? "" : String(r.error)));
  expect(texts).toEqual([
    `Error: the bulk overwrite of ${WHERE} answered without the command of id 101`,
    `Error: the bulk overwrite of ${WHERE} answered without the new USER command it was to create`,
    "Error: the unmanaged command 103 is gone",
  ]);
  expect([...texts, ...warned].join("\n")).not.toContain(SECRET);
});

describe("the service's words, when the request may have carried a secret", () => {
  const post = {
    method: "POST",
    route: "/applications/{applicationId}/commands",
    path: "/applications/1/commands",
  };
  const put = { ...post, method: "PUT" };
  const get = { ...post, method: "GET" };
  const echo = `non-JSON response: <html><pre>{"name":"${SECRET}"}</pre></html>`;
  const secret = new Secrecy([["name"]]);

  test("a non-JSON answer echoing the request: not shown for a resource with secrets, nor for a bulk overwrite", () => {
    for (const [info, secrecy] of [
      [post, secret],
      [put, Secrecy.NONE],
    ] as const) {
      for (const status of [400, 502]) {
        const message = engineFailure(
          "create",
          "the command",
          new HttpError(info, status, 1, echo, true),
          undefined,
          secrecy,
        ).message;
        expect(message).toContain(
          `${info.method} /applications/1/commands failed with ${status}: (the service's message is not shown`,
        );
        expect(message).not.toContain(SECRET);
      }
    }
    // A request that carried nothing secret: the answer's start helps find a wrong apiUrl.
    const plain = engineFailure(
      "read",
      "the command",
      new HttpError(get, 404, 1, echo, true),
      undefined,
      Secrecy.NONE,
    );
    expect(plain.message).toContain(echo);
  });

  test("the service's own message (a JSON error, or a 5xx's): not shown for a resource with secrets", () => {
    const said = `Invalid Form Body: ${SECRET} is taken`;
    const refused = new ServiceApiError(post, 400, 50035, said, []);
    const message = engineFailure("create", "the command", refused, undefined, secret).message;
    expect(message).toContain("answered 400 (code 50035): (the service's message is not shown");
    expect(message).not.toContain(SECRET);
    const failed = new HttpError(post, 503, 5, said, true);
    expect(engineFailure("create", "the command", failed, undefined, secret).message).not.toContain(
      SECRET,
    );
  });
});

describe("a plugin CommandSet's child is marked at the definitions' secret paths", () => {
  test("one secret description: only it is marked; a secret name: the whole map (the keys are names)", () => {
    const commands = {
      ban: { name: "ban", description: "Ban" },
      kick: { name: "kick", description: "Kick", options: [{ name: "who", description: "Who" }] },
    };
    const marked = markedAt({ commands }, [["commands", "kick", "options", 0, "description"]]);
    expect(secretPathsIn(marked)).toEqual([["commands", "kick", "options", 0, "description"]]);
    expect(isSecretValue((marked as { commands: Record<string, unknown> }).commands)).toBe(false);
    expect(markedAt({ commands }, [["commands"]])).toEqual({ commands: secretValue(commands) });
    expect(markedAt({ commands }, [])).toEqual({ commands });
  });
});
