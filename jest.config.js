/** Jest runs the TypeScript sources through ts-jest without type-checking
 * (isolatedModules): `npm run typecheck` is the type gate, so tests stay fast. */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>"],
  testMatch: ["**/*.test.ts"],
  testPathIgnorePatterns: ["/node_modules/", "/\\.work/", "/dist/"],
  modulePathIgnorePatterns: ["<rootDir>/\\.work/", "<rootDir>/dist/"],
  transform: {
    "^.+\\.ts$": ["ts-jest", { isolatedModules: true, diagnostics: false }],
  },
  testTimeout: 30000,
  maxWorkers: 2,
};
