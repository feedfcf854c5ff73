/**
 * `data.options` of a CHAT_INPUT interaction, as a client builds it from what a user
 * typed: the subcommand path, then each option's value after the checks the client makes
 * before it sends anything (required options, choices, min/max values and lengths,
 * channel types, option types, a base command that has subcommands), with the objects it
 * names resolved. Names are always the defaults, whatever the user's locale. In
 * autocomplete payloads INTEGER and NUMBER values are strings, as discord-api-types types
 * them (`Type extends ApplicationCommandAutocomplete ? string : number`).
 */
import type { StoredCommand } from "../commandRecord";
import type { CanonicalOption } from "../../provider/schema";
import { charLength, Limits, OptionType } from "../schema";
import { channelPermissions } from "./access";
import { ClientCheckError, type Invocation } from "./invocation";
import type { Json, Resolved } from "./objects";
import { emptyResolved, memberObject, roleObject, userObject } from "./objects";
import type { OptionValue, ParsedInvokeRequest } from "./requests";

/** The subcommand path of a request, and the declared options the values belong to. */
function leafOf(
  command: StoredCommand,
  subcommand: ParsedInvokeRequest["subcommand"],
): { path: CanonicalOption[]; declared: CanonicalOption[] } {
  const names =
    subcommand === undefined
      ? []
      : Array.isArray(subcommand)
        ? subcommand
        : subcommand.split(/\s+/).filter((s) => s !== "");
  const path: CanonicalOption[] = [];
  let level = command.options;
  for (const name of names) {
    const next = level.find(
      (o) =>
        o.name === name &&
        (o.type === OptionType.SUB_COMMAND || o.type === OptionType.SUB_COMMAND_GROUP),
    );
    if (!next) {
      throw new ClientCheckError(
        `/${[command.name, ...path.map((p) => p.name)].join(" ")} has no subcommand or group "${name}"`,
      );
    }
    if (path.length === 1 && next.type === OptionType.SUB_COMMAND_GROUP) {
      throw new ClientCheckError("groups may not contain groups");
    }
    path.push(next);
    level = next.options;
  }
  const last = path[path.length - 1];
  if (last?.type === OptionType.SUB_COMMAND_GROUP) {
    throw new ClientCheckError(`"${last.name}" is a subcommand group: name one of its subcommands`);
  }
  if (
    last === undefined &&
    command.options.some(
      (o) => o.type === OptionType.SUB_COMMAND || o.type === OptionType.SUB_COMMAND_GROUP,
    )
  ) {
    throw new ClientCheckError(
      `/${command.name} has subcommands: it cannot be invoked as the base command`,
    );
  }
  return { path, declared: level };
}

function fail(option: string, problem: string): never {
  throw new ClientCheckError(`option "${option}": ${problem}`);
}

function checkNumber(o: CanonicalOption, v: number): void {
  const integer = o.type === OptionType.INTEGER;
  if (!Number.isFinite(v)) fail(o.name, "not a number");
  if (integer && !Number.isInteger(v)) fail(o.name, `${v} is not an integer`);
  const lo = integer ? Limits.INTEGER_MIN : Limits.NUMBER_MIN;
  const hi = integer ? Limits.INTEGER_MAX : Limits.NUMBER_MAX;
  if (v < lo || v > hi) fail(o.name, `${v} is outside ${lo}..${hi}`);
  if (o.min_value !== null && v < o.min_value)
    fail(o.name, `${v} is below min_value ${o.min_value}`);
  if (o.max_value !== null && v > o.max_value)
    fail(o.name, `${v} is above max_value ${o.max_value}`);
}

function checkChoices(o: CanonicalOption, v: string | number): void {
  if (o.choices.length > 0 && !o.choices.some((c) => c.value === v)) {
    fail(o.name, `${JSON.stringify(v)} is not one of its choices`);
  }
}

/** One option's wire value after the client's checks; fills `resolved`. */
function optionValue(
  input: Invocation,
  o: CanonicalOption,
  raw: OptionValue,
  resolved: Resolved,
): string | number | boolean {
  switch (o.type) {
    case OptionType.STRING:
      return stringValue(o, raw);
    case OptionType.INTEGER:
    case OptionType.NUMBER: {
      if (typeof raw !== "number") fail(o.name, "a number is expected");
      checkNumber(o, raw);
      checkChoices(o, raw);
      return raw;
    }
    case OptionType.BOOLEAN:
      if (typeof raw !== "boolean") fail(o.name, "a BOOLEAN option takes true or false");
      return raw;
    case OptionType.USER:
    case OptionType.ROLE:
    case OptionType.MENTIONABLE:
      return mentionValue(input, o, raw, resolved);
    case OptionType.CHANNEL:
      return channelValue(input, o, raw, resolved);
    case OptionType.ATTACHMENT:
      return attachmentValue(input, o, raw, resolved);
    default:
      return fail(o.name, `option type ${o.type} takes no value`);
  }
}

function stringValue(o: CanonicalOption, raw: OptionValue): string {
  if (typeof raw !== "string") fail(o.name, "a STRING option takes a string");
  const n = charLength(raw);
  if (o.min_length !== null && n < o.min_length)
    fail(o.name, `shorter than min_length ${o.min_length}`);
  if (o.max_length !== null && n > o.max_length)
    fail(o.name, `longer than max_length ${o.max_length}`);
  checkChoices(o, raw);
  return raw;
}

/** A USER, ROLE or MENTIONABLE option: an id the place knows, resolved. */
function mentionValue(
  input: Invocation,
  o: CanonicalOption,
  raw: OptionValue,
  resolved: Resolved,
): string {
  const { store, place } = input;
  const guild = place.kind === "guild" ? place.guild : undefined;
  const resolveUser = (id: string): boolean => {
    const user = store.user(id);
    if (!user) return false;
    resolved.users[id] = userObject(user);
    if (guild && (guild.members.some((m) => m.userId === id) || guild.ownerId === id)) {
      resolved.members[id] = memberObject(store, guild, id, place);
    }
    return true;
  };
  const resolveRole = (id: string): boolean => {
    const role = guild && roleObject(guild, id);
    if (!role) return false;
    resolved.roles[id] = role;
    return true;
  };
  if (o.type === OptionType.USER) {
    if (typeof raw !== "string" || !resolveUser(raw)) fail(o.name, `no user ${String(raw)}`);
  } else if (o.type === OptionType.ROLE) {
    if (typeof raw !== "string" || !resolveRole(raw))
      fail(o.name, `no role ${String(raw)} in the guild`);
  } else if (typeof raw !== "string" || !(resolveUser(raw) || resolveRole(raw))) {
    fail(o.name, `no user or role ${String(raw)}`);
  }
  return raw;
}

/** A CHANNEL option: a channel of the guild, of one of the option's channel types. */
function channelValue(
  input: Invocation,
  o: CanonicalOption,
  raw: OptionValue,
  resolved: Resolved,
): string {
  const guild = input.place.kind === "guild" ? input.place.guild : undefined;
  const channel = typeof raw === "string" ? guild?.channels.find((c) => c.id === raw) : undefined;
  if (!guild || !channel) fail(o.name, `no channel ${String(raw)} in the guild`);
  if (o.channel_types.length > 0 && !o.channel_types.includes(channel.type)) {
    fail(
      o.name,
      `channel type ${channel.type} is not one of channel_types ${o.channel_types.join(", ")}`,
    );
  }
  resolved.channels[channel.id] = {
    id: channel.id,
    name: channel.name,
    type: channel.type,
    permissions: channelPermissions(input.store, guild, input.user.id, channel).toString(),
    ...(channel.parentId === undefined ? {} : { parent_id: channel.parentId }),
  };
  return channel.id;
}

/** An ATTACHMENT option: a file name (or file), given an id and a URL as if uploaded. */
function attachmentValue(
  input: Invocation,
  o: CanonicalOption,
  raw: OptionValue,
  resolved: Resolved,
): string {
  const file =
    typeof raw === "string"
      ? { filename: raw, size: 0 }
      : typeof raw === "object"
        ? raw
        : undefined;
  if (!file || file.filename === "")
    fail(o.name, "an ATTACHMENT option takes a file name or {filename}");
  const id = input.store.ids.next();
  const url = `https://cdn.emulator.invalid/attachments/${input.request.channelId}/${id}/${encodeURIComponent(file.filename)}`;
  resolved.attachments[id] = {
    id,
    filename: file.filename,
    size: file.size,
    url,
    proxy_url: url,
    ...("contentType" in file && file.contentType !== undefined
      ? { content_type: file.contentType }
      : {}),
  };
  return id;
}

/** The focused option's partial value: what the client lets through while typing. */
function partialValue(o: CanonicalOption, value: string): string {
  if (!o.autocomplete) fail(o.name, "autocomplete is not enabled for this option");
  if (o.type === OptionType.STRING) {
    if (o.max_length !== null && charLength(value) > o.max_length) {
      fail(o.name, `longer than max_length ${o.max_length}`);
    }
    return value;
  }
  const pattern = o.type === OptionType.INTEGER ? /^-?\d*$/ : /^-?\d*\.?\d*$/;
  if (!pattern.test(value)) fail(o.name, `${JSON.stringify(value)} is not a partial number`);
  return value;
}

/** `data.options` and `data.resolved` for a CHAT_INPUT command. */
export function chatInputData(input: Invocation): { options: Json[]; resolved: Resolved } {
  const { command, request, autocomplete } = input;
  const { path, declared } = leafOf(command, request.subcommand);
  const resolved = emptyResolved();
  const given = { ...request.options };
  for (const name of Object.keys(given)) {
    if (!declared.some((o) => o.name === name)) {
      throw new ClientCheckError(`no option "${name}" here (default names only)`);
    }
  }
  if (autocomplete && !declared.some((o) => o.name === autocomplete.focused)) {
    throw new ClientCheckError(`no option "${autocomplete.focused}" to focus`);
  }
  const leaf: Json[] = [];
  for (const o of declared) {
    if (autocomplete?.focused === o.name) {
      leaf.push({
        type: o.type,
        name: o.name,
        value: partialValue(o, autocomplete.value),
        focused: true,
      });
      continue;
    }
    const raw = given[o.name];
    if (raw === undefined) {
      // While typing, required options may still be empty.
      if (o.required && !autocomplete) throw new ClientCheckError(`option "${o.name}" is required`);
      continue;
    }
    const value = optionValue(input, o, raw, resolved);
    const numeric = o.type === OptionType.INTEGER || o.type === OptionType.NUMBER;
    leaf.push({
      type: o.type,
      name: o.name,
      value: autocomplete && numeric ? String(value) : value,
    });
  }
  let options = leaf;
  for (const p of [...path].reverse()) {
    options = [{ type: p.type, name: p.name, ...(options.length > 0 ? { options } : {}) }];
  }
  return { options, resolved };
}
