/**
 * What the application may answer (interaction callbacks; the service's documentation,
 * discord/discord-api-docs "Interaction Response Object"): to a command, 4
 * CHANNEL_MESSAGE_WITH_SOURCE (a message that is not empty), 5
 * DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, 9 MODAL, and 12 LAUNCH_ACTIVITY only for an
 * entry point with handler APP_HANDLER (spec: "Entry Point Handler Type"); to an
 * autocomplete interaction, only 8 APPLICATION_COMMAND_AUTOCOMPLETE_RESULT with at
 * most 25 choices valid for the focused option. Anything else, and any status but 2xx,
 * is an interaction that failed.
 */
import type { CanonicalOption } from "../../provider/schema";
import type { StoredCommand } from "../commandRecord";
import {
  charLength,
  CommandType,
  EntryPointHandler,
  isRecord,
  Limits,
  OptionType,
} from "../schema";

const CallbackType = {
  PONG: 1,
  CHANNEL_MESSAGE_WITH_SOURCE: 4,
  DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: 5,
  DEFERRED_UPDATE_MESSAGE: 6,
  UPDATE_MESSAGE: 7,
  APPLICATION_COMMAND_AUTOCOMPLETE_RESULT: 8,
  MODAL: 9,
  PREMIUM_REQUIRED: 10,
  LAUNCH_ACTIVITY: 12,
} as const;

const MESSAGE_CONTENT_MAX = 2000;
const EMBEDS_MAX = 10;
/** Flags a response message may carry: SUPPRESS_EMBEDS, EPHEMERAL, SUPPRESS_NOTIFICATIONS, IS_COMPONENTS_V2. */
const MESSAGE_FLAGS = (1 << 2) | (1 << 6) | (1 << 12) | (1 << 15);

/** The problems of a command's callback body (empty = valid). */
export function commandCallbackProblems(command: StoredCommand, body: unknown): string[] {
  if (!isRecord(body)) return ["the response body is not a JSON object"];
  const type = body["type"];
  const data = body["data"];
  switch (type) {
    case CallbackType.CHANNEL_MESSAGE_WITH_SOURCE:
      return messageProblems(data, true);
    case CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE:
      return data === undefined ? [] : messageProblems(data, false);
    case CallbackType.MODAL:
      return modalProblems(data);
    case CallbackType.LAUNCH_ACTIVITY:
      return command.type === CommandType.PRIMARY_ENTRY_POINT &&
        command.handler === EntryPointHandler.APP_HANDLER
        ? []
        : ["LAUNCH_ACTIVITY (12) answers only an entry point command with handler APP_HANDLER (1)"];
    default:
      return [
        `callback type ${JSON.stringify(type)} does not answer a command (4, 5, 9, or 12 for an entry point)`,
      ];
  }
}

function messageProblems(data: unknown, needsContent: boolean): string[] {
  if (data === undefined) return needsContent ? ["type 4 needs data (the message)"] : [];
  if (!isRecord(data)) return ["data is not an object"];
  const out: string[] = [];
  const content = data["content"];
  if (content !== undefined && typeof content !== "string")
    out.push("data.content is not a string");
  if (typeof content === "string" && charLength(content) > MESSAGE_CONTENT_MAX) {
    out.push(`data.content is longer than ${MESSAGE_CONTENT_MAX} characters`);
  }
  const embeds = data["embeds"];
  if (embeds !== undefined && (!Array.isArray(embeds) || embeds.length > EMBEDS_MAX)) {
    out.push(`data.embeds must be a list of at most ${EMBEDS_MAX}`);
  }
  const flags = data["flags"];
  if (flags !== undefined && (typeof flags !== "number" || (flags & ~MESSAGE_FLAGS) !== 0)) {
    out.push(
      "data.flags may only hold SUPPRESS_EMBEDS, EPHEMERAL, SUPPRESS_NOTIFICATIONS, IS_COMPONENTS_V2",
    );
  }
  const nonEmpty = (k: string) => {
    const v = data[k];
    return Array.isArray(v)
      ? v.length > 0
      : typeof v === "string"
        ? v !== ""
        : v !== undefined && v !== null;
  };
  if (
    needsContent &&
    !["content", "embeds", "components", "attachments", "poll", "sticker_ids"].some(nonEmpty)
  ) {
    out.push(
      "Cannot send an empty message: data needs content, embeds, components, attachments or a poll",
    );
  }
  return out;
}

function modalProblems(data: unknown): string[] {
  if (!isRecord(data)) return ["a MODAL (9) needs data {custom_id, title, components}"];
  const out: string[] = [];
  const id = data["custom_id"];
  if (typeof id !== "string" || id.length < 1 || id.length > 100)
    out.push("data.custom_id must be 1-100 characters");
  const title = data["title"];
  if (typeof title !== "string" || title.length < 1 || title.length > 45)
    out.push("data.title must be 1-45 characters");
  const components = data["components"];
  if (!Array.isArray(components) || components.length < 1 || components.length > 5) {
    out.push("data.components must hold 1-5 components");
  }
  return out;
}

/** The problems of an autocomplete answer for the focused option (empty = valid). */
export function autocompleteCallbackProblems(option: CanonicalOption, body: unknown): string[] {
  if (!isRecord(body)) return ["the response body is not a JSON object"];
  if (body["type"] !== CallbackType.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT) {
    return [
      `an autocomplete interaction is answered with type 8, not ${JSON.stringify(body["type"])}`,
    ];
  }
  const data = body["data"];
  if (!isRecord(data) || !Array.isArray(data["choices"])) return ["data.choices must be a list"];
  const choices: unknown[] = data["choices"];
  const out: string[] = [];
  if (choices.length > Limits.CHOICES_MAX)
    out.push(`at most ${Limits.CHOICES_MAX} choices (got ${choices.length})`);
  choices.forEach((c, i) => {
    const at = `data.choices[${i}]`;
    if (!isRecord(c)) {
      out.push(`${at} is not an object {name, value}`);
      return;
    }
    const name = c["name"];
    if (
      typeof name !== "string" ||
      charLength(name) < Limits.CHOICE_NAME_MIN ||
      charLength(name) > Limits.CHOICE_NAME_MAX
    ) {
      out.push(`${at}.name must be ${Limits.CHOICE_NAME_MIN}-${Limits.CHOICE_NAME_MAX} characters`);
    }
    const value = c["value"];
    if (option.type === OptionType.STRING) {
      if (typeof value !== "string" || charLength(value) > Limits.CHOICE_STRING_VALUE_MAX) {
        out.push(
          `${at}.value must be a string of at most ${Limits.CHOICE_STRING_VALUE_MAX} characters`,
        );
      }
    } else if (
      typeof value !== "number" ||
      !Number.isFinite(value) ||
      (option.type === OptionType.INTEGER && !Number.isInteger(value))
    ) {
      out.push(
        `${at}.value must be ${option.type === OptionType.INTEGER ? "an integer" : "a number"}`,
      );
    }
  });
  return out;
}
