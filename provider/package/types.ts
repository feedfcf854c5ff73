/**
 * The part of Pulumi's package schema format that this package uses
 * (https://www.pulumi.com/docs/iac/using-pulumi/extending-pulumi/schema/; the CLI checks
 * the file against its metaschema, `pkg/codegen/schema/pulumi.json`).
 */

export type PrimitiveType = "string" | "number" | "integer" | "boolean";

export interface TypeSpec {
  type?: PrimitiveType | "array" | "object";
  items?: TypeSpec;
  additionalProperties?: TypeSpec;
  $ref?: string;
  oneOf?: TypeSpec[];
}

export interface PropertySpec extends TypeSpec {
  description: string;
  secret?: boolean;
  replaceOnChanges?: boolean;
  deprecationMessage?: string;
  defaultInfo?: { environment: string[] };
}

export type Properties = Record<string, PropertySpec>;

export interface ObjectTypeSpec {
  type: "object";
  description: string;
  properties: Properties;
  required: string[];
}

export interface EnumValueSpec {
  name: string;
  value: number | string;
  description?: string;
}

export interface EnumTypeSpec {
  type: "integer" | "string";
  description: string;
  enum: EnumValueSpec[];
}

export interface ResourceSpec {
  description: string;
  isComponent?: boolean;
  inputProperties: Properties;
  requiredInputs: string[];
  properties: Properties;
  required: string[];
}

export interface PackageSchema {
  name: string;
  displayName: string;
  version: string;
  description: string;
  attribution: string;
  keywords: string[];
  license: string;
  /** Where the engine fetches the plugin when it is not installed. */
  pluginDownloadURL: string;
  meta: { moduleFormat: string; supportPack: boolean };
  config: { variables: Properties };
  provider: ResourceSpec;
  resources: Record<string, ResourceSpec>;
  types: Record<string, ObjectTypeSpec | EnumTypeSpec>;
  language: Record<string, Record<string, unknown>>;
}
