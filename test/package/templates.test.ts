/**
 * The `pulumi new` templates (templates/<name>) against what they name: the settings they
 * ask for are the provider's, in their door's namespace, secret exactly when a credential;
 * their dependencies are the released packages at this package's version, with the
 * @pulumi/pulumi range the package declares; the YAML template's plugin URL is the
 * schema's; the Go template's module requirements are the Go example's (the CLI's
 * versions, which Go's build cache holds after setup). The release test deploys each one
 * (test/engine/release.test.ts, templates.helpers.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { PLUGIN_DOWNLOAD_URL, SDK_NAMES } from "../../provider/package/schema";
import { CREDENTIAL_SETTINGS, SETTINGS } from "../../provider/resources/settings";
import { WRITE_MODE_SETTING } from "../../provider/writeMode";
import { PROJECT_ROOT } from "../../scripts/toolchain";
import type { TemplateName } from "../engine/templates.helpers";
import { TEMPLATES, TEMPLATE_NAMES, templateDir } from "../engine/templates.helpers";

const read = (file: string): string => fs.readFileSync(path.join(PROJECT_ROOT, file), "utf8");
const VERSION = (JSON.parse(read("package.json")) as { version: string }).version;
const PULUMI_RANGE = (
  JSON.parse(read("sdks/nodejs/package.json")) as { dependencies: Record<string, string> }
).dependencies["@pulumi/pulumi"];
const GO_MODULE = SDK_NAMES.goModule;

interface TemplateConfig {
  readonly description?: string;
  readonly secret?: boolean;
  readonly default?: string;
}

function project(name: TemplateName): {
  name: string;
  template: { description: string; config: Record<string, TemplateConfig> };
  resources?: Record<string, { options?: { version?: string; pluginDownloadURL?: string } }>;
} {
  return parse(fs.readFileSync(path.join(templateDir(name), "Pulumi.yaml"), "utf8"));
}

test("there is one template per door and language, and nothing else in templates/", () => {
  expect(fs.readdirSync(path.join(PROJECT_ROOT, "templates")).sort()).toEqual(
    [...TEMPLATE_NAMES].sort(),
  );
});

describe.each(TEMPLATE_NAMES)("templates/%s", (name) => {
  const ns = TEMPLATES[name];
  const pulumiYaml = project(name);
  const config = pulumiYaml.template.config;
  const settingNames = [...SETTINGS, WRITE_MODE_SETTING].map((s) => s.key.slice("discord:".length));

  test("takes the project's name and description from `pulumi new`", () => {
    expect(pulumiYaml.name).toBe("${PROJECT}");
    expect(pulumiYaml.template.description).toMatch(/\w/);
  });

  test("asks for the application, the token as a secret, the emulator's URL optionally, and a guild (not YAML)", () => {
    // YAML: the guild is in the program (a digits-only config value would reach it as a number).
    const guild = name === "yaml" ? [] : ["guildId"];
    expect(Object.keys(config).sort()).toEqual(
      [`${ns}:apiUrl`, `${ns}:applicationId`, `${ns}:botToken`, ...guild].sort(),
    );
    expect(config[`${ns}:apiUrl`]?.default).toBe("");
    for (const [key, value] of Object.entries(config)) {
      expect(value.description).toMatch(/\w/);
      if (!key.includes(":")) continue;
      const setting = key.slice(ns.length + 1);
      expect(settingNames).toContain(setting);
      expect(value.secret ?? false).toBe(
        (CREDENTIAL_SETTINGS as readonly string[]).includes(setting),
      );
    }
  });

  test("depends on the released packages at this version", () => {
    const dir = templateDir(name);
    if (name.startsWith("typescript")) {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as {
        dependencies: Record<string, string>;
      };
      const ours = name === "typescript" ? "pulumi-discord-commands" : SDK_NAMES.nodejs;
      expect(pkg.dependencies).toEqual({ "@pulumi/pulumi": PULUMI_RANGE, [ours]: `^${VERSION}` });
    } else if (name === "python") {
      expect(fs.readFileSync(path.join(dir, "requirements.txt"), "utf8")).toBe(
        `pulumi-discord-commands~=${VERSION}\n`,
      );
    } else if (name === "go") {
      expect(fs.readFileSync(path.join(dir, "go.mod"), "utf8")).toContain(
        `\t${GO_MODULE} v${VERSION}\n`,
      );
    } else {
      const resources = Object.values(pulumiYaml.resources ?? {});
      expect(resources.length).toBeGreaterThan(0);
      for (const resource of resources) {
        expect(resource.options).toEqual({
          version: VERSION,
          pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
        });
      }
    }
  });
});

test("the Go template requires the Go example's modules (the CLI's versions), with their sums", () => {
  const requirements = (file: string) =>
    read(file)
      .split("\n")
      .filter((line) => /^\t\S+ v\S+/.test(line) && !line.includes(GO_MODULE));
  expect(requirements("templates/go/go.mod")).toEqual(requirements("examples/go/go.mod"));
  expect(read("templates/go/go.sum")).toBe(read("examples/go/go.sum"));
  expect(read("templates/go/go.mod")).not.toMatch(/^replace /m);
});
