/**
 * One command set, two environments, and promotion from one to the other.
 *
 * Every command is declared once, with the stage it has reached:
 *  - `stage: "dev"` while it is developed: the `dev` stack deploys it as a guild command
 *    of the test guild (`guildId`), where it takes effect at once;
 *  - `stage: "prod"` once promoted: the `prod` stack deploys it globally (every guild that
 *    added the application, and DMs), and the `dev` stack no longer does, so the test
 *    guild lists it once (the global copy), never twice.
 * The stack's config (`stage`, Pulumi.dev.yaml / Pulumi.prod.yaml) says which stage it
 * deploys. Promotion is a one-word edit, then `up` on prod, then `up` on dev (README.md).
 * The credentials come from stack config too (`discord:applicationId`, and the secret
 * `discord:botToken`), read by the provider; the program never sees the token.
 */
import * as pulumi from "@pulumi/pulumi";
import * as discord from "pulumi-discord-commands";

type Stage = "dev" | "prod";

const config = new pulumi.Config();
const stage = config.require("stage");
if (stage !== "dev" && stage !== "prod") {
  throw new pulumi.RunError(`config 'stage' is '${stage}': say "dev" or "prod"`);
}
// Only the dev stack needs a guild: prod deploys to the global scope.
const guildId = stage === "dev" ? config.require("guildId") : undefined;

/** A command's definition and the stage it has reached. */
type StagedCommand = discord.CommandDefinition & { stage: Stage };

// The command set, written once for both stacks.
const commands: StagedCommand[] = [
  { stage: "prod", name: "ping", description: "Check that the bot is alive" },
  { stage: "prod", type: discord.CommandType.MESSAGE, name: "Translate" },
  {
    stage: "dev",
    name: "weather",
    description: "Today's weather",
    options: [
      {
        type: discord.OptionType.STRING,
        name: "city",
        description: "Where",
        required: true,
        autocomplete: true,
      },
      {
        type: discord.OptionType.STRING,
        name: "units",
        description: "Units of measure",
        choices: [
          { name: "Metric", value: "metric" },
          { name: "Imperial", value: "imperial" },
        ],
      },
    ],
  },
];

/** The definitions this stack deploys: its stage's, without the `stage` marker. */
const deployed: discord.CommandDefinition[] = commands
  .filter((c) => c.stage === stage)
  .map(({ stage: _stage, ...definition }) => definition);

const set = new discord.CommandSet("commands", {
  commands: deployed,
  scopes: [guildId === undefined ? {} : { guildId }],
});

/** Where this stack deployed its stage of the set. */
export const scope = guildId === undefined ? "global" : `guild ${guildId}`;
/** Command key (the name; `message:Translate` for the context menu) -> id, as the service assigned them. */
export const commandIds = set.commandIds.apply((byScope) => Object.values(byScope)[0] ?? {});
