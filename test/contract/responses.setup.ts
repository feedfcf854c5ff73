/**
 * Every emulator a test file starts answers by the service's own contract: each answer of
 * the service API is checked against the document's response schema for its operation
 * and status (test/contract/oracle.ts), and the file fails after its tests when any did
 * not conform. Answers of injected faults are left out (they break the contract on
 * purpose). Wired for every test file by `setupFilesAfterEnv` in jest.config.js.
 */
import type { EmulatorOptions, ResponseRecord } from "../../emulator";
import type * as Server from "../../emulator/server";
import type * as Recorder from "./recorder";
import { recordedViolations } from "./recorder";

jest.mock("../../emulator/server", () => {
  const actual: typeof Server = jest.requireActual("../../emulator/server");
  // Required here, not captured: Jest forbids a mock factory to close over module scope.
  const recorder: typeof Recorder = jest.requireActual("./recorder");
  return {
    ...actual,
    startEmulator: (options: EmulatorOptions = {}) =>
      actual.startEmulator({
        ...options,
        onResponse: (r: ResponseRecord) => {
          options.onResponse?.(r);
          recorder.recordResponse(r);
        },
      }),
  };
});

afterAll(() => {
  const violations = recordedViolations();
  if (violations.length > 0) {
    throw new Error(
      `${violations.length} emulator answers break the service's contract (test/contract/openapi.json):\n` +
        violations
          .slice(0, 20)
          .map(
            (v) => `${v.method} ${v.path} -> ${v.status} (${v.operation}): ${v.errors.join("; ")}`,
          )
          .join("\n"),
    );
  }
});
