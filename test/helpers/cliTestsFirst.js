/**
 * Jest's order of test files, with the files that drive the real CLI (test/engine,
 * test/examples: seconds to minutes each) before the rest. Jest orders files by their
 * durations in its cache, and without one (a fresh clone, as CI runs) by their size, which
 * started some of the CLI files last: a worker still ran a 30 s file while the others had
 * nothing left. Short files last fill the workers' ends evenly. Within each group, Jest's
 * own order stands.
 */
const Sequencer = require("@jest/test-sequencer").default;

const CLI_DRIVEN = /[\\/]test[\\/](engine|examples)[\\/]/;

class CliTestsFirst extends Sequencer {
  sort(tests) {
    const ordered = super.sort(tests);
    return [
      ...ordered.filter((t) => CLI_DRIVEN.test(t.path)),
      ...ordered.filter((t) => !CLI_DRIVEN.test(t.path)),
    ];
  }
}

module.exports = CliTestsFirst;
