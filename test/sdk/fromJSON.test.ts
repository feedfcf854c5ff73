/**
 * `GlobalCommand.fromJSON` / `GuildCommand.fromJSON`: the wire bodies discord.js builders
 * produce (`toJSON()` of `SlashCommandBuilder` and `ContextMenuCommandBuilder`, from
 * @discordjs/builders, pinned) declare the same commands, validated with the one schema;
 * an invalid body fails in the program with the resource and each field named. Pulumi's
 * mocks stand in for the engine and record what each resource would send it.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  ContextMenuCommandBuilder,
  SlashCommandBuilder,
  SlashCommandSubcommandBuilder,
} from "@discordjs/builders";
import {
  ApplicationCommandType,
  ApplicationIntegrationType,
  ChannelType,
  InteractionContextType,
  PermissionFlagsBits,
} from "discord-api-types/v10";
import { diffCommandFields, validateSdkCommand } from "../../provider/schema";
import { commandArgs } from "../../provider/resources/commandLifecycle";
import { GlobalCommand, GuildCommand } from "../../sdk/resources";
import { resetRegistrationOrder } from "../../sdk/registrationOrder";
import { CLAIMANT_KEY } from "../../provider/resources/propertyBags";
import { registered } from "../helpers/pulumiMocks";

const APP = "1300000000000000001";
const GUILD = "1300000000000000002";

/** Inputs each resource handed the engine, by resource name. */
const sent = new Map<string, Record<string, unknown>>();

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        sent.set(args.name, args.inputs as Record<string, unknown>);
        return { id: `${args.name}-id`, state: { ...args.inputs } };
      },
      call: (args) => args.inputs,
    },
    "project",
    "stack",
    true,
  );
});
beforeEach(() => {
  resetRegistrationOrder();
  sent.clear();
});

/** A realistic set: what a discord.js bot's deploy script registers. */
function builderSet() {
  const echo = new SlashCommandBuilder()
    .setName("echo")
    .setNameLocalizations({ fr: "écho", de: "echo" })
    .setDescription("Repeat a message")
    .setDescriptionLocalizations({ fr: "Répéter un message" })
    .setContexts(InteractionContextType.Guild, InteractionContextType.BotDM)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
    .addStringOption((o) =>
      o
        .setName("text")
        .setDescription("What to say")
        .setRequired(true)
        .setMinLength(1)
        .setMaxLength(2000),
    )
    .addStringOption((o) =>
      o
        .setName("tone")
        .setDescription("How to say it")
        .addChoices(
          { name: "Calm", value: "calm" },
          { name: "Loud", value: "loud", name_localizations: { fr: "Fort" } },
        ),
    );
  const moderation = new SlashCommandBuilder()
    .setName("mod")
    .setDescription("Moderation tools")
    .setDefaultMemberPermissions(PermissionFlagsBits.BanMembers | PermissionFlagsBits.KickMembers)
    .setNSFW(false)
    .addSubcommandGroup((g) =>
      g
        .setName("timeout")
        .setDescription("Timeouts")
        .addSubcommand((s) =>
          s
            .setName("add")
            .setDescription("Time a member out")
            .addUserOption((o) => o.setName("member").setDescription("Who").setRequired(true))
            .addIntegerOption((o) =>
              o.setName("minutes").setDescription("How long").setMinValue(1).setMaxValue(40320),
            ),
        ),
    )
    .addSubcommand(
      new SlashCommandSubcommandBuilder()
        .setName("slowmode")
        .setDescription("Set a channel's slow mode")
        .addChannelOption((o) =>
          o
            .setName("channel")
            .setDescription("Where")
            .addChannelTypes(ChannelType.GuildText, ChannelType.GuildForum),
        )
        .addNumberOption((o) => o.setName("seconds").setDescription("Delay").setMinValue(0.5)),
    );
  const report = new ContextMenuCommandBuilder()
    .setName("Report message")
    .setType(ApplicationCommandType.Message)
    .setNameLocalizations({ fr: "Signaler le message" });
  const profile = new ContextMenuCommandBuilder()
    .setName("Show profile")
    .setType(ApplicationCommandType.User)
    .setDefaultMemberPermissions(0n);
  return { echo, moderation, report, profile };
}

/** The command fields a resource sent (its SDK args), as the wire body the provider sends. */
function wireOf(name: string, scope: "global" | "guild"): object {
  const sentInputs = sent.get(name);
  if (sentInputs === undefined) throw new Error(`${name} was not registered`);
  // The host's check takes the hidden claimant out first (dynamicProviders.ts).
  const { [CLAIMANT_KEY]: _claimant, ...inputs } = sentInputs;
  const args = commandArgs(inputs);
  const body = validateSdkCommand(args, { scope });
  if (!body.ok) throw new Error(`${name}: ${JSON.stringify(body.issues)}`);
  return body.value;
}

describe("builder bodies declare the same commands", () => {
  test("global: slash with localizations, choices, subcommand groups; both context menus", async () => {
    const set = builderSet();
    await registered(
      Object.entries(set).map(([name, builder]) =>
        GlobalCommand.fromJSON(name, builder.toJSON(), undefined, { applicationId: APP }),
      ),
    );
    for (const [name, builder] of Object.entries(set)) {
      expect([name, diffCommandFields(builder.toJSON(), wireOf(name, "global"))]).toEqual([
        name,
        [],
      ]);
    }
    // Spot checks of the mapping to SDK keys.
    expect(sent.get("echo")).toMatchObject({
      nameLocalizations: { fr: "écho", de: "echo" },
      contexts: [0, 1],
      integrationTypes: [0],
      options: [
        expect.objectContaining({ minLength: 1, maxLength: 2000, required: true }),
        expect.anything(),
      ],
    });
    expect(sent.get("moderation")).toMatchObject({ defaultMemberPermissions: "6" });
    expect(sent.get("profile")).toMatchObject({ type: 2, defaultMemberPermissions: "0" });
  });

  test("guild: the guild and application come from args", async () => {
    const { report } = builderSet();
    const slash = new SlashCommandBuilder().setName("ping").setDescription("Ping");
    await registered([
      GuildCommand.fromJSON("ping", slash.toJSON(), { guildId: GUILD, applicationId: APP }),
      GuildCommand.fromJSON("report", report.toJSON(), { guildId: GUILD, applicationId: APP }),
    ]);
    expect(sent.get("ping")).toMatchObject({ guildId: GUILD, applicationId: APP, name: "ping" });
    expect(diffCommandFields(report.toJSON(), wireOf("report", "guild"))).toEqual([]);
  });
});

describe("an invalid body fails in the program, naming the resource and the fields", () => {
  test("schema rules, with paths in the body's own keys", () => {
    const body = { ...builderSet().echo.toJSON(), name: "Echo" } as Record<string, unknown>;
    const options = body["options"] as Record<string, unknown>[];
    options[0] = { ...options[0], max_length: 7000 };
    expect(() => GlobalCommand.fromJSON("echo", body)).toThrow(
      /GlobalCommand\.fromJSON\("echo"\): invalid command body:\n {2}name: .*\n {2}options\[0\]\.max_length: /,
    );
  });

  test("an SDK (camelCase) key in a wire body is named, with its wire spelling", () => {
    const body = { name: "ping", description: "Ping", nameLocalizations: { fr: "ping-fr" } };
    expect(() => GuildCommand.fromJSON("ping", body, { guildId: GUILD })).toThrow(
      /nameLocalizations: Unknown field "nameLocalizations": did you mean "name_localizations"\?/,
    );
  });

  test("not an object at all", () => {
    expect(() => GlobalCommand.fromJSON("x", "ping")).toThrow(/GlobalCommand\.fromJSON\("x"\)/);
  });
});
