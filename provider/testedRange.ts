/**
 * The range of Pulumi that the project's own tests run on (issue 37): the whole suite at
 * the pinned version (the CLI and SDKs of package.json's devDependencies), an engine smoke
 * at each end (test/engine/version-range-*.test.ts). package.json's peerDependencies and
 * the generated Python SDK's requirement state this range, and nothing wider. The newest
 * end is what the registries serve: the Go module proxy builds the CLI up to 3.274.1 (it
 * refuses pkg/v3 3.275 and later), npm serves @pulumi/pulumi 3.276.0, the Python index
 * pulumi 3.272.0. Moved by `npm run upgrade-pulumi`.
 */
export const TESTED_RANGE = {
  oldest: { cli: "3.216.0", nodejs: "3.216.0", python: "3.216.0" },
  newest: { cli: "3.274.1", nodejs: "3.276.0", python: "3.272.0" },
} as const;

function parts(version: string): number[] {
  return version.split(/[.+-]/).slice(0, 3).map(Number);
}

/** Negative, zero or positive as `a` is older than, the same as or newer than `b`. */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * One line naming the tested range when `version` of `what` (e.g. "@pulumi/pulumi") lies
 * outside it, and whether it is older than the range (then known not to work: the package
 * uses what older releases lack) or newer (untested, and likely fine).
 */
export function outsideTestedRange(
  what: string,
  version: string,
  newest: string,
): { readonly line: string; readonly older: boolean } | undefined {
  const oldest = TESTED_RANGE.oldest.nodejs;
  const older = compareVersions(version, oldest) < 0;
  if (!older && compareVersions(version, newest) <= 0) return undefined;
  return {
    older,
    line:
      `pulumi-discord-commands is tested with ${what} ${oldest} to ${newest}; this program runs ${version}` +
      (older ? `: upgrade to ${oldest} or later.` : " (newer than tested)."),
  };
}
