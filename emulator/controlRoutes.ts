/**
 * The control API's one route table (`/__emulator/...`): a row per method and path, what it
 * does (the docs' lists, emulator/README.md "Control API" and docs/emulator.md, are checked
 * against these rows by test/emulator/controlRoutes.test.ts) and its handler, which calls
 * `EmulatorControl` (control.ts, also `emu.control.*` in code) or, for interactions, the
 * interaction service. A `{name}` segment matches one numeric path segment (an id),
 * handed to the handler in order. A handler's answer is the body of a 200, `undefined` a 204; a `ControlError`
 * is the refusal. `GET /__emulator/health` is answered before this table (dispatch.ts).
 */
import { z } from "zod";
import { formatIssues } from "./config";
import type { EmulatorControl } from "./control";
import { ControlError } from "./control";
import type { FaultPlanInput } from "./faults";
import { EndpointRequest } from "./interactions/requests";
import type { AutocompleteRequest, CanUseRequest, InvokeRequest } from "./interactions/requests";
import type { InteractionService } from "./interactions/service";
import { isRecord } from "./schema";
import type { Store } from "./store";

/** What the handlers act on. */
export interface ControlTarget {
  readonly control: EmulatorControl;
  readonly interactions: InteractionService;
  readonly store: Store;
}

/** A control request, its path's `{name}` segments in `params`. */
export interface ControlCall {
  readonly params: readonly string[];
  readonly body: unknown;
  readonly query: URLSearchParams;
  /** Over loopback naming a loopback host: `info` may carry the credentials. */
  readonly loopback: boolean;
}

export interface ControlRoute {
  readonly method: "GET" | "PUT" | "POST" | "PATCH" | "DELETE";
  /** The path after `/__emulator`, `{name}` for a segment the handler reads. */
  readonly path: string;
  /** What it does, in a few words (its body and answer). */
  readonly does: string;
  readonly handle: (t: ControlTarget, call: ControlCall) => unknown;
}

const PermissionsBody = z.strictObject({
  permissions: z.array(
    z.strictObject({ id: z.string(), type: z.number().int(), permission: z.boolean() }),
  ),
});
const AdvanceBody = z.union([
  z.strictObject({ ms: z.number().min(0) }),
  z.strictObject({ seconds: z.number().min(0) }),
]);
const EnabledBody = z.strictObject({ enabled: z.boolean() });
const ConsentBody = z.strictObject({ userId: z.string().nullable() });
const TokenBody = z.strictObject({ token: z.string() });

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body);
  if (!r.success) throw new ControlError(400, `invalid body:\n${formatIssues(r.error)}`);
  return r.data;
}

const p = (call: ControlCall, i: number): string => call.params[i] ?? "";
const clock = (now: number) => ({ now, iso: new Date(now).toISOString() });

function patchCommand({ control }: ControlTarget, call: ControlCall): unknown {
  if (!isRecord(call.body)) throw new ControlError(400, "body must be an object of fields");
  return control.patchCommand(p(call, 0), call.body);
}

function advanceClock({ control }: ControlTarget, { body }: ControlCall): unknown {
  const b = parse(AdvanceBody, body);
  return clock(control.advanceClock("ms" in b ? b.ms : b.seconds * 1000));
}

function events({ store }: ControlTarget, { query }: ControlCall): unknown {
  const after = query.get("after") ?? "0";
  if (!/^\d+$/.test(after)) throw new ControlError(400, "after must be a whole number");
  return store.events.after(Number(after));
}

function setPermissions({ control }: ControlTarget, call: ControlCall): undefined {
  const { permissions } = parse(PermissionsBody, call.body);
  control.setPermissions(p(call, 0), p(call, 1), p(call, 2), permissions);
  return undefined;
}

function setFaults({ control }: ControlTarget, { body }: ControlCall): unknown {
  control.setFaults(body as FaultPlanInput);
  return control.faults.describe();
}

/** Runs `act` and answers 204. */
const done =
  (act: (t: ControlTarget, call: ControlCall) => void) =>
  (t: ControlTarget, call: ControlCall): undefined => {
    act(t, call);
    return undefined;
  };

// prettier-ignore
export const CONTROL_ROUTES: readonly ControlRoute[] = [
  { method: "GET", path: "/info", does: "url, ids, keys; credentials (loopback callers only)", handle: (t, c) => t.control.info(c.loopback) },
  { method: "GET", path: "/state", does: "every command and permissions object", handle: (t) => t.control.state() },
  { method: "POST", path: "/reset", does: "back to the start: state, log, interactions, faults, limits", handle: done((t) => t.control.reset()) },
  { method: "GET", path: "/log", does: "the request log", handle: (t) => t.control.requestLog() },
  { method: "DELETE", path: "/log", does: "empties the request log and its counters", handle: done((t) => t.control.resetLog()) },
  { method: "GET", path: "/counters", does: "counts by method, route, status; writes", handle: (t) => t.control.counters() },
  { method: "GET", path: "/faults", does: "the fault plan `{seed, rules}`", handle: (t) => t.control.faults.describe() },
  { method: "PUT", path: "/faults", does: "replaces the fault plan", handle: setFaults },
  { method: "POST", path: "/faults", does: "replaces the fault plan (as PUT)", handle: setFaults },
  { method: "DELETE", path: "/faults", does: "clears the fault plan", handle: done((t) => t.control.clearFaults()) },
  { method: "GET", path: "/commands", does: "every command, as the service shows it", handle: (t) => t.control.commands() },
  { method: "PATCH", path: "/commands/{id}", does: "drift: sets fields, no validation", handle: patchCommand },
  { method: "DELETE", path: "/commands/{id}", does: "drift: deletes a command", handle: done((t, c) => t.control.deleteCommand(p(c, 0))) },
  { method: "PUT", path: "/permissions/{app}/{guild}/{target}", does: "drift: sets overwrites `{permissions}`", handle: setPermissions },
  { method: "DELETE", path: "/permissions/{app}/{guild}/{target}", does: "drift: deletes overwrites", handle: done((t, c) => t.control.deletePermissions(p(c, 0), p(c, 1), p(c, 2))) },
  { method: "GET", path: "/clock", does: "the emulator's time `{now, iso}`", handle: (t) => clock(t.control.now()) },
  { method: "POST", path: "/clock/advance", does: "`{ms}` or `{seconds}` forward", handle: advanceClock },
  { method: "PUT", path: "/applications/{id}/activities", does: "`{enabled}`: Activities on or off", handle: done((t, c) => t.control.setActivities(p(c, 0), parse(EnabledBody, c.body).enabled)) },
  { method: "PUT", path: "/applications/{id}/consent", does: "`{userId}`: who consents (null: denied)", handle: done((t, c) => t.control.setConsent(p(c, 0), parse(ConsentBody, c.body).userId)) },
  { method: "PUT", path: "/applications/{id}/bot-token", does: "`{token}`: rotates the bot token", handle: done((t, c) => t.control.rotateBotToken(p(c, 0), parse(TokenBody, c.body).token)) },
  { method: "PUT", path: "/rate-limits", does: "`{enabled}`: rate limits on or off", handle: done((t, c) => t.control.setRateLimits(parse(EnabledBody, c.body).enabled)) },
  { method: "GET", path: "/applications/{id}/interactions-endpoint", does: "`{applicationId, publicKey, interactionsEndpointUrl}`", handle: (t, c) => t.interactions.describe(p(c, 0)) },
  { method: "PUT", path: "/applications/{id}/interactions-endpoint", does: "`{url}` verified and set (null removes); answers as GET", handle: (t, c) => t.interactions.setEndpoint(p(c, 0), parse(EndpointRequest, c.body).url) },
  { method: "POST", path: "/interactions", does: "invokes a command as a user", handle: (t, c) => t.interactions.invoke(c.body as InvokeRequest) },
  { method: "POST", path: "/interactions/autocomplete", does: "types in an autocomplete option", handle: (t, c) => t.interactions.autocomplete(c.body as AutocompleteRequest) },
  { method: "POST", path: "/interactions/can-use", does: "`{visible, usable, reason}`", handle: (t, c) => t.interactions.canUse(c.body as CanUseRequest) },
  { method: "GET", path: "/events", does: "gateway events after id `?after=N`", handle: events },
];

/** The route of `method` and `path` (after `/__emulator`) and its `{name}` segments. */
export function findControlRoute(
  method: string,
  path: string,
): { route: ControlRoute; params: string[] } | undefined {
  let segments: string[];
  try {
    segments = path
      .split("/")
      .filter((s) => s !== "")
      .map(decodeURIComponent);
  } catch {
    throw new ControlError(400, "malformed path");
  }
  for (const route of CONTROL_ROUTES) {
    if (route.method !== method) continue;
    const pattern = route.path.split("/").filter((s) => s !== "");
    if (pattern.length !== segments.length) continue;
    const params: string[] = [];
    const fits = pattern.every((part, i) => {
      const seg = segments[i] ?? "";
      if (!part.startsWith("{")) return part === seg;
      params.push(seg);
      return /^\d+$/.test(seg);
    });
    if (fits) return { route, params };
  }
  return undefined;
}

/** Answers a control request by the table: 200 with a body, 204, or a `ControlError`. */
export async function serveControlRoute(
  target: ControlTarget,
  method: string,
  path: string,
  call: Omit<ControlCall, "params">,
): Promise<{ status: number; body?: unknown }> {
  const found = findControlRoute(method, path);
  if (found === undefined) {
    const shown = path.split("/").filter((s) => s !== "");
    throw new ControlError(404, `no control route ${method} /__emulator/${shown.join("/")}`);
  }
  const body = await found.route.handle(target, { ...call, params: found.params });
  return body === undefined ? { status: 204 } : { status: 200, body };
}
