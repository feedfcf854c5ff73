/**
 * Shared setup for the provider-against-emulator tests: an in-process emulator, the three
 * providers configured with a fake stack config pointing at it, and request-log helpers.
 */
import { inspect } from "node:util";
import type { EmulatorOptions, RequestLogEntry, RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import { commandProvider } from "../../provider/resources/commandLifecycle";
import { permissionsProvider as makePermissionsProvider } from "../../provider/resources/permissionsLifecycle";
import type { Checked, PluginResource } from "../../provider/plugin/resources";
import type { RuntimeOptions } from "../../provider/resources/runtime";
import { ProviderRuntime } from "../../provider/resources/runtime";
import type { Bag } from "../../provider/resources/propertyBags";

export type { Bag };

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

/** The declared inputs of a resource (what `read` must give back when nothing drifted). */
export function declared(outs: Bag): Bag {
  const { commandId: _c, version: _v, adopted: _a, ...rest } = outs;
  return rest;
}
