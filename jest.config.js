/** Jest runs the TypeScript sources through ts-jest without type-checking
 * (`isolatedModules` in tsconfig.json): `npm run typecheck` is the type gate, so tests stay fast. */
// The engine tests run their TypeScript programs as JavaScript transpiled once by the
// harness, not through ts-node in every CLI run (scripts/pulumiProgram.ts, `transpiled`).
process.env.DISCORD_TRANSPILED_PROGRAMS = "1";

module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>"],
  testMatch: ["**/*.test.ts"],
  testPathIgnorePatterns: ["/node_modules/", "/\\.work/", "/dist/", "<rootDir>/sdks/"],
  // sdks/: generated SDKs, and templates/ (each named `${PROJECT}`), whose package.json files
  // would collide in Jest's module map.
  modulePathIgnorePatterns: [
    "<rootDir>/\\.work/",
    "<rootDir>/dist/",
    "<rootDir>/sdks/",
    "<rootDir>/templates/",
  ],
  transform: {
    "^.+\\.ts$": ["ts-jest", { diagnostics: false }],
    // oauth4webapi ships only ES modules; Jest's CommonJS runtime needs them transpiled.
    "/node_modules/oauth4webapi/.+\\.js$": [
      "ts-jest",
      { diagnostics: false, tsconfig: { allowJs: true, module: "commonjs" } },
    ],
  },
  transformIgnorePatterns: ["/node_modules/(?!oauth4webapi/)"],
  // Every emulator answer is judged by the service's own contract (test/contract).
  setupFilesAfterEnv: ["<rootDir>/test/contract/responses.setup.ts"],
  reporters: ["default", "<rootDir>/test/helpers/closingLineReporter.js"],
  testTimeout: 30000,
  // Three workers on these 2-core machines: engine tests wait on their CLI runs' start and
  // on the emulator's windows, which a third worker fills (the whole suite, warm cache:
  // 604 s against 629 s with two; all green either way).
  maxWorkers: 3,
  testSequencer: "<rootDir>/test/helpers/cliTestsFirst.js",
};
