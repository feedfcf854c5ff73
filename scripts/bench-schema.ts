/**
 * Benchmark of the command schema (not a test): the median time to validate a maximal
 * command. Run with `npm run bench:schema`. Target: 2 ms or less.
 *
 * The maximal command has 25 STRING options of 25 choices each, and all 32 locales on
 * every name, description and choice name. It exceeds the 8000-character size rule, so
 * it is rejected: the full validation (every rule, every field) is measured anyway.
 * A second, accepted command (the same structure without localizations and with short
 * strings) is measured too, since the accepting path also runs the shape parse.
 */
import { performance } from "node:perf_hooks";
import {
  LOCALES,
  commandSize,
  validateSdkCommand,
  validateWireCommand,
  wireToSdk,
} from "../provider/schema";
import type { WireCommandBody } from "../provider/schema";

function locs(base: string, max: number): Record<string, string> {
  return Object.fromEntries(LOCALES.map((l, i) => [l, `${base}${i}`.slice(0, max)]));
}

function maximal(localized: boolean, width: number): WireCommandBody {
  const text = (s: string, n: number) => (s + "x".repeat(n)).slice(0, n);
  return {
    name: "maximal",
    description: text("d", width),
    ...(localized
      ? {
          name_localizations: locs("maximal", 32),
          description_localizations: locs(text("d", width - 2), 100),
        }
      : {}),
    options: Array.from({ length: 25 }, (_, i) => ({
      type: 3 as const,
      name: `option${i}`,
      description: text(`option ${i}`, width),
      ...(localized
        ? {
            name_localizations: locs(`o${i}l`, 32),
            description_localizations: locs(text(`o${i}`, width - 2), 100),
          }
        : {}),
      choices: Array.from({ length: 25 }, (_, j) => ({
        name: text(`c${i}-${j}`, localized ? width : 4),
        ...(localized ? { name_localizations: locs(text(`c${i}-${j}`, width - 2), 100) } : {}),
        value: `v${j}`,
      })),
    })),
  };
}

function median(run: () => unknown, iterations: number): number {
  for (let i = 0; i < 50; i++) run(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? NaN;
}

const ctx = { scope: "global", mode: "create" } as const;
for (const [label, body] of [
  ["maximal (25 options x 25 choices, 32 locales on every field)", maximal(true, 100)],
  ["large accepted (25 options x 25 choices, no localizations)", maximal(false, 8)],
] as const) {
  const result = validateWireCommand(body, ctx);
  const verdict = result.ok
    ? "accepted"
    : `rejected (${result.issues.length} issue(s): ${[...new Set(result.issues.map((i) => i.code))].join(", ")})`;
  const wire = median(() => validateWireCommand(body, ctx), 300);
  const sdkArgs = wireToSdk(body);
  const sdk = median(() => validateSdkCommand(sdkArgs, { scope: "global" }), 300);
  console.log(`${label}`);
  console.log(`  size: ${commandSize(body)} characters; ${verdict}`);
  console.log(`  validateWireCommand median: ${wire.toFixed(3)} ms (target <= 2 ms)`);
  console.log(`  validateSdkCommand  median: ${sdk.toFixed(3)} ms`);
}
