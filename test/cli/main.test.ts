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

test("discord-commands authorize is listed; --help prints its flags; a bad port is a usage error", () => {
  expect(run("--help").stdout).toMatch(/^ {2}authorize {3}/m);
  const help = run("authorize", "--help");
  expect(help.status).toBe(0);
  for (const flag of ["--stack", "--api-url", "--scopes", "--port", "--client-id"]) {
    expect(help.stdout).toContain(flag);
  }
  const bad = run("authorize", "--port", "99999");
  expect(bad.status).toBe(2);
  expect(bad.stderr).toMatch(/--port: 99999 is not a port number/);
});
