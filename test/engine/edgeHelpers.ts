/**
 * Shared pieces of the engine edge tests (`edges-*.test.ts`): programs that import the
 * package as users do, an emulator per suite, stack configuration, state reading, and
 * a package copy installed in a program's own `node_modules`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { EmulatorOptions, RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import type { PulumiProgram } from "../../scripts/pulumiProgram";
import type { CliResult } from "../../scripts/pulumiProgram";

/** A program's `index.ts`: the package imported by name, then `body`. */
export function commandsProgram(body: string): string {
  return `import * as pulumi from "@pulumi/pulumi";\nimport * as discord from "pulumi-discord-commands";\nvoid pulumi;\n${body}\n`;
}

/** An emulator without rate limits unless asked. */
export function emulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ port: 0, rateLimits: false, ...options });
}

/**
 * Makes `pulumi-discord-commands` resolvable from the program without relying on the
 * repository's own link (`npm install` elsewhere in the tree may prune it): a symlink
 * to the repository, whose `dist/` `npm run setup` built.
 */
export function linkPackage(prog: PulumiProgram): void {
  const link = path.join(prog.dir, "node_modules", "pulumi-discord-commands");
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.rmSync(link, { recursive: true, force: true });
  fs.symlinkSync(PROJECT_ROOT, link, "dir");
}

/**
 * Installs a copy of the package (package.json + dist/) in the program's own
 * `node_modules`, as `npm install` would; its dependencies (@pulumi/pulumi, zod, undici)
 * resolve upwards to the repository's `node_modules`. Returns the copy's folder.
 */
export function installPackageCopy(prog: PulumiProgram): string {
  const target = path.join(prog.dir, "node_modules", "pulumi-discord-commands");
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(target, { recursive: true });
  fs.copyFileSync(path.join(PROJECT_ROOT, "package.json"), path.join(target, "package.json"));
  fs.cpSync(path.join(PROJECT_ROOT, "dist"), path.join(target, "dist"), {
    recursive: true,
    filter: (src) => !src.endsWith(".map") && !src.endsWith(".d.ts"),
  });
  return target;
}

/** Stack config for the emulator: URL, application id and the bot token (a secret). */
export async function configureStack(
  prog: PulumiProgram,
  emu: RunningEmulator,
  credentials: Record<string, string> = { botToken: emu.botToken },
): Promise<void> {
  await prog.setConfig(
    { "discord:apiUrl": emu.url, "discord:applicationId": emu.applicationId },
    Object.fromEntries(Object.entries(credentials).map(([k, v]) => [`discord:${k}`, v])),
  );
}

export interface StateResource {
  readonly urn: string;
  readonly type: string;
  readonly id?: string;
  readonly inputs?: Record<string, unknown>;
  readonly outputs?: Record<string, unknown>;
}

export interface Checkpoint {
  readonly resources: StateResource[];
  readonly pendingOperations: unknown[];
}

/** The stack's latest checkpoint as the local backend keeps it. */
export function readState(prog: PulumiProgram, stack: string): Checkpoint {
  const json = JSON.parse(fs.readFileSync(prog.stateFile(stack), "utf8")) as {
    checkpoint: { latest?: { resources?: StateResource[]; pending_operations?: unknown[] } };
  };
  return {
    resources: json.checkpoint.latest?.resources ?? [],
    pendingOperations: json.checkpoint.latest?.pending_operations ?? [],
  };
}

/** The resources of this package in a checkpoint. */
export function commandResources(state: Checkpoint): StateResource[] {
  return state.resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/discord:"));
}

/** The logical name of a resource from its URN. */
export function urnName(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/** Live commands in the emulator: `[name, id]` sorted by name. */
export function liveCommands(emu: RunningEmulator): [string, string][] {
  return emu.control
    .commands()
    .map((c) => [String(c["name"]), String(c["id"])] as [string, string])
    .sort((a, b) => a[0].localeCompare(b[0]));
}

/** Everything a CLI run printed. */
export function printed(res: CliResult): string {
  return res.stdout + res.stderr;
}

/** The diagnostics block of one resource, without its indentation. */
export function diagnostics(res: CliResult, type: string, name: string): string {
  const out = printed(res);
  const start = out.indexOf(`\n  ${type} (${name}):\n`);
  if (start < 0) throw new Error(`no diagnostics for ${name} in:\n${out}`);
  const body = out.slice(start).split("\n").slice(2);
  const lines: string[] = [];
  for (const line of body) {
    if (!line.startsWith("    ")) break;
    lines.push(line.slice(4));
  }
  return lines.join("\n").trim();
}

/** Nothing but the one message: no stack frames, no gRPC text, no second copy. */
export function expectOneCleanMessage(res: CliResult, message: string): void {
  const out = printed(res);
  expect(res.code).not.toBe(0);
  expect(out).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(out).not.toMatch(/cardinality|grpc|RPC|ServiceApiError|HttpError|NetworkError/);
  const firstLine = message.split("\n")[0] ?? message;
  const copies = out.split("Diagnostics:")[1]?.split(firstLine).length ?? 0;
  expect(copies - 1).toBe(1);
}
