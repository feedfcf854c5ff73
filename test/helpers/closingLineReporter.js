/**
 * A Jest reporter that ends every run with one plain line, `N passed, N failed` (and
 * `, N skipped` when any were), which CI systems that do not parse Jest's own summary
 * can read. Plain JavaScript: Jest loads reporters without a transform.
 */
class ClosingLineReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const line = `${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`;
    // At exit, so it follows Jest's own summary and stands last.
    process.once("exit", () => process.stderr.write(`${line}\n`));
  }
}

module.exports = ClosingLineReporter;
