/**
 * The service's own contract (test/contract/openapi.json, see README.md there) as a test
 * oracle: its operations by method and path, and JSON Schema 2020-12 validators (ajv) of
 * their request bodies and responses. Validators are compiled on first use and cached,
 * once per test file (Jest gives each file its own module registry).
 */
import fs from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020";

const DOC_ID = "openapi.json";
const API_PREFIX = "/api/v10";

interface Operation {
  readonly method: string;
  readonly template: string;
  readonly pattern: RegExp;
  readonly spec: Record<string, unknown>;
}

export interface Violation {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly operation: string;
  readonly errors: string[];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function child(v: unknown, key: string): Record<string, unknown> | undefined {
  if (!isRecord(v)) return undefined;
  const c = v[key];
  return isRecord(c) ? c : undefined;
}

class Contract {
  private readonly ajv: Ajv2020;
  private readonly operations: Operation[] = [];
  private readonly cache = new Map<string, ValidateFunction | undefined>();
  readonly document: Record<string, unknown>;

  constructor() {
    const text = fs.readFileSync(path.join(__dirname, "openapi.json"), "utf8");
    const doc: unknown = JSON.parse(text);
    if (!isRecord(doc)) throw new Error("openapi.json: not an object");
    applyErrata(doc);
    this.document = doc;
    // strict: false because the document uses OpenAPI's own keywords next to JSON Schema
    // ones (none of them affects validation).
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    // The document's formats: snowflake carries its own pattern; the number formats are
    // checked here as their names say.
    this.ajv.addFormat("snowflake", /^(0|[1-9][0-9]*)$/);
    this.ajv.addFormat("int32", {
      type: "number",
      validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
    });
    this.ajv.addFormat("int64", { type: "number", validate: (n: number) => Number.isInteger(n) });
    this.ajv.addFormat("double", { type: "number", validate: (n: number) => Number.isFinite(n) });
    for (const f of ["uri", "date-time", "email", "uuid", "date"]) this.ajv.addFormat(f, true);
    this.ajv.addSchema({ $id: DOC_ID, components: doc["components"] }, DOC_ID);
    const paths = child(doc, "paths") ?? {};
    for (const [template, item] of Object.entries(paths)) {
      if (!isRecord(item)) continue;
      const pattern = new RegExp(
        `^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`,
      );
      for (const [method, spec] of Object.entries(item)) {
        if (method === "parameters" || !isRecord(spec)) continue;
        this.operations.push({ method: method.toUpperCase(), template, pattern, spec });
      }
    }
  }

  /** The operation for a request path (`/api/v10/...`), literal segments before templates. */
  operation(method: string, requestPath: string): Operation | undefined {
    const p = requestPath.startsWith(API_PREFIX) ? requestPath.slice(API_PREFIX.length) : null;
    if (p === null) return undefined;
    const candidates = this.operations.filter((o) => o.method === method && o.pattern.test(p));
    // `/commands/permissions` also matches `/commands/{command_id}`: the fewest
    // placeholders is the document's (and the router's) choice.
    const holes = (o: Operation) => (o.template.match(/\{/g) ?? []).length;
    return candidates.sort((a, b) => holes(a) - holes(b))[0];
  }

  private compiled(key: string, schema: unknown): ValidateFunction | undefined {
    if (this.cache.has(key)) return this.cache.get(key);
    const v = schema === undefined ? undefined : this.ajv.compile(this.rebase(schema));
    this.cache.set(key, v);
    return v;
  }

  /** Inline schemas of an operation point at `#/components/...`: make them point at the document. */
  private rebase(schema: unknown): Record<string, unknown> {
    const text = JSON.stringify(schema).replace(/"\$ref":"#\//g, `"$ref":"${DOC_ID}#/`);
    return JSON.parse(text) as Record<string, unknown>;
  }

  private resolveResponse(r: unknown): Record<string, unknown> | undefined {
    if (!isRecord(r)) return undefined;
    const ref = r["$ref"];
    if (typeof ref === "string" && ref.startsWith("#/components/responses/")) {
      const name = ref.slice("#/components/responses/".length);
      return child(child(this.document["components"], "responses"), name);
    }
    return r;
  }

  /** The response declared for a status: exact, else `4XX`/`5XX`, else `default`. */
  responseFor(op: Operation, status: number): Record<string, unknown> | undefined {
    const responses = child(op.spec, "responses") ?? {};
    const declared =
      responses[String(status)] ??
      responses[`${Math.floor(status / 100)}XX`] ??
      responses["default"];
    return this.resolveResponse(declared);
  }

  responseValidator(op: Operation, status: number): ValidateFunction | undefined {
    const response = this.responseFor(op, status);
    const schema = child(child(child(response, "content"), "application/json"), "schema");
    return this.compiled(`${op.method} ${op.template} ${status}`, schema);
  }

  requestValidator(op: Operation): ValidateFunction | undefined {
    const schema = child(
      child(child(child(op.spec, "requestBody"), "content"), "application/json"),
      "schema",
    );
    return this.compiled(`${op.method} ${op.template} request`, schema);
  }

  /** A named component schema (`ApplicationCommandResponse`...). */
  component(name: string): ValidateFunction {
    const v = this.compiled(`component ${name}`, { $ref: `#/components/schemas/${name}` });
    if (v === undefined) throw new Error(`no component ${name}`);
    return v;
  }
}

/**
 * The document's known gaps (README.md here, "Errata"), corrected in memory so the
 * vendored file stays byte for byte the published one:
 * - a field error's `code` is a string on the wire (`BASE_TYPE_REQUIRED`), the document
 *   reuses the integer `Error` schema for it;
 * - `nsfw` and `default_permission` are missing from the command request schemas, though
 *   the service takes them (and keeps `nsfw`);
 * - `ChannelTypes` lacks GUILD_MEDIA (16), a channel type options may name.
 */
function applyErrata(doc: Record<string, unknown>): void {
  const schemas = child(child(doc, "components"), "schemas") ?? {};
  const inner = child(child(schemas["InnerErrors"], "properties"), "_errors");
  if (inner === undefined) throw new Error("erratum: InnerErrors._errors not found");
  inner["items"] = {
    type: "object",
    properties: { code: { type: "string" }, message: { type: "string" } },
    required: ["code", "message"],
  };
  for (const name of [
    "ApplicationCommandCreateRequest",
    "ApplicationCommandPatchRequestPartial",
    "ApplicationCommandUpdateRequest",
  ]) {
    const props = child(schemas[name], "properties");
    if (props === undefined) throw new Error(`erratum: ${name} not found`);
    props["nsfw"] = { type: ["boolean", "null"] };
    props["default_permission"] = { type: ["boolean", "null"] };
  }
  const channelTypes = schemas["ChannelTypes"];
  if (!isRecord(channelTypes) || !Array.isArray(channelTypes["oneOf"])) {
    throw new Error("erratum: ChannelTypes not found");
  }
  channelTypes["oneOf"].push({ title: "GUILD_MEDIA", const: 16 });
}

let contract: Contract | undefined;

/** The one Contract of this test file (compiled validators shared by every check). */
export function theContract(): Contract {
  contract ??= new Contract();
  return contract;
}

/** The first errors of a validation (a failed `oneOf` lists one error per member). */
export function formatErrors(errors: readonly ErrorObject[] | null | undefined): string[] {
  return (errors ?? [])
    .slice(0, 6)
    .map(
      (e) => `${e.instancePath || "(body)"} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`,
    );
}

/**
 * What is wrong with one answer by the document's response schema for its operation and
 * status, or undefined when it conforms. Paths outside the document (the OAuth2 token
 * endpoints, the consent page) and statuses it does not declare for a failure (5xx) are
 * not judged; a success status the operation does not declare is a violation.
 */
export function checkResponse(r: {
  method: string;
  path: string;
  status: number;
  body: unknown;
}): Violation | undefined {
  const c = theContract();
  const op = c.operation(r.method, r.path);
  if (op === undefined) return undefined;
  const operation = `${op.method} ${op.template}`;
  const response = c.responseFor(op, r.status);
  if (response === undefined) {
    if (r.status >= 500) return undefined;
    return { ...pick(r), operation, errors: [`status ${r.status} is not declared`] };
  }
  const validate = c.responseValidator(op, r.status);
  if (validate === undefined) {
    return r.body === undefined
      ? undefined
      : { ...pick(r), operation, errors: ["a body where the document declares none"] };
  }
  if (validate(r.body)) return undefined;
  return { ...pick(r), operation, errors: formatErrors(validate.errors) };
}

function pick(r: { method: string; path: string; status: number }) {
  return { method: r.method, path: r.path, status: r.status };
}
