/**
 * Real interaction libraries, written by others, accept what the emulator sends:
 * discord-interactions 4.4.0 (`verifyKey`, `verifyKeyMiddleware`) and slash-create 7.0.0
 * (its SlashCreator with its own GenericServer, which checks the signature and answers
 * 401 otherwise). Setting the interactions endpoint URL verifies it as the service does:
 * a handler that answers a bad signature with 200 is refused.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  InteractionResponseType,
  InteractionType,
  verifyKey,
  verifyKeyMiddleware,
} from "discord-interactions";
import type { AutocompleteContext, CommandContext } from "slash-create";
import { CommandOptionType, GenericServer, SlashCommand, SlashCreator } from "slash-create";
import type { RunningEmulator } from "../../emulator";
import { signatureHeaders, signingKey } from "../../emulator/interactions/signing";
import type { Api } from "./helpers";
import { rec, slash, start } from "./helpers";
import { startHandler } from "./interactionHandler";

jest.setTimeout(30_000);

let emu: RunningEmulator;
let api: Api;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => ({ emu, api } = await start()));
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await emu.setInteractionsEndpoint(null);
  emu.control.reset();
});
afterAll(() => emu.close());

function listen(server: http.Server): Promise<string> {
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/interactions`),
    ),
  );
}

const where = () => ({
  guildId: emu.guildId,
  channelId: "1300000000000000005",
  userId: emu.userId,
});

test("the public key is in /__emulator/info, 64 hex characters; a configured seed gives its known key", async () => {
  const info = rec((await api.get("/__emulator/info")).body);
  expect(info["publicKey"]).toMatch(/^[0-9a-f]{64}$/);
  expect(info["publicKey"]).toBe(emu.publicKey);
  expect(info["applications"]).toEqual([
    { applicationId: emu.applicationId, publicKey: emu.publicKey, interactionsEndpointUrl: null },
  ]);
  // RFC 8032, section 7.1, test 1: the seed's public key.
  const key = signingKey("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60");
  expect(key.publicKeyHex).toBe("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
  const h = signatureHeaders(key, "", 0);
  // RFC 8032 test 1 signs the empty message; here the message is the timestamp "0".
  expect(
    await verifyKey("", h["X-Signature-Ed25519"], h["X-Signature-Timestamp"], key.publicKeyHex),
  ).toBe(true);
  expect(
    await verifyKey("x", h["X-Signature-Ed25519"], h["X-Signature-Timestamp"], key.publicKeyHex),
  ).toBe(false);
});

test("discord-interactions' verifyKey accepts every request; the timestamp is current and the signature covers the exact body", async () => {
  const handler = await startHandler(emu.publicKey);
  closers.push(() => handler.close());
  await emu.setInteractionsEndpoint(handler.url);
  await api.post(`${api.app}/commands`, slash("ping"));
  const result = await emu.invoke({ ...where(), name: "ping" });
  expect(result.outcome).toBe("delivered");
  // The verification's PING and forged request, then the command.
  expect(handler.received.map((r) => [r.body["type"], r.verified])).toEqual([
    [1, true],
    [1, false],
    [2, true],
  ]);
  const last = handler.received[2];
  expect(last?.raw).toBe(JSON.stringify(result.interaction));
  const ts = Number(last?.headers["x-signature-timestamp"]);
  expect(Math.abs(ts - (last?.receivedAt ?? 0))).toBeLessThan(5);
  expect(last?.headers["content-type"]).toBe("application/json");
});

test("discord-interactions' verifyKeyMiddleware, on a plain node:http server, passes the URL check and gets commands", async () => {
  const seen: unknown[] = [];
  const middleware = verifyKeyMiddleware(emu.publicKey);
  const server = http.createServer((req, res) => {
    // The middleware is written for Express: the one method it uses, req.header(name).
    const expressLike = Object.assign(req, {
      header: (name: string) => req.headers[name.toLowerCase()] as string | undefined,
    });
    void middleware(expressLike as never, res as never, () => {
      seen.push((expressLike as unknown as { body: unknown }).body);
      res.setHeader("Content-Type", "application/json");
      res.end(
        JSON.stringify({
          type: InteractionResponseType.CHANNEL_MESSAGE_WITH_SOURCE,
          data: { content: "pong" },
        }),
      );
    });
  });
  const url = await listen(server);
  await expect(emu.setInteractionsEndpoint(url)).resolves.toMatchObject({
    interactionsEndpointUrl: url,
  });
  await api.post(`${api.app}/commands`, slash("ping"));
  const result = await emu.invoke({ ...where(), name: "ping" });
  expect(result).toMatchObject({
    outcome: "delivered",
    response: { status: 200, body: { type: 4, data: { content: "pong" } }, valid: true },
  });
  expect(seen).toHaveLength(1);
  expect(rec(seen[0])["type"]).toBe(InteractionType.APPLICATION_COMMAND);
});

test("slash-create's own server checks the signature, runs the command and its autocomplete", async () => {
  const creator = new SlashCreator({ applicationID: emu.applicationId, publicKey: emu.publicKey });
  const generic = new GenericServer();
  creator.withServer(generic);
  const runs: string[] = [];
  class Greet extends SlashCommand {
    constructor(c: SlashCreator) {
      super(c, {
        name: "greet",
        description: "Greets",
        options: [
          {
            type: CommandOptionType.STRING,
            name: "who",
            description: "Who",
            required: true,
            autocomplete: true,
          },
        ],
      });
    }
    override async run(ctx: CommandContext) {
      runs.push(String(ctx.options["who"]));
      return `hello ${String(ctx.options["who"])}`;
    }
    override async autocomplete(ctx: AutocompleteContext) {
      return [
        { name: `${String(ctx.options["who"])}!`, value: `${String(ctx.options["who"])}-value` },
      ];
    }
  }
  creator.registerCommand(new Greet(creator));
  const unverified: unknown[] = [];
  creator.on("unverifiedRequest", (r) => unverified.push(r));
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const request = new Request(`http://localhost${req.url ?? "/"}`, {
          method: req.method ?? "POST",
          headers: req.headers as Record<string, string>,
          body: Buffer.concat(chunks),
        });
        const response = await generic.endpoint(request);
        res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
        res.end(Buffer.from(await response.arrayBuffer()));
      })();
    });
  });
  const url = await listen(server);
  await emu.setInteractionsEndpoint(url);
  // The URL check's forged request was refused by slash-create's own signature check.
  expect(unverified).toHaveLength(1);
  await api.post(`${api.app}/commands`, {
    ...slash("greet"),
    options: [{ type: 3, name: "who", description: "Who", required: true, autocomplete: true }],
  });
  const invoked = await emu.invoke({ ...where(), name: "greet", options: { who: "Ada" } });
  expect(invoked).toMatchObject({
    outcome: "delivered",
    response: { status: 200, body: { type: 4, data: { content: "hello Ada" } } },
  });
  expect(runs).toEqual(["Ada"]);
  const completed = await emu.autocomplete({
    ...where(),
    name: "greet",
    focused: "who",
    value: "Gr",
  });
  expect(completed).toMatchObject({
    outcome: "delivered",
    response: { body: { type: 8, data: { choices: [{ name: "Gr!", value: "Gr-value" }] } } },
  });
});

test("a handler that answers a bad signature with 200 is refused, with the reason, and the URL is not set", async () => {
  const careless = await startHandler(emu.publicKey, { checkSignatures: false });
  closers.push(() => careless.close());
  const r = await api.put(`/__emulator/applications/${emu.applicationId}/interactions-endpoint`, {
    url: careless.url,
  });
  expect(r.status).toBe(400);
  expect(rec(r.body)["message"]).toContain(
    "a request with an invalid signature must be refused with 401; got HTTP 200",
  );
  expect(emu.interactions.describe(emu.applicationId).interactionsEndpointUrl).toBeNull();
  // A handler that does not PONG is refused too; one that does is set.
  const silent = http.createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end("{}");
  });
  const silentUrl = await listen(silent);
  await expect(emu.setInteractionsEndpoint(silentUrl)).rejects.toThrow(
    'the signed PING must be answered 200 {"type":1}; got HTTP 200 {}',
  );
  const good = await startHandler(emu.publicKey);
  closers.push(() => good.close());
  const ok = await api.put(`/__emulator/applications/${emu.applicationId}/interactions-endpoint`, {
    url: good.url,
  });
  expect(ok.status).toBe(200);
  expect(rec(ok.body)["interactionsEndpointUrl"]).toBe(good.url);
  const unreachable = await api.put(
    `/__emulator/applications/${emu.applicationId}/interactions-endpoint`,
    { url: "http://127.0.0.1:1/none" },
  );
  expect(unreachable.status).toBe(400);
  expect(rec(unreachable.body)["message"]).toContain("cannot be reached");
  // The good URL stayed.
  expect(emu.interactions.describe(emu.applicationId).interactionsEndpointUrl).toBe(good.url);
});

test("config: interactionsPrivateKey fixes the key pair, interactionsEndpointUrl is used without a PUT", async () => {
  const seed = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
  const publicKey = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
  const handler = await startHandler(publicKey);
  closers.push(() => handler.close());
  const configured = await start({
    config: {
      applications: [
        {
          id: "1500000000000000001",
          botToken: "bot-config",
          clientSecret: "s",
          interactionsPrivateKey: seed,
          interactionsEndpointUrl: handler.url,
        },
      ],
      guilds: [
        {
          id: "1500000000000000002",
          channels: [{ id: "1500000000000000003" }],
          members: [{ userId: "1300000000000000003" }],
          authorizedApplications: ["1500000000000000001"],
        },
      ],
    },
  });
  closers.push(() => configured.emu.close());
  expect(configured.emu.publicKey).toBe(publicKey);
  const r = await configured.api.post("/applications/1500000000000000001/commands", slash("ping"), {
    auth: "Bot bot-config",
  });
  expect(r.status).toBe(201);
  const result = await configured.emu.invoke({
    guildId: "1500000000000000002",
    channelId: "1500000000000000003",
    userId: "1300000000000000003",
    name: "ping",
  });
  expect(result.outcome).toBe("delivered");
  expect(handler.received.map((x) => [x.body["type"], x.verified])).toEqual([[2, true]]);
});
