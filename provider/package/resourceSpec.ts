/**
 * How a resource of the package schema is put together: its inputs and outputs, each a
 * side of properties with the required ones listed.
 */
import type { Properties, PropertySpec, ResourceSpec } from "./types";

/** Properties and which of them are required. */
export interface Side {
  properties: Properties;
  required: string[];
}

export function side(): Side {
  return { properties: {}, required: [] };
}

export function add(s: Side, name: string, spec: PropertySpec, required: boolean): void {
  s.properties[name] = spec;
  if (required) s.required.push(name);
}

export function resource(description: string, inputs: Side, outputs: Side): ResourceSpec {
  return {
    description,
    inputProperties: inputs.properties,
    requiredInputs: inputs.required,
    properties: outputs.properties,
    required: outputs.required,
  };
}

export const APPLICATION_DEFAULT = " Default: the provider's `applicationId`.";
