import { crc32, inflateRawSync } from "node:zlib";
import { makeZip, type ZipFile } from "@/test/fixtures/formats/docx-fixtures";
import { FUZZ_FORMATS, type FuzzFormat } from "./fuzz-seeds";

/**
 * Mutations for `npm run fuzz`: blind byte damage for every format, and
 * damage that keeps the container parseable where a parser would otherwise
 * stop at the first byte (PDF objects and streams, ZIP entries, MIME
 * headers, image header fields), so the fuzzer reaches the code behind it.
 */
export type Random = () => number;

/** Mulberry32: a seeded generator, so that a run (and a failing case) can be repeated. */
function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const int = (random: Random, max: number) => Math.floor(random() * max);
const pick = <T>(random: Random, items: readonly T[]): T => items[int(random, items.length)]!;
/** Values that break size and count fields: zero, one, the sign bit, the top of each width. */
const INTERESTING = [0, 1, -1, 0x7f, 0x80, 0xff, 0x7fff, 0xffff, 0x7fffffff, 0xffffffff, 2 ** 31, 1e9];

/** Blind damage: flips, overwrites, truncation, repeated and deleted runs, inserted junk. */
function mutateBytes(input: Uint8Array, random: Random): Uint8Array {
  let bytes: Uint8Array = input.slice();
  const rounds = 1 + int(random, 4);
  for (let r = 0; r < rounds && bytes.length > 0; r++) {
    const at = int(random, bytes.length);
    const span = 1 + int(random, Math.min(4096, bytes.length - at));
    switch (int(random, 6)) {
      case 0:
        for (let i = 0; i < 1 + int(random, 16); i++) bytes[int(random, bytes.length)]! ^= 1 << int(random, 8);
        break;
      case 1:
        bytes[at] = pick(random, [0, 0xff, 0x7f, 0x80, 0x20, 0x0a]);
        break;
      case 2:
        bytes = bytes.slice(0, at);
        break;
      case 3: {
        const run = bytes.slice(at, at + span);
        const copies = 1 + int(random, 64);
        bytes = concat([bytes.slice(0, at), ...Array.from({ length: copies }, () => run), bytes.slice(at)]);
        break;
      }
      case 4:
        bytes = concat([bytes.slice(0, at), bytes.slice(at + span)]);
        break;
      default:
        bytes = concat([bytes.slice(0, at), Uint8Array.from({ length: 1 + int(random, 256) }, () => int(random, 256)), bytes.slice(at)]);
    }
  }
  return bytes;
}

function concat(parts: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString("latin1");
const fromLatin1 = (text: string) => new Uint8Array(Buffer.from(text, "latin1"));

/** Replaces one match of `pattern` (global) chosen at random. */
function replaceOne(text: string, pattern: RegExp, replace: (match: string) => string, random: Random): string {
  const matches = [...text.matchAll(pattern)];
  if (matches.length === 0) return text;
  const m = pick(random, matches);
  return text.slice(0, m.index) + replace(m[0]) + text.slice(m.index! + m[0].length);
}

/** PDF: numbers in dictionaries (/Length, /Count, /W, /Size, references), names, whole objects, stream bodies. */
function mutatePdf(input: Uint8Array, random: Random): Uint8Array {
  let text = latin1(input);
  const rounds = 1 + int(random, 3);
  for (let r = 0; r < rounds; r++) {
    switch (int(random, 7)) {
      case 0:
        text = replaceOne(text, /\/(Length|Count|Size|W|Kids|Parent|First|N|Prev|Rotate|MediaBox)\s+[-\d. ]+/g, (m) => `${m.split(/\s/)[0]} ${pick(random, INTERESTING)} `, random);
        break;
      case 1:
        text = replaceOne(text, /\d+ \d+ R/g, () => `${int(random, 1e6)} ${pick(random, [0, 65535, -1])} R`, random);
        break;
      case 2:
        text = replaceOne(text, /\/(FlateDecode|ASCIIHexDecode|DCTDecode|Type|Page|Pages|Font|XObject|Image)\b/g, () => pick(random, ["/FlateDecode", "/LZWDecode", "/JBIG2Decode", "/JPXDecode", "/CCITTFaxDecode", "/Pages", "/Page", "/Catalog", "/#00"]), random);
        break;
      case 3: {
        // A whole object duplicated many times, or removed.
        const objects = [...text.matchAll(/\d+ 0 obj[\s\S]*?endobj/g)];
        if (objects.length === 0) break;
        const o = pick(random, objects);
        const copies = random() < 0.5 ? 0 : 2 + int(random, 200);
        text = text.slice(0, o.index) + o[0].repeat(copies) + text.slice(o.index! + o[0].length);
        break;
      }
      case 4: {
        const stream = [...text.matchAll(/stream\r?\n([\s\S]*?)endstream/g)];
        if (stream.length === 0) break;
        const s = pick(random, stream);
        const start = s.index! + s[0].indexOf(s[1]!);
        const body = latin1(mutateBytes(fromLatin1(s[1]!), random));
        text = text.slice(0, start) + body + text.slice(start + s[1]!.length);
        break;
      }
      case 5:
        // Deep nesting: arrays and dictionaries a parser recurses into.
        text = replaceOne(text, /<<|\[/g, (m) => (m === "<<" ? "<< /A ".repeat(1 + int(random, 5000)) + m : "[".repeat(1 + int(random, 5000))), random);
        break;
      default:
        text = replaceOne(text, /xref[\s\S]*?trailer|startxref\s+\d+/g, () => pick(random, ["", "startxref 999999999", "xref\n0 99999999\ntrailer"]), random);
    }
  }
  return fromLatin1(text);
}

/** The entries of a ZIP written by makeZip (or any ZIP without data descriptors): names and inflated data. */
function readZipEntries(bytes: Uint8Array): ZipFile[] {
  const view = Buffer.from(bytes);
  const files: ZipFile[] = [];
  for (let at = 0; at + 30 <= view.length && view.readUInt32LE(at) === 0x04034b50; ) {
    const method = view.readUInt16LE(at + 8);
    const size = view.readUInt32LE(at + 18);
    const nameLength = view.readUInt16LE(at + 26);
    const extraLength = view.readUInt16LE(at + 28);
    const name = view.subarray(at + 30, at + 30 + nameLength).toString("utf8");
    const start = at + 30 + nameLength + extraLength;
    const raw = view.subarray(start, start + size);
    files.push({ name, data: new Uint8Array(method === 8 ? inflateRawSync(raw) : raw) });
    at = start + size;
  }
  return files;
}

/** XML damage: unclosed and deeply nested elements, huge attributes, entities, truncation. */
function mutateXml(xml: string, random: Random): string {
  switch (int(random, 5)) {
    case 0:
      return replaceOne(xml, /<w:p>/g, () => "<w:p><w:r>".repeat(1 + int(random, 20000)), random);
    case 1:
      return replaceOne(xml, /w:val="[^"]*"/g, () => `w:val="${pick(random, ["-1", "99999999999", "NaN", "x".repeat(100000), "&#0;"])}"`, random);
    case 2:
      return xml.replace("<w:body>", `<!DOCTYPE d [<!ENTITY a "${"x".repeat(1000)}"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><w:body>&b;`);
    case 3:
      return xml.slice(0, int(random, xml.length));
    default:
      return latin1(mutateBytes(fromLatin1(xml), random));
  }
}

/** DOCX: entries damaged inside a well-formed ZIP (XML, names, lying sizes, many entries), or the ZIP itself. */
function mutateDocx(input: Uint8Array, random: Random): Uint8Array {
  if (random() < 0.25) return mutateBytes(input, random);
  const files = readZipEntries(input);
  if (files.length === 0) return mutateBytes(input, random);
  switch (int(random, 4)) {
    case 0: {
      const target = pick(random, files);
      target.data = fromLatin1(mutateXml(latin1(target.data), random));
      break;
    }
    case 1:
      pick(random, files).declaredSize = pick(random, INTERESTING) >>> 0;
      break;
    case 2: {
      const target = pick(random, files);
      target.name = pick(random, ["../../etc/passwd", "word/document.xml", "/abs.xml", "a".repeat(60000), "word\\document.xml", ""]);
      break;
    }
    default: {
      const copies = 1 + int(random, 3000);
      for (let i = 0; i < copies; i++) files.push({ name: `word/media/x${i}.png`, data: new Uint8Array(0) });
    }
  }
  return makeZip(files);
}

/** MIME: boundaries, duplicated and folded headers, encodings, charsets, nesting, parts multiplied. */
function mutateEml(input: Uint8Array, random: Random): Uint8Array {
  let text = latin1(input);
  const rounds = 1 + int(random, 3);
  for (let r = 0; r < rounds; r++) {
    switch (int(random, 7)) {
      case 0:
        text = replaceOne(text, /boundary="?[^";\r\n]+"?/g, () => pick(random, ['boundary=""', "boundary=--", 'boundary*0="b"; boundary*1="0"', 'xboundary="b0"', `boundary=${"b".repeat(5000)}`]), random);
        break;
      case 1:
        text = replaceOne(text, /Content-Type: [^\r\n]+/g, (m) => `${m}\r\nContent-Type: ${pick(random, ["multipart/mixed; boundary=b0", "message/rfc822", "text/plain", "multipart/digest; boundary=x"])}`, random);
        break;
      case 2:
        text = replaceOne(text, /Content-Transfer-Encoding: [^\r\n]+/g, () => `Content-Transfer-Encoding: ${pick(random, ["quoted-printable", "base64", "x-uuencode", "7bit", "binary", "base64 base64"])}`, random);
        break;
      case 3:
        text = replaceOne(text, /charset=[^;\r\n]+/g, () => `charset=${pick(random, ["utf-7", "iso-2022-jp", "x-unknown", "utf-16le", "ucs-4", "gb18030"])}`, random);
        break;
      case 4:
        // A header line far longer than any real one, or folded thousands of times.
        text = replaceOne(text, /Subject: [^\r\n]+/g, () => (random() < 0.5 ? `Subject: ${"=?utf-8?B?QUFB?= ".repeat(5000)}` : `Subject: a${"\r\n b".repeat(5000)}`), random);
        break;
      case 5: {
        const part = [...text.matchAll(/--b0\r\n[\s\S]*?(?=--b0)/g)];
        if (part.length === 0) break;
        const p = pick(random, part);
        text = text.slice(0, p.index) + p[0].repeat(1 + int(random, 60)) + text.slice(p.index! + p[0].length);
        break;
      }
      default:
        text = latin1(mutateBytes(fromLatin1(text), random));
    }
  }
  return fromLatin1(text);
}

/** PNG chunks rewritten with a valid CRC, so a decoder reads the damaged field instead of stopping at the checksum. */
function mutatePngChunk(input: Uint8Array, random: Random): Uint8Array {
  const bytes = Buffer.from(input);
  if (bytes.length < 33) return mutateBytes(input, random);
  // IHDR: width, height, bit depth, colour type, compression, filter, interlace.
  const field = int(random, 7);
  if (field < 2) bytes.writeUInt32BE(pick(random, INTERESTING) >>> 0, 16 + field * 4);
  else bytes[22 + field] = pick(random, [0, 1, 2, 3, 4, 6, 8, 16, 255]);
  bytes.writeUInt32BE(crc32(bytes.subarray(12, 29)), 29);
  return new Uint8Array(bytes);
}

/** Image header fields: sizes, depths, offsets and counts, where decoders allocate from what they are told. */
function mutateImage(input: Uint8Array, format: "png" | "jpeg" | "tiff" | "webp", random: Random): Uint8Array {
  if (random() < 0.5) return mutateBytes(input, random);
  const bytes = Buffer.from(input);
  if (format === "png") return mutatePngChunk(input, random);
  if (format === "jpeg") {
    const sof = bytes.indexOf(Buffer.from([0xff, 0xc0]));
    if (sof < 0 || sof + 9 > bytes.length) return mutateBytes(input, random);
    bytes.writeUInt16BE(pick(random, [0, 1, 0xffff, 0x7fff, 16384]), sof + 5 + 2 * int(random, 2));
    return new Uint8Array(bytes);
  }
  if (format === "tiff") {
    // An IFD entry's type, count or value/offset (entries start at the first IFD + 2).
    const ifd = bytes.readUInt32LE(4);
    if (ifd + 14 > bytes.length) return mutateBytes(input, random);
    const count = bytes.readUInt16LE(ifd);
    const entry = ifd + 2 + 12 * int(random, Math.max(1, count));
    if (entry + 12 > bytes.length) return mutateBytes(input, random);
    bytes.writeUInt32LE(pick(random, INTERESTING) >>> 0, entry + pick(random, [4, 8]));
    return new Uint8Array(bytes);
  }
  // WebP: the RIFF and chunk sizes, and the canvas size of VP8L/VP8X.
  const at = pick(random, [4, 16, 21, 24, 26]);
  if (at + 4 > bytes.length) return mutateBytes(input, random);
  bytes.writeUInt32LE(pick(random, INTERESTING) >>> 0, at);
  return new Uint8Array(bytes);
}

/** The generator of case `index` of `format` in a run with `seed`: a case is rebuilt from these three numbers (npm run fuzz:replay). */
export function caseRandom(seed: number, format: FuzzFormat, index: number): Random {
  return seededRandom(seed * 1_000_003 + FUZZ_FORMATS.indexOf(format) * 100_003 + index);
}

export function mutate(format: FuzzFormat, seed: Uint8Array, random: Random): Uint8Array {
  if (format === "pdf") return mutatePdf(seed, random);
  if (format === "docx") return mutateDocx(seed, random);
  if (format === "eml") return mutateEml(seed, random);
  return mutateImage(seed, format, random);
}
