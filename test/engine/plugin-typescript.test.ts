/**
 * The resource plugin from a TypeScript program on the generated Node.js SDK
 * (examples/typescript-plugin), through the real CLI and the Node.js language host: the
 * demo's kinds of resources deploy, a second `up` writes nothing, an invalid field fails
 * the preview with its path, and `destroy` keeps the commands the stack does not manage.
 *
 * The SDK is built as its package.json says (`tsc`, into bin/, with package.json beside
 * the output, which the SDK reads its version from) and installed in the program's
 * node_modules the way `npm install <folder>` links a folder. The program is type-checked
 * against the built SDK once; the engine's runs then skip type-checking (engineEnv).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { buildNodeSdk, linkNodeSdk } from "../../scripts/pulumiProgram";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import { IDS } from "./lifecycle.helpers";
import type { PluginExample } from "./pluginLanguages.helpers";
import { edit, startPluginExample } from "./pluginLanguages.helpers";

jest.setTimeout(300_000);

const TSC = path.join(PROJECT_ROOT, "node_modules", ".bin", "tsc");

let ex: PluginExample;
let sdkBuild = "";

function tsc(args: string[]): void {
  const res = spawnSync(TSC, args, { encoding: "utf8" });
  if (res.status !== 0)
    throw new Error(`tsc ${args.join(" ")} failed:\n${res.stdout}${res.stderr}`);
}

beforeAll(async () => {
  const bin = buildNodeSdk();
  sdkBuild = path.dirname(bin);

  ex = await startPluginExample("typescript-plugin");
  linkNodeSdk(ex.prog.dir, bin);
  // The example as a user's `pulumi up` would type-check it, against the SDK's declarations.
  tsc(["--noEmit", "-p", path.join(ex.prog.dir, "tsconfig.json")]);
});

afterAll(async () => {
  await ex?.close();
  if (sdkBuild !== "") fs.rmSync(sdkBuild, { recursive: true, force: true });
});

test("up deploys the example's set; a second up writes nothing", async () => {
  await ex.prog.up();
  const kick = ex.liveNamed("kick");
  expect(kick).toMatchObject({
    guild_id: IDS.guild,
    default_member_permissions: "2",
    options: [{ type: 6, name: "member", description: "Who", required: true }],
  });
  expect(ex.liveNamed("ping")).toMatchObject({
    name_localizations: { fr: "latence" },
    description_localizations: { fr: "Vérifier le bot" },
  });
  expect(ex.livePermissions(kick?.["id"])).toEqual([{ id: IDS.role, type: 1, permission: true }]);
  expect(await ex.prog.outputs()).toEqual({
    pingId: ex.liveNamed("ping")?.["id"],
    kickId: kick?.["id"],
  });

  ex.emu.control.resetLog();
  const again = await ex.prog.up();
  expect(again.stdout).toMatch(/4 unchanged/);
  expect(ex.writes()).toEqual([]);
});

test("an invalid field fails the preview with its path, before any write", async () => {
  ex.prog.write({
    "index.ts": edit(
      ex.files["index.ts"],
      "export const pingId",
      `new discord.GlobalCommand("broken", {
  name: "broken",
  description: "Has a bad option",
  options: [{ type: discord.OptionType.String, name: "Bad Name", description: "x" }],
});

export const pingId`,
    ),
  });
  ex.emu.control.resetLog();
  const res = await ex.prog.run(["preview", "--non-interactive"]);
  expect(res.code).not.toBe(0);
  expect(res.stdout + res.stderr).toMatch(
    /GlobalCommand resource 'broken' has a problem: options\[0\]\.name: /,
  );
  expect(ex.writes()).toEqual([]);
});

test("secrets nested in a TypeScript program's inputs stay secret in the state and the output", async () => {
  const S = {
    description: "ts-hidden-option-description-7d5c",
    localized: "ts-geheime-option-3e8a",
    choice: "ts-hidden-choice-0c6f",
    role: "1400000000000004141",
  };
  ex.prog.write({
    "index.ts": edit(
      ex.files["index.ts"],
      "export const pingId",
      `const poll = new discord.GuildCommand("poll", {
  guildId,
  name: "poll",
  description: "Run a poll",
  options: [
    {
      type: discord.OptionType.String,
      name: "topic",
      description: pulumi.secret("${S.description}"),
      descriptionLocalizations: { de: pulumi.secret("${S.localized}") },
      choices: [
        { name: pulumi.secret("${S.choice}"), value: "a" },
        { name: "plain", value: "b" },
      ],
    },
  ],
});
new discord.GuildCommandPermissions("pollPermissions", {
  guildId,
  commandId: poll.id,
  permissions: [{ id: pulumi.secret("${S.role}"), type: discord.PermissionType.Role, permission: true }],
});

export const pingId`,
    ),
  });
  const res = await ex.prog.up();
  expect(ex.liveNamed("poll")?.["options"]).toMatchObject([{ description: S.description }]);
  const state = (await ex.prog.ok(["stack", "export"])).stdout;
  const shown = Object.values(S).filter((s) => (res.stdout + res.stderr + state).includes(s));
  expect(shown).toEqual([]);
});

test("destroy keeps every command the stack does not manage", async () => {
  ex.prog.write({ "index.ts": ex.files["index.ts"] ?? "" });
  await ex.prog.destroy();
  expect(ex.emu.control.commands().map((c) => c["name"])).toEqual(["other"]);
  expect(ex.emu.control.state().permissions).toEqual([]);
});
