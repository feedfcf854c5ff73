import type {
  SchemaIssue,
  Scope,
  Validation,
  WireCommandBody,
  WriteMode,
} from "../../provider/schema";
import { formatPath, validateWireCommand } from "../../provider/schema";

export function issuesOf<T>(result: Validation<T>): SchemaIssue[] {
  return result.ok ? [] : result.issues;
}

/** Asserts that `result` failed with an issue at `path` (formatted) carrying `code`. */
export function expectIssue<T>(result: Validation<T>, path: string, code: string): void {
  const found = issuesOf(result).map((i) => `${formatPath(i.path)} ${i.code}`);
  expect(found).toContain(`${path} ${code}`);
}

export function expectValid<T>(result: Validation<T>): void {
  expect(issuesOf(result)).toEqual([]);
  expect(result.ok).toBe(true);
}

export function wire(
  body: unknown,
  scope: Scope = "global",
  mode: WriteMode = "create",
  existingType?: number,
): Validation<WireCommandBody> {
  return validateWireCommand(
    body,
    existingType === undefined ? { scope, mode } : { scope, mode, existingType },
  );
}

export function slash(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: "ping", description: "Replies with pong", ...extra };
}

export function opt(type: number, name: string, extra: Record<string, unknown> = {}) {
  return { type, name, description: `the ${name} option`, ...extra };
}
