/**
 * The interactions side of the service: per application an Ed25519 key pair and an
 * interactions endpoint URL; invocations and autocomplete as a user's client makes them
 * (client-side checks, the access rules of access.ts, read-repair, entry points), signed
 * delivery and the application's answer judged as a callback; and `canUse`.
 * Served by `emu.invoke / autocomplete / canUse / setInteractionsEndpoint` and under
 * `/__emulator/` (routes.ts).
 */
import { ControlError } from "../control";
import type { StoredCommand } from "../commandRecord";
import type { RequestLog } from "../log";
import type { Store } from "../store";
import type { Application } from "../world";
import { formatIssues } from "../config";
import { CommandType, EntryPointHandler, InteractionContextType } from "../schema";
import type { Access, Place } from "./access";
import { evaluateAccess, isThread } from "./access";
import { autocompleteCallbackProblems, commandCallbackProblems } from "./callbacks";
import type { DeliveryResult } from "./delivery";
import { InteractionHistory } from "./history";
import { deliver, RESPONSE_DEADLINE_MS, verifyEndpoint } from "./delivery";
import { ClientCheckError } from "./invocation";
import { buildInteraction, pingInteraction } from "./payload";
import type {
  AutocompleteRequest,
  CanUseRequest,
  InvokeRequest,
  ParsedAutocompleteRequest,
  ParsedInvokeRequest,
} from "./requests";
import {
  AutocompleteRequest as AutocompleteSchema,
  CanUseRequest as CanUseSchema,
  InvokeRequest as InvokeSchema,
} from "./requests";
import type { SigningKey } from "./signing";
import { signingKey } from "./signing";
import type { z } from "zod";
import type { AppResponse, InteractionResult } from "./outcome";

// The emulator's server names the results by this module.
export type { AppResponse, InteractionOutcome, InteractionResult } from "./outcome";

export interface CanUseResult {
  readonly visible: boolean;
  readonly usable: boolean;
  readonly reason: string;
  readonly commandId: string;
}

export interface ApplicationInteractions {
  readonly applicationId: string;
  readonly publicKey: string;
  readonly interactionsEndpointUrl: string | null;
}

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body ?? {});
  if (!r.success) throw new ControlError(400, `invalid body:\n${formatIssues(r.error)}`);
  return r.data;
}

export class InteractionService {
  private readonly keys = new Map<string, SigningKey>();
  private readonly endpoints = new Map<string, string>();
  /** What was delivered and answered (the emulator's page shows it). */
  readonly history = new InteractionHistory();

  constructor(
    private readonly store: Store,
    private readonly log: RequestLog,
  ) {
    for (const app of store.applications()) {
      this.keys.set(app.id, signingKey(app.interactionsPrivateKey));
      if (app.interactionsEndpointUrl !== undefined) {
        this.endpoints.set(app.id, app.interactionsEndpointUrl);
      }
    }
  }

  /** Each application's public key (hex) and interactions endpoint URL. */
  applications(): ApplicationInteractions[] {
    return this.store.applications().map((a) => this.describe(a.id));
  }

  describe(applicationId: string): ApplicationInteractions {
    return {
      applicationId,
      publicKey: this.key(applicationId).publicKeyHex,
      interactionsEndpointUrl: this.endpoints.get(applicationId) ?? null,
    };
  }

  publicKey(applicationId: string): string {
    return this.key(applicationId).publicKeyHex;
  }

  private key(applicationId: string): SigningKey {
    const key = this.keys.get(applicationId);
    if (!key) throw new ControlError(404, `no application ${applicationId}`);
    return key;
  }

  /**
   * Sets (or with null removes) the interactions endpoint URL, after verifying it as the
   * service does; a URL that fails is refused (400) with the reason, and the previous
   * one stays.
   */
  async setEndpoint(applicationId: string, url: string | null): Promise<ApplicationInteractions> {
    const key = this.key(applicationId);
    if (url === null) {
      this.endpoints.delete(applicationId);
      return this.describe(applicationId);
    }
    const problem = await verifyEndpoint(
      url,
      key,
      JSON.stringify(pingInteraction(this.store, applicationId)),
    );
    if (problem !== undefined) {
      throw new ControlError(
        400,
        `interactions endpoint URL ${url} could not be verified: ${problem}`,
      );
    }
    this.endpoints.set(applicationId, url);
    return this.describe(applicationId);
  }

  // ---- who may use what ----------------------------------------------------------------

  canUse(request: z.input<typeof CanUseSchema>): CanUseResult {
    const r = parse(CanUseSchema, request);
    const { command, user, place } = this.resolve(r);
    return { ...evaluateAccess(this.store, command, user, place), commandId: command.id };
  }

  private application(id: string | undefined): Application {
    const app = id === undefined ? this.store.applications()[0] : this.store.application(id);
    if (!app) throw new ControlError(404, `no application ${id ?? "(none configured)"}`);
    return app;
  }

  private resolve(r: CanUseRequest) {
    const app = this.application(r.applicationId);
    const user = this.store.user(r.userId);
    if (!user) throw new ControlError(404, `no user ${r.userId} in the configuration`);
    let place: Place;
    if (r.guildId !== undefined) {
      const guild = this.store.guild(r.guildId);
      if (!guild) throw new ControlError(404, `no guild ${r.guildId} in the configuration`);
      if (r.context !== undefined) {
        throw new ControlError(400, "context is for invocations outside guilds (no guildId)");
      }
      const channel = guild.channels.find((c) => c.id === r.channelId);
      if (!channel) throw new ControlError(404, `no channel ${r.channelId} in guild ${guild.id}`);
      let parent;
      if (isThread(channel)) {
        parent = guild.channels.find((c) => c.id === channel.parentId);
        if (!parent) {
          throw new ControlError(400, `thread ${channel.id} has no parent channel in the guild`);
        }
      }
      place = { kind: "guild", guild, channel, parent };
    } else {
      place = {
        kind: "private",
        context: r.context ?? InteractionContextType.BOT_DM,
        channelId: r.channelId,
      };
    }
    const command = this.command(app, r, place);
    return { app, user, place, command };
  }

  /** By id; or by default name and type, the guild's command before the global one. */
  private command(app: Application, r: CanUseRequest, place: Place): StoredCommand {
    if (r.commandId !== undefined) {
      const c = this.store.command(r.commandId);
      if (!c || c.application_id !== app.id) {
        throw new ControlError(404, `no command ${r.commandId} of application ${app.id}`);
      }
      return c;
    }
    const type = r.type ?? CommandType.CHAT_INPUT;
    const scopes = place.kind === "guild" ? [place.guild.id, undefined] : [undefined];
    for (const scope of scopes) {
      const c = this.store
        .commandsIn(app.id, scope)
        .find((x) => x.name === r.name && x.type === type);
      if (c) return c;
    }
    throw new ControlError(
      404,
      `no command named ${JSON.stringify(r.name)} of type ${type} for application ${app.id} here`,
    );
  }

  // ---- invocations ---------------------------------------------------------------------

  /** A user invokes a command (type 2 interaction). */
  async invoke(request: InvokeRequest): Promise<InteractionResult> {
    const r: ParsedInvokeRequest = parse(InvokeSchema, request);
    return this.recorded("command", r, await this.run(r, undefined));
  }

  /** A user types in an autocomplete option (type 4 interaction). */
  async autocomplete(request: AutocompleteRequest): Promise<InteractionResult> {
    const r: ParsedAutocompleteRequest = parse(AutocompleteSchema, request);
    return this.recorded(
      "autocomplete",
      r,
      await this.run(r, { focused: r.focused, value: r.value }),
    );
  }

  private recorded(
    kind: "command" | "autocomplete",
    r: ParsedInvokeRequest,
    result: InteractionResult,
  ): InteractionResult {
    const data = result.interaction?.["data"];
    const commandId = r.commandId ?? (isObject(data) ? String(data["id"]) : undefined);
    this.history.record({
      time: new Date(this.store.clock.now()).toISOString(),
      kind,
      applicationId: r.applicationId ?? this.store.applications()[0]?.id ?? "",
      commandId,
      commandName: r.name ?? (commandId ? this.store.command(commandId)?.name : undefined),
      userId: r.userId,
      guildId: r.guildId,
      channelId: r.channelId,
      result,
    });
    return result;
  }

  private async run(
    r: ParsedInvokeRequest,
    autocomplete: { focused: string; value: string } | undefined,
  ): Promise<InteractionResult> {
    const { app, user, place, command } = this.resolve(r);
    const none = { interaction: null, response: null };

    // Read-repair (spec: "What the service does" 5): a stale copy of a global command.
    if (
      command.guild_id === undefined &&
      r.version !== undefined &&
      r.version !== command.version
    ) {
      this.note("reload", app.id, command.id);
      return {
        outcome: "stale",
        reason: `version ${r.version} of global command ${command.id} is stale (current ${command.version}): the invocation is rejected and the command reloaded`,
        ...none,
      };
    }

    const access: Access = evaluateAccess(this.store, command, user, place);
    if (!access.usable) return { outcome: "denied", reason: access.reason, ...none };

    let interaction: Record<string, unknown>;
    try {
      interaction = buildInteraction({
        store: this.store,
        command,
        user,
        place,
        request: r,
        ...(autocomplete ? { autocomplete } : {}),
      });
    } catch (err) {
      if (err instanceof ClientCheckError)
        return { outcome: "invalid", reason: err.message, ...none };
      throw err;
    }

    if (
      !autocomplete &&
      command.type === CommandType.PRIMARY_ENTRY_POINT &&
      command.handler === EntryPointHandler.DISCORD_LAUNCH_ACTIVITY
    ) {
      this.note("launch", app.id, command.id);
      return {
        outcome: "delivered",
        reason:
          "entry point with handler DISCORD_LAUNCH_ACTIVITY (2): the service launched the Activity itself; the application was not called",
        interaction,
        response: null,
        launched: true,
      };
    }

    const url = this.endpoints.get(app.id);
    if (url === undefined) {
      return {
        outcome: "invalid",
        reason: `application ${app.id} has no interactions endpoint URL (config interactionsEndpointUrl or PUT /__emulator/applications/${app.id}/interactions-endpoint)`,
        interaction,
        response: null,
      };
    }
    const delivered = await deliver(url, this.key(app.id), JSON.stringify(interaction));
    const judge = (body: unknown): string[] => {
      if (!autocomplete) return commandCallbackProblems(command, body);
      const focused = focusedOption(command, r, autocomplete.focused);
      return autocompleteCallbackProblems(focused, body);
    };
    return judged(delivered, judge, interaction);
  }

  /** A reload or a launch, in the request log (method "INTERACTION"). */
  private note(event: "reload" | "launch", applicationId: string, commandId: string): void {
    this.log.note({
      method: "INTERACTION",
      route: null,
      path: `/applications/${applicationId}/commands/${commandId}`,
      status: 0,
      time: new Date(this.store.clock.now()).toISOString(),
      durationMs: 0,
      event,
    });
  }
}

function focusedOption(command: StoredCommand, r: ParsedInvokeRequest, focused: string) {
  // buildInteraction already walked this path, so it exists.
  const names =
    r.subcommand === undefined
      ? []
      : Array.isArray(r.subcommand)
        ? r.subcommand
        : r.subcommand.split(/\s+/).filter((s) => s !== "");
  let level = command.options;
  for (const name of names) level = level.find((o) => o.name === name)?.options ?? [];
  const option = level.find((o) => o.name === focused);
  if (!option) throw new Error(`focused option ${focused} vanished`);
  return option;
}

function judged(
  delivered: DeliveryResult,
  judge: (body: unknown) => string[],
  interaction: Record<string, unknown>,
): InteractionResult {
  if (delivered.kind === "timeout") {
    return {
      outcome: "invalid",
      reason: `The application did not respond within ${RESPONSE_DEADLINE_MS / 1000} seconds`,
      interaction,
      response: null,
    };
  }
  if (delivered.kind === "unreachable") {
    return {
      outcome: "invalid",
      reason: `the interactions endpoint cannot be reached: ${delivered.error}`,
      interaction,
      response: null,
    };
  }
  const { status, body, durationMs } = delivered;
  const problems =
    status >= 200 && status <= 299
      ? judge(body)
      : [`the application answered HTTP ${status}; the service expects 200 with a callback`];
  const response: AppResponse = {
    status,
    body,
    durationMs,
    valid: problems.length === 0,
    problems,
  };
  return problems.length === 0
    ? {
        outcome: "delivered",
        reason: "the application answered with a valid callback",
        interaction,
        response,
      }
    : {
        outcome: "invalid",
        reason: `interaction failed: ${problems.join("; ")}`,
        interaction,
        response,
      };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null;
}
