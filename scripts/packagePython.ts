/**
 * The Python SDK's wheel and sdist, written by Node from `sdks/python` (no Python, no
 * build backend: `npm run package` works right after `npm ci`). The wheel follows the
 * binary distribution format (PyPA: `*.dist-info/` with METADATA, WHEEL, RECORD); the
 * sdist holds the SDK's own `pyproject.toml`, so pip builds it with setuptools, as the
 * generator meant. Their core metadata comes from that `pyproject.toml`, which Pulumi's
 * code generator writes in one shape: `key = <JSON-compatible string or string array>`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { ArchiveEntry } from "./archives";
import { tarGz, treeEntries, zip } from "./archives";
import { createHash } from "node:crypto";

/** What the distributions say about the package (core metadata), and what the index form takes. */
export interface PythonMetadata {
  readonly name: string;
  readonly version: string;
  readonly summary: string;
  readonly license: string;
  readonly keywords: readonly string[];
  readonly requiresPython: string;
  readonly requiresDist: readonly string[];
  readonly readme: string;
}

interface PythonDistributions {
  readonly wheel: string;
  readonly sdist: string;
  readonly metadata: PythonMetadata;
}

/** `key = value` lines of the `[section]` of the generated pyproject.toml. */
function tomlSection(toml: string, section: string): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  let current = "";
  for (const line of toml.split("\n")) {
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(line);
    if (header) {
      current = header[1] ?? "";
      continue;
    }
    const kv = /^\s*([\w-]+)\s*=\s*(.+?)\s*$/.exec(line);
    if (current === section && kv?.[1] && kv[2]) values[kv[1]] = JSON.parse(kv[2]) as unknown;
  }
  return values;
}

function text(values: Record<string, unknown>, key: string, where: string): string {
  const value = values[key];
  if (typeof value !== "string") throw new Error(`${where}: ${key} is not a string`);
  return value;
}

function readPythonMetadata(sdkDir: string, packageName: string): PythonMetadata {
  const file = path.join(sdkDir, "pyproject.toml");
  const toml = fs.readFileSync(file, "utf8");
  const project = tomlSection(toml, "project");
  const license = tomlSection(toml, "project.license");
  const list = (key: string): string[] => {
    const value = project[key] ?? [];
    if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
      throw new Error(`${file}: ${key} is not a list of strings`);
    }
    return value as string[];
  };
  const readme = text(project, "readme", file);
  const readmeFile = fs.existsSync(path.join(sdkDir, readme))
    ? path.join(sdkDir, readme)
    : path.join(sdkDir, packageName, readme);
  return {
    name: text(project, "name", file),
    version: text(project, "version", file),
    summary: text(project, "description", file),
    license: text(license, "text", file),
    keywords: list("keywords"),
    requiresPython: text(project, "requires-python", file),
    requiresDist: list("dependencies"),
    readme: fs.readFileSync(readmeFile, "utf8"),
  };
}

/** Core metadata (METADATA in a wheel, PKG-INFO in an sdist), version 2.1. */
function coreMetadata(m: PythonMetadata): string {
  const lines = [
    "Metadata-Version: 2.1",
    `Name: ${m.name}`,
    `Version: ${m.version}`,
    `Summary: ${m.summary}`,
    `License: ${m.license}`,
    `Keywords: ${m.keywords.join(",")}`,
    `Requires-Python: ${m.requiresPython}`,
    "Description-Content-Type: text/markdown",
    ...m.requiresDist.map((req) => `Requires-Dist: ${req}`),
  ];
  return `${lines.join("\n")}\n\n${m.readme}`;
}

/** A RECORD line's hash: `sha256=` and the URL-safe base64 digest without padding. */
function recordHash(content: Buffer): string {
  return `sha256=${createHash("sha256").update(content).digest("base64url")}`;
}

/** The wheel's files: the package's modules and data, and `<name>-<version>.dist-info/`. */
function wheelEntries(packageDir: string, packageName: string, m: PythonMetadata): ArchiveEntry[] {
  // The modules and the data the generated pyproject names (py.typed, pulumi-plugin.json);
  // the package folder's README.md is the sdist's readme, not a module file.
  const files = treeEntries(packageDir, `${packageName}/`).filter(
    (e) => !/(^|\/)__pycache__\/|\.pyc$/.test(e.name) && e.name !== `${packageName}/README.md`,
  );
  const info = `${m.name}-${m.version}.dist-info`;
  const meta: ArchiveEntry[] = [
    { name: `${info}/METADATA`, content: Buffer.from(coreMetadata(m)) },
    {
      name: `${info}/WHEEL`,
      content: Buffer.from(
        "Wheel-Version: 1.0\nGenerator: pulumi-discord-commands (scripts/packagePython.ts)\n" +
          "Root-Is-Purelib: true\nTag: py3-none-any\n\n",
      ),
    },
    { name: `${info}/top_level.txt`, content: Buffer.from(`${packageName}\n`) },
  ];
  const all = [...files, ...meta];
  const record = [
    ...all.map((e) => `${e.name},${recordHash(e.content)},${e.content.length}`),
    `${info}/RECORD,,`,
  ];
  return [
    ...all,
    { name: `${info}/RECORD`, content: Buffer.from(`${[...record].sort().join("\n")}\n`) },
  ];
}

/**
 * Writes `<name>-<version>-py3-none-any.whl` and `<name>-<version>.tar.gz` into `out`
 * from `sdkDir` (a prepared copy of `sdks/python`: its pyproject.toml, the package folder).
 */
export function writePythonDistributions(
  sdkDir: string,
  packageName: string,
  out: string,
): PythonDistributions {
  const metadata = readPythonMetadata(sdkDir, packageName);
  const base = `${metadata.name}-${metadata.version}`;
  const wheel = path.join(out, `${base}-py3-none-any.whl`);
  fs.writeFileSync(wheel, zip(wheelEntries(path.join(sdkDir, packageName), packageName, metadata)));
  const sources = treeEntries(sdkDir, `${base}/`).filter(
    (e) => !/(^|\/)(__pycache__|build|[^/]+\.egg-info)\//.test(e.name),
  );
  const readme = `${base}/README.md`;
  if (!sources.some((e) => e.name === readme)) {
    // pyproject.toml names a README.md beside it; the generator writes it in the package.
    sources.push({ name: readme, content: Buffer.from(metadata.readme) });
  }
  sources.push({ name: `${base}/PKG-INFO`, content: Buffer.from(coreMetadata(metadata)) });
  const sdist = path.join(out, `${base}.tar.gz`);
  fs.writeFileSync(sdist, tarGz(sources));
  return { wheel, sdist, metadata };
}
