/** The answers of this test file's emulators, judged by the contract (responses.setup.ts). */
import type { ResponseRecord } from "../../emulator";
import { checkResponse } from "./oracle";
import type { Violation } from "./oracle";

const violations: Violation[] = [];
let checked = 0;

export function recordResponse(r: ResponseRecord): void {
  if (r.fault !== undefined) return;
  checked++;
  const v = checkResponse(r);
  if (v !== undefined) violations.push(v);
}

export function recordedViolations(): readonly Violation[] {
  return violations;
}

/** How many answers were judged so far in this test file. */
export function checkedResponses(): number {
  return checked;
}
