/**
 * Existing commands into a stack of the plugin's resources, with the code written by
 * Pulumi itself: `discord-commands import --format pulumi-import` prints Pulumi's bulk
 * import file, `pulumi import --file` adopts every command and permission list by id and
 * writes the program (YAML here; the project's language in general), and that program
 * then previews with no change and no request that writes.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { importCommands, parseImportArgs } from "../../cli/import";
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import { PulumiProgram } from "../../scripts/pulumiProgram";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import { Api, rec } from "../emulator/helpers";
import { importEnv } from "../cli/importFixtures";
import { IDS, configurePluginStack } from "./lifecycle.helpers";

jest.setTimeout(300_000);

let emu: RunningEmulator;
let prog: PulumiProgram;

const header = `name: plugin-import
runtime: yaml
packages:
  discord-commands: ${PROJECT_ROOT}/plugin
`;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, rateLimits: false });
  const api = new Api(emu);
  await api.post(`${api.app}/commands`, {
    name: "hello",
    description: "Say hello",
    description_localizations: { fr: "Dire bonjour" },
  });
  const mute = rec(
    (
      await api.post(`${api.guild}/commands`, {
        name: "mute",
        description: "Mute a member",
        default_member_permissions: "8",
        options: [
          { type: 6, name: "member", description: "Who", required: true },
          { type: 4, name: "minutes", description: "How long", min_value: 1, max_value: 60 },
        ],
      })
    ).body,
  );
  const put = await api.call("PUT", `${api.guild}/commands/${String(mute["id"])}/permissions`, {
    auth: `Bearer ${emu.userBearerToken}`,
    body: { permissions: [{ id: IDS.role, type: 1, permission: true }] },
  });
  expect(put.status).toBe(200);
  prog = new PulumiProgram("plugin-import", { "Pulumi.yaml": `${header}resources: {}\n` });
  await prog.stack("dev");
  await configurePluginStack(prog, emu);
});

afterAll(async () => {
  prog?.cleanup();
  await emu?.close();
});

test("import file -> pulumi import --file -> the generated program previews clean", async () => {
  const { output } = await importCommands(
    parseImportArgs([
      "--global",
      "--guild",
      emu.guildId,
      "--permissions",
      "--format",
      "pulumi-import",
    ]),
    importEnv(emu),
  );
  const file = JSON.parse(output) as { resources: { type: string; name: string; id: string }[] };
  expect(file.resources.map((r) => r.type).sort()).toEqual([
    "discord-commands:index:GlobalCommand",
    "discord-commands:index:GuildCommand",
    "discord-commands:index:GuildCommandPermissions",
  ]);
  const importFile = path.join(prog.root, "import.json");
  fs.writeFileSync(importFile, output);
  const generated = path.join(prog.root, "generated.yaml");
  emu.control.resetLog();
  await prog.ok([
    "import",
    "--file",
    importFile,
    "--yes",
    "--non-interactive",
    "--protect=false",
    "--out",
    generated,
  ]);
  expect(emu.requestLog().filter((e) => e.method !== "GET")).toEqual([]);
  const code = fs.readFileSync(generated, "utf8");
  expect(code).toContain("Dire bonjour");
  expect(code).toContain("maxValue: 60");
  prog.write({ "Pulumi.yaml": `${header}${code}` });
  const summary = await prog.previewSummary();
  expect(summary).toEqual({ same: 4 });
  expect(emu.requestLog().filter((e) => e.method !== "GET")).toEqual([]);
});
