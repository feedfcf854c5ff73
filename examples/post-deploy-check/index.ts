/**
 * A post-deploy check: after the commands are written, a `command.local.Command` lists
 * the application's global commands from the service and fails the deployment when one
 * the program declares is missing.
 *
 * Needs the `pulumi-resource-command` plugin (`@pulumi/command` installs it with
 * `pulumi plugin install resource command 1.2.1`).
 *
 * The token: the check reads it from the environment variable DISCORD_BOT_TOKEN of the
 * `pulumi up` process (a CI secret), which the provider reads too when the stack config
 * has no `discord:botToken`. So it is on no command line and in no state file.
 */
import * as command from "@pulumi/command";
import * as pulumi from "@pulumi/pulumi";
import * as discord from "pulumi-discord-commands";

const discordConfig = new pulumi.Config("discord");
const applicationId = discordConfig.require("applicationId");
const apiUrl = discordConfig.get("apiUrl") ?? "https://discord.com";

const commands = [
  new discord.GlobalCommand("ping", { name: "ping", description: "Check that the bot is alive" }),
  new discord.GlobalCommand("help", { name: "help", description: "What the bot can do" }),
  new discord.GlobalCommand("bookmark", { type: discord.CommandType.MESSAGE, name: "Bookmark" }),
];

/**
 * The check, run by `node -e`: GET the global commands, compare the names with
 * EXPECTED_COMMANDS, print the result, exit 1 when one is missing (which fails the
 * Command resource, and so the deployment).
 */
const CHECK_SCRIPT = `
const base = process.env.DISCORD_API_URL.replace(/\\/+$/, "").replace(/\\/api\\/v10$/, "");
const url = base + "/api/v10/applications/" + process.env.DISCORD_APPLICATION_ID + "/commands";
const expected = JSON.parse(process.env.EXPECTED_COMMANDS);
(async () => {
  const res = await fetch(url, { headers: { Authorization: "Bot " + process.env.DISCORD_BOT_TOKEN } });
  if (!res.ok) throw new Error("listing the commands failed: HTTP " + res.status);
  const live = new Set((await res.json()).map((c) => c.name));
  const missing = expected.filter((name) => !live.has(name));
  if (missing.length > 0) throw new Error("missing commands: " + missing.join(", "));
  console.log("all " + expected.length + " commands are deployed: " + expected.join(", "));
})().catch((err) => {
  console.error("post-deploy check failed: " + err.message);
  process.exit(1);
});
`;

const check = new command.local.Command(
  "check-commands",
  {
    interpreter: ["node", "-e"],
    create: CHECK_SCRIPT,
    // Not secret: where to look and what to expect. DISCORD_BOT_TOKEN is inherited.
    environment: {
      DISCORD_API_URL: apiUrl,
      DISCORD_APPLICATION_ID: applicationId,
      EXPECTED_COMMANDS: pulumi.jsonStringify(commands.map((c) => c.name)),
    },
    // Run the check again whenever a command is created, replaced or changed.
    triggers: commands.map((c) => c.version),
  },
  // Only after every command is written.
  { dependsOn: commands },
);

export const checkResult = check.stdout;
