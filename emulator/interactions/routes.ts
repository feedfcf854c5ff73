/**
 * The control routes of interactions (under `/__emulator/`; async, because they call the
 * application): answered here, or `undefined` to leave the path to control.ts.
 *
 * | Method and path                               | Does                                                      |
 * |-----------------------------------------------|-----------------------------------------------------------|
 * | PUT  /applications/{id}/interactions-endpoint | `{url}` verified and set (null removes); answers as GET   |
 * | GET  /applications/{id}/interactions-endpoint | `{applicationId, publicKey, interactionsEndpointUrl}`     |
 * | POST /interactions                            | invoke a command as a user                                |
 * | POST /interactions/autocomplete               | type in an autocomplete option                            |
 * | POST /interactions/can-use                    | `{visible, usable, reason}`                               |
 * | GET  /events?after=N                          | gateway events after id N                                 |
 */
import { ControlError } from "../control";
import type { Store } from "../store";
import { EndpointRequest } from "./requests";
import type { AutocompleteRequest, CanUseRequest, InvokeRequest } from "./requests";
import type { InteractionService } from "./service";
import { formatIssues } from "../config";

export interface ControlAnswer {
  readonly status: number;
  readonly body?: unknown;
}

export async function serveInteractionControl(
  service: InteractionService,
  store: Store,
  method: string,
  sub: string,
  body: unknown,
  query: URLSearchParams,
): Promise<ControlAnswer | undefined> {
  const seg = sub.split("/").filter((s) => s !== "");
  const route = `${method} /${seg.map((s, i) => (i === 1 && /^\d+$/.test(s) ? ":id" : s)).join("/")}`;
  switch (route) {
    case "POST /interactions":
      return { status: 200, body: await service.invoke(body as InvokeRequest) };
    case "POST /interactions/autocomplete":
      return { status: 200, body: await service.autocomplete(body as AutocompleteRequest) };
    case "POST /interactions/can-use":
      return { status: 200, body: service.canUse(body as CanUseRequest) };
    case "GET /applications/:id/interactions-endpoint":
      return { status: 200, body: service.describe(seg[1] ?? "") };
    case "PUT /applications/:id/interactions-endpoint": {
      const parsed = EndpointRequest.safeParse(body);
      if (!parsed.success) {
        throw new ControlError(400, `invalid body:\n${formatIssues(parsed.error)}`);
      }
      return { status: 200, body: await service.setEndpoint(seg[1] ?? "", parsed.data.url) };
    }
    case "GET /events": {
      const after = query.get("after") ?? "0";
      if (!/^\d+$/.test(after)) throw new ControlError(400, "after must be a whole number");
      return { status: 200, body: store.events.after(Number(after)) };
    }
    default:
      return undefined;
  }
}
