/**
 * The package's name and how the schema names its types and resources (`token`): the
 * leaf every part of the schema's construction refers to.
 */
import type { TypeSpec } from "./types";

export const PACKAGE_NAME = "discord-commands";

export function token(name: string): string {
  return `${PACKAGE_NAME}:index:${name}`;
}

/** A reference to the package's type `name`. */
export function ref(name: string): TypeSpec {
  return { $ref: `#/types/${token(name)}` };
}
