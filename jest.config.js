/** Jest runs the TypeScript sources through ts-jest without type-checking
 * (`isolatedModules` in tsconfig.json): `npm run typecheck` is the type gate, so tests stay fast. */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>"],
  testMatch: ["**/*.test.ts"],
  testPathIgnorePatterns: ["/node_modules/", "/\\.work/", "/dist/"],
  modulePathIgnorePatterns: ["<rootDir>/\\.work/", "<rootDir>/dist/"],
  transform: {
    "^.+\\.ts$": ["ts-jest", { diagnostics: false }],
  },
  reporters: ["default", "<rootDir>/test/helpers/closingLineReporter.js"],
  testTimeout: 30000,
  maxWorkers: 2,
};
