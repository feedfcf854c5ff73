/**
 * The `pulumi new` templates (templates/<name>) as a new user meets them, run by the
 * release test against its registries: `pulumi new <folder> --yes` with the stack's values
 * on the command line creates the project and the stack and installs the released packages
 * (the language host's own `npm install`, venv and `pip install`, `go mod tidy`); the token
 * is set with `pulumi config set --secret`; then `up` against the emulator, a preview that
 * changes nothing, and `destroy`. No file of the project is edited.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import { PLUGIN_DOWNLOAD_URL } from "../../provider/package/schema";
import type { PulumiProgram } from "../../scripts/pulumiProgram";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import { ok } from "../helpers/commandRuns";

/** Each template and the configuration namespace of its front door. */
export const TEMPLATES = {
  typescript: "discord",
  "typescript-sdk": "discord-commands",
  python: "discord-commands",
  go: "discord-commands",
  yaml: "discord-commands",
} as const;

export type TemplateName = keyof typeof TEMPLATES;

export const TEMPLATE_NAMES = Object.keys(TEMPLATES) as TemplateName[];

export function templateDir(name: TemplateName): string {
  return path.join(PROJECT_ROOT, "templates", name);
}

/**
 * The names of what every template deploys: a slash command and a user command (global),
 * and a guild command that only members who may manage messages see.
 */
export const TEMPLATE_COMMANDS = {
  ping: { name: "ping", type: 1 },
  profile: { name: "Show Profile", type: 2 },
  purge: { name: "purge", type: 1, default_member_permissions: "8192" },
} as const;

/**
 * `pulumi new templates/<name> --yes` in an empty folder of `prog` (its engine settings:
 * local backend, passphrase), with the application, the emulator's address and the guild
 * on the command line, then the token as a secret. The command line's `--config` values are
 * stored as given, in plain text (Pulumi's newcmd copies them before the template's
 * `secret:` is looked at), so the token is not one of them: the template asks for it
 * hidden when run interactively, and `config set --secret` stores it encrypted otherwise.
 */
export async function newFromTemplate(
  prog: PulumiProgram,
  name: TemplateName,
  emu: RunningEmulator,
): Promise<void> {
  const ns = TEMPLATES[name];
  fs.rmSync(prog.dir, { recursive: true, force: true });
  fs.mkdirSync(prog.dir);
  const args = ["new", templateDir(name), "--yes", "--name", prog.name];
  args.push("--stack", "dev", "--secrets-provider", "passphrase");
  args.push("--config", `${ns}:applicationId=${emu.applicationId}`);
  args.push("--config", `${ns}:apiUrl=${emu.url}`);
  // The YAML template names the emulator's guild in its program (templates/yaml/Pulumi.yaml).
  if (name !== "yaml") args.push("--config", `guildId=${emu.guildId}`);
  const created = await prog.run(args, { timeoutMs: 540_000 });
  if (created.code !== 0) {
    throw new Error(`pulumi new exited ${created.code}\n${created.stdout}\n${created.stderr}`);
  }
  expect(created.stdout).toContain("Your new project is ready to go!");
  await prog.setConfig({}, { [`${ns}:botToken`]: emu.botToken });
  const stackFile = fs.readFileSync(path.join(prog.dir, "Pulumi.dev.yaml"), "utf8");
  expect(stackFile).toMatch(new RegExp(`${ns}:applicationId: "?${emu.applicationId}"?\\n`));
  expect(stackFile).toMatch(new RegExp(`${ns}:botToken:\\n\\s+secure: `));
  expect(stackFile).not.toContain(emu.botToken);
}

/**
 * The template's program as deployed: `up` creates its three commands, `commandIds` names
 * them, a preview after it changes nothing, the state holds no token, `destroy` removes
 * them all.
 */
export async function deploysTemplate(prog: PulumiProgram, emu: RunningEmulator): Promise<void> {
  await prog.up();
  const live = emu.control.commands();
  const ids: Record<string, unknown> = {};
  for (const [key, expected] of Object.entries(TEMPLATE_COMMANDS)) {
    const found = live.find((c) => c["name"] === expected.name);
    expect(found).toMatchObject(expected);
    ids[key] = found?.["id"];
  }
  expect(live.find((c) => c["name"] === "purge")?.["guild_id"]).toBe(emu.guildId);
  expect(live).toHaveLength(3);
  expect((await prog.outputs())["commandIds"]).toEqual(ids);
  // Four resources and the stack, none of them changed (the stack's provider is implicit).
  const summary = await prog.previewSummary();
  expect(Object.keys(summary)).toEqual(["same"]);
  const exported = await prog.ok(["stack", "export"]);
  expect(exported.stdout).not.toContain(emu.botToken);
  await prog.destroy();
  expect(emu.control.commands()).toEqual([]);
}

/** How a language's installer reaches the release's registries, as their users set it. */
export interface TemplateRegistries {
  /** Verdaccio: the packages, and a proxy of the npm registry for the rest. */
  readonly npmRegistry: string;
  /**
   * pip's indexes, as the README's line for an index of one's own names them: pypiserver's
   * (`.../simple/`), which has no fallback, and PyPI's for the SDK's dependencies; and the
   * version that line pins (the other index could hold a newer version of the name).
   */
  readonly python: { readonly index: string; readonly extraIndex: string; readonly pin: string };
  /** GOPROXY: the release's module proxy first. */
  readonly goProxy: string;
  readonly goModule: string;
  /** Where the release put the plugin archives (the YAML template names the public one). */
  readonly pluginServer: string;
}

/**
 * Points every installer of `prog` at the registries: npm's and pip's own variables, Go's,
 * and Pulumi's plugin mirror (PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES), by which the release's
 * server answers for the public plugin URL that the YAML template names. pip takes the
 * SDK's dependencies at the versions of setup's venv (pip's cache has them) and the
 * package at the pinned version (constraints, as the template's requirements.txt is
 * not edited); Go's module cache is the program's own (every release of the test names
 * another plugin server).
 */
export function useRegistries(prog: PulumiProgram, r: TemplateRegistries): void {
  const constraints = path.join(prog.root, "constraints.txt");
  const venvPins = fs.readFileSync(
    path.join(PROJECT_ROOT, "toolchain", "python", "requirements.txt"),
    "utf8",
  );
  fs.writeFileSync(constraints, `${venvPins.trimEnd()}\n${r.python.pin}\n`);
  const mirrored = `^${PLUGIN_DOWNLOAD_URL.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`;
  Object.assign(prog.env, {
    npm_config_registry: r.npmRegistry,
    npm_config_prefer_offline: "true",
    PIP_INDEX_URL: r.python.index,
    PIP_EXTRA_INDEX_URL: r.python.extraIndex,
    PIP_CONSTRAINT: constraints,
    GOPROXY: r.goProxy,
    GONOSUMDB: r.goModule,
    GOMODCACHE: path.join(prog.root, "go-mod-cache"),
    GOFLAGS: `${prog.env["GOFLAGS"] ?? ""} -modcacherw`.trim(),
    PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: `${mirrored}=${r.pluginServer}`,
  });
}

/** The TypeScript templates type-check against the installed packages. */
export async function typeChecks(prog: PulumiProgram): Promise<void> {
  const tsc = path.join(prog.dir, "node_modules", "typescript", "bin", "tsc");
  await ok(process.execPath, [tsc, "--noEmit", "-p", prog.dir], prog.dir, prog.env);
}
