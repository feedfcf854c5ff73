/**
 * Quick start: three global commands of one application.
 *
 * Everything the provider needs comes from stack config (see README.md):
 *   pulumi config set discord:applicationId <your application id>
 *   pulumi config set --secret discord:botToken <your bot token>
 * and, to run against the local emulator instead of the real service,
 *   pulumi config set discord:apiUrl http://127.0.0.1:8787
 */
import * as discord from "pulumi-discord-commands";

// A slash command: /ping. Names of slash commands are lowercase, 1-32 characters.
const ping = new discord.GlobalCommand("ping", {
  name: "ping",
  description: "Check that the bot is alive",
  // Optional translations, keyed by locale.
  descriptionLocalizations: { fr: "Vérifier que le bot répond" },
});

// A slash command with one required option: /echo text:<...>
const echo = new discord.GlobalCommand("echo", {
  name: "echo",
  description: "Repeat what you say",
  options: [
    {
      type: discord.OptionType.STRING,
      name: "text",
      description: "What to repeat",
      required: true,
      maxLength: 200,
    },
  ],
});

// A user context-menu command (right-click a member > Apps > Show Profile).
// USER and MESSAGE commands have no description, and their names may have capitals and spaces.
const profile = new discord.GlobalCommand("profile", {
  type: discord.CommandType.USER,
  name: "Show Profile",
});

/** The ids the service assigned: your bot's interaction handler may want them. */
export const commandIds = {
  ping: ping.commandId,
  echo: echo.commandId,
  profile: profile.commandId,
};
