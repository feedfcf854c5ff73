/**
 * An invocation as a client sends it (who uses which command where, with which request)
 * and the client's refusal to send one: the checks a client makes before it sends
 * anything (emulator/interactions/optionValues.ts, payload.ts) throw ClientCheckError.
 */
import type { UserConfig } from "../config";
import type { StoredCommand } from "../commandRecord";
import type { Store } from "../store";
import type { Place } from "./access";
import type { ParsedInvokeRequest } from "./requests";

/** A check the client makes failed: nothing is sent (outcome "invalid"). */
export class ClientCheckError extends Error {}

export interface Invocation {
  readonly store: Store;
  readonly command: StoredCommand;
  readonly user: UserConfig;
  readonly place: Place;
  readonly request: ParsedInvokeRequest;
  /** Present for an autocomplete interaction. */
  readonly autocomplete?: { readonly focused: string; readonly value: string };
}
