#!/usr/bin/env node
/**
 * `discord-commands <subcommand> [options]`: the package's one command-line entry.
 * Each subcommand lives in the module that owns it and is loaded only when asked for, so
 * that `discord-commands emulator` does not load Pulumi and the others do not start a server.
 */
const SUBCOMMANDS: Record<
  string,
  { summary: string; run: (argv: readonly string[]) => Promise<void> }
> = {
  emulator: {
    summary: "run the local emulator of the command service",
    run: async (argv) => (await import("../emulator/cli")).runEmulatorCli(argv),
  },
  import: {
    summary: "print a Pulumi program that declares an application's live commands",
    run: async (argv) => (await import("./import")).runImportCli(argv),
  },
  authorize: {
    summary: "authorize permission edits; store the Bearer token in the stack",
    run: async (argv) => (await import("./authorize")).runAuthorizeCli(argv),
  },
};

const USAGE = `usage: discord-commands <subcommand> [options]

subcommands:
${Object.entries(SUBCOMMANDS)
  .map(([name, { summary }]) => `  ${name.padEnd(12)}${summary}`)
  .join("\n")}

Run \`discord-commands <subcommand> --help\` for its options.`;

async function main(argv: readonly string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(`${USAGE}\n`);
    process.exitCode = name === undefined ? 2 : 0;
    return;
  }
  const sub = SUBCOMMANDS[name];
  if (!sub) {
    process.stderr.write(`discord-commands: unknown subcommand ${name}\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  await sub.run(rest);
}

if (require.main === module) void main(process.argv.slice(2));
