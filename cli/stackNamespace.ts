/**
 * The stack config namespace of the door a stack uses: `discord-commands` for the resource
 * plugin, `discord` for the TypeScript dynamic resources. `authorize` reads its settings
 * there and stores its tokens there.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parse as parseYaml } from "yaml";
import type { ConfigNamespace } from "../provider/resources/settings";
import { CONFIG_NAMESPACES } from "../provider/resources/settings";
import { isRecord } from "../provider/schema";

/** The project file Pulumi would use from `cwd` (it looks upwards), as text. */
export function projectFile(cwd: string): string | undefined {
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    for (const name of ["Pulumi.yaml", "Pulumi.yml"]) {
      const file = path.join(dir, name);
      if (fs.existsSync(file)) return fs.readFileSync(file, "utf8");
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * The project's runtime (`runtime: nodejs`, or `runtime: {name: nodejs, options: ...}` in
 * any YAML form) and whether its `packages:` block names the plugin. A file that is not
 * YAML says neither (the CLI reports it when it runs the project).
 */
function projectDoor(project: string): {
  runtime: string | undefined;
  pluginPackage: boolean;
} {
  let doc: unknown;
  try {
    doc = parseYaml(project);
  } catch {
    return { runtime: undefined, pluginPackage: false };
  }
  if (!isRecord(doc)) return { runtime: undefined, pluginPackage: false };
  const declared = doc["runtime"];
  const name = isRecord(declared) ? declared["name"] : declared;
  const packages = doc["packages"];
  return {
    runtime: typeof name === "string" ? name : undefined,
    pluginPackage: isRecord(packages) && CONFIG_NAMESPACES.plugin in packages,
  };
}

/**
 * The namespace of the door the stack uses, and why: the resource plugin's when the
 * project's `packages:` block names it or the runtime is not Node.js (the dynamic
 * resources are TypeScript only); else the one the stack's config has keys in, if only
 * one; else the dynamic resources'.
 */
export function stackNamespace(
  project: string | undefined,
  configKeys: Iterable<string>,
): { namespace: ConfigNamespace; why: string } {
  const { plugin, dynamic } = CONFIG_NAMESPACES;
  const door = project === undefined ? undefined : projectDoor(project);
  if (door?.pluginPackage === true) {
    return { namespace: plugin, why: `Pulumi.yaml's packages: block names ${plugin}` };
  }
  if (door?.runtime !== undefined && door.runtime !== "nodejs") {
    return { namespace: plugin, why: `the runtime is ${door.runtime}: the resource plugin's` };
  }
  const keys = [...configKeys];
  const has = (ns: string): boolean => keys.some((k) => k.startsWith(`${ns}:`));
  if (has(plugin) && !has(dynamic)) {
    return { namespace: plugin, why: `the stack's config has ${plugin}:* keys` };
  }
  if (has(dynamic) && !has(plugin)) {
    return { namespace: dynamic, why: `the stack's config has ${dynamic}:* keys` };
  }
  return { namespace: dynamic, why: "the TypeScript dynamic resources'" };
}
