/**
 * The policy pack `discord-commands` (docs/policy.md): a team's rules over the commands of
 * any stack that uses this package, whatever its language and door, run with
 * `pulumi preview --policy-pack <package>/policy [--policy-pack-config <file>]`. Each
 * policy's enforcement level (advisory, mandatory, disabled) and settings come from that
 * file; every policy takes `stacks`, a regex of the stacks it runs in (one file can hold
 * every stage's rules). Without settings a policy checks nothing.
 *
 * The CLI starts a pack through the Node.js language host with the program's folder as
 * the working directory, and `PolicyPack` reads its version from `package.json` there,
 * which a YAML, Python or Go program lacks: the pack is built with the package's own
 * folder as the working directory, then the program's is restored.
 */
import * as path from "node:path";
import type {
  PolicyResource,
  ReportViolation,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationPolicy,
} from "@pulumi/policy";
import { PolicyPack } from "@pulumi/policy";
import { whenKnown } from "./known";
import type { SeenCommand, SeenResource } from "./commands";
import { commandsOf, kindOf, stackOf } from "./commands";
import { stackPermissionsViolations } from "./permissions";
import type { CapConfig, HiddenConfig, LocalesConfig, StageConfig } from "./rules";
import { mustBeHidden, requiredLocales, runsIn, scopeCap, stageRules } from "./rules";
import { keepSecretMarks } from "./secretMarks";

type Staged<T> = T & { readonly stacks?: string };

/** The commands of every resource of this package among `resources`. */
export function allCommands(resources: readonly SeenResource[]): SeenCommand[] {
  return resources.flatMap((r) => whenKnown(() => commandsOf(r)));
}

const STACKS = {
  stacks: { type: "string", description: "A regex of the stacks this policy runs in." },
} as const;

/** A policy that applies `rule` to each command of each resource of this package. */
function perCommand<T extends object>(
  name: string,
  description: string,
  properties: Record<string, object>,
  rule: (c: SeenCommand, stack: string, config: Staged<T>) => string[],
): ResourceValidationPolicy {
  return {
    name,
    description,
    enforcementLevel: "advisory",
    configSchema: { properties: { ...STACKS, ...properties } },
    validateResource: (args: ResourceValidationArgs, report: ReportViolation) => {
      if (kindOf(args.type) === undefined) return;
      const config = args.getConfig<Staged<T>>();
      const stack = stackOf(args.urn);
      if (!runsIn(config.stacks, stack)) return;
      for (const c of whenKnown(() => commandsOf(args))) {
        for (const message of whenKnown(() => rule(c, stack, config))) report(message);
      }
    },
  };
}

const STRINGS = { type: "array", items: { type: "string" } } as const;

const requiredLocalesPolicy = perCommand<LocalesConfig>(
  "required-locales",
  "Names and descriptions, of commands and options, carry the configured locales.",
  { locales: STRINGS, exempt: STRINGS },
  (c, _stack, config) => requiredLocales(c, config),
);

const hiddenCommandsPolicy = perCommand<HiddenConfig>(
  "hidden-commands",
  "Commands matching the configured names set default member permissions.",
  { commands: STRINGS },
  (c, _stack, config) => mustBeHidden(c, config),
);

const stageRulesPolicy = perCommand<StageConfig>(
  "stage-rules",
  "In the configured stacks: guild commands only in allowed guilds (or none), no nsfw.",
  { allowedGuilds: STRINGS, globalOnly: { type: "boolean" }, noNsfw: { type: "boolean" } },
  (c, stack, config) => stageRules(c, stack, config),
);

const stackPolicies: StackValidationPolicy[] = [
  {
    name: "scope-cap",
    description: "At most the configured number of this stack's commands in one scope.",
    enforcementLevel: "advisory",
    configSchema: {
      properties: {
        ...STACKS,
        // A number, or a map from a regex of stacks to a number (one file, every stage).
        maxPerScope: {
          type: ["integer", "object"],
          minimum: 0,
          additionalProperties: { type: "integer", minimum: 0 },
        },
      },
    },
    validateStack: (args, report) => {
      const ours = args.resources.filter((r) => kindOf(r.type) !== undefined);
      const config = args.getConfig<Staged<CapConfig>>();
      if (ours[0] === undefined || !runsIn(config.stacks, stackOf(ours[0].urn))) return;
      const stack = stackOf(ours[0].urn);
      for (const message of scopeCap(allCommands(ours), config, stack)) report(message);
    },
  },
  {
    name: "everyone-permissions",
    description:
      "No permissions entry lets @everyone or all channels use a command its default member permissions restrict.",
    enforcementLevel: "advisory",
    configSchema: { properties: { ...STACKS } },
    validateStack: (args, report) => {
      const ours: PolicyResource[] = args.resources.filter((r) => kindOf(r.type) !== undefined);
      const config = args.getConfig<Staged<object>>();
      if (ours[0] === undefined || !runsIn(config.stacks, stackOf(ours[0].urn))) return;
      for (const message of stackPermissionsViolations(ours)) report(message);
    },
  },
];

/** Builds the pack with the package's folder as the working directory (see above). */
function start(): void {
  keepSecretMarks();
  const programDir = process.cwd();
  process.chdir(path.join(__dirname, "..", ".."));
  try {
    new PolicyPack("discord-commands", {
      policies: [requiredLocalesPolicy, hiddenCommandsPolicy, stageRulesPolicy, ...stackPolicies],
    });
  } finally {
    process.chdir(programDir);
  }
}

start();
