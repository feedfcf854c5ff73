/**
 * The demo's kind of deployment (examples/demo/index.ts), made through the providers
 * themselves (create, as the engine calls it) against an in-process emulator: global
 * slash commands with a subcommand group, choices and localizations, a user and a message
 * command, guild commands (one age-restricted) and permission overwrites for a role, a
 * user and channels. Seconds faster than `pulumi up`, with the same requests.
 */
import type { RunningEmulator } from "../../emulator";
import type { Bag } from "../provider/helpers";
import { globalProvider, globalInputs, guildInputs, guildProvider } from "../provider/helpers";
import { permissionsProvider } from "../provider/helpers";

export const DEMO_GLOBAL: readonly Bag[] = [
  {
    name: "ping",
    description: "Check that the bot is alive",
    descriptionLocalizations: {
      fr: "Vérifier que le bot répond",
      de: "Prüfen, ob der Bot antwortet",
    },
    contexts: [0, 1],
  },
  {
    name: "settings",
    nameLocalizations: { fr: "réglages", "es-ES": "ajustes" },
    description: "Change how the bot behaves",
    defaultMemberPermissions: "32",
    contexts: [0],
    options: [
      {
        type: 2,
        name: "notifications",
        description: "Where and how the bot notifies",
        options: [
          {
            type: 1,
            name: "channel",
            description: "Set the notification channel",
            options: [
              {
                type: 7,
                name: "target",
                description: "The channel",
                required: true,
                channelTypes: [0, 5],
              },
            ],
          },
          {
            type: 1,
            name: "level",
            description: "Set how much the bot says",
            options: [
              {
                type: 3,
                name: "level",
                description: "The level",
                required: true,
                choices: [
                  { name: "Everything", value: "all", nameLocalizations: { fr: "Tout" } },
                  { name: "Mentions only", value: "mentions" },
                  { name: "Nothing", value: "none", nameLocalizations: { fr: "Rien" } },
                ],
              },
            ],
          },
        ],
      },
      { type: 1, name: "reset", description: "Reset every setting" },
    ],
  },
  {
    name: "roll",
    description: "Roll dice",
    options: [
      {
        type: 4,
        name: "sides",
        description: "Sides of each die",
        required: true,
        choices: [
          { name: "d6", value: 6 },
          { name: "d20", value: 20 },
        ],
      },
      { type: 4, name: "count", description: "How many dice", minValue: 1, maxValue: 10 },
    ],
  },
  { type: 2, name: "Show Profile", nameLocalizations: { fr: "Voir le profil" } },
  { type: 3, name: "Report Message" },
];

export interface DemoIds {
  readonly ban: string;
  readonly announce: string;
  readonly meme: string;
}

/** Deploys the demo's set; the providers must be configured for `emu` (helpers' `setup`). */
export async function deployDemo(emu: RunningEmulator): Promise<DemoIds> {
  const guild = emu.config.guilds[0];
  const moderatorRoleId = guild?.roles[0]?.id ?? emu.guildId;
  const channelId = guild?.channels[0]?.id ?? emu.guildId;
  for (const args of DEMO_GLOBAL) await globalProvider.create(globalInputs(emu, args));
  const meme = await guildProvider.create(
    guildInputs(emu, {
      name: "meme",
      description: "Post a random meme (age-restricted)",
      nsfw: true,
    }),
  );
  const ban = await guildProvider.create(
    guildInputs(emu, {
      name: "ban",
      description: "Ban a member",
      defaultMemberPermissions: "4",
      options: [
        { type: 6, name: "member", description: "Who to ban", required: true },
        { type: 3, name: "reason", description: "Why", maxLength: 512 },
      ],
    }),
  );
  const announce = await guildProvider.create(
    guildInputs(emu, {
      name: "announce",
      description: "Post an announcement",
      options: [
        {
          type: 3,
          name: "text",
          description: "What to say",
          required: true,
          minLength: 1,
          maxLength: 2000,
        },
      ],
    }),
  );
  const overwrites = (commandId: string, permissions: Bag[]): Bag => ({
    applicationId: emu.applicationId,
    guildId: emu.guildId,
    commandId,
    permissions,
  });
  await permissionsProvider.create(
    overwrites(ban.id, [
      { id: emu.guildId, type: 1, permission: false },
      { id: moderatorRoleId, type: 1, permission: true },
      { id: emu.userId, type: 2, permission: true },
      { id: channelId, type: 3, permission: false },
    ]),
  );
  await permissionsProvider.create(
    overwrites(announce.id, [
      { id: String(BigInt(emu.guildId) - 1n), type: 3, permission: false },
      { id: channelId, type: 3, permission: true },
    ]),
  );
  return { ban: ban.id, announce: announce.id, meme: meme.id };
}
