/**
 * A Jest reporter that ends every run with the ten slowest test files (where the suite's
 * time goes, to keep it within budget) and one plain line, `N passed, N failed` (and
 * `, N skipped` when any were), which CI systems that do not parse Jest's own summary can
 * read. Plain JavaScript: Jest loads reporters without a transform.
 */
const path = require("node:path");

class ClosingLineReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const line = `${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`;
    const slowest = results.testResults
      .map((r) => ({
        file: path.relative(process.cwd(), r.testFilePath),
        seconds: (r.perfStats.end - r.perfStats.start) / 1000,
      }))
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, 10);
    const table =
      slowest.length > 1
        ? `The ten slowest test files:\n${slowest
            .map((s) => `  ${s.seconds.toFixed(1).padStart(6)} s  ${s.file}`)
            .join("\n")}\n`
        : "";
    // At exit, so it follows Jest's own summary and the closing line stands last.
    process.once("exit", () => process.stderr.write(`${table}${line}\n`));
  }
}

module.exports = ClosingLineReporter;
