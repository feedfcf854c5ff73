/**
 * Shared setup for the provider-against-emulator tests: an in-process emulator, the three
 * providers configured with a fake stack config pointing at it, and request-log helpers.
 */
import { inspect } from "node:util";
import type { EmulatorOptions, RequestLogEntry, RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import { pluginResources } from "../../provider/plugin/resources";
import { commandProvider } from "../../provider/resources/commandLifecycle";
import { permissionsProvider as makePermissionsProvider } from "../../provider/resources/permissionsLifecycle";
import type { PluginResource } from "../../provider/plugin/resources";
import type { Checked } from "../../provider/resources/lifecycle";
import type { RuntimeOptions } from "../../provider/resources/runtime";
import { ProviderRuntime } from "../../provider/resources/runtime";
import { commandKey, scopeCommandsProvider } from "../../provider/resources/scopeCommandsLifecycle";
import type { Bag } from "../../provider/resources/propertyBags";

export type { Bag };

/** A `ScopeCommands` provider, as `nextDeployment` gives it. */
export type ScopeCommandsProvider = ReturnType<typeof scopeCommandsProvider>;

/**
 * The provider runtime of the current test deployment (one per `configureAll`, as one
 * engine process has one), and the three providers built on it. Live bindings: tests
 * read them after `setup()`.
 */
export let runtime = new ProviderRuntime();
export let globalProvider = commandProvider("global", runtime);
export let guildProvider = commandProvider("guild", runtime);
export let permissionsProvider = makePermissionsProvider(runtime);

export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** The stack config the engine would hand `configure`, as a plain map. */
export function stackConfig(
  emu: RunningEmulator,
  overrides: Record<string, string | undefined> = {},
) {
  const map: Record<string, string | undefined> = {
    "discord:apiUrl": emu.apiUrl,
    "discord:applicationId": emu.applicationId,
    "discord:botToken": emu.botToken,
    "discord:bearerToken": emu.userBearerToken,
    ...overrides,
  };
  return { get: (key: string): string | undefined => map[key] };
}

/** Configures all three providers (as one engine process would) on a fresh runtime. */
export async function configureAll(
  emu: RunningEmulator,
  overrides: Record<string, string | undefined> = {},
  options: RuntimeOptions = {},
): Promise<void> {
  void runtime.close();
  runtime = new ProviderRuntime(options);
  globalProvider = commandProvider("global", runtime);
  guildProvider = commandProvider("guild", runtime);
  permissionsProvider = makePermissionsProvider(runtime);
  const config = stackConfig(emu, overrides);
  await globalProvider.configure({ config });
  await guildProvider.configure({ config });
  await permissionsProvider.configure({ config });
}

/** Starts an emulator (rate limits off unless given) and configures the providers for it. */
export async function setup(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const emu = await startEmulator({ port: 0, rateLimits: false, ...options });
  await configureAll(emu);
  return emu;
}

/**
 * The next deployment (a new provider process, as the next `up` starts) on the same
 * emulator, and its `ScopeCommands` provider; the other providers are the live bindings.
 */
export async function nextDeployment(
  emu: RunningEmulator,
  overrides: Record<string, string | undefined> = {},
  options: RuntimeOptions = {},
): Promise<ScopeCommandsProvider> {
  await configureAll(emu, overrides, options);
  return scopeCommandsProvider(runtime);
}

/** The resource plugin's resource of `token` (`TOKENS`) on the current runtime. */
export function pluginResource(token: string): PluginResource {
  const resource = pluginResources(runtime).get(token);
  if (resource === undefined) throw new Error(`the plugin has no resource ${token}`);
  return resource;
}

/** A fresh deployment on the same emulator: service state, log, caches and memory reset. */
export async function freshDeployment(emu: RunningEmulator): Promise<void> {
  emu.control.reset();
  await configureAll(emu);
}

export async function teardown(emu: RunningEmulator | undefined): Promise<void> {
  await runtime.close();
  runtime = new ProviderRuntime();
  await emu?.close();
}

/** Requests in the log matching method and (optionally) route name. */
export function requests(emu: RunningEmulator, method?: string, route?: string): RequestLogEntry[] {
  return emu
    .requestLog()
    .filter(
      (e) =>
        (method === undefined || e.method === method) && (route === undefined || e.route === route),
    );
}

export function writes(emu: RunningEmulator): RequestLogEntry[] {
  return emu.requestLog().filter((e) => e.method !== "GET");
}

/** Every text form of an error a user or a log could see. */
export function errorTexts(err: unknown): string[] {
  const texts = [String(err), inspect(err, { depth: Infinity, showHidden: true })];
  try {
    texts.push(JSON.stringify(err) ?? "");
  } catch {
    texts.push("(not serializable)");
  }
  if (err instanceof Error) {
    texts.push(err.stack ?? "", err.message);
    if (err.cause !== undefined) texts.push(inspect(err.cause, { depth: Infinity }));
  }
  return texts;
}

/**
 * A plugin resource's check as the plugin's server makes it (server.ts `check`): its
 * lifecycle's, then the deployment's claims, by URN.
 */
export async function pluginCheck(
  resource: PluginResource,
  urn: string,
  olds: Bag,
  news: Bag,
): Promise<Checked> {
  return resource.withClaims(urn, await resource.lifecycle.check(olds, news));
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error("expected the call to fail, but it succeeded");
}

export function slashArgs(name: string, extra: Bag = {}): Bag {
  return { name, description: `The ${name} command`, ...extra };
}

/** What the engine hands the provider after `check`: the SDK args plus the resource keys. */
export function globalInputs(emu: RunningEmulator, args: Bag): Bag {
  return { applicationId: emu.applicationId, ...args };
}

export function guildInputs(emu: RunningEmulator, args: Bag): Bag {
  return { applicationId: emu.applicationId, guildId: emu.guildId, ...args };
}

/** A set's `commands`: a CHAT_INPUT command per name, by key, described by `description`. */
export function setCommands(
  names: readonly string[],
  description: (name: string) => string = (n) => `The ${n}`,
): Bag {
  return Object.fromEntries(
    names.map((n) => [commandKey(1, n), { name: n, description: description(n) }]),
  );
}

/** A `ScopeCommands`' inputs in the emulator's guild. */
export function guildSetInputs(emu: RunningEmulator, commands: Bag): Bag {
  return { applicationId: emu.applicationId, guildId: emu.guildId, commands };
}

/** The commands the service holds in the emulator's guild. */
export function liveGuildCommands(emu: RunningEmulator): Record<string, unknown>[] {
  return emu.control.commands().filter((c) => c["guild_id"] === emu.guildId);
}

/** The declared inputs of a resource (what `read` must give back when nothing drifted). */
export function declared(outs: Bag): Bag {
  const { commandId: _c, version: _v, adopted: _a, ...rest } = outs;
  return rest;
}
