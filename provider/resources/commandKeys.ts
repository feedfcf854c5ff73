/**
 * A command's key among the commands of one scope (`ScopeCommands`, `CommandSet`): its
 * identity there, type and name. Its own module because programs load it (the SDK's
 * components), and programs should not load the provider's lifecycle code.
 */
import { CommandType } from "../schema";

const KEY_PREFIX: Record<number, string> = {
  [CommandType.CHAT_INPUT]: "",
  [CommandType.USER]: "user:",
  [CommandType.MESSAGE]: "message:",
  [CommandType.PRIMARY_ENTRY_POINT]: "entry_point:",
};

/** A command's key in a scope: its name, prefixed by its type unless CHAT_INPUT. */
export function commandKey(type: number | undefined, name: string): string {
  return `${KEY_PREFIX[type ?? CommandType.CHAT_INPUT] ?? `type${String(type)}:`}${name}`;
}
