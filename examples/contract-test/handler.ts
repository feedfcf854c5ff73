/**
 * The bot's interaction handler: an HTTP endpoint that checks each request's signature
 * (discord-interactions' `verifyKey`), answers PING with PONG, and answers commands and
 * autocomplete. In production it sits behind the interactions endpoint URL set in the
 * developer portal; in the contract test, behind the emulator's.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { InteractionResponseType, InteractionType, verifyKey } from "discord-interactions";

const CITIES = ["Amsterdam", "Berlin", "Lisbon", "London", "Paris", "Prague", "Rome"];

interface InteractionOption {
  name: string;
  value?: unknown;
  focused?: boolean;
  options?: InteractionOption[];
}

interface Interaction {
  type: number;
  data?: { name: string; options?: InteractionOption[]; target_id?: string };
}

function option(i: Interaction, name: string): unknown {
  return i.data?.options?.find((o) => o.name === name)?.value;
}

/** The bot's logic: one answer per interaction. */
export function answer(i: Interaction): unknown {
  if (i.type === InteractionType.PING) return { type: InteractionResponseType.PONG };
  if (i.type === InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE) {
    const typed = String(option(i, "city") ?? "").toLowerCase();
    const choices = CITIES.filter((c) => c.toLowerCase().startsWith(typed))
      .slice(0, 25)
      .map((c) => ({ name: c, value: c.toLowerCase() }));
    return {
      type: InteractionResponseType.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT,
      data: { choices },
    };
  }
  const reply = (content: string) => ({
    type: InteractionResponseType.CHANNEL_MESSAGE_WITH_SOURCE,
    data: { content },
  });
  switch (i.data?.name) {
    case "ping":
      return reply("pong");
    case "weather":
      return reply(`Sunny in ${String(option(i, "city"))}`);
    case "mod":
      // Slow work: acknowledge now, follow up later.
      return { type: InteractionResponseType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE };
    case "High Five":
      return reply(`High five, <@${i.data.target_id ?? "?"}>!`);
    default:
      return reply("Unknown command");
  }
}

/** Serves `answer` on a free local port; `publicKey` is the application's (hex). */
export async function startInteractionHandler(
  publicKey: string,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const valid = await verifyKey(
          raw,
          String(req.headers["x-signature-ed25519"] ?? ""),
          String(req.headers["x-signature-timestamp"] ?? ""),
          publicKey,
        );
        if (!valid) {
          res.writeHead(401).end("invalid request signature");
          return;
        }
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify(answer(JSON.parse(raw) as Interaction)));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/interactions`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
