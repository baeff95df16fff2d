import { inflateRawSync } from "node:zlib";
import { AnalysisError } from "../errors";
import { assertWithinLimit, type IngestLimits } from "./limits";

/**
 * A minimal ZIP reader for DOCX that checks before it inflates: the central
 * directory's entry count, declared total size and per-entry ratio are checked
 * first (ASVS 5.2.3), and every inflate is capped at the size the entry
 * declared, so an archive that lies about its sizes fails instead of filling memory.
 */
export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_MIN_SIZE = 22;
const MAX_COMMENT = 0xffff;
const METHOD_STORED = 0;
const METHOD_DEFLATE = 8;
/** Deflate cannot beat ~1032:1; real DOCX XML compresses 5–30:1, so 200:1 on a large entry is a bomb. */
const MAX_COMPRESSION_RATIO = 200;
/** Small entries are exempt from the ratio: a 40-byte entry inflating to 20 kB harms no one. */
const RATIO_EXEMPT_BYTES = 1024 * 1024;
/** ZIP64 marks sizes as 0xFFFFFFFF; no DOCX needs it, and hostile archives use it to hide sizes. */
const ZIP64_MARK = 0xffffffff;

function damaged(): AnalysisError {
  return new AnalysisError("unreadable", "The Word document is damaged: its ZIP container cannot be read.");
}

function findEndOfCentralDirectory(view: DataView): number {
  const lowest = Math.max(0, view.byteLength - EOCD_MIN_SIZE - MAX_COMMENT);
  for (let at = view.byteLength - EOCD_MIN_SIZE; at >= lowest; at--) {
    if (view.getUint32(at, true) === EOCD_SIGNATURE) return at;
  }
  throw damaged();
}

/** Lists the entries from the central directory and refuses the archive when it is over the limits. */
export function readZipDirectory(bytes: Uint8Array, limits: IngestLimits): Map<string, ZipEntry> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.byteLength < EOCD_MIN_SIZE) throw damaged();
  const eocd = findEndOfCentralDirectory(view);
  const count = view.getUint16(eocd + 10, true);
  assertWithinLimit(limits, "maxZipEntries", count, "entries in the Word document");
  const entries = new Map<string, ZipEntry>();
  let declaredTotal = 0;
  let at = view.getUint32(eocd + 16, true);
  for (let i = 0; i < count; i++) {
    if (at + 46 > view.byteLength || view.getUint32(at, true) !== CENTRAL_SIGNATURE) throw damaged();
    const nameLength = view.getUint16(at + 28, true);
    const entry: ZipEntry = {
      name: new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localHeaderOffset: view.getUint32(at + 42, true),
    };
    if (entry.size === ZIP64_MARK || entry.compressedSize === ZIP64_MARK) throw damaged();
    declaredTotal += entry.size;
    assertWithinLimit(limits, "maxDecompressedBytes", declaredTotal, "declared size of the Word document's contents");
    if (entry.size > RATIO_EXEMPT_BYTES && entry.size > MAX_COMPRESSION_RATIO * Math.max(entry.compressedSize, 1)) {
      throw new AnalysisError("limit_exceeded", `The Word document's entry ${entry.name} inflates more than ${MAX_COMPRESSION_RATIO}:1; it looks like a zip bomb.`);
    }
    entries.set(entry.name, entry);
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return entries;
}

/** Inflates one entry, never to more bytes than its directory record declared. */
export function readZipEntry(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const local = entry.localHeaderOffset;
  if (local + 30 > view.byteLength || view.getUint32(local, true) !== LOCAL_SIGNATURE) throw damaged();
  const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
  const data = bytes.subarray(start, start + entry.compressedSize);
  if (entry.method === METHOD_STORED) return data.slice(0, entry.size);
  if (entry.method !== METHOD_DEFLATE) throw damaged();
  try {
    return new Uint8Array(inflateRawSync(data, { maxOutputLength: Math.max(entry.size, 1) }));
  } catch {
    throw new AnalysisError("unreadable", `The Word document's entry ${entry.name} is damaged or larger than it declares.`);
  }
}
