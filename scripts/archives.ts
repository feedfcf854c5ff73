/**
 * The archive formats a release writes, with nothing but Node: zip (a wheel, a Go module's
 * zip) and gzipped tar (the plugin archives, the sdist), both reproducible (fixed times and
 * owners, entries in name order), and the SHA-256 digests published beside them.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import * as zlib from "node:zlib";

/** An archive's entry: its path inside the archive, its bytes, and whether it is executable. */
export interface ArchiveEntry {
  readonly name: string;
  readonly content: Buffer;
  readonly executable?: boolean;
  /** A symbolic link's target (tar only; `content` is then empty). */
  readonly linkTarget?: string;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function byName(a: ArchiveEntry, b: ArchiveEntry): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** A zip archive of `entries`, deflated, with a fixed timestamp, in name order. */
export function zip(entries: readonly ArchiveEntry[]): Buffer {
  const local: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  const DOS_TIME = 0; // 00:00:00
  const DOS_DATE = ((2020 - 1980) << 9) | (1 << 5) | 1; // 2020-01-01
  const sorted = [...entries].sort(byName);
  for (const { name, content, executable } of sorted) {
    const nameBuf = Buffer.from(name, "utf8");
    const data = zlib.deflateRawSync(content);
    const crc = crc32(content);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(0x0800, 6); // UTF-8 names
    header.writeUInt16LE(8, 8); // deflate
    header.writeUInt16LE(DOS_TIME, 10);
    header.writeUInt16LE(DOS_DATE, 12);
    header.writeUInt32LE(crc, 14);
    header.writeUInt32LE(data.length, 18);
    header.writeUInt32LE(content.length, 22);
    header.writeUInt16LE(nameBuf.length, 26);
    local.push(header, nameBuf, data);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE((3 << 8) | 20, 4); // made by Unix: the mode below is meaningful
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x0800, 8);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt16LE(DOS_TIME, 12);
    entry.writeUInt16LE(DOS_DATE, 14);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(data.length, 20);
    entry.writeUInt32LE(content.length, 24);
    entry.writeUInt16LE(nameBuf.length, 28);
    entry.writeUInt32LE(((executable ? 0o100755 : 0o100644) << 16) >>> 0, 38);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, nameBuf);
    offset += header.length + nameBuf.length + data.length;
  }
  const centralSize = central.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(sorted.length, 8);
  end.writeUInt16LE(sorted.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...local, ...central, end]);
}

/** One ustar header field: `value` as octal digits, NUL-terminated, in `width` bytes. */
function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, "0")}\0`;
}

/** A 512-byte ustar header; names longer than 100 bytes use the 155-byte prefix field. */
function tarHeader(
  name: string,
  size: number,
  mode: number,
  type: "0" | "2" | "5",
  linkTarget = "",
): Buffer {
  const header = Buffer.alloc(512);
  let prefix = "";
  let base = name;
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf("/", name.length - 1 - (type === "5" ? 1 : 0));
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
    if (Buffer.byteLength(base) > 100 || Buffer.byteLength(prefix) > 155) {
      throw new Error(`tar: the path ${name} is too long for a ustar header`);
    }
  }
  header.write(base, 0, 100, "utf8");
  header.write(octal(mode, 8), 100, "ascii");
  header.write(octal(0, 8), 108, "ascii"); // uid
  header.write(octal(0, 8), 116, "ascii"); // gid
  header.write(octal(size, 12), 124, "ascii");
  header.write(octal(Date.UTC(2020, 0, 1) / 1000, 12), 136, "ascii");
  header.write("        ", 148, "ascii"); // the checksum counts itself as spaces
  header.write(type, 156, "ascii");
  if (Buffer.byteLength(linkTarget) > 100) throw new Error(`tar: the link ${name} is too long`);
  header.write(linkTarget, 157, 100, "utf8");
  header.write("ustar\0", 257, "ascii");
  header.write("00", 263, "ascii");
  header.write(prefix, 345, 155, "utf8");
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "ascii");
  return header;
}

/**
 * A gzipped ustar archive of `entries`, with their folders, owned by root, dated
 * 2020-01-01, in name order: the same files give the same bytes.
 */
export function tarGz(entries: readonly ArchiveEntry[]): Buffer {
  const parts: Buffer[] = [];
  const folders = new Set<string>();
  for (const { name, content, executable, linkTarget } of [...entries].sort(byName)) {
    const segments = name.split("/");
    for (let i = 1; i < segments.length; i++) {
      const folder = `${segments.slice(0, i).join("/")}/`;
      if (folders.has(folder)) continue;
      folders.add(folder);
      parts.push(tarHeader(folder, 0, 0o755, "5"));
    }
    if (linkTarget !== undefined) {
      parts.push(tarHeader(name, 0, 0o777, "2", linkTarget));
      continue;
    }
    parts.push(tarHeader(name, content.length, executable ? 0o755 : 0o644, "0"));
    parts.push(content, Buffer.alloc((512 - (content.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return zlib.gzipSync(Buffer.concat(parts));
}

/** The files under `dir` as archive entries named `prefix` + their path, `/`-separated. */
export function treeEntries(dir: string, prefix = ""): ArchiveEntry[] {
  const entries: ArchiveEntry[] = [];
  const walk = (rel: string): void => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel === "" ? entry.name : `${rel}/${entry.name}`;
      const full = path.join(dir, child);
      if (entry.isDirectory()) walk(child);
      else if (entry.isSymbolicLink()) {
        const linkTarget = fs.readlinkSync(full);
        entries.push({ name: `${prefix}${child}`, content: Buffer.alloc(0), linkTarget });
      } else {
        const executable = (fs.statSync(full).mode & 0o111) !== 0;
        entries.push({ name: `${prefix}${child}`, content: fs.readFileSync(full), executable });
      }
    }
  };
  walk("");
  return entries;
}

export function sha256(content: Buffer): string {
  return crypto.createHash("sha256").update(content).digest("hex");
}

/** `sha256sum`'s format: one `<hex>  <name>` line per file, in name order. */
export function checksumLines(files: ReadonlyArray<readonly [string, Buffer]>): string {
  const lines = files.map(([name, content]) => `${sha256(content)}  ${name}`);
  return `${lines.sort().join("\n")}\n`;
}
