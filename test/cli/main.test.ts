import { spawnSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(__dirname, "../..");
const tsNode = path.join(root, "node_modules", ".bin", "ts-node");
const run = (...args: string[]) =>
  spawnSync(tsNode, ["--transpile-only", "cli/main.ts", ...args], { cwd: root, encoding: "utf8" });

test("discord-commands lists its subcommands, and refuses an unknown one with exit 2", () => {
  const help = run("--help");
  expect(help.status).toBe(0);
  expect(help.stdout).toMatch(/usage: discord-commands <subcommand>/);
  expect(help.stdout).toMatch(/^ {2}emulator {4}/m);
  expect(help.stdout).toMatch(/^ {2}import {6}print a Pulumi program/m);
  const unknown = run("nope");
  expect(unknown.status).toBe(2);
  expect(unknown.stderr).toMatch(/unknown subcommand nope/);
});

test("discord-commands emulator --help prints the emulator's options", () => {
  const help = run("emulator", "--help");
  expect(help.status).toBe(0);
  expect(help.stdout).toMatch(/usage: discord-commands emulator \[options\]/);
  expect(help.stdout).toMatch(/--no-rate-limits/);
});
