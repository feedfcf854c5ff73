/**
 * The provider code that runs is the installed code, not code frozen in the state, in one
 * project's life: created, moved to another folder (with its backend) and its package
 * upgraded there, then previewed, refreshed, updated and destroyed:
 *  - a moved project previews with no change, and `up` and `destroy` work there:
 *    `__provider` holds a path relative to the project;
 *  - upgrading the package installed in a program's `node_modules` changes what
 *    `refresh` (read) and `destroy` (delete) run for resources created before.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import { PulumiProgram, scratchDir } from "../../scripts/pulumiProgram";
import {
  commandResources,
  commandsProgram,
  configureStack,
  emulator,
  installPackageCopy,
  liveCommands,
  readState,
} from "./edgeHelpers";

jest.setTimeout(240_000);

const program = (guildId: string, description = "Ping the bot"): string =>
  commandsProgram(`
new discord.GlobalCommand("ping", { name: "ping", description: ${JSON.stringify(description)} });
new discord.GuildCommand("report", { guildId: "${guildId}", name: "report", description: "Report a message" });
`);

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await emulator();
});
afterAll(async () => {
  await emu.close();
});

/**
 * Makes the copy's provider methods log `<method> <id>` to `$EDGE_MARKER`: the upgrade.
 * Inserted at the top of `read` and `delete` in dist/provider/resources/commandLifecycle.js.
 */
function upgradeCopy(copy: string): void {
  const file = path.join(copy, "dist", "provider", "resources", "commandLifecycle.js");
  let js = fs.readFileSync(file, "utf8");
  for (const method of ["read", "delete"]) {
    const head = new RegExp(`async ${method}\\(id, props\\) \\{`);
    expect(js).toMatch(head);
    js = js.replace(
      head,
      (m) =>
        `${m} require("fs").appendFileSync(process.env.EDGE_MARKER, "${method} " + id + "\\n");`,
    );
  }
  fs.writeFileSync(file, js);
}

test("a project moved to another folder and upgraded there: preview shows no change; refresh, up and destroy run the upgraded package", async () => {
  const markerDir = scratchDir("edges-upgrade-marker");
  const marker = path.join(markerDir, "calls.log");
  const env = { EDGE_MARKER: marker };
  const first = new PulumiProgram("edges-upgrade", { "index.ts": program(emu.guildId) }, { env });
  const movedRoot = `${first.root}-moved`;
  try {
    installPackageCopy(first);
    await first.stack("dev");
    await configureStack(first, emu);
    await first.up();
    const created = liveCommands(emu);
    expect(created.map(([n]) => n)).toEqual(["ping", "report"]);
    const ids = commandResources(readState(first, "dev")).map((r) => r.id ?? "");
    expect(ids).toHaveLength(2);
    const providerBefore = commandResources(readState(first, "dev")).map(
      (r) => r.inputs?.["__provider"],
    );
    const provider = String(providerBefore[0]);
    expect(provider).toContain("./node_modules/pulumi-discord-commands/dist/provider/resources/");
    expect(provider).not.toContain(first.root);

    // Move the whole project (program, package copy, stack config and backend); the old
    // folder is gone, so nothing can still run from there. Then upgrade the package there.
    fs.renameSync(first.root, movedRoot);
    const moved = new PulumiProgram(
      "edges-upgrade",
      { "index.ts": program(emu.guildId) },
      { root: movedRoot, env },
    );
    upgradeCopy(path.join(moved.dir, "node_modules", "pulumi-discord-commands"));
    await moved.stack("dev");
    emu.control.resetLog();
    expect(await moved.previewSummary()).toEqual({ same: 3 });
    expect(emu.counters().writes).toBe(0);
    expect(fs.existsSync(marker)).toBe(false);

    await moved.ok(["refresh", "--yes", "--non-interactive", "--skip-preview"]);
    const afterRefresh = fs.readFileSync(marker, "utf8").trim().split("\n").sort();
    expect(afterRefresh).toEqual(ids.map((id) => `read ${id}`).sort());
    // The state's `__provider` did not change: it never held the implementation.
    expect(commandResources(readState(moved, "dev")).map((r) => r.inputs?.["__provider"])).toEqual(
      providerBefore,
    );

    emu.control.resetLog();
    moved.write({ "index.ts": program(emu.guildId, "Ping the bot, moved") });
    await moved.up();
    expect(emu.counters().byMethod["PATCH"]).toBe(1);
    expect(liveCommands(emu)).toEqual(created); // updated in place, same ids

    await moved.destroy();
    const deletes = fs
      .readFileSync(marker, "utf8")
      .trim()
      .split("\n")
      .filter((l) => l.startsWith("delete "))
      .sort();
    expect(deletes).toEqual(ids.map((id) => `delete ${id}`).sort());
    expect(liveCommands(emu)).toEqual([]);
    expect(commandResources(readState(moved, "dev"))).toEqual([]);
  } finally {
    fs.rmSync(first.root, { recursive: true, force: true });
    fs.rmSync(movedRoot, { recursive: true, force: true });
    fs.rmSync(markerDir, { recursive: true, force: true });
  }
});
