/**
 * The one place where a provider method's failure becomes what the engine shows: one
 * message that names the operation and the resource, the request, what the service
 * answered (status, code, message) and the fix.
 *
 * Why a wrapper, and why a plain `Error`: the dynamic-provider host
 * (`@pulumi/pulumi/cmd/dynamic-provider/index.js`) hands a thrown error straight to
 * grpc-js's callback, and grpc-js (`serverErrorToStatus` in `server-call.js`) takes any
 * integer `code` property of it as the gRPC status. The client's `ServiceApiError` has the
 * service's `code`: 0 for a rejected token, which is gRPC's OK, so the host answered "OK"
 * with no message and the engine printed "cardinality violation: received no response
 * message from non-server-streaming RPC"; 30034 or 10063 are not gRPC statuses at all.
 * An `id` property would be read as a partially created resource (`grpcResponseFromError`).
 * The error thrown here carries neither, only the message. For check, diff, read and
 * delete the host also prints `${e}: ${e.stack}` to its stderr, which the engine shows
 * as a second copy under the stack (with the JavaScript frames, before this wrapper):
 * the host's stderr line of exactly our failure is dropped (`quietHostEcho`), so the
 * engine shows the message once, under the resource.
 */
import {
  ClientError,
  ConfigurationError,
  DailyCreateLimitError,
  HttpError,
  NetworkError,
  RateLimitError,
  reportedLimit,
  ServiceApiError,
  TimeoutError,
} from "../client";
import type { Secrecy } from "../schema";
import { ServiceErrorCode } from "../schema";
import type { Bag } from "./propertyBags";
import { secrecyOf } from "./propertyBags";
import type { ConfigNamespace, ProviderSettings, StackConfig } from "./settings";
import { inNamespace } from "./settings";
import type { TimingLog } from "./timingLog";

export type ProviderMethod = "check" | "diff" | "create" | "read" | "update" | "delete";

/** What the user knows each method as. */
const OPERATION: Readonly<Record<ProviderMethod, string>> = {
  check: "checking",
  diff: "diffing",
  create: "creating",
  read: "refreshing",
  update: "updating",
  delete: "deleting",
};

/** A failure ready for the engine: a message and nothing the gRPC layer could misread. */
export class ProviderFailure extends Error {
  constructor(message: string) {
    super(message);
    // No JavaScript frames: the message is all the user needs.
    this.stack = `${this.name}: ${message}`;
  }

  override get name(): string {
    return "ProviderFailure";
  }
}

/** The host's stderr lines (`${e}: ${e.stack}`) of failures thrown and not yet printed. */
const pendingEchoes = new Set<string>();
const MAX_PENDING_ECHOES = 64;
let consolePatched = false;

/**
 * Drops the dynamic-provider host's `console.error(`${e}: ${e.stack}`)` of exactly this
 * failure (check, diff, read and delete print it; create and update do not, so entries
 * are bounded). Anything else printed to stderr is left alone.
 */
function quietHostEcho(failure: ProviderFailure): void {
  if (!consolePatched) {
    consolePatched = true;
    const original = console.error.bind(console);
    console.error = (...args: unknown[]): void => {
      const [first] = args;
      if (args.length === 1 && typeof first === "string" && pendingEchoes.delete(first)) return;
      original(...args);
    };
  }
  pendingEchoes.add(`${String(failure)}: ${failure.stack ?? ""}`);
  if (pendingEchoes.size > MAX_PENDING_ECHOES) {
    const oldest = pendingEchoes.values().next();
    if (oldest.done !== true) pendingEchoes.delete(oldest.value);
  }
}

/** How a resource kind names one of its resources, from its properties (and id). */
export type DescribeResource = (props: Bag, id: string | undefined) => string;

/**
 * `err` as the engine should show it, for `method` of the resource `what`. With `secrecy`
 * (the resource's secret values), the service's own words about a field are left out: the
 * service may quote the value it refused, and the request carried a secret.
 */
export function engineFailure(
  method: ProviderMethod,
  what: string,
  err: unknown,
  settings?: ProviderSettings,
  secrecy?: Secrecy,
): ProviderFailure {
  if (err instanceof ProviderFailure) return err;
  const head = `${OPERATION[method]} ${what} failed`;
  const { detail, fix } = explain(method, err, settings?.client.apiUrl, secrecy?.any === true);
  // Every setting the message names, in the namespace of the door in use (`discord:` for
  // the dynamic resources, `discord-commands:` for the plugin): the client's messages,
  // the fixes below and the lifecycles' are written with `discord:`.
  const message = `${head}: ${detail}${fix === undefined ? "" : `\nfix: ${fix}`}`;
  return new ProviderFailure(inNamespace(message, settings?.namespace));
}

/** A check's failures with the settings they name in the door's namespace (`inNamespace`). */
function checkInNamespace<R>(result: R, namespace: ConfigNamespace | undefined): R {
  const failures = (result as { failures?: unknown } | undefined)?.failures;
  if (!Array.isArray(failures)) return result;
  return {
    ...result,
    failures: failures.map((f: { reason?: unknown }) =>
      typeof f.reason === "string" ? { ...f, reason: inNamespace(f.reason, namespace) } : f,
    ),
  };
}

/** What a failure shows in place of the service's words when the request may hold secrets. */
const WITHHELD = "(the service's message is not shown: the request may hold secret values)";

/**
 * Whether the service's words stay out of a failure: the request carried this resource's
 * secrets, or was a bulk overwrite (a PUT of a scope's list), which carries other
 * resources' values too, whose secrets this resource does not know. The service (or a
 * proxy before it) may quote what it was sent, in its message or a non-JSON page.
 */
function withheld(err: { method: string; route: string }, carriedSecrets: boolean): boolean {
  return carriedSecrets || (err.method === "PUT" && !err.route.endsWith("/permissions"));
}

function explain(
  method: ProviderMethod,
  err: unknown,
  configuredApiUrl: string | undefined,
  carriedSecrets = false,
): { detail: string; fix?: string | undefined } {
  const apiUrl = (): string => configuredApiUrl ?? "https://discord.com (the default)";
  if (err instanceof ServiceApiError) {
    const request = `${err.method} ${err.path}`;
    const said = (message: string): string => (withheld(err, carriedSecrets) ? WITHHELD : message);
    const fields = err.fieldErrors
      .map((f) => `\n  ${f.path}: ${said(f.message)} (${f.code})`)
      .join("");
    const detail =
      `${request} answered ${err.status} (code ${err.code}): ${said(err.serviceMessage)}` + fields;
    return { detail, fix: serviceFix(method, err, apiUrl()) };
  }
  if (err instanceof TimeoutError) {
    return {
      detail: err.message,
      fix: `the service at ${apiUrl()} did not answer in time: try again, or allow more time with \`pulumi config set discord:timeoutMs <ms>\``,
    };
  }
  if (err instanceof NetworkError) {
    return {
      detail: err.message,
      fix: `nothing answered at ${apiUrl()}: check discord:apiUrl and that the service is reachable, then run the command again`,
    };
  }
  if (err instanceof HttpError) {
    // A proxy or server that echoes the request would print what it carried.
    const detail = withheld(err, carriedSecrets) ? err.withoutResponseText(WITHHELD) : err.message;
    if (err.status >= 500) {
      return {
        detail,
        fix: "the service kept failing: try again later (`pulumi up` resumes where it stopped)",
      };
    }
    return {
      detail,
      fix: `the answer is not the service's API: check that discord:apiUrl (${apiUrl()}) is the service's address`,
    };
  }
  if (err instanceof RateLimitError) {
    return { detail: err.message, fix: "run the command again once the wait has passed" };
  }
  if (err instanceof ConfigurationError || err instanceof ClientError) {
    return { detail: err.message };
  }
  return { detail: err instanceof Error ? err.message : String(err) };
}

function serviceFix(
  method: ProviderMethod,
  err: ServiceApiError,
  apiUrl: string,
): string | undefined {
  const limit = reportedLimit(err.serviceMessage);
  if (err instanceof DailyCreateLimitError) {
    const allows = err.limit === undefined ? "" : ` (the service allows ${err.limit} a day)`;
    const when =
      err.retryAt === undefined
        ? "the service does not say when the day's budget resets: run `pulumi up` again a day later"
        : `run \`pulumi up\` again after ${err.retryAt.toISOString()} (the service's Retry-After)`;
    return `the daily budget of command creates is spent${allows}: ${when}; it resumes where it stopped`;
  }
  if (err.status === 401) {
    if (err.route.endsWith("/permissions")) {
      return "the user's Bearer token was rejected (expired or revoked): set a new one with `pulumi config set --secret discord:bearerToken <token>`";
    }
    const set =
      "set a valid one with `pulumi config set --secret discord:botToken <token>` (or discord:clientId and discord:clientSecret)";
    if (method === "read" || method === "delete") {
      // Verified with CLI 3.259: refresh (also in `preview --refresh`) and destroy hand the
      // provider the configuration recorded in the state at the last update, not the
      // stack config; only with --run-program do they take the current one.
      const command = method === "read" ? "pulumi refresh" : "pulumi destroy";
      return (
        `the application's credentials were rejected: if the token was rotated, ${set}, ` +
        `then run \`${command} --run-program\`${method === "read" ? " (or `pulumi preview --refresh --run-program`)" : ""}: ` +
        `without --run-program, ${method === "read" ? "refresh" : "destroy"} uses the credentials recorded in the state at the last \`pulumi up\``
      );
    }
    return `the application's credentials were rejected: ${set}`;
  }
  switch (err.code) {
    case ServiceErrorCode.BOTS_CANNOT_USE:
      return "this endpoint needs a user's Bearer token with applications.commands.permissions.update: `pulumi config set --secret discord:bearerToken <token>`";
    case ServiceErrorCode.MISSING_ACCESS:
      return "the application cannot act there: check guildId and that the application is in the guild with the applications.commands scope";
    case ServiceErrorCode.MISSING_PERMISSIONS:
      return "the user behind discord:bearerToken lacks the permission to manage this guild's commands";
    case ServiceErrorCode.UNKNOWN_APPLICATION:
      return "check the application id (discord:applicationId or the resource's applicationId)";
    case ServiceErrorCode.UNKNOWN_GUILD:
      return "check guildId: the service knows no such guild for this application";
    case ServiceErrorCode.UNKNOWN_COMMAND:
      return "the command was deleted outside the stack: run `pulumi refresh`, and the next `pulumi up` creates it again";
    case ServiceErrorCode.MAX_COMMANDS: {
      const most = limit === undefined ? "the most commands" : `${limit} commands`;
      return `the scope already holds ${most} of this type: remove commands from the program, or delete ones this stack does not manage`;
    }
    case ServiceErrorCode.INVALID_FORM_BODY:
      return "the service rejected the command's fields listed above: correct them in the program";
  }
  if (err.status === 404) {
    return `the service has no such endpoint: check discord:apiUrl (${apiUrl})`;
  }
  if (err.status === 403) {
    return "the credentials are not allowed to do this: check discord:botToken and the application's access";
  }
  return undefined;
}

/** The settings for a message, if they can be read (a failing `configure` is one cause). */
function settingsOf(rt: { readonly settings: ProviderSettings }): ProviderSettings | undefined {
  try {
    return rt.settings;
  } catch {
    return undefined;
  }
}

/**
 * The property a check failure names to the engine: none, whatever the failure's path.
 * The engine prints "property <p> value {<the input p>} has a problem: <reason>"
 * (pulumi/pulumi 3.259 and 3.274, `issueCheckFailures`). It looks the input up by its
 * top-level key only, so a nested path (`options[0].name`, `commands["kick"].description`)
 * printed `value {<nil>}`. With 3.259 it also prints a secret input's value in clear: a
 * secret description that was too long was printed whole through the dynamic resources,
 * whose host gets no secret marks. Without a property the engine prints "resource
 * '<name>' has a problem: <reason>", and the reason names the path (the lifecycles write it
 * there). Used where a check's answer leaves for the engine: the plugin's server and the
 * dynamic providers' module.
 */
export const ENGINE_FAILURE_PROPERTY = "";

/** The methods of a dynamic resource provider, as the host calls them. */
export interface ResourceProviderMethods {
  configure(req: { config: StackConfig }): Promise<void>;
  check(olds: Bag, news: Bag): Promise<unknown>;
  diff(id: string, olds: Bag, news: Bag): Promise<unknown>;
  create(inputs: Bag): Promise<unknown>;
  read(id: string, props: Bag): Promise<unknown>;
  update(id: string, olds: Bag, news: Bag): Promise<unknown>;
  delete(id: string, props: Bag): Promise<unknown>;
}

/**
 * Which of a method's arguments are the resource's id and the properties that name it
 * (and hold its secret paths), as the host and the plugin call the methods.
 */
const ARGUMENTS: Readonly<
  Record<ProviderMethod, { readonly id?: number; readonly props: number }>
> = {
  check: { props: 1 }, // (olds, news)
  diff: { id: 0, props: 2 }, // (id, olds, news)
  create: { props: 0 }, // (inputs)
  read: { id: 0, props: 1 }, // (id, props)
  update: { id: 0, props: 2 }, // (id, olds, news)
  delete: { id: 0, props: 1 }, // (id, props)
};

const METHODS = Object.keys(ARGUMENTS) as ProviderMethod[];

type Operation = (...args: unknown[]) => Promise<unknown>;

/**
 * The provider with every method's failure turned into a `ProviderFailure`. `describe`
 * names the resource from the properties the method receives. Each method calls the
 * provider's own directly: this is the one layer between a door and the operation.
 */
export function forEngine<P extends ResourceProviderMethods>(
  provider: P,
  describe: DescribeResource,
  rt: { readonly settings: ProviderSettings; readonly timing?: TimingLog },
): P {
  const wrapped: Record<string, Operation> = { configure: configureForEngine(provider) };
  for (const method of METHODS) {
    wrapped[method] = methodForEngine(provider, method, describe, rt);
  }
  // Same methods, same results: only what a failure looks like changed.
  return wrapped as unknown as P;
}

/** `configure`, its failure naming the provider's configuration in the door's namespace. */
function configureForEngine(provider: ResourceProviderMethods): Operation {
  return async (...args) => {
    const req = args[0] as { config: StackConfig };
    try {
      await provider.configure(req);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      const failure = new ProviderFailure(
        inNamespace(`reading the provider's configuration failed: ${reason}`, req.config.namespace),
      );
      quietHostEcho(failure);
      throw failure;
    }
  };
}

/** One method of the provider, timed, its failure as the engine shows it. */
function methodForEngine(
  provider: ResourceProviderMethods,
  method: ProviderMethod,
  describe: DescribeResource,
  rt: { readonly settings: ProviderSettings; readonly timing?: TimingLog },
): Operation {
  const operation = provider[method] as Operation;
  const { id, props } = ARGUMENTS[method];
  return async (...args) => {
    const bag = (args[props] ?? {}) as Bag;
    const nameOf = (): string => {
      try {
        return describe(bag, id === undefined ? undefined : (args[id] as string));
      } catch {
        return "the resource";
      }
    };
    const timing = rt.timing?.enabled === true ? rt.timing : undefined;
    const at = timing?.time() ?? 0;
    let failed = false;
    try {
      const result = await operation.apply(provider, args);
      return method === "check" ? checkInNamespace(result, settingsOf(rt)?.namespace) : result;
    } catch (err) {
      failed = true;
      const failure = engineFailure(method, nameOf(), err, settingsOf(rt), secrecyOf(bag));
      quietHostEcho(failure);
      throw failure;
    } finally {
      timing?.call(method, nameOf(), at, failed);
    }
  };
}
